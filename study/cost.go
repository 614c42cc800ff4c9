package study

import (
	"context"
	"slices"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// CostInput is what a cost projection is asked for.
type CostInput struct {
	Config        model.Config
	EventsPerYear []float64  // outage events (handovers) per year
	LinesPerBatch int        // invoice lines one batch produces
	Tick          model.Tick // the length of a round, for outputs in seconds
	Seed          uint64     // the seed of the followers' jitter, for a configuration with jitter

	// Incident, if set, is the outage event instead of Config's group
	// outage: a post-mortem's failures, Config's outage fields their span.
	Incident model.Windows
}

// PublicationLinesPerBatch is the publication's end-of-day batch: 4,000
// invoice lines.
const PublicationLinesPerBatch = 4000

// LongLease is the long lease the publication's cost table compares with,
// in rounds; a configuration with a longer lease is compared with twice
// its own (LongLeaseOf).
const LongLease = 8

// LongLeaseOf is the long lease c's cost table compares with: the
// publication's, or twice c's lease if that is longer, so that a renew
// deadline, which must be shorter than the lease, stays valid.
func LongLeaseOf(c model.Config) int { return max(LongLease, 2*c.Lease) }

// CostResult holds the measures of one configuration by the methods asked
// for; a method not asked for is left zero.
type CostResult struct {
	CostInput
	Window cost.WindowShares
	Phase  cost.EventEffect
	// With the window method, the runs its table ends with: fencing with
	// the persistent trigger, and the plain run with a long lease.
	Fenced, Long model.Stats
}

// ComputeCost measures in.Config by each of methods, and by no other: the
// phase method can refuse a configuration (too many phases) that the
// window method measures at once. It stops with ctx.Err() when ctx is
// cancelled.
func ComputeCost(ctx context.Context, in CostInput, methods ...cost.Method) (CostResult, error) {
	r := CostResult{CostInput: in}
	var err error
	if slices.Contains(methods, cost.Window) {
		if r.Window, err = cost.WindowMethod(in.Config, in.Seed, in.Incident); err != nil {
			return CostResult{}, err
		}
		run := model.Runner{JitterSeed: model.JitterSeed(in.Seed)}
		if r.Fenced, err = cost.RunEvent(&run, Arrangements()[2].Apply(in.Config), in.Incident); err != nil {
			return CostResult{}, err
		}
		long := in.Config
		long.Lease = LongLeaseOf(in.Config)
		if r.Long, err = cost.RunEvent(&run, long, in.Incident); err != nil {
			return CostResult{}, err
		}
	}
	if slices.Contains(methods, cost.Phase) {
		if r.Phase, err = cost.PhaseMethod(ctx, in.Config, in.Seed, in.Incident); err != nil {
			return CostResult{}, err
		}
	}
	return r, nil
}

// Projections returns one projection per method in methods and rate, rate
// outermost.
func (r CostResult) Projections(methods ...cost.Method) []cost.Projection {
	perEvent := map[cost.Method]cost.PerEvent{cost.Window: r.Window.PerEvent(), cost.Phase: r.Phase.PerEvent()}
	return cost.Projections(methods, perEvent, r.EventsPerYear, float64(r.LinesPerBatch))
}
