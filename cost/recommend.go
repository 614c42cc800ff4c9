package cost

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
)

// MixEntry is one outage length of an outage mix and its share of events.
type MixEntry struct {
	Outage int
	Weight float64 // normalised: the weights of a mix sum to 1
}

// ParseMix parses an outage mix "2:0.9,5:0.1": outage length : weight,
// comma-separated, the lengths in rounds, or with a tick durations
// ("40s:0.9,5m:0.1"). Weights must be positive numbers; they are
// normalised to sum to 1. Outage lengths must be valid and distinct.
func ParseMix(t model.Tick, s string) ([]MixEntry, error) {
	var mix []MixEntry
	total := 0.0
	for _, item := range strings.Split(s, ",") {
		length, weight, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("%q is not outage:weight, e.g. 2:0.9,5:0.1", item)
		}
		o, err := t.ParseValue(model.Outage, length)
		if err != nil {
			return nil, fmt.Errorf("outage %q in %q: %v", length, item, err)
		}
		w, err := strconv.ParseFloat(weight, 64)
		if err != nil || !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("weight %q in %q: want a positive number", weight, item)
		}
		for _, e := range mix {
			if e.Outage == o {
				return nil, fmt.Errorf("outage %s appears twice", length)
			}
		}
		mix = append(mix, MixEntry{o, w})
		total += w
	}
	if math.IsInf(total, 0) {
		return nil, fmt.Errorf("the weights of %q add up past the largest number: scale them down", s)
	}
	for i := range mix {
		mix[i].Weight /= total
	}
	return mix, nil
}

// LeaseRank is the expected cost of one lease length over an outage mix,
// by the phase method.
type LeaseRank struct {
	Lease        int
	WindowRounds float64 // leaderless plus two-leader rounds per event
	MissedLines  float64 // per year
	DoubleLines  float64 // per year
}

// Lines is the missed plus double invoice lines per year.
func (r LeaseRank) Lines() float64 { return r.MissedLines + r.DoubleLines }

// Recommend ranks leases for configuration c over an outage mix: for each
// lease, each outage of the mix is measured by the phase method and the
// results are weighted. Events per year and lines per batch turn the
// batches into invoice lines per year; the followers' jitter, if any, is
// drawn from seed (PhaseMethod). It stops with ctx.Err() when ctx is
// cancelled.
func Recommend(ctx context.Context, c model.Config, seed uint64, leases []int, mix []MixEntry, eventsPerYear, linesPerBatch float64) ([]LeaseRank, error) {
	ranks := make([]LeaseRank, 0, len(leases))
	for _, lease := range leases {
		r := LeaseRank{Lease: lease}
		for _, e := range mix {
			run := c
			run.Lease, run.Outage = lease, e.Outage
			in, err := PhaseMethod(ctx, run, seed, nil)
			if err != nil {
				return nil, err
			}
			p := Project(Phase, in.PerEvent(), eventsPerYear, linesPerBatch)
			r.WindowRounds += e.Weight * in.WindowRounds()
			r.MissedLines += e.Weight * p.MissedLines()
			r.DoubleLines += e.Weight * p.DoubleLines()
		}
		ranks = append(ranks, r)
	}
	return ranks, nil
}

// Best returns the rank with the smallest measure; ties go to the first,
// that is the shortest lease when leases are listed in ascending order.
func Best(ranks []LeaseRank, measure func(LeaseRank) float64) LeaseRank {
	best := ranks[0]
	for _, r := range ranks[1:] {
		if measure(r) < measure(best)-1e-9 {
			best = r
		}
	}
	return best
}
