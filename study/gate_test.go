package study_test

import (
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// TestGate: the gate fails settings with no two-leader margin and no
// fencing first, however cheap; then, with prices, settings that cost
// more than Material above the least (cost.Decide does not keep them);
// it passes settings within Material, and unpriced ones on their margin
// alone.
func TestGate(t *testing.T) {
	base := model.Default()
	base.Lease, base.RenewDeadline, base.RetryPeriod = 6, 4, 1 // a margin of 1 round
	current := cost.CandidateOf(base)
	other := current.WithLease(9, 4, 1)
	priced := cost.Weights{MissedLine: 1}
	for _, tt := range []struct {
		name                string
		currentLines, lines float64 // missed lines a year: the current settings', the other candidate's
		noMargin            bool
		weights             cost.Weights
		want                study.GateRule
		decided             bool
	}{
		{"cheapest", 100, 200, false, priced, study.GatePass, true},
		{"within material", 104, 100, false, priced, study.GatePass, true},
		{"beyond material", 106, 100, false, priced, study.GateCost, true},
		{"no margin though cheapest", 100, 200, true, priced, study.GateMargin, true},
		{"no margin and dearer", 300, 100, true, priced, study.GateMargin, true},
		{"unpriced", 300, 100, false, cost.Weights{}, study.GatePass, false},
		{"unpriced without margin", 300, 100, true, cost.Weights{}, study.GateMargin, false},
	} {
		opt := study.DefaultReviewOptions(base)
		opt.Weights = tt.weights
		rv := &study.Review{Base: base, ReviewOptions: opt, Recommendation: []cost.Rank{
			{Candidate: current, MissedLines: tt.currentLines, NoMargin: tt.noMargin},
			{Candidate: other, MissedLines: tt.lines},
		}}
		g := rv.Gate()
		if g.Rule != tt.want || g.Decided != tt.decided || g.Current.Candidate != current || g.Priced != (tt.weights != cost.Weights{}) {
			t.Errorf("%s: Gate = %+v, want rule %d, decided %t", tt.name, g, tt.want, tt.decided)
		}
		if tt.decided && tt.want == study.GateCost && (g.Recommended.Candidate != other || g.Tolerance != 0.05+0.05*tt.currentLines) {
			t.Errorf("%s: recommended %+v within %g, want the other candidate within %g", tt.name, g.Recommended.Candidate, g.Tolerance, 0.05+0.05*tt.currentLines)
		}
	}
}
