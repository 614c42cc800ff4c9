package cost

import (
	"cmp"
	"errors"
	"iter"

	"github.com/leasesim/leasesim/model"
)

// Leases is those of leases that go together with c's other settings,
// each c with it (c with the lease passes model.Config.Validate, or fails
// it otherwise than by a *model.RelationError, which the ranking then
// refuses), and their configurations; the others are counted in
// skipped, the first one's reason kept in first.
func Leases(c model.Config, leases iter.Seq[int]) (valid []int, configs []model.Config, skipped int, first error) {
	for lease := range leases {
		cl := c
		cl.Lease = lease
		if err := cl.Validate(); err != nil && errors.As(err, new(*model.RelationError)) { // not a candidate: left out
			skipped, first = skipped+1, cmp.Or(first, err)
			continue
		}
		valid, configs = append(valid, lease), append(configs, cl)
	}
	return valid, configs, skipped, first
}
