package sweep_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/sweep"
)

// TestTallyMerge: tallies of the parts of a study, merged in any order,
// are the whole's to the bit, and so is the interval computed from them.
func TestTallyMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var whole, a, b sweep.Tally
	for i := range 10_000 {
		x := r.Uint64N(1 << 40) // large counts: their squares overflow 64 bits
		whole.Add(x)
		if i%3 == 0 {
			a.Add(x)
		} else {
			b.Add(x)
		}
	}
	ab, ba := a, b
	ab.Merge(b)
	ba.Merge(a)
	if ab != whole || ba != whole {
		t.Fatalf("merged %+v and %+v, whole %+v", ab, ba, whole)
	}
	if ab.Interval95() != whole.Interval95() {
		t.Errorf("interval of the merged %v, of the whole %v", ab.Interval95(), whole.Interval95())
	}
}

// TestIntervalRare: an interval never goes below zero; with no event in n
// replicas it is [0, 3.689/n], Garwood's for a count of 0; with one event
// its lower end is above zero.
func TestIntervalRare(t *testing.T) {
	var none sweep.Tally
	for range 100 {
		none.Add(0)
	}
	if ci := none.Interval95(); ci.Lo != 0 || math.Abs(ci.Hi-0.03689) > 1e-5 {
		t.Errorf("no event in 100 replicas: %v, want [0, 0.03689]", ci)
	}
	one := none
	one.Add(1)
	if ci := one.Interval95(); ci.Lo <= 0 || ci.Lo > one.Mean() || ci.Hi < one.Mean() {
		t.Errorf("one event in 101 replicas: %v around mean %v", ci, one.Mean())
	}
	var clumped, spread sweep.Tally // 150 rounds: three failures of 50 rounds each, or 150 of one round
	for i := range 200 {
		if i%70 == 0 {
			clumped.Add(50)
		} else {
			clumped.Add(0)
		}
		spread.Add(uint64(min(1, i%4)))
	}
	c, s := clumped.Interval95(), spread.Interval95()
	if c.Lo < 0 || c.Lo > clumped.Mean() || c.Hi < clumped.Mean() {
		t.Errorf("clumped counts: %v around mean %v", c, clumped.Mean())
	}
	if c.HalfWidth() < 3*s.HalfWidth() {
		t.Errorf("three clumps of 50 give an interval %v, 150 single rounds %v: want the clumps' far wider", c, s)
	}
}
