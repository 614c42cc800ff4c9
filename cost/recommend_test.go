package cost_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// TestMixOf: observed lengths become a mix of the distinct lengths,
// shortest first, each weighted by its share; too many distinct lengths
// are refused.
func TestMixOf(t *testing.T) {
	mix, err := cost.MixOf([]int{45, 30, 120, 30, 45, 30, 600, 30})
	want := []cost.MixEntry{{Outage: 30, Weight: 0.5}, {Outage: 45, Weight: 0.25}, {Outage: 120, Weight: 0.125}, {Outage: 600, Weight: 0.125}}
	if err != nil || !reflect.DeepEqual(mix, want) {
		t.Errorf("MixOf = %v, %v; want %v", mix, err, want)
	}
	var many []int
	for n := 1; n <= cost.MaxMixLengths+1; n++ {
		many = append(many, n)
	}
	if _, err := cost.MixOf(many); err == nil {
		t.Errorf("MixOf of %d distinct lengths: no error", len(many))
	}
}

// TestNoMarginNeverChosen: a lease with no two-leader margin is neither
// the cheapest nor on the Pareto front, however little it costs, and does
// not push another off the front; with every lease so, nothing is.
func TestNoMarginNeverChosen(t *testing.T) {
	w := cost.Weights{MissedLine: 1}
	ranks := []cost.Rank{
		{Candidate: cost.Candidate{Lease: 11}, MissedLines: 1, NoMargin: true},
		{Candidate: cost.Candidate{Lease: 13}, MissedLines: 5},
		{Candidate: cost.Candidate{Lease: 15}, MissedLines: 7},
	}
	if got := cost.Cheapest(ranks, w, 0.05); len(got) != 1 || got[0].Lease != 13 {
		t.Errorf("Cheapest = %+v, want lease 13 alone", got)
	}
	if got, want := cost.Pareto(ranks), []bool{false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("Pareto = %v, want %v", got, want)
	}
	for i := range ranks {
		ranks[i].NoMargin = true
	}
	if got := cost.Cheapest(ranks, w, 0.05); got != nil {
		t.Errorf("Cheapest with no margin anywhere = %+v, want nil", got)
	}
	if got, want := cost.Pareto(ranks), []bool{false, false, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("Pareto with no margin anywhere = %v, want %v", got, want)
	}
}

// TestRecommendMarksNoMargin: Recommend gives each lease its margin with
// the configuration's retry period and renew deadline, and marks those not
// above zero unless fencing is on.
func TestRecommendMarksNoMargin(t *testing.T) {
	c := model.Default()
	c.Lease, c.RenewDeadline, c.RetryPeriod, c.RereadPeriod, c.Period = 15, 10, 2, 0, 60
	mix := []cost.MixEntry{{Outage: 5, Weight: 1}}
	for _, fencing := range []bool{false, true} {
		c.Fencing = fencing
		ranks, err := cost.Recommend(context.Background(), c, 1, cost.LeaseCandidates(c, []int{11, 12, 13}), mix, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []struct {
			margin   int
			noMargin bool
		}{{-1, !fencing}, {0, !fencing}, {1, false}} {
			if r := ranks[i]; r.Margin != want.margin || !r.HasMargin || r.NoMargin != want.noMargin {
				t.Errorf("fencing %t, lease %d: margin %d (%t), no margin %t; want %d, %t", fencing, r.Lease, r.Margin, r.HasMargin, r.NoMargin, want.margin, want.noMargin)
			}
		}
	}
}
