// Package sweep holds grids of model configurations and the two things
// that run every configuration of one in parallel, in grid order:
//
//   - the grids (Grid), made of lists of each parameter's values (List,
//     ParseValues), never expanded, with which of their configurations go
//     together (Grid.Valid);
//   - the CSV writer (Write), one row per configuration, whole or in shards
//     (Options.Shards), and Merge, which joins a sweep's shards into the
//     unsharded CSV byte for byte;
//   - the exhaustive check (Check, over CheckGrid by default): every
//     configuration through model.Runner.Check.
//
// Monte Carlo studies over a grid are package montecarlo's.
package sweep

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math/bits"

	"github.com/leasesim/leasesim/model"
)

// Grid is the cartesian product of one list of values per parameter. The
// first parameter (nodes) is outermost, the last innermost; within a list,
// values run in the order given.
type Grid struct {
	Values [model.NumParams]List
	Tick   model.Tick // the length of a round: with it, outputs give times in seconds
	Seed   uint64     // the seed of the followers' jitter (model.JitterSeed), for configurations with jitter

	// Schedule, if set, is the failures every configuration meets (an
	// incident's windows, each node its own kind) instead of its own
	// group outage.
	Schedule model.Windows

	// Derive, if set, sets what each configuration takes from its other
	// parameters rather than from a list: with a tick and no --start or
	// --rounds, the outage as the first batch falls due and a run that
	// holds its handover, as run does (the same grid in rounds would be a
	// run of 24 seconds). It changes no parameter Valid relates, and
	// DeriveName names it in the Fingerprint.
	Derive     func(c *model.Config)
	DeriveName string
}

// NewGrid returns the grid of the single configuration c.
func NewGrid(c model.Config) Grid {
	var g Grid
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		g.Values[p] = ListOf(c.Get(p))
	}
	return g
}

// Size is the number of configurations in the grid. It fails if the count
// does not fit an int.
func (g *Grid) Size() (int, error) {
	n := uint64(1)
	for p := range g.Values {
		hi, lo := bits.Mul64(n, uint64(g.Values[p].Len()))
		if hi != 0 || lo > 1<<62 {
			return 0, fmt.Errorf("the grid has more than 2^62 configurations")
		}
		n = lo
	}
	return int(n), nil
}

// Valid returns how many of the grid's configurations go together
// (model.Config.Validate) and, if some do not, the *model.RelationError of
// the first of them in grid order. Every value of a list is in range on
// its own, so whether a configuration goes together depends only on the
// parameters Validate relates (relationParams): Valid walks the grid of
// those lists alone, with every other parameter at its first value, and
// scales the count by the other lists' lengths, so that a sweep counts
// what it will skip before it writes anything. The walk can take seconds
// on a large grid: it stops when ctx is done, returning ctx.Err() as
// first, so that an interrupt is not kept waiting.
func (g *Grid) Valid(ctx context.Context) (valid int, first error) {
	size, err := g.Size()
	if err != nil {
		return 0, err
	}
	h := g.related()
	sub, _ := h.Size() // at most g's
	n := 0
	h.walk(func(c *model.Config) bool {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			first = ctx.Err()
			return false
		}
		if err := c.Validate(); err != nil {
			first = cmp.Or(first, err)
		} else {
			valid++
		}
		return true
	})
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return valid * (size / sub), first
}

// relationParams are the parameters model.Config.Validate relates to one
// another (model's relationError), in parameter order: the protocol, with
// the settings only some protocols take (the lock-delay, the acquire wait, the disconnect delay,
// the service's failover; client-go's renew deadline, re-read and jitter;
// ShedLock's lock_at_least_for, fire spread and using_db_time)
// and the lease against the retry period; under dynamodb the drift, with
// the failing nodes (down, down-from, against the nodes), against the
// lease and retry period; a renewal of 0 and the renew deadline; the
// lease, deadline and retry period with or without jitter; the batch
// against its period; an overlap policy that buffers against the
// persistent trigger; and under the per-fire protocols (ShedLock's)
// lock_at_least_for against the lease and the fire spread against the
// period.
var relationParams = [...]model.Param{model.Nodes, model.Lease, model.RereadPeriod, model.RetryPeriod, model.RenewDeadline, model.Period, model.BatchLen,
	model.PersistentTrigger, model.Overlap, model.Down, model.DownFrom, model.Jitter, model.Drift,
	model.Protocol, model.LockDelay, model.AcquireWait, model.DisconnectDelay, model.ServiceFailover, model.LockAtLeastFor, model.FireSpread, model.UsingDbTime}

// perFireRelationParams are the parameters Validate relates only under a
// per-fire protocol, which refuses what a leader's policies set (fencing,
// the idempotency key, the cut policy, where a batch runs, quorum). A grid
// without such a protocol leaves them out of its related grid, whose walk
// would otherwise take nearly the whole grid's time.
var perFireRelationParams = [...]model.Param{model.Fencing, model.IdempotencyKey, model.OnCut, model.RunsIn, model.Quorum}

// related returns the grid of g's lists of relationParams and extra (and,
// if g's protocols include a per-fire one, perFireRelationParams), every
// other parameter at its list's first value.
func (g *Grid) related(extra ...model.Param) *Grid {
	var h Grid
	for p := range g.Values {
		h.Values[p] = ListOf(g.Values[p].At(0))
	}
	ps := append(relationParams[:], extra...)
	protocols := g.Values[model.Protocol]
	for i := range protocols.Len() {
		if model.LockProtocol(protocols.At(i)).PerFire() {
			ps = append(ps, perFireRelationParams[:]...)
			break
		}
	}
	for _, p := range ps {
		h.Values[p] = g.Values[p]
	}
	return &h
}

// walk calls f with each configuration of g in grid order until f returns
// false.
func (g *Grid) walk(f func(c *model.Config) bool) {
	size, _ := g.Size()
	var o odometer
	o.seek(g, 0)
	c := o.config(g)
	for range size {
		if !f(&c) {
			return
		}
		o.next(g, &c)
	}
}

// validIn counts the configurations of rows [first, last) of g that go
// together, walking them: for a block of rows about to be run, each a
// call of Validate beside a run.
func (g *Grid) validIn(first, last int) int {
	if first >= last {
		return 0
	}
	var o odometer
	o.seek(g, first)
	c := o.config(g)
	n := 0
	for i := first; i < last; i++ {
		if c.Validate() == nil {
			n++
		}
		o.next(g, &c)
	}
	return n
}

// validBefore counts the configurations of rows [0, i) of g that go
// together without walking them: those rows are, for each parameter p,
// the ones that agree with row i on every parameter before p and have an
// earlier value of p, a grid each, which Valid counts. So it costs at most
// one Valid per parameter, whatever i.
func (g *Grid) validBefore(i int) int {
	if size, _ := g.Size(); i >= size {
		valid, _ := g.Valid(context.Background())
		return valid
	}
	var o odometer
	o.seek(g, i)
	h, n := *g, 0
	for p := range h.Values {
		if k := o.idx[p]; k > 0 {
			h.Values[p] = g.Values[p].slice(0, k)
			valid, _ := h.Valid(context.Background())
			n += valid
		}
		h.Values[p] = ListOf(o.val[p])
	}
	return n
}

// ShardRows returns the rows of the sweep's output that shard k of n
// writes, first … last-1: the numbers its rows carry, the configurations
// before its slice of the grid (Shard) that go together up to those in it.
func (g *Grid) ShardRows(k, n int) (first, last int) {
	size, _ := g.Size()
	from, to := Shard(size, k, n)
	return g.validBefore(from), g.validBefore(to)
}

// Fingerprint identifies the grid: a hash of its lists, the same for every
// shard of one sweep and, but for a one-in-2^64 chance, different for any
// other grid.
func (g *Grid) Fingerprint() uint64 {
	h := fnv.New64a()
	for p, vals := range g.Values {
		fmt.Fprintf(h, "%s=%s;", model.Param(p).Name(), vals.Format(model.Param(p)))
	}
	if g.Tick != 0 { // rows in seconds are another output
		fmt.Fprintf(h, "tick=%s;", g.Tick)
	}
	if g.Seed != 0 { // and other draws of jitter another
		fmt.Fprintf(h, "seed=%d;", g.Seed)
	}
	if g.Derive != nil { // and derived parameters another
		fmt.Fprintf(h, "derive=%s;", g.DeriveName)
	}
	for _, w := range g.Schedule { // and other failures another
		fmt.Fprintf(h, "window=%d:%d-%d:%s;", w.Node, w.First, w.Last, w.Failure)
	}
	return h.Sum64()
}

// Config returns configuration i of the grid, 0 ≤ i < Size(), Derive's
// parameters set.
func (g *Grid) Config(i int) model.Config {
	var o odometer
	o.seek(g, i)
	c := o.config(g)
	if g.Derive != nil {
		g.Derive(&c)
	}
	return c
}

// odometer walks the grid in row order: the last parameter turns fastest.
// For each parameter it keeps the position in its list and the value there,
// and of the range that position is in, where it ends and its step, so that
// a step within a range costs an addition.
type odometer struct {
	idx, val, within, end, step [model.NumParams]int
	last                        int // the last parameter whose list has more than one value: those after it never turn
}

func (o *odometer) seek(g *Grid, i int) {
	o.last = 0
	for p := range g.Values {
		if g.Values[p].Len() > 1 {
			o.last = p
		}
	}
	for p := model.NumParams - 1; p >= 0; p-- {
		l := &g.Values[p]
		o.idx[p] = i % l.Len()
		i /= l.Len()
		o.enter(l, p, l.rangeOf(o.idx[p]))
		o.val[p] = l.At(o.idx[p])
	}
}

// enter records that parameter p is in range k of its list l.
func (o *odometer) enter(l *List, p, k int) {
	s := &l.ranges[k]
	o.within[p], o.end[p], o.step[p] = k, s.first+s.n, s.step
}

func (o *odometer) config(g *Grid) model.Config {
	var c model.Config
	for p := range g.Values {
		c.Set(model.Param(p), o.val[p])
	}
	return c
}

// next advances to the following row and updates c, setting only the
// parameters that changed. It returns the outermost one that changed: it
// and every parameter after it have new values.
func (o *odometer) next(g *Grid, c *model.Config) model.Param {
	p := o.last
	for {
		o.idx[p]++
		if o.idx[p] < o.end[p] {
			o.val[p] += o.step[p]
			break
		}
		if !o.wrap(&g.Values[p], p) || p == 0 {
			break
		}
		p--
	}
	for q := p; q <= o.last; q++ {
		c.Set(model.Param(q), o.val[q])
	}
	return model.Param(p)
}

// wrap moves parameter p, past the end of its range, into the next range of
// its list l, or back to the list's first value after its last; it reports
// whether it went back to the first.
func (o *odometer) wrap(l *List, p int) bool {
	k := o.within[p] + 1
	if o.idx[p] == l.n {
		k, o.idx[p] = 0, 0
	}
	o.enter(l, p, k)
	o.val[p] = l.ranges[k].lo
	return k == 0
}

// Shard returns the rows [first, last) that shard k of n covers in a grid
// of size rows: floor(k·size/n) … floor((k+1)·size/n)-1. Shards 0 … n-1
// together cover every row once, in order.
func Shard(size, k, n int) (first, last int) {
	return shardBound(size, k, n), shardBound(size, k+1, n)
}

func shardBound(size, k, n int) int {
	hi, lo := bits.Mul64(uint64(k), uint64(size))
	q, _ := bits.Div64(hi, lo, uint64(n))
	return int(q)
}

// NoMargin returns the first configuration of g, in grid order, that goes
// together and lets two leaders write (model.Config.NoMargin), if g has
// one. A command that runs many configurations warns of it once.
func (g *Grid) NoMargin() (c model.Config, ok bool) {
	g.related(model.Fencing).walk(func(k *model.Config) bool {
		c, ok = *k, k.Validate() == nil && k.NoMargin()
		return !ok
	})
	return c, ok
}
