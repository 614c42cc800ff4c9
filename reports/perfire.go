package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// perFireFiles is the report of a per-fire lock (ShedLock,
// study.Review.PerFire): the candidates' table and report.md, which
// weighs what such a lock has, its slots' runs; the round-model review's
// other files weigh a leader it has none of.
func (rv review) perFireFiles() []File {
	return []File{
		{"candidates.csv", rv.writeCandidatesCSV},
		{"report.md", rv.writePerFireMarkdown},
	}
}

// runsText is a slot's calm runs: "2 (1 double run)", "1".
func runsText(runs int) string {
	if runs <= 1 {
		return fmt.Sprint(runs)
	}
	return fmt.Sprintf("%d (%s)", runs, plural(runs-1, "double run", "double runs"))
}

// holdMargin is a per-fire candidate's margin from the task's end to
// lockAtMostFor's, as report.md writes it: the margin, or by how much the
// task outlasts its lock.
func (rv review) holdMargin(r cost.Rank) string {
	u := unit{rv.Tick}
	if m := r.Safety.Margin.Min; m > 0 {
		return u.seconds(m)
	}
	return fmt.Sprintf("none: the task outlasts lockAtMostFor by %s", u.seconds(-r.Safety.Margin.Min))
}

// writePerFireMarkdown writes report.md of a per-fire lock: its first
// screen (verdict, the current and recommended settings side by side,
// what gets worse, how sure, where the loss comes from), what the review
// leaves out and why, the candidates, and the parameters.
func (rv review) writePerFireMarkdown(w io.Writer) error {
	var b strings.Builder
	c, u, pf := rv.Base, unit{rv.Tick}, rv.PerFire
	current := rv.Current()
	provider := "the JDBC provider, whose unlock checks `locked_by`"
	if c.Protocol == model.ProtocolShedLockRedis {
		provider = "the Redis or Mongo provider, whose unlock frees the lock whoever holds it"
	}
	fmt.Fprintf(&b, "# ShedLock for the %s on %s, %s (%s)\n\n", batchName(rv.Tick, c), plural(c.Nodes, "node", "nodes"), rv.name(current.Candidate), provider)
	priced := rv.Weights != cost.Weights{}
	d, ok := rv.decide()
	top := current
	switch {
	case !priced:
		b.WriteString("**Verdict: none without prices**: the candidates to choose among are those on the Pareto front of missed and double lines, marked in the candidates' table below.\n\n")
	case !ok:
		fmt.Fprintf(&b, "**Verdict: lengthen lockAtMostFor past the task**: no candidate tried outlasts the task of %s, so none is recommended: a task longer than its lock runs on after it, and any fire then runs the batch beside it.\n\n", u.span(c.BatchLen))
	case d.Keep:
		fmt.Fprintf(&b, "**Verdict: keep the current settings** (%s): %s a year, no candidate cheaper by more than %s of it.\n\n", rv.name(current.Candidate), thousands(current.Cost(rv.Weights), 1), percent(rv.Material))
	default:
		top = d.Top
		change := rv.change(top.Candidate, current.Candidate)
		why := ""
		if current.NoMargin {
			why = ", whose task outlasts lockAtMostFor"
		}
		fmt.Fprintf(&b, "**Verdict: %s** (%s): %s a year against %s for the current %s%s.", strings.ToLower(change[:1])+change[1:], rv.name(top.Candidate),
			thousands(top.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1), rv.name(current.Candidate), why)
		if n := len(d.Near); n > 1 {
			fmt.Fprintf(&b, " Of the %d that cost within %s of the least, it leaves the widest margin from the task's end to lockAtMostFor's, then the shortest hold after a crash (the rule below).", n, percent(rv.Material))
		}
		b.WriteString("\n\n")
	}
	cols := []cost.Rank{current}
	head, align := fmt.Sprintf("| | current (%s) |", rv.name(current.Candidate)), "|---|---:|"
	if top.Candidate != current.Candidate {
		cols = append(cols, top)
		head += fmt.Sprintf(" recommended (%s) |", rv.name(top.Candidate))
		align += "---:|"
	}
	b.WriteString(head + "\n" + align + "\n")
	row := func(what string, f func(r cost.Rank) string) { writeRankRow(&b, cols, what, f) }
	spread := func(r cost.Rank, v float64, which func(cost.Spread) [2]float64) string {
		return rv.withSpread(r, v, 1, which)
	}
	row("runs of each slot with no failure", func(r cost.Rank) string { return runsText(pf.Calm[r.Candidate].Runs) })
	row("double runs a year", func(r cost.Rank) string { return thousands(pf.DoubleRuns[r.Candidate], 1) })
	row("missed lines a year", func(r cost.Rank) string {
		return spread(r, r.MissedLines, func(s cost.Spread) [2]float64 { return s.Missed })
	})
	row("double lines a year", func(r cost.Rank) string {
		return spread(r, r.DoubleLines, func(s cost.Spread) [2]float64 { return s.Double })
	})
	row("margin from the task's end to lockAtMostFor's", rv.holdMargin)
	row("lock held after its holder crashes", func(r cost.Rank) string { return u.brief(r.Safety.Crash) })
	if priced {
		row("cost a year ("+rv.costUnit()+")", func(r cost.Rank) string {
			return spread(r, r.Cost(rv.Weights), func(s cost.Spread) [2]float64 { return s.Cost })
		})
	}
	b.WriteString("\n")
	if unit := rv.costUnit(); priced && unit != "invoice lines" {
		fmt.Fprintf(&b, "Cost in %s: %s. Brackets hold 95%% of years (how sure, below).\n\n", unit, prices(rv.Weights, rv.Tick))
	}
	if len(cols) > 1 {
		var ws []string
		for _, f := range []struct {
			what     string
			was, now float64
		}{{"missed lines a year", current.MissedLines, top.MissedLines}, {"double lines a year", current.DoubleLines, top.DoubleLines}} {
			if f.now > f.was+0.05 {
				ws = append(ws, fmt.Sprintf("%s %s → %s", f.what, thousands(f.was, 1), thousands(f.now, 1)))
			}
		}
		if top.Safety.Crash.Max > current.Safety.Crash.Max {
			ws = append(ws, fmt.Sprintf("the lock held after its holder crashes %s → %s, so a slot's rerun by hand waits that long", u.brief(current.Safety.Crash), u.brief(top.Safety.Crash)))
		}
		worse := "nothing in the table"
		if ws != nil {
			worse = strings.Join(ws, "; ")
		}
		fmt.Fprintf(&b, "What gets worse: %s.\n\n", worse)
	}
	rv.writePerFireHowSure(&b, current)
	rv.writePerFireLoss(&b, current)
	for _, w := range rv.perFireWarnings() {
		fmt.Fprintf(&b, "**Warning:** %s.\n\n", w)
	}
	b.WriteString("Written by `leasesim report`. Every figure is computed by the round model's ShedLock protocol (docs/model.md, Lock protocols); the sections below are the evidence, and `candidates.csv` beside this file holds every candidate's numbers.\n\n")
	rv.writePerFireLeftOut(&b)
	rv.writePerFireCandidates(&b)
	b.WriteString("## Parameters\n\n")
	fmt.Fprintf(&b, "One round of the model is %s; every time below is a duration.\n\n", rv.Tick)
	b.WriteString("| parameter | value |\n|---|---|\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		fmt.Fprintf(&b, "| %s | %s |\n", rv.Tick.Name(p), rv.Tick.AppendValue(nil, p, c.Get(p)))
	}
	fmt.Fprintf(&b, "| outage events per year | %s |\n| invoice lines per batch | %d |\n| slots a year | %s |\n\n", rate(rv.EventsPerYear[0]), rv.LinesPerBatch, thousands(pf.SlotsPerYear, 1))
	b.WriteString("## Files\n\n")
	for _, f := range rv.perFireFiles() {
		fmt.Fprintf(&b, "- `%s`\n", f.Name)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writePerFireHowSure says where the first screen's figures come from:
// the calm slots, the same every year, and the outage events' phase
// method, whose years the brackets draw.
func (rv review) writePerFireHowSure(b *strings.Builder, current cost.Rank) {
	var events []string
	for _, e := range rv.mix() {
		events = append(events, fmt.Sprintf("%s (%s)", unit{rv.Tick}.event(e), percent(e.Weight)))
	}
	each := "each one of " + andList(events) + " by its share"
	if len(events) == 1 {
		each = "each " + unit{rv.Tick}.event(rv.mix()[0])
	}
	fmt.Fprintf(b, "How sure: a slot's runs with no failure are the same every slot, %s slots a year, and so are the lines they miss or double; on top of them, %s outage events a year come at random (a Poisson count, %s), each costing what it adds to its slot's runs, averaged over where in the period it falls (the phase method); the brackets hold 95%% of %s years so drawn. With the current settings %s.\n\n",
		thousands(rv.PerFire.SlotsPerYear, 0), rate(rv.EventsPerYear[0]), each, thousands(cost.SpreadYears, 0), quietYears(rv.Spreads[current.Candidate].Quiet))
	if rv.Weights != (cost.Weights{}) {
		fmt.Fprintf(b, "%s\n\n", rv.perFireEventsMove())
	}
}

// perFireEventsMove says whether halving or doubling the outage events a
// year moves the decision: each candidate's year is its calm slots' and
// its events', which scale with their rate, so no run is needed.
func (rv review) perFireEventsMove() string {
	answer := func(ranks []cost.Rank) string { return rv.decision(ranks, "no candidate that outlasts the task") }
	base := answer(rv.Recommendation)
	var moved []string
	for _, f := range []struct {
		how    string
		factor float64
	}{{"halved", 0.5}, {"doubled", 2}} {
		ranks := make([]cost.Rank, len(rv.Recommendation))
		lines := float64(rv.LinesPerBatch) * rv.PerFire.SlotsPerYear
		for i, r := range rv.Recommendation {
			calm := rv.PerFire.Calm[r.Candidate]
			m, d := calm.Missed*lines, calm.Double*lines
			r.MissedLines = m + f.factor*(r.MissedLines-m)
			r.DoubleLines = d + f.factor*(r.DoubleLines-d)
			r.PartialLines *= f.factor
			r.DelayedRounds *= f.factor
			r.LateRounds *= f.factor
			r.Handovers *= f.factor
			ranks[i] = r
		}
		if to := answer(ranks); to != base {
			moved = append(moved, fmt.Sprintf("to %s with the outage events a year %s", to, f.how))
		}
	}
	if moved == nil {
		return "Halving or doubling the outage events a year leaves the answer as it is (the slots' runs with no failure do not change with them)."
	}
	return "The answer moves " + andList(moved) + "."
}

// writePerFireLoss says where the current settings' yearly loss comes
// from: the calm slots' double runs and misses, and the outage events'.
func (rv review) writePerFireLoss(b *strings.Builder, r cost.Rank) {
	w := rv.Weights
	if w == (cost.Weights{}) {
		w = cost.Weights{MissedLine: 1, DoubleLine: 1}
	}
	calm, slots, lines := rv.PerFire.Calm[r.Candidate], rv.PerFire.SlotsPerYear, float64(rv.LinesPerBatch)
	calmDouble, calmMissed := w.DoubleLine*slots*calm.Double*lines, w.MissedLine*slots*calm.Missed*lines
	parts := []struct {
		what string
		v    float64
	}{
		{"slots run twice with no failure", calmDouble},
		{"slots missed with no failure", calmMissed},
		{"lines the outage events leave unwritten", w.MissedLine*r.MissedLines - calmMissed},
		{"lines the outage events write twice", w.DoubleLine*r.DoubleLines - calmDouble},
		{"delay", w.DelayedRound * r.Delay()},
	}
	total := 0.0
	for _, p := range parts {
		total += max(0, p.v)
	}
	if total < 0.05 {
		b.WriteString("Where the loss comes from: the current settings lose nothing.\n\n")
		return
	}
	var ss []string
	for _, p := range parts {
		if p.v >= 0.0005*total {
			ss = append(ss, fmt.Sprintf("%s %s", percent(p.v/total), p.what))
		}
	}
	fmt.Fprintf(b, "Where the loss comes from (of the current settings' cost): %s.\n\n", strings.Join(ss, ", "))
}

// writePerFireLeftOut says which sections of a round-model review this
// one has not, and why: ShedLock elects no leader.
func (rv review) writePerFireLeftOut(b *strings.Builder) {
	b.WriteString("## What a per-fire lock has, and what this review leaves out\n\n")
	fmt.Fprintf(b, "ShedLock elects no leader: each node's scheduler fires the task, node i at i × %s after node 0 (the fire spread of %s over %s), and the first to take the lock runs it while the others skip that fire; the lock ends lockAtMostFor after it was taken, whatever the task does, and at the task's end it is held until lockAtLeastFor after the taking. So a task longer than lockAtMostFor runs on after its lock has ended, and a fire then runs it a second time; a fire lockAtLeastFor or more after a run's start, once it has ended, runs it again; and a crashed holder keeps every fire out until lockAtMostFor passes, the slot's rest missed, as Spring keeps no missed fire.\n\n",
		unit{rv.Tick}.span(rv.Base.FireSpread/max(1, rv.Base.Nodes-1)), unit{rv.Tick}.span(rv.Base.FireSpread), plural(rv.Base.Nodes, "node", "nodes"))
	b.WriteString("So there is no handover to count, no leader to fence or give up, no persistent trigger or queue to keep a missed slot, and no lease for a sweep, a heat map, a zone or a node-count study to vary: those sections of a leader's review are left out, not zero. Not modelled, and so not among the candidates: KeepAliveLockProvider and the nodes' own clocks instead of the database's (`usingDbTime()`), whose figures `leasesim settings --preset shedlock --keep-alive` and `--using-db-time=false` give. Nor is the provider a candidate: JDBC and Redis or Mongo differ only when a stale run ends late and frees its successor's lock, and `--provider` reviews the other.\n\n")
}

// writePerFireCandidates writes every candidate's row: its settings by
// ShedLock's options, its slot's calm runs, its year and its margin.
func (rv review) writePerFireCandidates(b *strings.Builder) {
	b.WriteString("## The candidates\n\n")
	fmt.Fprintf(b, "Every combination of lockAtMostFor and lockAtLeastFor the grid tries (lockAtMostFor around the current one, and 1.5, 2 and 4 times the task; lockAtLeastFor none, the fire spread, twice it, and the task and the spread; never above lockAtMostFor), each a year of %s slots and the review's outage events. A candidate whose task outlasts lockAtMostFor is never recommended, as a leader review never recommends settings under which two runs can write at once; among those that cost within %s of the least, the current settings are kept if they are among them, else the one with the widest margin from the task's end to lockAtMostFor's, then the shortest hold after a crash.\n\n",
		thousands(rv.PerFire.SlotsPerYear, 0), percent(rv.Material))
	b.WriteString("| settings | runs of a slot with no failure | missed lines a year | double lines a year | margin from the task's end | cost a year | |\n|---|---:|---:|---:|---:|---:|---|\n")
	named := rv.recommended()
	current := rv.Current().Candidate
	for i, r := range rv.Recommendation {
		var notes []string
		if r.Candidate == current {
			notes = append(notes, "current")
		}
		switch {
		case named[i] && rv.Weights == (cost.Weights{}):
			notes = append(notes, "on the Pareto front")
		case named[i]:
			notes = append(notes, "recommended")
		}
		if r.NoMargin {
			notes = append(notes, "never recommended: the task outlasts its lock")
		}
		costs := ""
		if rv.Weights != (cost.Weights{}) {
			costs = thousands(r.Cost(rv.Weights), 1)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", rv.name(r.Candidate), runsText(rv.PerFire.Calm[r.Candidate].Runs), thousands(r.MissedLines, 1), thousands(r.DoubleLines, 1), rv.holdMargin(r), costs, strings.Join(notes, ", "))
	}
	b.WriteString("\n")
}

// perFireWarnings is what report.md and standard error warn of under a
// per-fire lock: the base configuration's warnings but the calm runs',
// which the first screen counts a slot and a year, and a task that
// outlasts lockAtMostFor, which no fencing token guards under ShedLock.
func (rv review) perFireWarnings() []string {
	c, current := rv.Base, rv.Current()
	var ws []string
	for _, w := range c.Warnings(rv.Tick) {
		if !strings.Contains(w, "with no failure, outage or not") {
			ws = append(ws, w)
		}
	}
	if current.NoMargin {
		u := unit{rv.Tick}
		ws = append(ws, fmt.Sprintf("the task of %s outlasts lockAtMostFor %s, which nothing renews: the lock ends under the running task, and a fire after that runs it beside the first; ShedLock has no fencing token to refuse the stale run's writes, so lengthen lockAtMostFor past the task",
			u.span(c.BatchLen), u.span(current.Lease)))
	}
	return ws
}
