package reports

import (
	"fmt"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// GateLine is the one line report --gate writes of g, rv's gate
// (study.Review.Gate): which rule, and which settings break it and by how
// much, or why they pass; without "gate: " or a newline.
func GateLine(rv *study.Review, g study.Gate) string {
	r := review{rv}
	current, u := g.Current, unit{rv.Tick}
	settings := r.settingsOf(current.Candidate)
	if rv.PerFire != nil {
		settings = r.name(current.Candidate)
	}
	switch g.Rule {
	case study.GateMargin:
		if rv.PerFire != nil {
			recommended := ""
			if g.Decided {
				recommended = fmt.Sprintf(" (the recommended %s leave %s)", r.name(g.Recommended.Candidate), r.holdMargin(g.Recommended))
			}
			return fmt.Sprintf("margin: under the current settings (%s) the task outlasts lockAtMostFor by %s, and ShedLock fences nothing: a fire after the lock ends runs the task beside the one still running; want lockAtMostFor longer than the task%s",
				settings, u.seconds(-current.Safety.Margin.Min), recommended)
		}
	}
	switch g.Rule {
	case study.GateMargin:
		recommended := ""
		if g.Decided {
			recommended = fmt.Sprintf(" (the recommended %s leave %s)", r.name(g.Recommended.Candidate), r.margin(g.Recommended))
		}
		return fmt.Sprintf("two-leader margin: the current settings (%s) leave %s, and nothing fences: a follower can take over while a leader cut off from the record still writes; want a margin above 0%s, or fencing",
			settings, r.leastMargin(current), recommended)
	case study.GateCost:
		now, top := current.Cost(rv.Weights), g.Recommended.Cost(rv.Weights)
		return fmt.Sprintf("cost: the current settings (%s) cost %s a year, %s more than the recommended %s at %s: %s of their cost, more than --material %s",
			settings, thousands(now, 1), thousands(now-top, 1), r.name(g.Recommended.Candidate), thousands(top, 1), percent((now-top)/now), percent(rv.Material))
	}
	var why string
	switch s := current.Safety; {
	case s.OneNode:
		why = "have no follower (one node), so no two leaders"
	case current.Fencing:
		why = "are fenced"
	case rv.PerFire != nil:
		why = "leave a margin of " + u.seconds(s.Margin.Min) + " from the task's end to lockAtMostFor's"
	case s.Known:
		why = "leave a two-leader margin of " + u.spread(s.Margin)
	default:
		why = "leave no margin to judge (no renew deadline: a leader gives up when it re-reads the record)"
	}
	costs := "; no prices, so the cost is not judged"
	switch {
	case g.Priced && g.Decided:
		costs = fmt.Sprintf(" and cost %s a year, within --material %s of the least", thousands(current.Cost(rv.Weights), 1), percent(rv.Material))
	case g.Priced:
		costs = "; no candidate has a margin, so the cost is not judged"
	}
	return fmt.Sprintf("pass: the current settings (%s) %s%s", settings, why, costs)
}

// settingsOf names candidate k's lock settings for the gate's line: its
// lease, renew deadline and retry period (the renew deadline only if it
// has one), its lock's protocol if not client-go's, and its preset if it
// is one's.
func (rv review) settingsOf(k cost.Candidate) string {
	u := unit{rv.Tick}
	parts := []string{"lease " + u.span(k.Lease)}
	if k.RenewDeadline > 0 {
		parts = append(parts, "renew deadline "+u.span(k.RenewDeadline))
	}
	parts = append(parts, "retry period "+u.span(k.RetryPeriod))
	if k.Protocol != model.ProtocolClientGo {
		parts = append(parts, "protocol "+model.Protocol.Names()[k.Protocol])
	}
	if p := rv.PresetOf(k); p != "" {
		parts = append(parts, "the "+p+" preset's")
	}
	return strings.Join(parts, ", ")
}

// leastMargin is a candidate without a margin's two-leader margin as the
// gate's line says it: "none (-30 s)", or "none, no bound" where a
// cut-off leader never gives up by its clock.
func (rv review) leastMargin(r cost.Rank) string {
	return strings.TrimSuffix(rv.margin(r), ": fencing needed")
}
