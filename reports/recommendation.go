package reports

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// writeRecommendation writes the answer report.md opens with: what each
// candidate costs a year over the review's outage mix, the current
// settings marked, then the settings to set (priced: what they change and
// which outages they ride out that the current ones do not) or the Pareto
// front to choose from (unpriced), and the assumptions the figures rest
// on.
func (rv review) writeRecommendation(b *strings.Builder) {
	u, ranks, current := unit{rv.Tick}, rv.Recommendation, rv.Current()
	priced := rv.Weights != cost.Weights{}
	b.WriteString("## The candidates\n\n")
	if priced {
		b.WriteString(rv.safetyRule() + "\n\n")
	}
	var mix []string
	for _, e := range rv.mix() {
		mix = append(mix, fmt.Sprintf("%s (%.0f%%)", u.event(e), 100*e.Weight))
	}
	each := "of " + strings.Join(mix, ", ")
	if rv.Incident != nil {
		each = fmt.Sprintf("the incident of `%s` (%s over %s)", rv.IncidentFile, plural(len(rv.Incident), "failure", "failures"), u.span(rv.Base.Outage))
	}
	fmt.Fprintf(b, "Assumed: %s outage events a year, each %s; %s invoice lines a batch. ",
		rate(rv.EventsPerYear[0]), each, thousands(float64(rv.LinesPerBatch), 0))
	fmt.Fprintf(b, "Each figure is the phase method's: the model run with %s starting at every phase of the batch and renewal cycles, averaged, the mean of the years the first screen's brackets spread; every yearly figure scales with the outage rate.\n\n", rv.event())

	delay, late := "delayed rounds a year", "late rounds a year"
	if rv.Tick != 0 {
		delay, late = "delay a year (h)", "lateness a year (h)"
	}
	last := "Pareto front"
	if priced {
		last = "cost a year"
	}
	settings, align := "lease", "---"
	switch {
	case rv.byOptions():
		settings = "setting (" + rv.optionKeys() + ")"
	case rv.varies():
		settings, align = "lease | renew deadline | retry period", "---|---|---"
	}
	if rv.policyVaries() {
		settings, align = settings+" | nodes, fencing, trigger", align+"|---"
	}
	fmt.Fprintf(b, "| %s | missed lines a year | double lines a year | %s | %s | handovers a year | %s |\n|%s|---:|---:|---:|---:|---:|---:|\n", settings, delay, late, last, align)
	front := cost.Pareto(ranks)
	for i, r := range ranks {
		lease := u.count(r.Lease)
		if o := rv.lockSetting(r.Candidate); o != "" {
			lease = "`" + o + "`"
		}
		if p := rv.PresetOf(r.Candidate); p != "" && rv.CandidateList != nil {
			lease += " (" + p + ")"
		}
		if r.NoMargin {
			lease += " (two leaders: no margin)"
		}
		if r.Candidate == current.Candidate {
			lease = "**" + lease + " (current)**"
		}
		if rv.varies() && !rv.byOptions() {
			lease += " | " + u.span(r.RenewDeadline) + " | " + u.span(r.RetryPeriod)
		}
		if rv.policyVaries() {
			lease += " | " + cmp.Or(andList(rv.policy(r.Candidate, current.Candidate)), "as deployed")
		}
		mark := ""
		switch {
		case priced:
			mark = thousands(r.Cost(rv.Weights), 1)
		case front[i]:
			mark = "yes"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", lease, thousands(r.MissedLines, 1), thousands(r.DoubleLines, 1), rv.delayText(r.DelayedRounds), rv.delayText(r.LateRounds), thousands(r.Handovers, 2), mark)
	}
	b.WriteString("\n")
	rv.writePartial(b)
	if rv.byOptions() {
		fmt.Fprintf(b, "Each candidate is named by the lock's own options (%s), as a candidate list takes them; the grid tries only values the library accepts and the round of %s holds.\n\n", rv.optionLibraries(), rv.Tick)
	} else if rv.Skipped > 0 {
		fmt.Fprintf(b, "Each candidate is written lease/renew deadline/retry period below. %s of the candidate lists do not go together and are left out: client-go wants a renew deadline shorter than the lease and, with jitter, longer than 1.2 retry periods.\n\n", plural(rv.Skipped, "combination", "combinations"))
	} else if rv.varies() {
		b.WriteString("Each candidate is written lease/renew deadline/retry period below.\n\n")
	}
	if rv.writeNoMargin(b, ranks) {
		rv.writeSensitivity(b)
		return
	}
	if priced && rv.varies() {
		rv.writeSettingsAnswer(b)
		fmt.Fprintf(b, " (prices: %s).\n\n", prices(rv.Weights, rv.Tick))
		rv.writeWhy(b)
		rv.writeSensitivity(b)
		return
	}
	if priced {
		d, _ := rv.decide()
		cheapest, best := d.Near, d.Top
		switch {
		case len(cheapest) == len(ranks):
			fmt.Fprintf(b, "**Every candidate lease costs the same**, %s a year: over these outages the lease does not decide what is lost, so keep %s", thousands(best.Cost(rv.Weights), 1), u.span(current.Lease))
		case len(cheapest) > 1 && d.Keep:
			fmt.Fprintf(b, "**Keep the lease at %s**: it costs %s a year, and %s cost no less by more than the rule's margin", u.span(current.Lease), thousands(current.Cost(rv.Weights), 1), leaseNames(u, without(cheapest, current.Candidate), ranks))
		case len(cheapest) > 1:
			fmt.Fprintf(b, "**Set the lease to %s**, by the rule above among %s, which cost about the same: %s a year, against %s for the current %s", u.span(best.Lease), leaseNames(u, cheapest, ranks), thousands(best.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1), u.span(current.Lease))
		case best.Candidate == current.Candidate:
			fmt.Fprintf(b, "**Keep the lease at %s**: %s a year, the least of the candidates", u.span(best.Lease), thousands(best.Cost(rv.Weights), 1))
		case current.NoMargin:
			fmt.Fprintf(b, "**Set the lease to %s**: %s a year, and unlike the current %s (%s a year) it leaves a two-leader margin", u.span(best.Lease), thousands(best.Cost(rv.Weights), 1), u.span(current.Lease), thousands(current.Cost(rv.Weights), 1))
		default:
			fmt.Fprintf(b, "**Set the lease to %s**: %s a year, against %s for the current %s", u.span(best.Lease), thousands(best.Cost(rv.Weights), 1), thousands(current.Cost(rv.Weights), 1), u.span(current.Lease))
		}
		fmt.Fprintf(b, " (prices: %s).\n\n", prices(rv.Weights, rv.Tick))
		rv.writeSensitivity(b)
		return
	}
	var onFront []cost.Rank
	currentOn := false
	for i, r := range ranks {
		if front[i] {
			onFront = append(onFront, r)
			currentOn = currentOn || r.Candidate == current.Candidate
		}
	}
	what, plural, other := "lease", "leases", "lease"
	if rv.varies() {
		what, plural, other = "settings", "candidates", "candidate"
	}
	fmt.Fprintf(b, "No prices were given, so no one %s is recommended: the %s to choose among are %s, the Pareto front (no other %s is as good in missed and double lines, delay and handovers, and better in one). ", what, plural, rv.names(onFront, ranks), other)
	switch {
	case currentOn:
		fmt.Fprintf(b, "The current %s is on it. ", what)
	case current.NoMargin:
		fmt.Fprintf(b, "The current %s is not: it leaves no two-leader margin. ", what)
	default:
		fmt.Fprintf(b, "The current %s is not: another %s is as good in every measure and better in one. ", what, other)
	}
	b.WriteString("Price a missed and a double line, an hour of delay and a handover (`--cost-missed-line`, `--cost-double-line`, `--cost-delay-hour`, `--cost-handover`, or a review file's `prices`) to have one chosen.\n\n")
	rv.writeSensitivity(b)
}

// writePartial names the losses from batches cut mid-run, for a batch
// that takes time: how many of the current settings' missed lines are of
// partial batches (started, then not finished), and how many such
// batches a year; and the cheapest candidate's, if it is another.
func (rv review) writePartial(b *strings.Builder) {
	if rv.Base.BatchLen <= 1 {
		return
	}
	cur := rv.Current()
	fmt.Fprintf(b, "Partial batches: of the current settings' %s missed lines a year, %s are of batches cut mid-run (%s partial batches a year: started, and some part of them never written, as their run could not reach the store or was stopped)",
		thousands(cur.MissedLines, 1), thousands(cur.PartialLines, 1), thousands(cur.PartialBatches, 2))
	if d, ok := rv.decide(); rv.Weights != (cost.Weights{}) && ok && !d.Keep {
		top := d.Top
		fmt.Fprintf(b, "; with %s, %s of its %s missed lines, from %s partial batches a year", rv.name(top.Candidate), thousands(top.PartialLines, 1), thousands(top.MissedLines, 1), thousands(top.PartialBatches, 2))
	}
	b.WriteString(".\n\n")
}

// recommended reports for each candidate whether report.md's verdict
// names it: priced, the one it recommends (the current settings when it
// keeps them, cost.Decision.Top); unpriced, the Pareto front. A candidate
// with no two-leader margin is never named.
func (rv review) recommended() []bool {
	ranks := rv.Recommendation
	if rv.Weights == (cost.Weights{}) {
		return cost.Pareto(ranks)
	}
	d, ok := rv.decide()
	named := make([]bool, len(ranks))
	for i, r := range ranks {
		named[i] = ok && r.Candidate == d.Top.Candidate
	}
	return named
}

// writeCandidatesCSV writes the decision as a table a CI job can gate on:
// one row per candidate, its settings and least two-leader margin by its
// lock's own figures (-inf without a bound; empty for the publication's
// round model, which no library sets), its yearly figures and cost (empty
// without prices), whether it is the current settings and whether
// report.md's verdict names it (recommended), then its node count,
// fencing and trigger policy (policyParams, as a sweep's CSV writes them),
// the preset its lease settings are, if any, and its other safety
// figures: takeover after a crash (min, median, max), the clock skew its
// margin tolerates (a share) and the longest outage it rides out with
// calls failing and with calls hanging (min, max), then the delay a
// year of its batches' starts and their lateness (how much later than
// due their last parts came), and last its setting by its library's
// options, as a candidate list takes it ("session_ttl=60s
// lock_delay=15s", client-go's "lease=15s renew_deadline=10s
// retry_period=2s"; empty without a tick). With a tick, times are in
// seconds, under names that say so.
func (rv review) writeCandidatesCSV(w io.Writer) error {
	t, current := rv.Tick, rv.Current().Candidate
	in := strings.TrimPrefix(t.Name(model.Lease), "lease") // "_s", or "_rounds"
	b := fmt.Appendf(nil, "%s,%s,%s,%s,missed_lines_per_year,double_lines_per_year,handovers_per_year,cost_per_year,current,recommended,",
		t.Name(model.Lease), t.Name(model.RenewDeadline), t.Name(model.RetryPeriod), strings.Replace(t.Name(model.Lease), "lease", "two_leader_margin", 1))
	b = t.AppendNames(b, policyParams...)
	b = append(b, "preset"...)
	for _, f := range []string{"takeover_after_crash_min", "takeover_after_crash_median", "takeover_after_crash_max", "", "fast_fail_outage_survived_min", "fast_fail_outage_survived_max", "black_hole_outage_survived_min", "black_hole_outage_survived_max"} {
		if f == "" {
			b = append(b, ",skew_tolerated"...)
			continue
		}
		b = append(append(append(b, ','), f...), in...)
	}
	b = fmt.Appendf(b, ",start_delay%s_per_year,lateness%s_per_year,setting\n", in, in)
	scale := 1.0 // the delays in seconds with a tick, else in rounds
	if t != 0 {
		scale = t.Seconds(1)
	}
	named := rv.recommended()
	for i, r := range rv.Recommendation {
		b = t.AppendValue(b, model.Lease, r.Lease)
		b = append(b, ',')
		b = t.AppendValue(b, model.RenewDeadline, r.RenewDeadline)
		b = append(b, ',')
		b = t.AppendValue(b, model.RetryPeriod, r.RetryPeriod)
		b = append(b, ',')
		s := r.Safety
		if s.Known {
			b = appendFigure(b, s.Margin.Min)
		}
		b = fmt.Appendf(b, ",%.6f,%.6f,%.6f,", r.MissedLines, r.DoubleLines, r.Handovers)
		if rv.Weights != (cost.Weights{}) {
			b = fmt.Appendf(b, "%.6f", r.Cost(rv.Weights))
		}
		b = fmt.Appendf(b, ",%t,%t,", r.Candidate == current, named[i])
		c := r.Apply(rv.Base)
		for j, p := range policyParams {
			if j > 0 {
				b = append(b, ',')
			}
			b = t.AppendValue(b, p, c.Get(p))
		}
		b = fmt.Appendf(b, ",%s", rv.PresetOf(r.Candidate))
		for _, v := range []float64{s.Crash.Min, s.Crash.Median, s.Crash.Max, s.Skew, s.FastFail.Min, s.FastFail.Max, s.BlackHole.Min, s.BlackHole.Max} {
			b = append(b, ',')
			if s.Known {
				b = appendFigure(b, v)
			}
		}
		b = fmt.Appendf(b, ",%.6f,%.6f,", scale*r.DelayedRounds, scale*r.LateRounds)
		b = append(append(b, rv.Setting(r.Candidate)...), '\n')
	}
	_, err := w.Write(b)
	return err
}

// writeNoMargin says which candidates leave no two-leader margin
// (cost.Rank.NoMargin), and so are never recommended, and reports
// whether that is every one of them: then there is nothing to recommend.
func (rv review) writeNoMargin(b *strings.Builder, ranks []cost.Rank) bool {
	var none []cost.Rank
	for _, r := range ranks {
		if r.NoMargin {
			none = append(none, r)
		}
	}
	if len(none) == 0 {
		return false
	}
	u, c := unit{rv.Tick}, rv.Base
	giveUp := u.span(c.RetryPeriod + c.RenewDeadline)
	if c.Protocol != model.ProtocolClientGo { // the lock's own account of its margin
		if len(none) == len(ranks) {
			fmt.Fprintf(b, "**No candidate is safe without fencing**: %s. No setting of the lock's options changes that: turn on fencing, so that the store refuses a stale holder's writes.", rv.noMarginWhy())
			if set, figure := rv.fencedSetting(); set != "" {
				fmt.Fprintf(b, " Then %s: %s.", set, figure)
			}
			b.WriteString("\n\n")
			return true
		}
		fmt.Fprintf(b, "Not recommended whatever they cost: %s, which leave no two-leader margin (%s) and no fencing.\n\n", rv.names(none, ranks), rv.noMarginWhy())
		return false
	}
	if len(none) == len(ranks) {
		fmt.Fprintf(b, "**No candidate lease is safe**: with a retry period of %s and a renew deadline of %s, a leader cut off from the record gives up %s after its last renewal, and no candidate lease is longer, so a follower can take over before it does, and without fencing both write. Lengthen the lease past %s, shorten the renew deadline, or turn on fencing.\n\n",
			u.span(c.RetryPeriod), u.span(c.RenewDeadline), giveUp, giveUp)
		return true
	}
	if rv.varies() {
		fmt.Fprintf(b, "Not recommended whatever they cost: %s. With these a leader cut off from the record gives up a retry period and its renew deadline after its last renewal, no sooner than a follower takes over, and without fencing both write.\n\n", rv.names(none, ranks))
		return false
	}
	which := "Leases %s are not recommended whatever they cost"
	if len(none) == 1 {
		which = "Lease %s is not recommended whatever it costs"
	}
	fmt.Fprintf(b, which+": a leader cut off from the record gives up %s after its last renewal (retry period and renew deadline), no sooner than a follower takes over, and without fencing both write.\n\n",
		leaseNames(u, none, ranks), giveUp)
	return false
}

// writeSensitivity writes what the answer is with each assumption halved
// and doubled: the cheapest lease (priced) or the Pareto front.
func (rv review) writeSensitivity(b *strings.Builder) {
	priced := rv.Weights != cost.Weights{}
	answer := func(ranks []cost.Rank) string {
		if priced {
			d, ok := rv.Decide(ranks)
			if !ok {
				return "none safe"
			}
			cheapest := d.Near
			named := rv.names(cheapest, ranks)
			switch {
			case len(cheapest) == len(ranks):
			case d.Keep && len(cheapest) == 1:
				named = "the current " + rv.name(rv.Current().Candidate)
			case d.Keep: // kept, as the verdict keeps it, and how many cost about as little
				named = fmt.Sprintf("the current %s and %d as cheap", rv.name(rv.Current().Candidate), len(cheapest)-1)
			case len(cheapest) > 1: // the safest, as the verdict sets it, and how many cost about as little
				named = fmt.Sprintf("%s and %d as cheap", rv.name(d.Top.Candidate), len(cheapest)-1)
			}
			return fmt.Sprintf("%s, %s a year", named, thousands(d.Top.Cost(rv.Weights), 1))
		}
		var onFront []cost.Rank
		for i, on := range cost.Pareto(ranks) {
			if on {
				onFront = append(onFront, ranks[i])
			}
		}
		return rv.names(onFront, ranks)
	}
	what := "the Pareto front"
	switch {
	case priced && rv.varies():
		what = "the cheapest candidates"
	case priced:
		what = "the cheapest lease"
	}
	fmt.Fprintf(b, "What moves the answer: %s with each assumption halved and doubled. The outage rate scales every yearly figure alike, so it moves the cost but never the lease; the lines a batch weigh lines against delay and handovers; the outage and batch lengths are measured again.\n\n", what)
	fmt.Fprintf(b, "| assumption | ×½ | as assumed | ×2 |\n|---|---|---|---|\n")
	base := answer(rv.Recommendation)
	for i := 0; i+1 < len(rv.Sensitivity); i += 2 {
		half, double := rv.Sensitivity[i], rv.Sensitivity[i+1]
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", half.Assumption, answer(half.Ranks), base, answer(double.Ranks))
	}
	b.WriteString("\n")
}

// without returns ranks without the rank of k.
func without(ranks []cost.Rank, k cost.Candidate) []cost.Rank {
	return slices.DeleteFunc(slices.Clone(ranks), func(r cost.Rank) bool { return r.Candidate == k })
}

// mix is the review's outage mix, or its base outage alone.
func (rv review) mix() []cost.MixEntry {
	if rv.Mix != nil {
		return rv.Mix
	}
	return []cost.MixEntry{{Outage: rv.Base.Outage, Weight: 1}}
}

// delayText is delayed (or late) rounds a year as the table shows them: rounds, or
// hours with a tick.
func (rv review) delayText(rounds float64) string {
	if rv.Tick == 0 {
		return thousands(rounds, 1)
	}
	return thousands(rv.Tick.Seconds(rounds)/3600, 2)
}

// leaseNames lists the leases of some, a subset of the candidates all in
// their order: "5s, 15s and 1m0s". Three or more candidates in a row are
// written as a span, "6 rounds to 12 rounds", and all of them as "every
// candidate".
func leaseNames(u unit, some, all []cost.Rank) string {
	if len(some) == len(all) && len(all) > 2 {
		return "every candidate"
	}
	at := make(map[cost.Candidate]int, len(all)) // a candidate's place in all
	for i, a := range all {
		if _, ok := at[a.Candidate]; !ok {
			at[a.Candidate] = i
		}
	}
	index := func(r cost.Rank) int {
		if i, ok := at[r.Candidate]; ok {
			return i
		}
		return -1
	}
	var names []string
	for i := 0; i < len(some); {
		j := i
		for j+1 < len(some) && index(some[j+1]) == index(some[j])+1 {
			j++
		}
		if j-i >= 2 {
			names = append(names, fmt.Sprintf("%s to %s", u.span(some[i].Lease), u.span(some[j].Lease)))
		} else {
			for k := i; k <= j; k++ {
				names = append(names, u.span(some[k].Lease))
			}
		}
		i = j + 1
	}
	return andList(names)
}

// prices says what the weights price, leaving out the zero ones; with a
// tick, delay is priced by the hour.
func prices(w cost.Weights, t model.Tick) string {
	var ps []string
	add := func(v float64, what string) {
		if v != 0 {
			ps = append(ps, fmt.Sprintf("%s %s", thousands(v, -1), what))
		}
	}
	add(w.MissedLine, "a missed line")
	add(w.DoubleLine, "a double line")
	if t != 0 {
		add(w.DelayedRound*3600/t.Seconds(1), "an hour of delay")
	} else {
		add(w.DelayedRound, "a delayed round")
	}
	add(w.Handover, "a handover")
	return strings.Join(ps, ", ")
}

// thousands writes x with prec decimals (-1: as few as needed) and commas
// between groups of three digits: 50,000 and 1,234.5.
func thousands(x float64, prec int) string {
	s := fmt.Sprintf("%.*f", max(prec, 0), x)
	if prec < 0 {
		s = strings.TrimRight(strings.TrimRight(fmt.Sprintf("%f", x), "0"), ".")
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// varies reports whether the candidates differ in more than the lease
// (in the renew deadline, the retry period or, listed by hand, the
// policy: policyVaries), or are named by a lock's options (byOptions):
// then the table shows each one's renew deadline and retry period, or
// its setting, and the answer names candidates as lease/renew
// deadline/retry period, or by the options.
func (rv review) varies() bool {
	current := rv.Current()
	return rv.byOptions() || slices.ContainsFunc(rv.Recommendation, func(r cost.Rank) bool {
		return r.RenewDeadline != current.RenewDeadline || r.RetryPeriod != current.RetryPeriod || !r.SamePolicy(current.Candidate)
	})
}

// policyParams is the parameters a listed candidate may change beyond
// the lease settings, in cost.Candidate's order: candidates.csv's last
// columns but the preset.
var policyParams = []model.Param{model.Nodes, model.Fencing, model.PersistentTrigger, model.CatchUpWindow, model.CatchUpOnce, model.IdempotencyKey, model.Overlap,
	model.OnCut, model.RunsIn, model.Protocol, model.LockDelay, model.Jitter, model.AcquireWait, model.DisconnectDelay}

// policyVaries reports whether some candidate changes the node count,
// fencing or the trigger policy (a candidate listed by hand), or its
// lock beyond what its options name: then the table shows what each
// changes, and the answer names it.
func (rv review) policyVaries() bool {
	current := rv.Current()
	return slices.ContainsFunc(rv.Recommendation, func(r cost.Rank) bool {
		return !rv.beyondOptions(r.Candidate, current.Candidate).SamePolicy(current.Candidate)
	})
}

// policyChange is one thing a candidate changes beyond the lease
// settings, said two ways: as what it has ("fencing", "no persistent
// trigger") and as what to do ("turn on fencing").
type policyChange struct{ has, do string }

// timeChange appends to cs the change of a setting that is a time (0 for
// none), named what, from current to k, if they differ.
func (u unit) timeChange(cs []policyChange, k, current int, what string) []policyChange {
	switch {
	case k == current:
		return cs
	case k == 0:
		return append(cs, policyChange{"no " + what, "drop the " + what})
	}
	article := "a "
	if strings.ContainsRune("aeiou", rune(what[0])) {
		article = "an "
	}
	d := u.span(k)
	return append(cs, policyChange{article + what + " of " + d, "set the " + what + " to " + d})
}

// policyDiff is what setting k instead of current changes beyond the
// lease settings: the node count, fencing and the trigger policy, in that
// order.
func policyDiff(k, current cost.Candidate, u unit) []policyChange {
	var cs []policyChange
	if k.Nodes != current.Nodes {
		n := plural(k.Nodes, "node", "nodes")
		cs = append(cs, policyChange{n, "run " + n})
	}
	for _, f := range []struct {
		on, was   bool
		what, the string // the switch, and as the instruction names it
	}{{k.Fencing, current.Fencing, "fencing", "fencing"}, {k.PersistentTrigger, current.PersistentTrigger, "persistent trigger", "the persistent trigger"},
		{k.CatchUpOnce, current.CatchUpOnce, "catch-up once", "catch-up once"}, {k.IdempotencyKey, current.IdempotencyKey, "idempotency key", "the idempotency key"}} {
		switch {
		case f.on && !f.was:
			cs = append(cs, policyChange{f.what, "turn on " + f.the})
		case !f.on && f.was:
			cs = append(cs, policyChange{"no " + f.what, "turn off " + f.the})
		}
	}
	cs = u.timeChange(cs, k.CatchUpWindow, current.CatchUpWindow, "catch-up window")
	if k.Overlap != current.Overlap {
		o := model.Overlap.Names()[k.Overlap]
		cs = append(cs, policyChange{"overlap " + o, "set the overlap policy to " + o})
	}
	if k.OnCut != current.OnCut {
		o := model.OnCut.Names()[k.OnCut]
		has := map[model.CutPolicy]string{model.CutNone: "cut batches left cut", model.CutRerun: "cut batches rerun", model.CutResume: "cut batches resumed"}[k.OnCut]
		cs = append(cs, policyChange{has, "set on_cut to " + o})
	}
	if k.RunsIn != current.RunsIn {
		has, do := "the batch in a Job", "run the batch in a Job the leader starts"
		if k.RunsIn == model.RunsInLeader {
			has, do = "the batch in the leader", "run the batch in the leader's process"
		}
		cs = append(cs, policyChange{has, do})
	}
	if k.Protocol != current.Protocol {
		p := model.Protocol.Names()[k.Protocol]
		cs = append(cs, policyChange{p + "'s protocol", "take " + p + "'s lock"})
	}
	cs = u.timeChange(cs, k.LockDelay, current.LockDelay, "lock-delay")
	cs = u.timeChange(cs, k.AcquireWait, current.AcquireWait, "acquire wait")
	cs = u.timeChange(cs, k.DisconnectDelay, current.DisconnectDelay, "disconnect delay")
	switch {
	case k.Jitter == current.Jitter || k.Protocol != current.Protocol: // a lock's own: client-go's followers jitter, the others watch
	case k.Jitter:
		cs = append(cs, policyChange{"jitter", "turn on the followers' jitter"})
	default:
		cs = append(cs, policyChange{"no jitter", "turn off the followers' jitter"})
	}
	return cs
}

// policy is what k changes against current beyond the lease settings
// (and a lock's options, which name it), in words: "2 nodes", "fencing",
// "no persistent trigger", "a catch-up window of 1h0m0s", "overlap
// skip".
func (rv review) policy(k, current cost.Candidate) []string {
	var ws []string
	for _, c := range policyDiff(rv.beyondOptions(k, current), current, unit{rv.Tick}) {
		ws = append(ws, c.has)
	}
	return ws
}

// policyChanges is what setting k instead of current changes beyond the
// lease settings (and a lock's options), as instructions: "run 2 nodes",
// "turn on fencing", "turn off the persistent trigger", "set the
// catch-up window to 1h0m0s", "set the overlap policy to skip".
func (rv review) policyChanges(k, current cost.Candidate) []string {
	var cs []string
	for _, c := range policyDiff(rv.beyondOptions(k, current), current, unit{rv.Tick}) {
		cs = append(cs, c.do)
	}
	return cs
}

// name is how the answer names candidate k: its lease, or with varies
// lease/renew deadline/retry period, "45s/40s/2s", or under a lock of
// its own its options, "session_ttl=60s", and with policyVaries what it
// changes beyond them, "45s/40s/2s with 2 nodes and fencing".
func (rv review) name(k cost.Candidate) string {
	u := unit{rv.Tick}
	s := u.span(k.Lease)
	if o := rv.lockSetting(k); o != "" {
		s = "`" + o + "`"
	} else if rv.varies() {
		s += "/" + u.span(k.RenewDeadline) + "/" + u.span(k.RetryPeriod)
	}
	if p := rv.policy(k, rv.Current().Candidate); p != nil {
		s += " with " + andList(p)
	}
	return s
}

// names lists some of the candidates all, in their order: the leases as
// leaseNames writes them, or with varies each candidate's name, and
// "every candidate" for all of three or more.
func (rv review) names(some, all []cost.Rank) string {
	if !rv.varies() && !rv.policyVaries() {
		return leaseNames(unit{rv.Tick}, some, all)
	}
	if len(some) == len(all) && len(all) > 2 {
		return "every candidate"
	}
	var ns []string
	for _, r := range some {
		ns = append(ns, rv.name(r.Candidate))
	}
	return andList(ns)
}

// writeSettingsAnswer writes the priced answer over candidates that
// differ in more than the lease: keep the current settings, or what to
// change (the first of the cheapest, in the candidates' order) and the
// candidates that cost as little.
func (rv review) writeSettingsAnswer(b *strings.Builder) {
	ranks, current := rv.Recommendation, rv.Current()
	d, _ := rv.decide()
	cheapest, top := d.Near, d.Top
	least := thousands(top.Cost(rv.Weights), 1)
	switch {
	case len(cheapest) == len(ranks):
		fmt.Fprintf(b, "**Every candidate costs the same**, %s a year: over these outages the settings do not decide what is lost, so keep the current %s", least, rv.name(current.Candidate))
	case d.Keep:
		fmt.Fprintf(b, "**Keep the current settings, %s**: %s a year, no candidate cheaper by more than the rule's margin", rv.name(current.Candidate), least)
	default:
		also := ""
		if len(cheapest) > 1 {
			also = ", the safest of it and " + rv.names(cheapest[1:], ranks) + ", which cost about as little"
		}
		unsafe := ""
		if current.NoMargin {
			unsafe = ", which leaves no two-leader margin"
		}
		fmt.Fprintf(b, "**%s** (%s%s): %s a year against %s for the current %s%s", rv.change(top.Candidate, current.Candidate), rv.name(top.Candidate), also, least, thousands(current.Cost(rv.Weights), 1), rv.name(current.Candidate), unsafe)
	}
}

// change says what setting k instead of current changes: "Raise the
// renew deadline to 40s and the lease to 45s", the renew deadline first
// (it decides which outages a leader rides out), then the lease and the
// retry period, then what it changes beyond them ("use 2 nodes and
// fencing"); opened by the preset k's lease settings are, if they are
// one and the current ones are not ("Use the openshift preset: raise …").
func (rv review) change(k, current cost.Candidate) string {
	u := unit{rv.Tick}
	raise, lower := rv.optionChanges(k, current)
	for _, f := range []struct {
		what     string
		to, from int
	}{{"the renew deadline", k.RenewDeadline, current.RenewDeadline}, {"the lease", k.Lease, current.Lease}, {"the retry period", k.RetryPeriod, current.RetryPeriod}} {
		switch {
		case rv.lockSetting(k) != "": // said by its lock's options
		case f.to > f.from:
			raise = append(raise, f.what+" to "+u.span(f.to))
		case f.to < f.from:
			lower = append(lower, f.what+" to "+u.span(f.to))
		}
	}
	var parts []string
	if raise != nil {
		parts = append(parts, "raise "+andList(raise))
	}
	if lower != nil {
		parts = append(parts, "lower "+andList(lower))
	}
	parts = append(parts, rv.policyChanges(k, current)...)
	s := strings.Join(parts, ", and ")
	if p := rv.PresetOf(k); p != "" && p != rv.PresetOf(current) {
		s = "use the " + p + " preset: " + s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeWhy says, for a top choice other than the current settings, which
// outages of the mix it rides out that the current settings hand over at
// (no handover for it, at least half an event's for them), and what it
// saves or costs more on each other outage, from the recommendation over
// each outage alone (ByOutage).
func (rv review) writeWhy(b *strings.Builder) {
	ranks, current := rv.Recommendation, rv.Current()
	d, ok := rv.decide()
	if !ok || len(d.Near) == len(ranks) || d.Keep {
		return
	}
	top := d.Top
	ti := slices.IndexFunc(ranks, func(r cost.Rank) bool { return r.Candidate == top.Candidate })
	ci := slices.IndexFunc(ranks, func(r cost.Rank) bool { return r.Candidate == current.Candidate })
	u, rate := unit{rv.Tick}, rv.EventsPerYear[0]
	var ridden, less, more, same []string
	for j, e := range rv.mix() {
		what := "the " + u.event(e) + " outages"
		if rv.Incident != nil {
			what = "the incident"
		}
		t, c := rv.ByOutage[j][ti], rv.ByOutage[j][ci]
		saved := e.Weight * (c.Cost(rv.Weights) - t.Cost(rv.Weights))
		share := fmt.Sprintf(" (%.0f%% of events, %s a year less)", 100*e.Weight, thousands(saved, 1))
		switch {
		case t.Handovers < 0.005*rate && c.Handovers >= 0.5*rate:
			ridden = append(ridden, what+share)
		case saved >= 0.05:
			less = append(less, what+share)
		case saved <= -0.05:
			more = append(more, fmt.Sprintf("%s (%s a year more)", what, thousands(-saved, 1)))
		default:
			same = append(same, what)
		}
	}
	var parts []string
	switch {
	case current.NoMargin && top.Safety.Margin.Min > 0:
		parts = append(parts, fmt.Sprintf("it leaves a two-leader margin of %s, where with the current settings a follower can take over before a cut-off leader gives up", u.seconds(top.Safety.Margin.Min)))
	case current.NoMargin: // fenced
		parts = append(parts, "its fencing refuses a cut-off leader's stale work, where with the current settings a follower can take over before that leader gives up and both write")
	}
	if ridden != nil {
		parts = append(parts, "it rides out "+andList(ridden)+", where the current settings hand over")
	}
	if less != nil {
		parts = append(parts, "it loses less to "+andList(less))
	}
	if more != nil {
		parts = append(parts, "it loses more to "+andList(more))
	}
	if same != nil {
		parts = append(parts, andList(same)+" cost the same with either")
	}
	fmt.Fprintf(b, "Why: against the current settings, %s.\n\n", strings.Join(parts, "; "))
}

// andList joins items as "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// appendFigure appends a safety figure as candidates.csv writes it: to
// the millisecond (a share to a thousandth of a percent), "inf" or "-inf"
// without a bound.
func appendFigure(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "inf"...)
	case math.IsInf(v, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, math.Round(v*1e5)/1e5, 'f', -1, 64)
}

// event names an outage event of the mix: its length, and for a failure
// mix's its scope and kind, "30s, every node isolated".
func (u unit) event(e cost.MixEntry) string {
	if e.Scope == cost.ScopeAsConfigured && e.Kind == model.AsConfigured {
		return u.span(e.Outage)
	}
	return u.span(e.Outage) + ", " + failureOf(e)
}

// failureOf is a failure mix entry's scope and kind, as a sentence names
// them: "every node isolated", "the leader paused".
func failureOf(e cost.MixEntry) string {
	nodes := map[cost.Scope]string{cost.ScopeLeader: "the leader", cost.ScopeOneNode: "one node", cost.ScopeZone: fmt.Sprintf("a zone of %d nodes", e.Zone), cost.ScopeEveryNode: "every node"}[e.Scope]
	return nodes + " " + e.Kind.Behaviour().Said
}
