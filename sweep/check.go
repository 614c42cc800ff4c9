package sweep

import (
	"context"
	"runtime"
	"sync"

	"github.com/leasesim/leasesim/model"
)

// CheckGrid is the bounded space "leasesim check" enumerates by default:
// small values of every parameter, corners included (one node, no outage,
// an outage past the end, a zone as large as the cluster, period 1, a
// clock at double speed, at which a renew deadline can fall within a
// retry period of the renewal). The overlap policy, the cut policy
// (on_cut) and where a batch runs (runs_in) keep their defaults here:
// with batch_len 2, model.Runner.Check runs every other overlap policy
// and every other pair of cut policy and place beside each
// configuration, pauses and crashes among them.
func CheckGrid() Grid {
	lists := map[model.Param][]int{
		model.Nodes: {1, 2, 3}, model.Lease: {1, 2, 3, 4}, model.RereadPeriod: {0, 3},
		model.RetryPeriod: {1, 2}, model.RenewDeadline: {0, 3},
		model.Outage: {0, 1, 4, 7}, model.Start: {1, 3}, model.Rounds: {8, 24},
		model.Period: {1, 2, 4}, model.BatchLen: {1, 2}, model.Fencing: {0, 1}, model.PersistentTrigger: {0, 1}, model.IdempotencyKey: {0, 1},
		model.Down: {0, 1, 2, 3}, model.Quorum: {0, 1}, model.Jitter: {0, 1},
		model.Drift: {0, -400, 1000},
	}
	for _, b := range model.Kinds() { // every kind's toggle, off and on
		if b.Toggle != model.Param(model.NumParams) {
			lists[b.Toggle] = []int{0, 1}
		}
	}
	g := NewGrid(model.Default()) // a parameter left out keeps its default
	for p, vals := range lists {
		g.Values[p] = ListOf(vals...)
	}
	return g
}

// ProtocolCheckGrid is the bounded space "leasesim check" enumerates by
// default beside CheckGrid: CheckGrid's values under every lock protocol
// but client-go's and the per-fire ones, which PerFireCheckGrid takes
// (etcd, consul, curator, curator-session, dynamodb, and any protocol
// model adds: the list is model's, not written here), where
// they are valid, with a lock-delay of 0 and 2 (consul's alone), an
// acquire wait of 0 and 2 (dynamodb's alone), a disconnect delay of 0
// and 2 (curator's and curator-session's alone), the lock service failing
// over in round 5 or not at all (only where a failover restarts leases: not dynamodb's, redisson's, postgres's, quartz's or db-scheduler's), client-go's
// renew deadline, re-read and jitter at 0 as those protocols have them,
// and no idempotency key, which only the trigger reads, the same code
// under every protocol, and which CheckGrid covers.
func ProtocolCheckGrid() Grid {
	g := CheckGrid()
	var services []int
	for p := range model.LockProtocol(model.NumProtocols) {
		if p != model.ProtocolClientGo && !p.PerFire() {
			services = append(services, int(p))
		}
	}
	for p, vals := range map[model.Param][]int{
		model.Protocol:        services,
		model.LockDelay:       {0, 2},
		model.AcquireWait:     {0, 2},
		model.DisconnectDelay: {0, 2},
		model.ServiceFailover: {0, 5},
		model.RereadPeriod:    {0},
		model.RenewDeadline:   {0},
		model.Jitter:          {0},
		model.IdempotencyKey:  {0},
	} {
		g.Values[p] = ListOf(vals...)
	}
	return g
}

// PerFireCheckGrid is the bounded space "leasesim check" enumerates by
// default for the per-fire protocols (ShedLock's: shedlock,
// shedlock-redis, and any model adds), beside CheckGrid and
// ProtocolCheckGrid: CheckGrid's values of what those protocols take,
// with a period of up to 6, batches of up to 4, a lock_at_least_for of 0,
// 1 and 3, a fire spread of 0, 1 and 3 and using_db_time off and on
// (shedlock's alone; model.Runner.Check runs each group outage as clock
// skews as well), and at their defaults what
// they refuse (fencing, the persistent trigger, the idempotency key,
// quorum, jitter, drift, client-go's and the other locks' parameters).
func PerFireCheckGrid() Grid {
	g := CheckGrid()
	var perFire []int
	for p := range model.LockProtocol(model.NumProtocols) {
		if p.PerFire() {
			perFire = append(perFire, int(p))
		}
	}
	for p, vals := range map[model.Param][]int{
		model.Protocol:          perFire,
		model.Period:            {1, 2, 4, 6},
		model.BatchLen:          {1, 2, 4},
		model.LockAtLeastFor:    {0, 1, 3},
		model.FireSpread:        {0, 1, 3},
		model.UsingDbTime:       {0, 1},
		model.RereadPeriod:      {0},
		model.RenewDeadline:     {0},
		model.RetryPeriod:       {1},
		model.Fencing:           {0},
		model.PersistentTrigger: {0},
		model.IdempotencyKey:    {0},
		model.Quorum:            {0},
		model.Jitter:            {0},
		model.Drift:             {0},
	} {
		g.Values[p] = ListOf(vals...)
	}
	return g
}

// CheckOptions says how Check shares out a grid, and how much of it it
// checks.
type CheckOptions struct {
	// Workers is how many goroutines check a block at a time; 0: one a
	// core. The output does not depend on it.
	Workers int
	// Every, when above 1, checks only configurations 0, Every, 2·Every, …
	// of the grid: a deterministic slice, for a test that has seconds
	// where the whole grid takes minutes. Every list of CheckGrid and
	// ProtocolCheckGrid has a length whose only factors are 2, 3 and 5, so
	// an Every that is prime to 30 meets every value of every parameter.
	Every int
}

// Check runs every valid configuration of g (or, with opt.Every, the
// slice it names), with the grid's Schedule if it has one, through
// model.Runner.Check (the invariants, fencing's invariance, and the run
// computed round by round) and calls violation for each configuration
// that fails, in grid order. A configuration whose parameters do not go
// together (a renew deadline client-go would refuse) is not a
// configuration at all: it is counted as refused, not checked. Check
// returns how many configurations it checked and refused; it stops at the
// first error violation returns (its output failed) or when ctx is
// cancelled. progress is told how many of the grid's configurations each
// block passed over, checked or not, so that its total is g.Size().
//
// The grid is checked a block at a time, each block split among the
// workers; a block's violations are reported, in order, once it is done.
func Check(ctx context.Context, g *Grid, opt CheckOptions, violation func(c model.Config, err error) error, progress func(int)) (checked, refused int, err error) {
	size, err := g.Size()
	if err != nil {
		return 0, 0, err
	}
	workers, every := opt.Workers, max(opt.Every, 1)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := make([]checkPart, workers)
	block := checkBlock * every
	for first := 0; first < size; first += block {
		if err := ctx.Err(); err != nil {
			return checked, refused, err
		}
		last := min(first+block, size)
		n := (last - first + every - 1) / every // the block's configurations in the slice
		var wg sync.WaitGroup
		for w := range workers {
			from, to := first+n*w/workers*every, first+n*(w+1)/workers*every
			wg.Go(func() { parts[w].check(ctx, g, from, min(to, last), every) })
		}
		wg.Wait()
		for w := range parts {
			checked, refused = checked+parts[w].checked, refused+parts[w].refused
			for _, v := range parts[w].violations {
				if err := violation(v.c, v.err); err != nil {
					return checked, refused, err
				}
			}
		}
		if progress != nil {
			progress(last - first)
		}
	}
	return checked, refused, ctx.Err()
}

// checkBlock is how many configurations Check checks between reports.
const checkBlock = 1 << 16

// checkPart is one worker's share of a block of Check.
type checkPart struct {
	r                model.Runner
	checked, refused int
	violations       []checkViolation
}

type checkViolation struct {
	c   model.Config
	err error
}

// check checks configurations from, from+every, … below to of g.
func (p *checkPart) check(ctx context.Context, g *Grid, from, to, every int) {
	p.r.JitterSeed = model.JitterSeed(g.Seed)
	p.checked, p.refused, p.violations = 0, 0, p.violations[:0]
	var o odometer
	o.seek(g, from)
	c := o.config(g)
	for i := from; i < to; i += every {
		if ctx.Err() != nil { // each configuration, a run of up to a billion rounds, and its variants: a load beside them
			return
		}
		if c.Validate() != nil {
			p.refused++
		} else {
			p.checked++
			var s model.Schedule = c.Schedule()
			if g.Schedule != nil {
				s = g.Schedule
			}
			if err := p.r.Check(c, s); err != nil {
				p.violations = append(p.violations, checkViolation{c, err})
			}
		}
		if every == 1 {
			o.next(g, &c)
		} else if i+every < to {
			o.seek(g, i+every)
			c = o.config(g)
		}
	}
}
