package cost

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestParetoMatchesPairwise: the tree's front is the pairwise one, leaf
// for leaf, over ranks with many ties, values a hair (below, at and above
// the 1e-9 tolerance) apart, infinities, a NaN, and a smooth trade-off
// where every lease is on the front.
func TestParetoMatchesPairwise(t *testing.T) {
	hair := []float64{0, 0.5e-9, 1e-9, 1.5e-9, 3e-9}
	rng := rand.New(rand.NewPCG(1, 2))
	var sets [][]Rank
	for _, n := range []int{1, 2, 17, 100, 600} {
		var ties, hairs, smooth []Rank
		for i := range n {
			ties = append(ties, Rank{Candidate: Candidate{Lease: i}, MissedLines: float64(rng.IntN(3)), DoubleLines: float64(rng.IntN(2)), DelayedRounds: float64(rng.IntN(4)), Handovers: float64(rng.IntN(3))})
			hairs = append(hairs, Rank{Candidate: Candidate{Lease: i}, MissedLines: 1 + hair[rng.IntN(5)], DoubleLines: hair[rng.IntN(5)], DelayedRounds: 2 + hair[rng.IntN(5)], Handovers: float64(rng.IntN(2)) + hair[rng.IntN(5)]})
			x := float64(i) / float64(n)
			smooth = append(smooth, Rank{Candidate: Candidate{Lease: i}, MissedLines: x, DoubleLines: 1 - x, DelayedRounds: x * x, Handovers: 1 / (1 + x)})
		}
		sets = append(sets, ties, hairs, smooth)
	}
	sets = append(sets,
		[]Rank{{Candidate: Candidate{Lease: 1}, Handovers: math.Inf(1)}, {Candidate: Candidate{Lease: 2}, Handovers: 3}, {Candidate: Candidate{Lease: 3}, MissedLines: math.Inf(-1), Handovers: math.Inf(1)}},
		[]Rank{{Candidate: Candidate{Lease: 1}, Handovers: math.NaN()}, {Candidate: Candidate{Lease: 2}, Handovers: 3}, {Candidate: Candidate{Lease: 3}, Handovers: 2}},
		nil)
	for k, ranks := range sets {
		got, want := Pareto(ranks), paretoPairwise(ranks)
		if !slices.Equal(got, want) {
			t.Errorf("set %d (%d ranks): the tree's front differs from the pairwise one", k, len(ranks))
		}
		if k%3 == 2 && len(ranks) > 1 && slices.Contains(got, false) {
			t.Errorf("set %d: a smooth trade-off has every lease on the front", k)
		}
	}
}
