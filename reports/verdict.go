package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/study"
)

// decide is the review's choice among its candidates (study.Review.Decide).
func (rv review) decide() (cost.Decision, bool) { return rv.Decide(rv.Recommendation) }

// seconds is a safety figure as report.md writes it: seconds to the
// millisecond ("17.452 s"), or rounds without a tick; "no bound" for an
// infinite one.
func (u unit) seconds(v float64) string {
	if math.IsInf(v, 0) {
		return "no bound"
	}
	s := strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	if u.t == 0 {
		return s + " rounds"
	}
	return s + " s"
}

// spread is a safety figure's range: "15 s", or "15 to 23.8 s, median
// 17.452 s".
func (u unit) spread(s cost.Span) string {
	if s.Min == s.Max {
		return u.seconds(s.Min)
	}
	lo := u.seconds(s.Min)
	if !math.IsInf(s.Min, 0) {
		lo = strings.TrimSuffix(strings.TrimSuffix(lo, " rounds"), " s")
	}
	return fmt.Sprintf("%s to %s, median %s", lo, u.seconds(s.Max), u.seconds(s.Median))
}

// margin is a candidate's two-leader margin as report.md writes it: its
// least, or why it has none that counts.
func (rv review) margin(r cost.Rank) string {
	s, u := r.Safety, unit{rv.Tick}
	switch {
	case s.OneNode:
		return "no follower (one node): no two leaders"
	case s.Margin.Min > 0:
		return u.spread(s.Margin)
	case r.Fencing:
		return "none (" + u.spread(s.Margin) + "), fenced"
	case math.IsInf(s.Margin.Min, -1):
		return "none, no bound: fencing needed"
	}
	return "none (" + u.spread(s.Margin) + "): fencing needed"
}

// skew is the clock-rate skew a candidate's margin absorbs.
func skew(s cost.Safety) string {
	if s.OneNode {
		return "any (one node)"
	}
	if s.Skew <= 0 {
		return "none"
	}
	return strconv.FormatFloat(100*s.Skew, 'f', 1, 64) + "%"
}

// safetyRule is the sentence that says how the review chooses among
// candidates that cost about the same.
func (rv review) safetyRule() string {
	return fmt.Sprintf("Rule: candidates whose cost a year is within %s of the current settings' cost (or 0.1, as shown) of the least cost the same, a difference too small to decide on; among them the current settings are kept if they are one, and otherwise the one with the widest two-leader margin, then the fastest takeover after a crash, is recommended; one with no margin and no fencing never is.",
		percent(rv.Material))
}

// percent is a share as a percentage to a tenth, "5%", "36.2%".
func percent(x float64) string { return strconv.FormatFloat(math.Round(1000*x)/10, 'f', -1, 64) + "%" }

// writeVerdict writes the answer's first lines: the verdict (keep the
// current settings, what to change, or that nothing is safe without
// fencing), the lever if the lease is not it, the rule that chose, and
// the current and recommended settings' safety beside their cost.
func (rv review) writeVerdict(b *strings.Builder) {
	current := rv.Current()
	priced := rv.Weights != cost.Weights{}
	d, ok := rv.decide()
	top := current
	switch {
	case !priced:
		b.WriteString("**Verdict: none without prices**: the candidates to choose among are the Pareto front below.\n\n")
	case !ok:
		if set, figure := rv.fencedSetting(); set != "" {
			fmt.Fprintf(b, "**Verdict: turn on fencing, and %s**: no candidate leaves a two-leader margin, so none is recommended without fencing: %s. %s.", set, rv.noMarginWhy(), capitalize(figure))
		} else {
			fmt.Fprintf(b, "**Verdict: turn on fencing**: no candidate leaves a two-leader margin, so none is recommended without it: %s.", rv.noMarginWhy())
		}
		for _, l := range rv.Levers {
			if l.Rank.Fencing {
				fmt.Fprintf(b, " With %s the current settings would cost %s a year, against %s without.", l.What, thousands(l.Rank.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1))
			}
		}
		b.WriteString("\n\n")
	case d.Keep:
		least := d.Near[0]
		for _, r := range d.Near {
			least = minCost(least, r, rv.Weights)
		}
		saving := current.Cost(rv.Weights) - least.Cost(rv.Weights)
		if saving < 0.05 {
			fmt.Fprintf(b, "**Verdict: keep the current settings** (%s): %s a year, the least of the candidates.", rv.name(current.Candidate), thousands(current.Cost(rv.Weights), 1))
		} else {
			fmt.Fprintf(b, "**Verdict: keep the current settings** (%s): the cheapest candidate, %s, would save %s of their %s a year (%s), too little to matter.",
				rv.name(current.Candidate), rv.name(least.Candidate), thousands(saving, 1), thousands(current.Cost(rv.Weights), 1), percent(saving/current.Cost(rv.Weights)))
		}
		b.WriteString("\n\n")
	default:
		top = d.Top
		change := rv.change(top.Candidate, current.Candidate)
		unsafe := ""
		if current.NoMargin {
			unsafe = ", which leave no two-leader margin and nothing fences"
		}
		fmt.Fprintf(b, "**Verdict: %s** (%s): %s a year against %s for the current %s%s.", strings.ToLower(change[:1])+change[1:], rv.name(top.Candidate),
			thousands(top.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1), rv.name(current.Candidate), unsafe)
		if others := without(d.Near, top.Candidate); len(others) > 0 {
			fmt.Fprintf(b, " Of the %d that cost within %s of the least, %s (the rule below).", len(others)+1, percent(rv.Material), widest(d.Near))
		}
		b.WriteString("\n\n")
	}
	if priced {
		rv.writeLever(b, top)
	}
}

// fencedSetting is what to set once fenced, when no candidate may be
// recommended without fencing: "set `session_ttl=90s`" (what changes,
// for a candidate no lock option names: "raise the lease to 1m0s"), or
// "keep the current settings", chosen among the candidates fenced by the rule that
// chooses among them unfenced (study.Review.DecideFenced), and what it
// costs beside the current settings; "" without fenced candidates.
func (rv review) fencedSetting() (set, figure string) {
	d, ok := rv.DecideFenced()
	if !ok {
		return "", ""
	}
	k, current := d.Top.Candidate, rv.Current()
	k.Fencing = false // named by its lock's settings; the fencing is said
	if d.Keep {
		return "keep the current settings", fmt.Sprintf("fenced, the current %s would cost %s a year, against %s without fencing, and no candidate fenced costs less by more than the rule's margin",
			rv.name(k), thousands(d.Top.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1))
	}
	set = "set " + rv.name(k)
	if rv.lockSetting(k) == "" {
		set = strings.ToLower(rv.change(k, current.Candidate)[:1]) + rv.change(k, current.Candidate)[1:]
	}
	return set, fmt.Sprintf("fenced, %s would cost %s a year, the choice of the candidates' rule, against %s for the current %s without fencing",
		rv.name(k), thousands(d.Top.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1), rv.name(current.Candidate))
}

// widest says why the rule chose the first of near, the candidates that
// cost about the least, safest first (cost.Safer): its margin is the
// widest, or, as every one of them leaves the same, its takeover after a
// crash is the fastest.
func widest(near []cost.Rank) string {
	for _, r := range near[1:] {
		if r.Safety.Known != near[0].Safety.Known || r.Safety.Margin.Min != near[0].Safety.Margin.Min {
			return "it has the widest two-leader margin, then the fastest takeover after a crash"
		}
	}
	return "which leave the same two-leader margin, it has the fastest takeover after a crash"
}

// minCost is the cheaper of a and b under w, a when they cost the same.
func minCost(a, b cost.Rank, w cost.Weights) cost.Rank {
	if b.Cost(w) < a.Cost(w) {
		return b
	}
	return a
}

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// hangMoves lists the outages of the mix that settings with safety s
// ride out at every phase (no longer than the least outage survived) when
// calls fail at once but not when they hang, or with gained the other way
// round, each with its share of events, or "".
func (rv review) hangMoves(s cost.Safety, gained bool) string {
	u := unit{rv.Tick}
	var lost []string
	for _, e := range rv.mix() {
		length := float64(e.Outage)
		if rv.Tick != 0 {
			length = rv.Tick.Seconds(length)
		}
		if fail, hang := length <= s.FastFail.Min, length <= s.BlackHole.Min; fail != hang && hang == gained {
			lost = append(lost, fmt.Sprintf("the %s outages (%.0f%% of events)", u.event(e), 100*e.Weight))
		}
	}
	return andList(lost)
}

// noMarginWhy says, in the lock's own terms, how two leaders come about
// with the current settings: its library's sentence (settings.Lock's
// NoMargin), or client-go's give-up against its lease.
func (rv review) noMarginWhy() string {
	lock, _, ok := study.LockOf(rv.Base, rv.Tick)
	switch {
	case lock != nil:
		return lock.NoMargin()
	case ok:
		u := unit{rv.Tick}
		return fmt.Sprintf("client-go's leader cut off from the record gives up a retry period and its renew deadline (%s) after its last renewal, and no candidate's lease is longer, so a follower can take over first and both write",
			u.span(rv.Base.RetryPeriod+rv.Base.RenewDeadline))
	}
	return "a leader cut off from the record can lead beside its successor"
}

// writeLever says, when most of the loss is of a kind no candidate
// changes (the least any candidate costs is at least half of what the
// current settings cost, or the verdict's top if it costs more, as an
// unsafe current setting may), that the lease is not the lever, and
// names what is, with
// what it would save: a batch that resumes or is
// idempotent, for the lines of batches cut mid-run that every candidate
// loses (an upper bound: no run of the review resumes one), and the
// deployment changes the review priced over the same outages (Levers).
func (rv review) writeLever(b *strings.Builder, top cost.Rank) {
	w, ref := rv.Weights, rv.Current()
	if top.Cost(w) > ref.Cost(w) {
		ref = top
	}
	now := ref.Cost(w)
	shared, cut := math.Inf(1), math.Inf(1) // the least any candidate costs, and loses to cut batches
	for _, r := range rv.Recommendation {
		shared, cut = min(shared, r.Cost(w)), min(cut, r.PartialLines)
	}
	if !(now > 0) || shared < 0.5*now {
		return
	}
	if shared >= now-0.05 {
		fmt.Fprintf(b, "**The lease is not the lever**: no candidate costs less than %s, %s a year, so no setting of the lock changes the loss.", rv.verdictName(ref), thousands(now, 1))
	} else {
		fmt.Fprintf(b, "**The lease is not the lever**: every candidate costs at least %s a year, against %s for %s (%.0f%%), so no setting of the lock changes most of the loss.",
			thousands(shared, 1), thousands(now, 1), rv.verdictName(ref), 100*shared/now)
	}
	var levers []string
	if saved := w.MissedLine * cut; saved >= 0.5*shared {
		fmt.Fprintf(b, " Most of it is batches cut mid-run: %s invoice lines a year of batches that started and could not finish, whatever the setting.", thousands(cut, 1))
		levers = append(levers, fmt.Sprintf("a batch that resumes where it was cut, or that writes idempotently and reruns, would save up to %s a year", thousands(saved, 1)))
	}
	for _, l := range rv.Levers {
		if c := l.Rank.Cost(w); c < top.Cost(w)-0.05 {
			levers = append(levers, fmt.Sprintf("%s would cost %s a year (%s less than %s)", l.What, thousands(c, 1), thousands(top.Cost(w)-c, 1), rv.verdictName(top)))
		} else {
			levers = append(levers, fmt.Sprintf("%s would not cost less (%s a year)", l.What, thousands(c, 1)))
		}
	}
	if levers != nil {
		fmt.Fprintf(b, " Over the same outages, %s.", andList(levers))
	}
	b.WriteString("\n\n")
}

// verdictName is how the lever's sentence names the verdict's settings.
func (rv review) verdictName(top cost.Rank) string {
	if top.Candidate == rv.Current().Candidate {
		return "the current settings"
	}
	return "the recommended settings"
}

// safetyWarnings is the tick's warnings of the current settings
// (model.Tick.Warnings), with the two-leader warning by the lock's own
// margin: client-go's formula's, the lock's NoMargin sentence for a lock
// of its own, and none for one node, which has no follower to lead beside.
func (rv review) safetyWarnings() []string {
	c, current := rv.Base, rv.Current()
	w := rv.Tick.Warnings(c)
	if c.NoMargin() { // client-go's, first
		w = w[1:]
	}
	if !current.NoMargin {
		return w
	}
	if c.NoMargin() {
		return append(rv.Tick.Warnings(c)[:1], w...)
	}
	return append([]string{"two leaders: " + rv.noMarginWhy() + "; nothing fences the stale holder's writes, so turn on fencing"}, w...)
}

// Warnings is what report.md warns of before its answer, each a sentence:
// the base configuration's warnings (model.Config.Warnings), the tick's
// with the two-leader warning by the lock's own margin (none for one
// node), and the review's (study.Review.Warnings).
func Warnings(rv *study.Review) []string { return review{rv}.warnings() }

func (rv review) warnings() []string {
	if rv.PerFire != nil {
		return rv.perFireWarnings()
	}
	return append(append(rv.Base.Warnings(rv.Tick), rv.safetyWarnings()...), rv.Warnings()...)
}
