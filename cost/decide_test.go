package cost_test

import (
	"math"
	"slices"
	"testing"

	"github.com/leasesim/leasesim/cost"
)

// TestDecide: on constructed rankings, the current settings are kept when
// the least cost is within `within` or `material` of their cost of it;
// otherwise the recommendation is the safest of the candidates that near
// the least (the widest least margin, then the fastest median takeover
// after a crash, then the list's order), never one with NoMargin; with
// every candidate NoMargin there is none.
func TestDecide(t *testing.T) {
	w := cost.Weights{MissedLine: 1}
	// rank is a candidate of lease l costing c a year, with a least margin
	// m (NaN: no figures) and a median crash takeover k.
	rank := func(l int, c, m, k float64) cost.Rank {
		r := cost.Rank{Candidate: cost.Candidate{Lease: l}, MissedLines: c}
		if !math.IsNaN(m) {
			r.Safety = cost.Safety{Known: true, Margin: cost.Span{Min: m}, Crash: cost.Span{Median: k}}
		}
		return r
	}
	unsafe := func(r cost.Rank) cost.Rank { r.NoMargin = true; return r }
	nan := math.NaN()
	for _, tt := range []struct {
		name     string
		ranks    []cost.Rank
		current  int // the current settings' lease
		material float64
		top      int // the recommended lease, 0: none
		keep     bool
		near     []int
	}{
		{"cheaper by far", []cost.Rank{rank(15, 100, 3, 17), rank(45, 10, 3, 47)}, 15, 0.05, 45, false, []int{45}},
		{"saving under the threshold: keep", []cost.Rank{rank(15, 100, 3, 17), rank(45, 96, 18, 47)}, 15, 0.05, 15, true, []int{45, 15}},
		{"the same saving over a threshold of 0", []cost.Rank{rank(15, 100, 3, 17), rank(45, 96, 18, 47)}, 15, 0, 45, false, []int{45}},
		{"a tie shown as one: keep", []cost.Rank{rank(15, 10.02, 3, 17), rank(45, 10, 18, 47)}, 15, 0, 15, true, []int{45, 15}},
		{"near ties: the wider margin", []cost.Rank{rank(15, 100, 3, 17), rank(45, 10, 1, 47), rank(60, 10.3, 16, 62)}, 15, 0.05, 60, false, []int{60, 45}},
		{"equal margins: the faster takeover", []cost.Rank{rank(15, 100, 3, 17), rank(45, 10, 16, 62), rank(60, 10, 16, 48)}, 15, 0.05, 60, false, []int{60, 45}},
		{"no figures: the list's order", []cost.Rank{rank(1, 100, nan, 0), rank(2, 10, nan, 0), rank(3, 10, nan, 0)}, 1, 0.05, 2, false, []int{2, 3}},
		{"a known margin before none known", []cost.Rank{rank(1, 100, nan, 0), rank(2, 10, nan, 0), rank(3, 10, 0.5, 9)}, 1, 0.05, 3, false, []int{3, 2}},
		{"the cheapest has no margin", []cost.Rank{rank(15, 100, 3, 17), unsafe(rank(12, 1, 0, 12)), rank(45, 10, 3, 47)}, 15, 0.05, 45, false, []int{45}},
		{"current without margin is never kept", []cost.Rank{unsafe(rank(12, 10, 0, 12)), rank(15, 10.2, 3, 17)}, 12, 0.05, 15, false, []int{15}},
		{"nothing safe", []cost.Rank{unsafe(rank(12, 10, 0, 12)), unsafe(rank(13, 9, -1, 13))}, 12, 0.05, 0, false, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := cost.Decide(tt.ranks, w, 0.05, tt.material, cost.Candidate{Lease: tt.current})
			var near []int
			for _, r := range d.Near {
				near = append(near, r.Lease)
			}
			if ok != (tt.top != 0) || d.Top.Lease != tt.top || d.Keep != tt.keep || !slices.Equal(near, tt.near) {
				t.Errorf("Decide = top %d, keep %t, near %v, ok %t; want top %d, keep %t, near %v", d.Top.Lease, d.Keep, near, ok, tt.top, tt.keep, tt.near)
			}
		})
	}
}
