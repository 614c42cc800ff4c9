package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// LengthsSyntax describes the distribution syntax in words.
const LengthsSyntax = "fixed:N, geometric:MEAN or lognormal:MU,SIGMA (rounds)"

// ParseLengths parses fixed:N, geometric:MEAN (MEAN >= 1) or
// lognormal:MU,SIGMA (SIGMA >= 0).
func ParseLengths(s string) (Lengths, error) {
	kind, args, _ := strings.Cut(s, ":")
	nums := strings.Split(args, ",")
	vals := make([]float64, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Lengths{}, fmt.Errorf("%q: want %s", s, LengthsSyntax)
		}
		vals[i] = v
	}
	bad := func(why string) (Lengths, error) { return Lengths{}, fmt.Errorf("%q: %s", s, why) }
	switch {
	case kind == "fixed" && len(vals) == 1:
		if vals[0] != math.Trunc(vals[0]) || vals[0] < 1 || vals[0] > MaxRounds {
			return bad(fmt.Sprintf("want a whole number of rounds from 1 to %d", MaxRounds))
		}
		return Lengths{Kind: Fixed, A: vals[0]}, nil
	case kind == "geometric" && len(vals) == 1:
		if vals[0] < 1 || vals[0] > MaxRounds {
			return bad(fmt.Sprintf("want a mean from 1 to %d rounds", MaxRounds))
		}
		return Lengths{Kind: Geometric, A: vals[0]}, nil
	case kind == "lognormal" && len(vals) == 2:
		if vals[1] < 0 || vals[0] > math.Log(MaxRounds) || vals[1] > 10 {
			return bad(fmt.Sprintf("want MU up to %.1f and SIGMA from 0 to 10", math.Log(MaxRounds)))
		}
		return Lengths{Kind: LogNormal, A: vals[0], B: vals[1]}, nil
	}
	return Lengths{}, fmt.Errorf("%q: want %s", s, LengthsSyntax)
}

// String writes the distribution back in ParseLengths' syntax.
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
// for number: Exponential.Rand is ExpFloat64()/Rate and LogNormal.Rand is
// exp(NormFloat64()·Sigma + Mu), each from a rand.Rand over the source,
// which in math/rand/v2 keeps no state of its own.
type sampler struct {
	Lengths
	rate float64 // geometric: the rate of the exponential behind it
}

func newSampler(l Lengths) sampler {
	s := sampler{Lengths: l}
	if l.Kind == Geometric {
		// 1 + floor(Exp(λ)) with e^-λ = 1 - 1/mean is geometric on
		// {1, 2, …}: P(length > k) = (1 - 1/mean)^k.
		s.rate = -math.Log1p(-1 / l.A)
	}
	return s
}

// draw draws one period length.
func (s *sampler) draw(rng *rand.Rand) int {
	var x float64
	switch s.Kind {
	case Fixed:
		return int(s.A)
	case Geometric:
		// floor, as the draw is never negative: a conversion, which
		// unlike math.Floor is no call on amd64.
		if y := rng.ExpFloat64() / s.rate; y < MaxRounds {
			return 1 + int(y)
		}
		return MaxRounds
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

	src            rand.PCG
	rng            *rand.Rand // over src, made once: rngOf says over which
	rngOf          *rand.PCG
	upLen, downLen sampler
	also           []processSampler
	heap           []nodeChange // every node's next change, soonest first
	procDown       []bool       // with Also: per node and process, down
	zoneDown       []bool       // with Also: per process, a zone process's state
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

type processSampler struct{ up, down sampler }

// nodeChange is the round in which one of a node's processes next changes
// (proc 0 is Up/Down, proc i is Also[i-1]; node −1 for a zone's process).
// The heap holds them by value, so that ordering it reads no other slice.
type nodeChange struct{ at, node, proc int }

// Begin implements Schedule.
func (a *Alternating) Begin(r *Reachability) int {
	a.src.Seed(a.Seed[0], a.Seed[1])
	if a.rngOf != &a.src { // first use, or this Alternating was copied
		a.rng, a.rngOf = rand.New(&a.src), &a.src
	}
	a.upLen, a.downLen = newSampler(a.Up), newSampler(a.Down)
	n := r.Nodes()
	a.heap = a.heap[:0]
	for i := range n {
		a.heap = append(a.heap, nodeChange{1 + a.upLen.draw(a.rng), i, 0})
	}
	if len(a.Also) > 0 {
		a.also = a.also[:0]
		for _, p := range a.Also {
			a.also = append(a.also, processSampler{newSampler(p.Up), newSampler(p.Down)})
		}
		for i := range n {
			for p := range a.also {
				if len(a.Also[p].Zone) == 0 {
					a.heap = append(a.heap, nodeChange{1 + a.also[p].up.draw(a.rng), i, p + 1})
				}
			}
		}
		for p := range a.also {
			if len(a.Also[p].Zone) > 0 {
				a.heap = append(a.heap, nodeChange{1 + a.also[p].up.draw(a.rng), -1, p + 1})
			}
		}
		if procs := 1 + len(a.Also); cap(a.zoneDown) < procs {
			a.zoneDown = make([]bool, procs)
		} else {
			a.zoneDown = a.zoneDown[:procs]
			clear(a.zoneDown)
		}
		if size := n * (1 + len(a.Also)); cap(a.procDown) < size {
			a.procDown = make([]bool, size)
		} else {
			a.procDown = a.procDown[:size]
			clear(a.procDown)
		}
	}
	n = len(a.heap)
	for i := n/2 - 1; i >= 0; i-- {
		a.down(i)
	}
	return a.heap[0].at
}

// Apply implements Schedule: each change costs a draw and O(log nodes).
func (a *Alternating) Apply(t int, r *Reachability) int {
	if len(a.Also) > 0 {
		return a.applyAll(t, r)
	}
	for a.heap[0].at == t {
		first := &a.heap[0]
		if r.Reachable(first.node) {
			r.SetReachable(first.node, false)
			first.at = t + a.downLen.draw(a.rng)
		} else {
			r.SetReachable(first.node, true)
			first.at = t + a.upLen.draw(a.rng)
		}
		a.down(0)
	}
	return a.heap[0].at
}

// applyAll is Apply with Also: a change turns one process of a node, and
// the node is down while any of them is, failing as the first down.
func (a *Alternating) applyAll(t int, r *Reachability) int {
	procs := 1 + len(a.Also)
	for a.heap[0].at == t {
		first := &a.heap[0]
		p := first.proc
		up, down := a.upLen, a.downLen
		if p > 0 {
			up, down = a.also[p-1].up, a.also[p-1].down
		}
		var isDown bool
		if first.node < 0 { // a zone's process: its nodes turn together
			a.zoneDown[p] = !a.zoneDown[p]
			isDown = a.zoneDown[p]
			for _, n := range a.Also[p-1].Zone {
				if n < r.Nodes() {
					a.turn(r, n, p, procs, isDown)
				}
			}
		} else {
			isDown = !a.procDown[first.node*procs+p]
			a.turn(r, first.node, p, procs, isDown)
		}
		if isDown {
			first.at = t + down.draw(a.rng)
		} else {
			first.at = t + up.draw(a.rng)
		}
		a.down(0)
	}
	return a.heap[0].at
}

// turn sets process p of node down or up and the node's reachability: down
// while any of its processes is, failing as the first of them that is.
func (a *Alternating) turn(r *Reachability, node, p, procs int, down bool) {
	state := a.procDown[node*procs : (node+1)*procs]
	state[p] = down
	r.SetReachable(node, true)
	for q, isDown := range state {
		if isDown {
			f := AsConfigured
			if q > 0 {
				f = a.Also[q-1].Failure
			}
			r.Fail(node, f)
			return
		}
	}
}

// down restores the heap order below position i.
func (a *Alternating) down(i int) {
	h := a.heap
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].at < h[least].at {
			least = l
		}
		if r < len(h) && h[r].at < h[least].at {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
