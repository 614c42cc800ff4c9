package study

import "github.com/leasesim/leasesim/cost"

// A GateRule is a rule of the review's gate (report --gate), which a
// repository's CI runs on the review file it keeps, so that a change that
// makes the current settings unsafe, or dearer than the review's
// recommendation, fails.
type GateRule int

// The gate's rules, in the order they are judged: the first the current
// settings break is the gate's answer.
const (
	// GatePass: the current settings break no rule.
	GatePass GateRule = iota
	// GateMargin: no two-leader margin (by the lock's own figures, NoMargin)
	// and nothing fences, so a follower can take over while a leader cut
	// off from the record still writes.
	GateMargin
	// GateCost: the current settings cost materially more than the
	// recommended (cost.Decide does not keep them: they are not within
	// Material of the least cost a year).
	GateCost
)

// Gate is the gate's judgement of a review's current settings.
type Gate struct {
	// Rule is the first rule the current settings break, or GatePass.
	Rule GateRule
	// Current is the current settings' row of the recommendation.
	Current cost.Rank
	// Priced says the review has prices, so that GateCost was judged.
	Priced bool
	// Decided says a candidate is recommended (Recommended): the review is
	// priced and some candidate has a margin or fencing (cost.Decide).
	Decided     bool
	Recommended cost.Rank
	// Tolerance is the difference in cost a year too small to matter
	// (cost.Decision.Tolerance), with Decided.
	Tolerance float64
}

// Gate judges the current settings by the gate's rules: first a
// two-leader margin or fencing (GateMargin), then, with prices, a cost
// a year within the review's Material of the recommended's (GateCost).
func (rv *Review) Gate() Gate {
	g := Gate{Current: rv.Current(), Priced: rv.Weights != cost.Weights{}}
	if g.Priced {
		if d, ok := rv.Decide(rv.Recommendation); ok {
			g.Decided, g.Recommended, g.Tolerance = true, d.Top, d.Tolerance
			if !d.Keep {
				g.Rule = GateCost
			}
		}
	}
	if g.Current.NoMargin {
		g.Rule = GateMargin
	}
	return g
}
