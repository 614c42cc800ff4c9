package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Lengths is a distribution of the lengths, in rounds, of up or down
// periods. Every period lasts at least one round.
type Lengths struct {
	Kind LengthKind
	A, B float64 // fixed: A rounds; geometric: mean A; lognormal: mu A, sigma B

	// Empirical: the lengths observed, each drawn with equal chance, and
	// where they came from (a file name), which String writes.
	Samples []int
	Source  string
}

// LengthKind names a family of period-length distributions.
type LengthKind int

// The families.
const (
	Fixed     LengthKind = iota // always A rounds
	Geometric                   // each round ends the period with chance 1/A: mean A
	LogNormal                   // exp(N(A, B²)) rounded, at least 1
	Empirical                   // one of Samples, each as likely
)

// EmpiricalLengths is the distribution of the lengths a team observed,
// from source (a file name, for String): a draw is one of them, each
// as likely.
func EmpiricalLengths(source string, samples []int) (Lengths, error) {
	if len(samples) == 0 {
		return Lengths{}, fmt.Errorf("%s: no length: want one a line", source)
	}
	for _, n := range samples {
		if n < 1 || n > MaxRounds {
			return Lengths{}, fmt.Errorf("%s: length %d: want 1 to %d rounds", source, n, MaxRounds)
		}
	}
	return Lengths{Kind: Empirical, Samples: samples, Source: source}, nil
}

// String writes the distribution back in the syntax parse.Lengths reads
// in rounds.
func (l Lengths) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch l.Kind {
	case Geometric:
		return "geometric:" + f(l.A)
	case LogNormal:
		return "lognormal:" + f(l.A) + "," + f(l.B)
	case Empirical:
		return "empirical:" + l.Source
	}
	return "fixed:" + f(l.A)
}

// Mean is the distribution's mean length in rounds, before draws are
// bounded to 1 … MaxRounds: A for fixed and geometric (P(length > k) =
// (1 - 1/A)^k sums to A), exp(mu + sigma²/2) for the lognormal, at least 1.
func (l Lengths) Mean() float64 {
	switch l.Kind {
	case LogNormal:
		return math.Max(1, math.Exp(l.A+l.B*l.B/2))
	case Empirical:
		sum := 0.0
		for _, n := range l.Samples {
			sum += float64(n)
		}
		return sum / float64(len(l.Samples))
	}
	return l.A
}

// sampler draws period lengths from one distribution, keeping what every
// draw would otherwise compute again. Its draws are gonum distuv's, number
// for number: Exponential.Rand is ExpFloat64()/Rate, which exp draws
// from the PCG itself, and LogNormal.Rand is exp(NormFloat64()·Sigma +
// Mu), from a rand.Rand over the PCG, which in math/rand/v2 keeps no state
// of its own.
type sampler struct {
	Lengths
	scale float64      // geometric: the mean of the exponential behind it, 1/rate
	exp   *expZiggurat // geometric: its draws
}

// newSampler draws from l, with exp's draws if l is geometric.
func newSampler(l Lengths, exp *expZiggurat) sampler {
	s := sampler{Lengths: l, exp: exp}
	if l.Kind == Geometric {
		// 1 + floor(Exp(λ)) with e^-λ = 1 - 1/mean is geometric on
		// {1, 2, …}: P(length > k) = (1 - 1/mean)^k.
		s.scale = -1 / math.Log1p(-1/l.A)
	}
	return s
}

// draw draws one period length from src, through rng, a rand.Rand over
// it, where the draw is not the exponential's.
func (s *sampler) draw(src *rand.PCG, rng *rand.Rand) int {
	var x float64
	switch s.Kind {
	case Fixed:
		return int(s.A)
	case Geometric:
		u := src.Uint64()
		e, ok := s.exp.rectangle(u)
		if !ok {
			e = s.exp.outside(src, u)
		}
		return s.geometric(e)
	case LogNormal:
		x = math.Round(math.Exp(rng.NormFloat64()*s.B + s.A))
	case Empirical:
		return s.Samples[rng.IntN(len(s.Samples))]
	}
	// Clamped by comparisons, not math.Max and Min: draws are finite, and
	// those two are calls on amd64.
	switch {
	case x < 1:
		return 1
	case x > MaxRounds:
		return MaxRounds
	}
	return int(x)
}

// geometric is the geometric length whose exponential is e: 1 + floor(e
// times the scale), floored by a conversion, which unlike math.Floor is no
// call on amd64, as e is never negative.
func (s *sampler) geometric(e float64) int {
	if y := e * s.scale; y < MaxRounds {
		return 1 + int(y)
	}
	return MaxRounds
}

// Alternating is a failure schedule in which every node alternates
// between up and down periods whose lengths are drawn independently from
// Up and Down by a PCG source seeded with Seed. Every node starts up, at
// the start of an up period. Each Begin reseeds the source, so every run
// with the same Alternating meets the same failures. It keeps its state
// during a run, so each concurrent run needs its own.
//
// Beside those failures, which fail as the configuration's kinds say,
// every node may also run the processes of Also, each alternating on its
// own with its own lengths and failing its own way (a pause now and then
// beside the outages): a node is down while any of its processes is, and
// fails as the first of them in order that is down (Up/Down first).
type Alternating struct {
	Up, Down Lengths
	Also     []Process
	Seed     [2]uint64

	// Done, if not nil, ends the failures early once closed: the schedule
	// then reports no further change, so a run in flight reaches its end
	// at once, with statistics that mean nothing. A study closes it to
	// cancel. It is looked at every 1,024 changes (stopEvery).
	Done <-chan struct{}

	changes  int  // reached since the run began, the one it stopped at included
	halted   bool // Done was found closed: no change from then on
	src      rand.PCG
	rng      *rand.Rand // over src, made once: rngOf says over which
	rngOf    *rand.PCG
	exp      *expZiggurat // made once, for every geometric length
	lengths  []sampler    // process p's up periods at 2p, its down periods at 2p+1
	procs    []process    // every node's processes, node by node, then the zones'
	perNode  int          // processes of each node, the first of node n at n·perNode
	soonest  []uint64     // a tournament tree of the processes' next changes
	procDown []bool       // with Also: per node and process, down
}

// Process is a failure process of Alternating.Also: up and down periods
// of their own lengths, failing as Failure says, run by every node on its
// own or, if Zone names nodes, by those nodes together (a zone or a rack
// that fails as one).
type Process struct {
	Up, Down Lengths
	Failure  Failure
	Zone     []int
}

// process is one node's process of an Alternating (proc 0 is Up/Down,
// proc i is Also[i-1]), or a zone's (node −1).
type process struct {
	node, proc int
	down       bool
	then       int // the length of the period after the current one, drawn ahead
}

// stopEvery is how many changes an Alternating makes between looks at
// its Done: a select costs more than a change.
const stopEvery = 1024

// changeKey is the key of process i's change in round at. The tournament
// tree soonest holds process i's next change in leaf len(soonest)/2 + i
// and in each inner node the least key of its two children, so soonest[1]
// is the next change and, of changes in the same round, the lowest
// process's. A change replays one leaf's path to the root, a min a level:
// no branch on the rounds drawn, which a random schedule would mispredict
// about half the time, as it did in a heap. A round fits in 32 bits: at
// most MaxRounds plus a period of at most MaxRounds.
func changeKey(at, i int) uint64 { return uint64(at)<<32 | uint64(i) }

// Begin implements Schedule.
func (a *Alternating) Begin(r *Reachability) int {
	a.src.Seed(a.Seed[0], a.Seed[1])
	a.changes, a.halted = 0, false
	if a.rngOf != &a.src { // first use, or this Alternating was copied
		a.rng, a.rngOf = rand.New(&a.src), &a.src
	}
	if a.exp == nil {
		a.exp = newExpZiggurat()
	}
	a.lengths = append(a.lengths[:0], newSampler(a.Up, a.exp), newSampler(a.Down, a.exp))
	for _, p := range a.Also {
		a.lengths = append(a.lengths, newSampler(p.Up, a.exp), newSampler(p.Down, a.exp))
	}
	n := r.Nodes()
	a.procs = a.procs[:0]
	for i := range n {
		a.procs = append(a.procs, process{node: i})
		for p := range a.Also {
			if len(a.Also[p].Zone) == 0 {
				a.procs = append(a.procs, process{node: i, proc: p + 1})
			}
		}
	}
	a.perNode = len(a.procs) / n
	for p := range a.Also {
		if len(a.Also[p].Zone) > 0 {
			a.procs = append(a.procs, process{node: -1, proc: p + 1})
		}
	}
	if len(a.Also) > 0 {
		a.procDown = slices.Grow(a.procDown[:0], n*(1+len(a.Also)))[:n*(1+len(a.Also))]
		clear(a.procDown)
	}
	leaves := 1
	for leaves < len(a.procs) {
		leaves *= 2
	}
	a.soonest = slices.Grow(a.soonest[:0], 2*leaves)[:2*leaves]
	for i := range a.soonest {
		a.soonest[i] = math.MaxUint64 // leaves without a process never change
	}
	for i := range a.procs {
		p := &a.procs[i]
		a.soonest[leaves+i] = changeKey(1+a.lengths[2*p.proc].draw(&a.src, a.rng), i)
		p.then = a.lengths[2*p.proc+1].draw(&a.src, a.rng)
	}
	for j := leaves - 1; j > 0; j-- {
		a.soonest[j] = min(a.soonest[2*j], a.soonest[2*j+1])
	}
	return int(a.soonest[1] >> 32)
}

// ChangeAt implements Schedule: each change costs a draw and O(log nodes). A
// process's next period is drawn a change ahead, so that finding the next
// change never waits on a draw.
func (a *Alternating) ChangeAt(t int, r *Reachability) int {
	return a.advance(t, r)
}

// advance makes the changes in rounds up to last, in order of rounds,
// and returns the round of the next change.
func (a *Alternating) advance(last int, r *Reachability) int {
	if a.halted {
		return Never
	}
	for {
		next := a.soonest[1]
		at := int(next >> 32)
		if at > last {
			return at
		}
		if a.changes++; a.changes%stopEvery == 0 && a.stopped() {
			a.halted = true
			return Never
		}
		i := int(next & math.MaxUint32)
		p := &a.procs[i]
		p.down = !p.down
		r.at = at
		switch {
		case len(a.Also) == 0: // the node's one process
			r.flip(p.node)
		case p.node < 0: // a zone's process: its nodes turn together
			for _, n := range a.Also[p.proc-1].Zone {
				if n < r.Nodes() {
					a.turn(r, n, p.proc, p.down)
				}
			}
		default:
			a.turn(r, p.node, p.proc, p.down)
		}
		soonest, key := a.soonest, changeKey(at+p.then, i)
		j := len(soonest)/2 + i
		soonest[j] = key
		// key is the least below j: no need to read it back. The tree's
		// length is a power of two, so masking an index with the length
		// less one keeps it the same and shows the compiler it is in
		// range: two bounds checks a level fewer.
		for mask := len(soonest) - 1; j > 1; j >>= 1 {
			key = min(key, soonest[(j^1)&mask])
			soonest[(j>>1)&mask] = key
		}
		// The length of the period after the one begun: drawn here, not
		// by draw, when it is geometric, as under churn, since a call
		// would cost this loop the spills and reloads of the registers
		// it holds, 6% of a failure event's instructions.
		if l := &a.lengths[2*p.proc+b2i(!p.down)]; l.Kind == Geometric {
			u := a.src.Uint64()
			e, ok := a.exp.rectangle(u)
			if !ok {
				e = a.exp.outside(&a.src, u)
			}
			p.then = l.geometric(e)
		} else {
			p.then = l.draw(&a.src, a.rng)
		}
	}
}

// stopped reports whether Done is closed.
func (a *Alternating) stopped() bool {
	select {
	case <-a.Done: // a nil Done is never ready
		return true
	default:
		return false
	}
}

// nextChangeOf is the round of the next change that touches node: of
// one of its processes, or of a zone's that it is in.
func (a *Alternating) nextChangeOf(node int) int {
	leaves := a.soonest[len(a.soonest)/2:]
	if len(a.Also) == 0 { // its one process, process node
		return int(leaves[node] >> 32)
	}
	next := uint64(math.MaxUint64)
	for _, key := range leaves[node*a.perNode : (node+1)*a.perNode] {
		next = min(next, key)
	}
	for i := len(a.procs) - 1; i >= 0 && a.procs[i].node < 0; i-- { // the zones', last
		if slices.Contains(a.Also[a.procs[i].proc-1].Zone, node) {
			next = min(next, leaves[i])
		}
	}
	return int(next >> 32)
}

// turn sets process p of node down or up and the node's reachability: down
// while any of its processes is, failing as the first of them that is.
func (a *Alternating) turn(r *Reachability, node, p int, down bool) {
	procs := 1 + len(a.Also)
	state := a.procDown[node*procs : (node+1)*procs]
	state[p] = down
	r.SetReachable(node, true)
	for q, isDown := range state {
		if isDown {
			var f Failure
			if q > 0 {
				f = a.Also[q-1].Failure
			}
			r.Fail(node, f)
			return
		}
	}
}
