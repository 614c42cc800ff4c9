package study

import (
	"slices"

	"github.com/leasesim/leasesim/model"
)

// The publication's scenario, which the review's ranges are drawn around.
const (
	publicationLease = 3 // its lease, in rounds
	reviewLeases     = 12
	longOutage       = 5 // its long outage, in leases/3
	shortOutage      = 2 // and its short one
)

// Scale is how many rounds stand for one of the publication's: base's
// lease over the publication's lease of 3, at least 1. The review and the
// measure table's lease block stretch the publication's leases and outages
// by it, so that a Kubernetes lease of 15 s at 1 s ticks is swept over 5 s
// to 60 s, not over 1 s to 12 s, and the publication's own scenario keeps
// its ranges.
func Scale(base model.Config) int { return max(1, base.Lease/publicationLease) }

// Ranges are the leases and outages a review sweeps.
type Ranges struct {
	Leases      []int // 1 … 12 scales, those base's settings accept (a lease must outlast a renew deadline)
	Outages     []int // the heat map's outages: 0 … 12 scales, or with FromMix 0 … the mix's longest in 12 steps
	Long, Short int   // the lease sweep's outages: the publication's 5 and 2, scaled, or with FromMix the mix's longest and shortest
	// FromMix says that the outages are the review's own (WithMix), not
	// the publication's scaled to the lease; each run then lasts until
	// its outage and lease have played out.
	FromMix bool
}

// heatSteps is the heat map's steps from no outage to its longest.
const heatSteps = 12

// WithMix is r with the review's own outage lengths in place of the
// publication's scaled ones: the lease sweep against the longest and
// the shortest of lengths (a quarter of the one, if all are alike), the
// heat map's outages from none to the longest in 12 equal steps.
func (r Ranges) WithMix(lengths []int) Ranges {
	if len(lengths) == 0 {
		return r
	}
	r.Long, r.Short = slices.Max(lengths), slices.Min(lengths)
	if r.Short == r.Long {
		r.Short = max(1, r.Long/4)
	}
	step := max(1, (r.Long+heatSteps-1)/heatSteps)
	r.Outages = nil
	for m := 0; m <= heatSteps; m++ {
		r.Outages = append(r.Outages, m*step)
	}
	r.FromMix = true
	return r
}

// NewRanges returns the ranges of a review of base, stretched by Scale.
func NewRanges(base model.Config) Ranges {
	s := Scale(base)
	var multiples []int
	for m := 1; m <= reviewLeases; m++ {
		multiples = append(multiples, m)
	}
	r := Ranges{Leases: validLeases(base, s, multiples), Long: longOutage * s, Short: shortOutage * s}
	for _, m := range append([]int{0}, multiples...) {
		r.Outages = append(r.Outages, m*s)
	}
	return r
}

// BlockLeases returns the leases and outages of the measure table's lease
// block: the publication's leases 2, 3, 5 and 8 against its outages 5 and
// 2, each stretched by Scale, without the leases base's settings refuse.
func BlockLeases(base model.Config) (leases, outages []int) {
	s := Scale(base)
	return validLeases(base, s, []int{2, 3, 5, 8}), []int{longOutage * s, shortOutage * s}
}

// validLeases returns scale × each of the multiples that base accepts as
// its lease.
func validLeases(base model.Config, scale int, multiples []int) []int {
	var leases []int
	for _, m := range multiples {
		c := base
		c.Lease = m * scale
		if c.Validate() == nil {
			leases = append(leases, c.Lease)
		}
	}
	return leases
}
