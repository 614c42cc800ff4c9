package sweep

import (
	"context"

	"github.com/leasesim/leasesim/model"
)

// CheckGrid is the bounded space "leasesim check" enumerates by default:
// small values of every parameter, corners included (one node, no outage,
// an outage past the end, a zone as large as the cluster, period 1).
func CheckGrid() Grid {
	lists := map[model.Param][]int{
		model.Nodes: {1, 2, 3}, model.Lease: {1, 2, 3, 4}, model.Renewal: {0, 3},
		model.RetryPeriod: {1, 2}, model.RenewDeadline: {0, 3},
		model.Outage: {0, 1, 4, 7}, model.Start: {1, 3}, model.Rounds: {8, 24},
		model.Period: {1, 2, 4}, model.Fencing: {0, 1}, model.PersistentTrigger: {0, 1}, model.IdempotencyKey: {0, 1},
		model.Down: {0, 1, 2, 3}, model.Quorum: {0, 1}, model.Jitter: {0, 1}, model.BlackHole: {0, 1}, model.Partition: {0, 1}, model.Crash: {0, 1}, model.Release: {0, 1}, model.Pause: {0, 1},
	}
	g := NewGrid(model.Default()) // a parameter left out keeps its default
	for p, vals := range lists {
		g.Values[p] = ListOf(vals...)
	}
	return g
}

// Check runs every valid configuration of g through model.Runner.Check
// (the invariants, fencing's invariance, and the run computed round by
// round) and calls violation for each configuration that fails, in grid
// order. A configuration whose parameters do not go together (a renew
// deadline client-go would refuse) is not a configuration at all: it is
// counted as refused, not checked. Check returns how many configurations it
// checked and refused; it stops at the first error violation returns (its
// output failed) or when ctx is cancelled.
func Check(ctx context.Context, g *Grid, violation func(c model.Config, err error) error, progress func(int)) (checked, refused int, err error) {
	size, err := g.Size()
	if err != nil {
		return 0, 0, err
	}
	r := model.Runner{JitterSeed: model.JitterSeed(g.Seed)}
	var o odometer
	o.seek(g, 0)
	c := o.config(g)
	for i := range size {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return checked, refused, err
			}
			if progress != nil && i > 0 {
				progress(4096)
			}
		}
		if c.Validate() != nil {
			refused++
		} else {
			checked++
			if err := r.Check(c, c.Schedule()); err != nil {
				if err := violation(c, err); err != nil {
					return checked, refused, err
				}
			}
		}
		o.next(g, &c)
	}
	return checked, refused, nil
}
