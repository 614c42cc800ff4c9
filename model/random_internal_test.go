package model

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkChurnEvent: what a Monte Carlo failure event costs against
// the draw behind it alone. In turns, a replica of 100,000 rounds of the
// publication's policy on 5 nodes, up geometric:20 and down geometric:5
// (BenchmarkMonteCarlo's heavy churn), then as many draws of those
// lengths as a replica meets events on average: the host's speed, which
// swings by a third between spells, moves both nearly alike: their ratio
// varies by less than a tenth. It reports ns/event, ns/draw and
// draws/event, the ratio.
func BenchmarkChurnEvent(b *testing.B) {
	up := Lengths{Kind: Geometric, A: 20}
	down := Lengths{Kind: Geometric, A: 5}
	c := Default()
	c.Rounds = 100_000
	events := int(2 * float64(c.Nodes*c.Rounds) / (up.Mean() + down.Mean())) // a change down and one up a cycle
	var r Runner
	a := &Alternating{Up: up, Down: down}
	var src rand.PCG
	exp := newExpZiggurat()
	u, d := newSampler(up, exp), newSampler(down, exp)
	var run, draw time.Duration
	sum := 0
	for i := uint64(0); b.Loop(); i++ {
		a.Seed = [2]uint64{i, 7}
		start := time.Now()
		if _, err := r.RunSchedule(c, a); err != nil {
			b.Fatal(err)
		}
		drawing := time.Now()
		src.Seed(i, 7)
		for range events / 2 {
			sum += u.draw(&src, nil) + d.draw(&src, nil)
		}
		run, draw = run+drawing.Sub(start), draw+time.Since(drawing)
	}
	if sum == 0 {
		b.Fatal("no draws")
	}
	n := float64(b.N * events)
	b.ReportMetric(float64(run.Nanoseconds())/n, "ns/event")
	b.ReportMetric(float64(draw.Nanoseconds())/n, "ns/draw")
	b.ReportMetric(float64(run)/float64(draw), "draws/event")
}

// TestEmpiricalDraws: an empirical distribution draws only its lengths,
// each about as often, and its mean is theirs.
func TestEmpiricalDraws(t *testing.T) {
	l, err := EmpiricalLengths("outages.txt", []int{30, 45, 120, 30})
	if err != nil {
		t.Fatal(err)
	}
	if l.Mean() != 56.25 || l.String() != "empirical:outages.txt" {
		t.Errorf("mean %v, %q", l.Mean(), l.String())
	}
	var src rand.PCG
	src.Seed(3, 4)
	rng := rand.New(&src)
	s := newSampler(l, nil)
	seen := map[int]int{}
	const draws = 40_000
	for range draws {
		seen[s.draw(&src, rng)]++
	}
	// 30 is listed twice: half the draws.
	for n, want := range map[int]float64{30: 0.5, 45: 0.25, 120: 0.25} {
		if got := float64(seen[n]) / draws; got < want-0.01 || got > want+0.01 {
			t.Errorf("length %d drawn %.3f of the time, want %.2f", n, got, want)
		}
	}
	if len(seen) != 3 {
		t.Errorf("drew %v, want only 30, 45 and 120", seen)
	}
	if _, err := EmpiricalLengths("empty.txt", nil); err == nil {
		t.Error("an empty file accepted")
	}
}

// TestUniformIsFloat64: the jitter's uniform draw is rand.Rand.Float64's,
// number for number, from the same PCG.
func TestUniformIsFloat64(t *testing.T) {
	r, src := rand.New(rand.NewPCG(5, 9)), rand.NewPCG(5, 9)
	for i := range 10_000 {
		if want, got := r.Float64(), uniform(src); got != want {
			t.Fatalf("draw %d: %v, rand.Rand.Float64 %v", i, got, want)
		}
	}
}

// TestExpZiggurat: the ziggurat draws what rand.Rand.ExpFloat64 draws from
// the same PCG, bit for bit, taking as many numbers from it, and a
// geometric sampler draws 1 + ⌊ExpFloat64·scale⌋ from it: two million
// draws each, about 44,000 of them outside their layer's rectangle.
func TestExpZiggurat(t *testing.T) {
	z := newExpZiggurat()
	exp := func(src *rand.PCG) (float64, bool) {
		u := src.Uint64()
		if x, ok := z.rectangle(u); ok {
			return x, false
		}
		return z.outside(src, u), true
	}
	var ours, theirs rand.PCG
	ours.Seed(5, 6)
	theirs.Seed(5, 6)
	rng := rand.New(&theirs)
	outside := 0
	for i := range 2_000_000 {
		got, out := exp(&ours)
		if want := rng.ExpFloat64(); math.Float64bits(got) != math.Float64bits(want) || ours != theirs {
			t.Fatalf("draw %d: %v, want %v (sources in step: %v)", i, got, want, ours == theirs)
		}
		outside += b2i(out)
	}
	if outside < 30_000 || outside > 60_000 {
		t.Errorf("%d of 2,000,000 draws outside their rectangle, want about 44,000", outside)
	}
	for _, mean := range []float64{1, 1.5, 20, 2000, MaxRounds} {
		s := newSampler(Lengths{Kind: Geometric, A: mean}, z)
		for i := range 2_000_000 {
			want := MaxRounds
			if y := rng.ExpFloat64() * s.scale; y < MaxRounds {
				want = 1 + int(y)
			}
			if got := s.draw(&ours, nil); got != want || ours != theirs {
				t.Fatalf("geometric:%g, draw %d: %d, want %d (sources in step: %v)", mean, i, got, want, ours == theirs)
			}
		}
	}
}

// TestDoneEndsTheFailures: once its Done is closed, an Alternating makes
// no change past the stopEvery-th, whether a settled stretch runs on
// through the changes or the run loop makes them, and however the run
// goes on from there (one in five of these seeds once made up to 3,072),
// so a run of a billion rounds under heavy churn (minutes otherwise) ends
// at once.
func TestDoneEndsTheFailures(t *testing.T) {
	up := Lengths{Kind: Geometric, A: 20}
	down := Lengths{Kind: Geometric, A: 5}
	done := make(chan struct{})
	close(done)
	c := Default()
	c.Rounds = MaxRounds
	var r Runner
	for seed := range uint64(50) {
		a := &Alternating{Up: up, Down: down, Seed: [2]uint64{seed, 2}, Done: done}
		if _, err := r.RunSchedule(c, a); err != nil {
			t.Fatal(err)
		}
		if a.changes != stopEvery {
			t.Errorf("seed %d: %d changes looked at, want %d", seed, a.changes, stopEvery)
		}
	}
}
