package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// title is report.md's first line: the batch by its period, the nodes,
// and the lock with its current settings.
func (rv review) title() string {
	c, u := rv.Base, unit{rv.Tick}
	lock := model.Protocol.Names()[c.Protocol] + " " + rv.name(rv.Current().Candidate)
	if !rv.Current().Safety.Known {
		lock = "the publication's round model, lease " + u.span(c.Lease)
	}
	if p := rv.PresetOf(rv.Current().Candidate); p != "" {
		lock += " (the " + p + " preset)"
	}
	return fmt.Sprintf("# Leader election for the %s on %s, %s", batchName(rv.Tick, c), plural(c.Nodes, "node", "nodes"), lock)
}

// top is the settings the verdict names: the recommended ones, or the
// current ones when it keeps them, names none (no prices) or none is
// safe.
func (rv review) top() cost.Rank {
	if rv.Weights == (cost.Weights{}) {
		return rv.Current()
	}
	if d, ok := rv.decide(); ok && !d.Keep {
		return d.Top
	}
	return rv.Current()
}

// writeFirstScreen writes what a lead reads before deciding: the verdict,
// the current and recommended settings side by side (each random figure
// with the range of 95% of years, the safety figures beside the cost;
// under the verdict to turn on fencing, the settings to take once fenced
// beside the current ones),
// what gets worse, how sure the answer is and where the loss comes from.
// Everything after it is the evidence.
func (rv review) writeFirstScreen(b *strings.Builder) {
	rv.writeVerdict(b)
	current, top := rv.Current(), rv.top()
	both := top.Candidate != current.Candidate
	cols := []cost.Rank{current}
	head, align := fmt.Sprintf("| | current (%s) |", rv.name(current.Candidate)), "|---|---:|"
	if both {
		cols = append(cols, top)
		head += fmt.Sprintf(" recommended (%s) |", rv.name(top.Candidate))
		align += "---:|"
	}
	fenced, once := rv.onceFenced()
	if once {
		cols = append(cols, fenced)
		k, which := fenced.Candidate, "recommended"
		k.Fencing = false // named by its lock's settings; the column says fenced
		if k == current.Candidate {
			which = "current"
		}
		head += fmt.Sprintf(" %s, fenced (%s) |", which, rv.name(k))
		align += "---:|"
	}
	b.WriteString(head + "\n" + align + "\n")
	row := func(what string, f func(r cost.Rank) string) { writeRankRow(b, cols, what, f) }
	spread := rv.withSpread
	row("missed lines a year", func(r cost.Rank) string {
		return spread(r, r.MissedLines, 1, func(s cost.Spread) [2]float64 { return s.Missed })
	})
	row("double lines a year", func(r cost.Rank) string {
		return spread(r, r.DoubleLines, 1, func(s cost.Spread) [2]float64 { return s.Double })
	})
	row("handovers a year", func(r cost.Rank) string {
		return spread(r, r.Handovers, 2, func(s cost.Spread) [2]float64 { return s.Handovers })
	})
	u := unit{rv.Tick}
	if current.Safety.Known {
		row("takeover after a crash", func(r cost.Rank) string {
			if r.Safety.OneNode {
				return "none: no follower"
			}
			return u.brief(r.Safety.Crash)
		})
		row("two-leader margin", rv.margin)
		row("clock skew tolerated", func(r cost.Rank) string { return skew(r.Safety) })
		row("longest outage ridden out, calls failing", func(r cost.Rank) string { return u.brief(r.Safety.FastFail) })
		row("longest outage ridden out, calls hanging", func(r cost.Rank) string { return u.brief(r.Safety.BlackHole) })
	}
	if rv.Weights != (cost.Weights{}) {
		row("cost a year ("+rv.costUnit()+")", func(r cost.Rank) string {
			return spread(r, r.Cost(rv.Weights), 1, func(s cost.Spread) [2]float64 { return s.Cost })
		})
	}
	b.WriteString("\n")
	if unit := rv.costUnit(); rv.Weights != (cost.Weights{}) && unit != "invoice lines" {
		if unit == "price units" {
			unit += ", the prices' one currency, which `--currency` names"
		}
		fmt.Fprintf(b, "Cost in %s: %s. Brackets hold 95%% of years (how sure, below).\n\n", unit, prices(rv.Weights, rv.Tick))
	}
	if both {
		fmt.Fprintf(b, "What gets worse: %s.\n\n", rv.worse(current, top))
	}
	if once {
		fmt.Fprintf(b, "What gets worse once fenced: %s.\n\n", rv.worse(current, fenced))
	}
	rv.writeHowSure(b, cols)
	rv.writeLossSources(b, current)
}

// onceFenced is the settings the verdict names to take once fenced, when
// no candidate may be recommended without fencing (the verdict to turn
// on fencing: study.Review.DecideFenced), fencing on, for the first
// screen's column beside the current settings; false otherwise.
func (rv review) onceFenced() (cost.Rank, bool) {
	if rv.Weights == (cost.Weights{}) {
		return cost.Rank{}, false
	}
	if _, ok := rv.decide(); ok {
		return cost.Rank{}, false
	}
	d, ok := rv.DecideFenced()
	return d.Top, ok
}

// brief is a safety figure's range in a table cell: "15 s", or "15-23.8 s
// (median 17.5 s)"; "no bound" for an infinite one.
func (u unit) brief(s cost.Span) string {
	r := func(v float64) string {
		if math.IsInf(v, 0) {
			return "no bound"
		}
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	}
	sec := " s"
	if u.t == 0 {
		sec = " rounds"
	}
	switch {
	case math.IsInf(s.Min, 0) || math.IsInf(s.Max, 0):
		return u.spread(s)
	case r(s.Min) == r(s.Max):
		return r(s.Min) + sec
	}
	return fmt.Sprintf("%s-%s%s (median %s%s)", r(s.Min), r(s.Max), sec, r(s.Median), sec)
}

// costUnit is the unit of a cost a year: the review's currency if it
// names one, invoice lines when a missed and a double line cost 1 each
// and nothing else is priced, otherwise price units, which the line under
// the table names by the prices.
func (rv review) costUnit() string {
	if rv.Currency != "" {
		return rv.Currency
	}
	if rv.Weights == (cost.Weights{MissedLine: 1, DoubleLine: 1}) {
		return "invoice lines"
	}
	return "price units"
}

// worse lists what the recommended settings top do worse than current:
// each yearly figure that grows, a slower takeover after a crash, a
// narrower margin, less clock skew tolerated, shorter outages ridden out;
// "nothing in the table" if none.
func (rv review) worse(current, top cost.Rank) string {
	var ws []string
	for _, f := range []struct {
		what     string
		was, now float64
		prec     int
	}{{"missed lines a year", current.MissedLines, top.MissedLines, 1}, {"double lines a year", current.DoubleLines, top.DoubleLines, 1}, {"handovers a year", current.Handovers, top.Handovers, 2}} {
		if f.now > f.was+0.05 {
			ws = append(ws, fmt.Sprintf("%s %s → %s", f.what, thousands(f.was, f.prec), thousands(f.now, f.prec)))
		}
	}
	u, c, t := unit{rv.Tick}, current.Safety, top.Safety
	if c.Known && t.Known {
		if t.Crash.Max > c.Crash.Max && !t.OneNode {
			ws = append(ws, fmt.Sprintf("takeover after a crash %s → %s", u.brief(c.Crash), u.brief(t.Crash)))
		}
		if t.Margin.Min < c.Margin.Min && !t.OneNode {
			ws = append(ws, fmt.Sprintf("two-leader margin %s → %s", rv.margin(current), rv.margin(top)))
		}
		if t.Skew < c.Skew && !t.OneNode {
			ws = append(ws, fmt.Sprintf("clock skew tolerated %s → %s", skew(c), skew(t)))
		}
		if t.FastFail.Min < c.FastFail.Min {
			ws = append(ws, fmt.Sprintf("longest outage ridden out with calls failing %s → %s", u.brief(c.FastFail), u.brief(t.FastFail)))
		}
		if t.BlackHole.Min < c.BlackHole.Min {
			ws = append(ws, fmt.Sprintf("with calls hanging %s → %s", u.brief(c.BlackHole), u.brief(t.BlackHole)))
		}
	}
	if ws == nil {
		return "nothing in the table"
	}
	return strings.Join(ws, "; ")
}

// writeHowSure says where the first screen's figures and brackets come
// from, whether the decision holds if calls hang instead of failing
// (hungCalls), and what halving or doubling each assumption does to it.
func (rv review) writeHowSure(b *strings.Builder, cols []cost.Rank) {
	var parts []string
	if sp, ok := rv.Spreads[cols[0].Candidate]; ok {
		events := fmt.Sprintf("%s outage events a year come at random (a Poisson count, each of the mix's lengths by its share)", rate(rv.EventsPerYear[0]))
		if rv.Mix == nil {
			events = fmt.Sprintf("%s outage events a year come at random (a Poisson count)", rate(rv.EventsPerYear[0]))
		}
		if rv.Incident != nil {
			events = fmt.Sprintf("%s incidents a year come at random (a Poisson count)", rate(rv.EventsPerYear[0]))
		}
		parts = append(parts, fmt.Sprintf("each figure is the mean over where in the batch and renewal cycles an outage falls (the phase method); the brackets hold 95%% of years when the %s, each at a random moment (%s years drawn). With the current settings %s",
			events, thousands(cost.SpreadYears, 0), quietYears(sp.Quiet)))
	}
	if hung := rv.hungCalls(cols); hung != "" {
		parts = append(parts, hung)
	}
	parts = append(parts, capitalize(rv.moves()))
	fmt.Fprintf(b, "How sure: %s.\n\n", strings.Join(parts, ". "))
}

// quietYears says what share of the drawn years miss and double no
// invoice line (cost.Spread's Quiet), as no more than it is: "none of
// those years misses or doubles an invoice line" only when none does,
// "every one of those years misses or doubles some" only when every one
// does, and otherwise a share never rounded to either.
func quietYears(quiet float64) string {
	switch {
	case quiet >= 1:
		return "none of those years misses or doubles an invoice line"
	case quiet <= 0:
		return "every one of those years misses or doubles some invoice lines"
	}
	share := percent(quiet)
	switch share {
	case "100%":
		share = "over 99.9%"
	case "0%":
		share = "under 0.1%"
	}
	return share + " of those years neither miss nor double an invoice line"
}

// decision is what the decision rule picks among ranks, in the words the
// sensitivity sentences use: the candidate's setting, keeping the current
// settings, or none, when no candidate may be recommended.
func (rv review) decision(ranks []cost.Rank, none string) string {
	d, ok := rv.Decide(ranks)
	switch {
	case !ok:
		return none
	case d.Keep:
		return "keeping the current settings"
	}
	return rv.name(d.Top.Candidate)
}

// moves says which assumptions, halved or doubled, change the verdict's
// settings (the sensitivity table), or that none does.
func (rv review) moves() string {
	if rv.Weights == (cost.Weights{}) {
		return "the sensitivity table below gives the Pareto front with each assumption halved and doubled"
	}
	answer := func(ranks []cost.Rank) string { return rv.decision(ranks, "no candidate safe without fencing") }
	base := answer(rv.Recommendation)
	var moved, all []string
	var last, lastTo string // the assumption of the last move and what it moved to
	for _, v := range rv.Sensitivity {
		if len(all) == 0 || all[len(all)-1] != v.Assumption {
			all = append(all, v.Assumption)
		}
		to := answer(v.Ranks)
		if to == base {
			continue
		}
		if v.Factor > 1 && last == v.Assumption && lastTo == to {
			moved[len(moved)-1] = fmt.Sprintf("to %s with the %s halved or doubled", to, v.Assumption)
			continue
		}
		how := "halved"
		if v.Factor > 1 {
			how = "doubled"
		}
		moved, last, lastTo = append(moved, fmt.Sprintf("to %s with the %s %s", to, v.Assumption, how)), v.Assumption, to
	}
	if moved == nil {
		return "halving or doubling the " + andList(all) + " leaves the answer as it is (the sensitivity table below)"
	}
	return "the answer moves " + andList(moved) + " (the sensitivity table below)"
}

// writeLossSources says where the current settings' yearly loss comes
// from: batches cut mid-run, batches never started, double lines and, if
// priced, delay and handovers, each as a share of the cost.
func (rv review) writeLossSources(b *strings.Builder, r cost.Rank) {
	w := rv.Weights
	if w == (cost.Weights{}) {
		w = cost.Weights{MissedLine: 1, DoubleLine: 1}
	}
	parts := []struct {
		what string
		v    float64
	}{
		{"batches cut mid-run", w.MissedLine * r.PartialLines},
		{"batches missed or left queued", w.MissedLine * (r.MissedLines - r.PartialLines)},
		{"double lines", w.DoubleLine * r.DoubleLines},
		{"delay", w.DelayedRound * r.DelayedRounds},
		{"handovers", w.Handover * r.Handovers},
	}
	total := 0.0
	for _, p := range parts {
		total += p.v
	}
	if total < 0.05 {
		b.WriteString("Where the loss comes from: the current settings lose nothing over these outages.\n\n")
		return
	}
	var ss []string
	for _, p := range parts {
		if p.v >= 0.0005*total {
			ss = append(ss, fmt.Sprintf("%s %s", percent(p.v/total), p.what))
		}
	}
	of := "of the current settings' cost"
	if rv.Weights == (cost.Weights{}) {
		of = "of the current settings' lost and double lines"
	}
	fmt.Fprintf(b, "Where the loss comes from (%s): %s.\n\n", of, strings.Join(ss, ", "))
}

// hungCalls is How sure's sentence on calls that hang instead of failing
// (study.Review.CallMode): whether the decision holds priced so, with the
// outages of the mix the first screen's settings (cols) then ride out or
// no longer do (rideOut); that the review pins how calls fail; that its
// failures make no calls to hang; or, with no decision priced again (no
// prices, no candidate safe without fencing), what rideOut says alone.
func (rv review) hungCalls(cols []cost.Rank) string {
	const lead = "If calls hang instead of failing, "
	switch rv.CallMode() {
	case study.CallsPriced:
		s := lead + rv.hungDecision()
		if moves := rv.rideOut(cols); moves != "" {
			s += "; with calls hanging, " + moves
		}
		return s
	case study.CallsPinned:
		if rv.BlackHoleGiven && rv.Base.BlackHole {
			return "The review pins how calls fail (black_hole: true): every figure is for calls that hang until they time out"
		}
		if rv.BlackHoleGiven {
			return "The review pins how calls fail (black_hole: false): every figure is for calls that fail at once"
		}
		return "The failure mix pins how calls fail, naming the failures whose calls hang (black-hole, slow): every figure is for its failures as given"
	case study.CallsUnmade:
		return "Whether calls hang or fail at once changes nothing here: " + rv.noCalls()
	}
	if rv.Incident != nil || !cols[0].Safety.Known || rv.Base.BlackHole {
		return ""
	}
	if moves := rv.rideOut(cols); moves != "" {
		return lead + moves
	}
	return lead + "the same outages of the mix are ridden out"
}

// hungDecision says whether the decision holds with hung calls
// (study.Review.HungCalls) or what it flips to, with the costs a year
// that decide it, in the review's unit, and how many candidates were
// priced again.
func (rv review) hungDecision() string {
	h, current := rv.HungCalls, rv.Current().Candidate
	was, _ := rv.decide()
	now := h.Decision
	first := true // the unit is said with the first figure alone
	money := func(r cost.Rank) string {
		s := thousands(r.Cost(rv.Weights), 1)
		if first {
			s, first = s+" "+rv.costUnit(), false
		}
		return s
	}
	cur := h.Current(current)
	of := fmt.Sprintf(" (priced again: the current settings, the recommended and the %d others nearest it in cost)", len(h.Ranks)-2)
	if was.Keep {
		of = fmt.Sprintf(" (priced again: the current settings and the %d others nearest them in cost)", len(h.Ranks)-1)
	}
	switch {
	case now.Top.Candidate == was.Top.Candidate && now.Keep:
		cheapest, ok := cost.Rank{}, false
		for _, r := range h.Ranks {
			if r.Candidate != current && !r.NoMargin && (!ok || r.Cost(rv.Weights) < cheapest.Cost(rv.Weights)) {
				cheapest, ok = r, true
			}
		}
		if !ok {
			return fmt.Sprintf("the decision holds: keep the current settings, %s a year%s", money(cur), of)
		}
		return fmt.Sprintf("the decision holds: keep the current settings, %s a year, against %s for the cheapest other, %s%s", money(cur), money(cheapest), rv.name(cheapest.Candidate), of)
	case now.Top.Candidate == was.Top.Candidate:
		return fmt.Sprintf("the decision holds: %s costs %s a year against %s for the current settings%s", rv.name(now.Top.Candidate), money(now.Top), money(cur), of)
	case now.Keep:
		top, _ := h.Of(was.Top.Candidate)
		why := ""
		if top.Cost(rv.Weights) < cur.Cost(rv.Weights) {
			why = ", too little saved to matter"
		}
		return fmt.Sprintf("the decision flips: keep the current settings, %s a year against %s for %s%s%s", money(cur), money(top), rv.name(top.Candidate), why, of)
	}
	change := rv.change(now.Top.Candidate, current)
	s := fmt.Sprintf("the decision flips: %s (%s), %s a year against %s for the current settings", strings.ToLower(change[:1])+change[1:], rv.name(now.Top.Candidate), money(now.Top), money(cur))
	if !was.Keep {
		top, _ := h.Of(was.Top.Candidate)
		s += fmt.Sprintf(" and %s for %s", money(top), rv.name(top.Candidate))
	}
	return s + of
}

// rideOut says which outages of the mix the first screen's settings,
// cols (current, then recommended, or the current fenced, which says
// nothing more), no longer ride out, or ride out as well, if calls hang instead of failing, by their safety figures
// (hangMoves); "" if the same.
func (rv review) rideOut(cols []cost.Rank) string {
	names := []string{"the current settings", "the recommended settings"}
	var flips []string
	for i, r := range cols {
		if k := r.Candidate; i > 0 {
			if k.Fencing = cols[0].Fencing; k == cols[0].Candidate { // the current settings fenced: the same figures
				continue
			}
		}
		if lost := rv.hangMoves(r.Safety, false); lost != "" {
			flips = append(flips, names[i]+" no longer ride out "+lost)
		}
		if gained := rv.hangMoves(r.Safety, true); gained != "" {
			flips = append(flips, names[i]+" ride out "+gained+" as well")
		}
	}
	return andList(flips)
}

// noCalls says why no failure of the review's makes calls that could
// hang instead of failing (study.CallsUnmade): its kinds, which stop or
// freeze the failing nodes, or a failure mix without isolate entries.
func (rv review) noCalls() string {
	var kinds []string
	add := func(k string) {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	made := false // some failure makes calls (a partition's)
	for _, e := range rv.mix() {
		switch {
		case e.Kind != model.AsConfigured:
			add(kindsSaid[e.Kind])
			made = made || e.Kind.Behaviour().Does&(model.Stops|model.Freezes) == 0
		case rv.Base.Pause:
			add(kindsSaid[model.Paused])
		case rv.Base.Crash:
			add(kindsSaid[model.Crashed])
		case rv.Base.Release:
			add(kindsSaid[model.Released])
		}
	}
	if made {
		return fmt.Sprintf("the mix's failures (%s) have no isolate entry, whose calls the review would let hang; give black-hole entries to price hung calls", strings.Join(kinds, ", "))
	}
	return fmt.Sprintf("in the review's failures (%s) the failing nodes are stopped or frozen and make no calls", strings.Join(kinds, ", "))
}

// kindsSaid is each kind of failure that makes no calls to hang, or a
// failure mix's other kinds but isolate, as a sentence names its events.
var kindsSaid = map[model.Kind]string{model.Paused: "pauses", model.Crashed: "crashes", model.Released: "clean stops", model.Partitioned: "partitions"}

// writeRankRow writes a table row of the candidates cols: what, then f of
// each.
func writeRankRow(b *strings.Builder, cols []cost.Rank, what string, f func(cost.Rank) string) {
	b.WriteString("| " + what + " |")
	for _, r := range cols {
		b.WriteString(" " + f(r) + " |")
	}
	b.WriteString("\n")
}

// withSpread is v, a yearly figure of r, to prec decimals, followed by
// the 95% interval of its years ([lo, hi], which of the spread) where
// the review drew r's years.
func (rv review) withSpread(r cost.Rank, v float64, prec int, which func(cost.Spread) [2]float64) string {
	s := thousands(v, prec)
	if sp, ok := rv.Spreads[r.Candidate]; ok {
		iv := which(sp)
		s += fmt.Sprintf(" [%s, %s]", thousands(iv[0], 0), thousands(iv[1], 0))
	}
	return s
}
