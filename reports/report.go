package reports

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
)

// review is a study.Review as this package renders it.
type review struct{ *study.Review }

// File is one file of the report: its name and how it is written.
type File struct {
	Name  string
	Write func(w io.Writer) error
}

// Files returns every text and CSV file of the report of rv, report.md
// last.
func Files(rv *study.Review) []File { return review{rv}.files() }

func (rv review) files() []File {
	if rv.PerFire != nil {
		return rv.perFireFiles()
	}
	runs := func(rs []study.Result) func(io.Writer) error {
		return func(w io.Writer) error {
			b := sweep.AppendHeader(nil, rv.Tick)
			for _, r := range rs {
				b = sweep.AppendRecord(b, rv.Tick, &r.Config, &r.Stats)
			}
			_, err := w.Write(b)
			return err
		}
	}
	return []File{
		{"measure.txt", func(w io.Writer) error {
			if err := WriteMeasure(w, rv.Tick, rv.Measure); err != nil {
				return err
			}
			if k := rv.mixKinds(); k != "" {
				_, err := fmt.Fprintf(w, "\nThe table's outage is %s.\n", k)
				return err
			}
			return nil
		}},
		{"cost.txt", func(w io.Writer) error { return WriteWindowCost(w, rv.CostAt(0)) }},
		{"cost-both.txt", func(w io.Writer) error { return WriteBothCost(w, rv.CostAt(0)) }},
		{"variants.csv", runs(rv.Arrangements)},
		{"lease-sweep.csv", runs(rv.LeaseSweep)},
		{"heatmap.csv", runs(rv.Heat)},
		{"cost.csv", func(w io.Writer) error { return cost.WriteCostCSV(w, rv.Tick, rv.Projections()) }},
		{"candidates.csv", rv.writeCandidatesCSV},
		{"quorum.csv", runs(rv.Zone)},
		{"nodes.csv", func(w io.Writer) error {
			b := rv.NodeStudy.AppendHeader(nil)
			for _, s := range rv.Nodes {
				b = rv.NodeStudy.AppendRow(b, &s)
			}
			_, err := w.Write(b)
			return err
		}},
		{"timeline.txt", func(w io.Writer) error {
			var b []byte
			if rv.Tick != 0 {
				b = fmt.Appendf(b, "one round = %s: round t ends %s·t after the run begins\n", rv.Tick, rv.Tick)
			}
			_, err := w.Write(model.AppendTraceRounds(b, rv.Base, rv.Timeline))
			return err
		}},
		{"report.md", rv.writeMarkdown},
	}
}

// ParquetFiles returns the report's CSV files of rv written as Parquet
// (parquetcsv), each beside its CSV as NAME.parquet: the same columns,
// each typed by its name (parquetcsv.Kinds), the file's rows one row
// group.
func ParquetFiles(rv *study.Review) []File {
	var files []File
	for _, f := range Files(rv) {
		name, ok := strings.CutSuffix(f.Name, ".csv")
		if !ok {
			continue
		}
		files = append(files, File{name + ".parquet", func(w io.Writer) error {
			pq := parquetcsv.NewWriter(w, parquetcsv.Kinds(rv.Tick))
			if err := f.Write(pq); err != nil {
				return err
			}
			return pq.Close()
		}})
	}
	return files
}

// WriteDir writes the whole report of rv into dir, creating it if need be, all
// or nothing (atomicfile.WriteDir): an error or a cancelled ctx leaves dir
// as it was, and so does an error of then, if not nil, which runs once
// the files are in place. More is files written beside the report's, as
// ParquetFiles.
func WriteDir(ctx context.Context, rv *study.Review, dir string, then func() error, more ...File) error {
	var files []atomicfile.File
	for _, f := range append(Files(rv), more...) {
		files = append(files, atomicfile.File{Name: f.Name, Write: f.Write})
	}
	for _, f := range Figures(rv) {
		files = append(files, atomicfile.File{Name: f.Name, Write: func(w io.Writer) error { _, err := f.WriteTo(w); return err }})
	}
	return atomicfile.WriteDir(ctx, dir, files, then)
}

// writeMarkdown writes report.md: every plot and table with a reading
// computed from the numbers.
func (rv review) writeMarkdown(w io.Writer) error {
	var b strings.Builder
	c := rv.Base
	b.WriteString(rv.title() + "\n\n")
	rv.writeFirstScreen(&b)
	for _, w := range rv.warnings() {
		fmt.Fprintf(&b, "**Warning:** %s.\n\n", w)
	}
	b.WriteString("Written by `leasesim report`. Every figure is computed by the round model; the sections below are the evidence, and the files beside this one hold the numbers.\n\n")

	rv.writeRecommendation(&b)

	b.WriteString("## Parameters\n\n")
	if rv.Tick != 0 {
		fmt.Fprintf(&b, "One round of the model is %s; every time below is in seconds or a duration, counted from the run's start where it is a moment.\n\n", rv.Tick)
	}
	b.WriteString("| parameter | value |\n|---|---|\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		fmt.Fprintf(&b, "| %s | %s |\n", rv.Tick.Name(p), rv.Tick.AppendValue(nil, p, c.Get(p)))
	}
	fmt.Fprintf(&b, "| outage events per year | %s |\n| invoice lines per batch | %d |\n\n", rates(rv.EventsPerYear), rv.LinesPerBatch)
	fmt.Fprintf(&b, "Scenario: %s", describe(rv.Tick, c, rv.IncidentFile, rv.Incident))
	if rv.Incident != nil {
		fmt.Fprintf(&b, " The lease sweep, the heat map and the zone study vary a group outage instead, as long as the incident's span (%s).", unit{rv.Tick}.span(c.Outage))
	}
	if k := rv.mixKinds(); k != "" {
		fmt.Fprintf(&b, " The scenario's failure is %s.", k)
	}
	b.WriteString("\n\n")
	rv.writeDeployment(&b)

	rv.writeArrangements(&b)
	rv.writeTimeline(&b)
	rv.writeLease(&b)
	rv.writeHeat(&b)
	rv.writeCost(&b)
	rv.writeZone(&b)
	rv.writeNodes(&b)
	rv.writeWindowAppendix(&b)

	b.WriteString("## Files\n\n")
	for _, f := range rv.files() {
		fmt.Fprintf(&b, "- `%s`\n", f.Name)
	}
	for _, f := range rv.figures() {
		fmt.Fprintf(&b, "- `%s`\n", f.Name)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeDeployment says what every section below runs: the deployment as
// deployed, against its study outage, and why that outage and start.
func (rv review) writeDeployment(b *strings.Builder) {
	c, u := rv.Base, unit{rv.Tick}
	batch := "an instant batch"
	if c.BatchLen > 1 {
		batch = "a batch of " + u.span(c.BatchLen)
	}
	fmt.Fprintf(b, "Every section below runs the deployment as deployed (%s, %s, %s), unless it says what it varies and why. ",
		onOff("fencing", c.Fencing), onOff("the persistent trigger", c.PersistentTrigger), batch)
	if rv.Incident != nil {
		b.WriteString("The single runs meet the incident as written.\n\n")
		return
	}
	if rv.Failures != nil {
		rv.writeFailures(b)
	}
	why := "the review's outage"
	switch {
	case rv.Failures != nil:
		common := slices.MaxFunc(rv.Mix, func(a, b cost.MixEntry) int { return cmp.Compare(a.Weight, b.Weight) })
		why = fmt.Sprintf("the mix's most common event, %.0f%% of events: %s", 100*common.Weight, u.event(common))
		if common.Kind == model.Slowed {
			why += ", its calls hanging as black-holed ones do, until they time out"
		}
	case rv.OutageFromMix:
		why = fmt.Sprintf("the mix's most common, %.0f%% of events", 100*rv.mixWeight(c.Outage))
	case rv.Mix != nil && rv.mixWeight(c.Outage) > 0:
		why = fmt.Sprintf("the review's outage, %.0f%% of the mix's events", 100*rv.mixWeight(c.Outage))
	case rv.Mix != nil:
		why = "the review's outage, which is not in the mix"
	}
	fmt.Fprintf(b, "The single runs (the arrangements, the timeline, the zone study) meet one outage of %s (%s)", u.span(c.Outage), why)
	if rv.MidBatch {
		fmt.Fprintf(b, ", from %s, halfway through the first batch: a batch that takes time loses lines when an outage cuts it mid-run", u.at(c.Start))
	}
	if rv.Mix != nil {
		b.WriteString("; the recommendation and the cost section's summary figures weigh every outage of the mix")
	}
	b.WriteString(".\n\n")
}

// writeFailures says the review's failure mix, an entry each: its
// events a year, kind, scope and lengths.
func (rv review) writeFailures(b *strings.Builder) {
	u := unit{rv.Tick}
	var es []string
	for _, e := range rv.Failures {
		var lengths []string
		for _, l := range e.Lengths {
			if len(e.Lengths) == 1 {
				lengths = append(lengths, u.span(l.Outage))
				break
			}
			lengths = append(lengths, fmt.Sprintf("%s (%.0f%%)", u.span(l.Outage), 100*l.Weight))
		}
		nodes := map[cost.Scope]string{cost.ScopeLeader: "the leader", cost.ScopeOneNode: "one node (wherever it is)", cost.ScopeZone: fmt.Sprintf("a zone of %d nodes (wherever it is)", rv.ZoneNodes()), cost.ScopeEveryNode: "every node at once"}[e.Scope]
		es = append(es, fmt.Sprintf("%s a year of %s %s for %s", rate(e.PerYear), nodes, e.Kind.Behaviour().Said, strings.Join(lengths, " or ")))
	}
	fmt.Fprintf(b, "The deployment's failures (the failure mix): %s; %s events a year in all. ", strings.Join(es, "; "), rate(rv.EventsPerYear[0]))
}

// onOff writes a setting as "fencing on" or "fencing off".
func onOff(what string, on bool) string {
	if on {
		return what + " on"
	}
	return what + " off"
}

// mixWeight is the share of the review's outage events that last outage
// rounds: 0 if the mix has none.
func (rv review) mixWeight(outage int) float64 {
	for _, e := range rv.mix() {
		if e.Outage == outage {
			return e.Weight
		}
	}
	return 0
}

// partialLines is the invoice lines of a run's batches that were cut
// mid-run and never written: its missed parts, each 1/batch_len of a
// batch.
func (rv review) partialLines(c model.Config, st model.Stats) float64 {
	return float64(st.MissedParts) / float64(c.BatchLen) * float64(rv.LinesPerBatch)
}

func (rv review) writeArrangements(b *strings.Builder) {
	plain, fenced, both := rv.Arrangements[0].Stats, rv.Arrangements[1].Stats, rv.Arrangements[2].Stats
	triggers, u, t := rv.Base.Triggers(), unit{rv.Tick}, rv.Tick
	heads := []string{"plain", "fencing", "fencing + trigger"}
	cols := []study.Result{rv.Arrangements[0], rv.Arrangements[1], rv.Arrangements[2]}
	as := rv.DeployedAs()
	if as >= 0 {
		heads[as] = "**" + heads[as] + " (as deployed)**"
		b.WriteString("## Plain, fencing, fencing + persistent trigger\n\n")
	} else {
		heads, cols = append(heads, "**as deployed**"), append(cols, rv.Deployed)
		b.WriteString("## Plain, fencing, fencing + persistent trigger, as deployed\n\n")
	}
	fmt.Fprintf(b, "The one table that varies the arrangement: fencing and the persistent trigger on and off against the same outage, to show what each buys; the deployment's own column is marked.\n\n")
	b.WriteString("| measure | " + strings.Join(heads, " | ") + " |\n|---|" + strings.Repeat("---:|", len(heads)) + "\n")
	for _, m := range variantMeasures() {
		fmt.Fprintf(b, "| %s |", u.stat(m.stat, m.long))
		for _, col := range cols {
			fmt.Fprintf(b, " %s |", t.AppendStat(nil, m.stat, col.Stats.Get(m.stat)))
		}
		b.WriteString("\n")
	}
	if rv.Base.BatchLen > 1 {
		b.WriteString("| partial batches (cut mid-run) |")
		for _, col := range cols {
			fmt.Fprintf(b, " %d |", col.Stats.PartialBatches)
		}
		b.WriteString("\n| lines of partial batches never written |")
		for _, col := range cols {
			fmt.Fprintf(b, " %s |", thousands(rv.partialLines(col.Config, col.Stats), 0))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "\nOf %s, the plain arrangement started %d, missed %d and started %d twice. ",
		plural(triggers, "batch", "batches"), plain.Started, plain.Missed, plain.DoubleStarts)
	doubles := fmt.Sprintf("took double starts from %d to %d", plain.DoubleStarts, fenced.DoubleStarts)
	if plain.DoubleStarts == fenced.DoubleStarts {
		doubles = fmt.Sprintf("left double starts at %d", fenced.DoubleStarts)
	}
	twoLeader := fmt.Sprintf("its two-leader rounds stay %d", fenced.TwoLeaderRounds)
	if t != 0 {
		twoLeader = "its two-leader time stays " + u.span(fenced.TwoLeaderRounds)
	}
	fmt.Fprintf(b, "Fencing refused %s of stale work and %s; %s, as without it: fencing corrects effect, not belief. ",
		u.span(fenced.Rejected), doubles, twoLeader)
	fmt.Fprintf(b, "With the persistent trigger as well, %d batches were missed and %d left queued, at %s of delay.",
		both.Missed, both.Unresolved, u.span(both.DelayedRounds))
	if d := rv.Deployed.Stats; d.PartialBatches > 0 {
		fmt.Fprintf(b, " As deployed, %s cut mid-run: %s of their %s lines never written.",
			plural(d.PartialBatches, "batch was", "batches were"), thousands(rv.partialLines(rv.Base, d), 0), thousands(float64(d.PartialBatches*rv.LinesPerBatch), 0))
	}
	b.WriteString("\n\n")
}

func (rv review) writeTimeline(b *strings.Builder) {
	if rv.Tick == 0 {
		b.WriteString("## Round by round (as deployed)\n\n![Timeline of the run as deployed](timeline.png)\n\n")
	} else {
		b.WriteString("## Timeline (as deployed)\n\n![Timeline of the run as deployed](timeline.png)\n\n")
	}
	u := unit{rv.Tick}
	var leaderless, twoLeader []int
	var events []string
	for _, r := range rv.Timeline {
		switch {
		case r.Active == 0:
			leaderless = append(leaderless, r.Round)
		case r.Active > 1:
			twoLeader = append(twoLeader, r.Round)
		}
		when := "in " + u.at(r.Round)
		if rv.Tick != 0 {
			when = "at " + u.at(r.Round)
		}
		if r.Handover {
			events = append(events, fmt.Sprintf("node %d took over %s with token %d", r.Leader, when, r.Record))
		}
		if e := r.Event; e != "" {
			if rv.Tick == 0 {
				events = append(events, fmt.Sprintf("round %d: batch %s", r.Round, e))
			} else {
				events = append(events, fmt.Sprintf("%s: batch %s", u.due(r.Round), e))
			}
		}
	}
	if rv.Tick == 0 {
		fmt.Fprintf(b, "Leaderless rounds: %s. Two-leader rounds: %s. ", u.list(leaderless), u.list(twoLeader))
	} else {
		fmt.Fprintf(b, "Leaderless: %s. Two leaders: %s. ", u.list(leaderless), u.list(twoLeader))
	}
	const most = 20
	if len(events) > most {
		events = append(events[:most], fmt.Sprintf("and %d more", len(events)-most))
	}
	if len(events) > 0 {
		fmt.Fprintf(b, "In order: %s.", strings.Join(events, "; "))
	}
	if k := rv.mixKinds(); k != "" {
		fmt.Fprintf(b, " The timeline shows %s.", k)
	}
	if d := rv.Deployed.Stats; d.PartialBatches > 0 {
		fmt.Fprintf(b, " The run cuts %s mid-run (partial): %s lines never written, which the recommendation counts among the missed lines.",
			plural(d.PartialBatches, "batch", "batches"), thousands(rv.partialLines(rv.Base, d), 0))
	}
	if sp := rv.IncidentSpread; len(sp.Runs) > 0 {
		run := sp.Runs[0]
		fmt.Fprintf(b, " This is the incident as written, one run of its spread (phase 0, seed %d: %s leaderless). %s", run.Seed, u.span(run.Stats.LeaderlessRounds), spreadSentences(rv.Tick, sp))
	}
	if rv.Tick == 0 {
		b.WriteString(" The round-by-round text is in `timeline.txt`.\n\n")
	} else {
		fmt.Fprintf(b, " The trace, a line every %s, is in `timeline.txt`.\n\n", rv.Tick)
	}
}

// otherFailures is the kinds and scopes of a failure mix's events beside
// its most common one's, which the lease sweep and the heat map run every
// length as (study.StudyOutage), each once: nil for a mix of one kind and
// scope, or none.
func (rv review) otherFailures() []string {
	if rv.Failures == nil || rv.Incident != nil {
		return nil
	}
	common := failureOf(slices.MaxFunc(rv.Mix, func(a, b cost.MixEntry) int { return cmp.Compare(a.Weight, b.Weight) }))
	var others []string
	for _, e := range rv.Mix {
		if f := failureOf(e); f != common && !slices.Contains(others, f) {
			others = append(others, f)
		}
	}
	return others
}

func (rv review) writeLease(b *strings.Builder) {
	b.WriteString("## The lease\n\n![Lease sweep](lease-sweep.png)\n\n")
	u, rg := unit{rv.Tick}, rv.Ranges
	at := func(lease, outage int) model.Stats {
		for _, r := range rv.LeaseSweep {
			if r.Config.Lease == lease && r.Config.Outage == outage {
				return r.Stats
			}
		}
		panic("reports: lease sweep has no lease " + strconv.Itoa(lease))
	}
	first, last := rg.Leases[0], rg.Leases[len(rg.Leases)-1]
	lo, hi := at(first, rg.Long), at(last, rg.Long)
	switch {
	case !rg.FromMix:
		fmt.Fprintf(b, "The deployment as deployed with its lease varied, against two outages, the publication's long and short ones scaled to the lease (%s and %s), to show what the lease alone does",
			u.span(rg.Long), u.span(rg.Short))
	case !slices.ContainsFunc(rv.Mix, func(e cost.MixEntry) bool { return e.Outage == rg.Short }):
		fmt.Fprintf(b, "The deployment as deployed with its lease varied, against the review's outage (%s) and a quarter of it (%s), to show what the lease alone does",
			u.span(rg.Long), u.span(rg.Short))
	default:
		fmt.Fprintf(b, "The deployment as deployed with its lease varied, against the review's longest and shortest outages (%s and %s), to show what the lease alone does",
			u.span(rg.Long), u.span(rg.Short))
	}
	if rv.Base.RenewDeadline > 0 {
		fmt.Fprintf(b, "; the renew deadline stays %s", u.span(rv.Base.RenewDeadline))
	}
	b.WriteString(". ")
	if others := rv.otherFailures(); others != nil {
		common := slices.MaxFunc(rv.Mix, func(a, b cost.MixEntry) int { return cmp.Compare(a.Weight, b.Weight) })
		fmt.Fprintf(b, "Every outage here is run as the failure mix's most common failure (%s), though the mix also has %s, which only the recommendation weighs as they are. ", failureOf(common), andList(others))
	}
	if rv.Tick == 0 {
		fmt.Fprintf(b, "Against an outage of %d rounds, leaderless rounds go from %d at lease %d to %d at lease %d. ",
			rg.Long, lo.LeaderlessRounds, first, hi.LeaderlessRounds, last)
	} else {
		fmt.Fprintf(b, "Against an outage of %s, leaderless time goes from %s at a lease of %s to %s at %s. ",
			u.span(rg.Long), u.span(lo.LeaderlessRounds), u.span(first), u.span(hi.LeaderlessRounds), u.span(last))
	}
	if scale := study.Scale(rv.Base); first > scale && rv.Base.RenewDeadline > 0 {
		fmt.Fprintf(b, "Leases of %s or less are left out: client-go refuses them beside a renew deadline of %s. ", u.span(first-scale), u.span(rv.Base.RenewDeadline))
	}
	var twoLeader []int
	for _, lease := range rg.Leases {
		if st := at(lease, rg.Long); st.Handovers > 0 {
			twoLeader = append(twoLeader, st.TwoLeaderRounds)
		}
	}
	sort.Ints(twoLeader)
	switch {
	case len(twoLeader) == 0:
	case twoLeader[len(twoLeader)-1] == 0 && rv.Base.NoMargin():
		b.WriteString("Wherever a handover happens in these runs, it happens without two leaders, but only by the phase of the followers' polls: the settings leave no two-leader margin (the warning above), so a follower that polls at another moment takes over before the old leader stops believing. ")
	case twoLeader[len(twoLeader)-1] == 0:
		b.WriteString("Wherever a handover happens, it happens without two leaders: the old leader has stopped believing before anyone takes over. ")
	case twoLeader[0] == twoLeader[len(twoLeader)-1] && rv.Tick == 0:
		fmt.Fprintf(b, "Wherever a handover happens, there are %s, whatever the lease: they come from when the returning node next re-reads the record. ",
			plural(twoLeader[0], "two-leader round", "two-leader rounds"))
	case twoLeader[0] == twoLeader[len(twoLeader)-1]:
		fmt.Fprintf(b, "Wherever a handover happens, there are %s of two leaders, whatever the lease: they come from when the returning node next re-reads the record. ",
			u.span(twoLeader[0]))
	case rv.Tick == 0:
		fmt.Fprintf(b, "Wherever a handover happens, the two-leader rounds lie between %d and %d: they come from when the returning node next re-reads the record, not from the lease. ",
			twoLeader[0], twoLeader[len(twoLeader)-1])
	default:
		fmt.Fprintf(b, "Wherever a handover happens, two leaders last between %s and %s: they come from when the returning node next re-reads the record, not from the lease. ",
			u.span(twoLeader[0]), u.span(twoLeader[len(twoLeader)-1]))
	}
	short := u.span(rg.Short)
	if rv.Tick == 0 {
		short = fmt.Sprintf("%d-round", rg.Short)
	}
	rideOut := len(rg.Leases) // the index of the shortest lease from which every longer one rides out the short outage
	for rideOut > 0 && at(rg.Leases[rideOut-1], rg.Short).Handovers == 0 {
		rideOut--
	}
	switch rideOut {
	case len(rg.Leases):
		fmt.Fprintf(b, "No lease up to %s rides out a %s outage without a handover.\n\n", u.count(last), short)
	case 0:
		fmt.Fprintf(b, "Every lease rides out a %s outage without a handover.\n\n", short)
	default:
		needless := rg.Leases[rideOut-1]
		fmt.Fprintf(b, "A lease of %s or more rides out a %s outage without a handover; at lease %s it hands over needlessly, with %s.\n\n",
			u.count(rg.Leases[rideOut]), short, u.count(needless), u.twoLeader(at(needless, rg.Short).TwoLeaderRounds))
	}
}

func (rv review) writeHeat(b *strings.Builder) {
	u, rg := unit{rv.Tick}, rv.Ranges
	if !slices.ContainsFunc(rv.Heat, func(r study.Result) bool { return WindowRounds(r.Stats) > 0 }) {
		fmt.Fprintf(b, "## Lease × outage\n\nThe deployment as deployed, its lease varied from %s to %s against outages of up to %s, is never leaderless and never has two leaders: the heat map (`heatmap.png`) is zero in every cell, so it is not shown.\n\n",
			u.span(rg.Leases[0]), u.span(rg.Leases[len(rg.Leases)-1]), u.span(rg.Outages[len(rg.Outages)-1]))
		return
	}
	if rv.Tick == 0 {
		b.WriteString("## Lease × outage\n\n![Leaderless plus two-leader rounds over lease and outage](heatmap.png)\n\n")
	} else {
		b.WriteString("## Lease × outage\n\n![Leaderless plus two-leader time over lease and outage](heatmap.png)\n\n")
	}
	worst, sums := rv.Heat[0], make([]int, len(rg.Leases))
	for i, r := range rv.Heat {
		if WindowRounds(r.Stats) > WindowRounds(worst.Stats) {
			worst = r
		}
		sums[i/len(rg.Outages)] += WindowRounds(r.Stats)
	}
	best := 0
	for i := range sums {
		if sums[i] < sums[best] {
			best = i
		}
	}
	maxOutage := rg.Outages[len(rg.Outages)-1]
	b.WriteString("The deployment as deployed, its lease and outage varied, to show where each lease's window lies. ")
	if rv.Tick == 0 {
		fmt.Fprintf(b, "The worst cell is lease %d against an outage of %s: %s. ",
			worst.Config.Lease, plural(worst.Config.Outage, "round", "rounds"), plural(WindowRounds(worst.Stats), "leaderless or two-leader round", "leaderless plus two-leader rounds"))
		fmt.Fprintf(b, "Summed over outages of 0 to %d rounds, taken as equally likely, lease %d has the fewest: %d. `leasesim recommend` ranks leases for a weighted outage mix.\n\n",
			maxOutage, rg.Leases[best], sums[best])
		return
	}
	fmt.Fprintf(b, "The worst cell is a lease of %s against an outage of %s: %s leaderless or with two leaders. ",
		u.span(worst.Config.Lease), u.span(worst.Config.Outage), u.span(WindowRounds(worst.Stats)))
	upTo := u.span(maxOutage)
	if rg.FromMix {
		upTo += ", the review's longest,"
	}
	fmt.Fprintf(b, "Summed over outages of 0 to %s in steps of %s, taken as equally likely, a lease of %s has the least: %s. `leasesim recommend` ranks leases for a weighted outage mix.\n\n",
		upTo, u.span(rg.Outages[1]-rg.Outages[0]), u.span(rg.Leases[best]), u.span(sums[best]))
}

func (rv review) writeCost(b *strings.Builder) {
	b.WriteString("## Invoice lines per year\n\n![Cost per outage rate](cost.png)\n\n")
	u, cur := unit{rv.Tick}, rv.Current()
	over := "its outage events"
	if rv.Mix != nil {
		over = "the mix"
	}
	fmt.Fprintf(b, "The summary's figures, the current settings as deployed over %s at %s outage events a year: %s lines never produced and %s produced twice a year",
		over, rate(rv.EventsPerYear[0]), thousands(cur.MissedLines, 1), thousands(cur.DoubleLines, 1))
	if rv.Base.BatchLen > 1 {
		fmt.Fprintf(b, "; of the lines never produced, %s are of %s batches a year cut mid-run (partial batches: started, and some part of them never written, as their run could not reach the store or was stopped)",
			thousands(cur.PartialLines, 1), thousands(cur.PartialBatches, 2))
	}
	weighted := ""
	if rv.Mix != nil {
		weighted = ", each outage of the mix weighted by its share"
	}
	fmt.Fprintf(b, ". They are the phase method's: the model run with %s starting at every phase of the batch and renewal cycles, averaged%s. The summary uses it because it counts batches, as the deployment's trigger policy and fencing treat them, and an event's phase against the batch.\n\n", rv.event(), weighted)
	mix := rv.mix()
	single := rv.Incident == nil && (len(mix) > 1 || mix[0].Outage != rv.Base.Outage)
	if single {
		fmt.Fprintf(b, "The table is the same method for one outage alone, the study outage of %s, at each rate, as deployed: it prices every event as that outage, so it differs from the summary's wherever the mix's other outages cost more or less.\n\n", u.span(rv.Base.Outage))
	} else {
		b.WriteString("The table is the same method at each rate, as deployed: at the summary's rate it is the summary's figure.\n\n")
	}
	partial := rv.Base.BatchLen > 1
	b.WriteString("| outages/yr | missed batches/yr | lines not produced | double batches/yr | double lines |")
	if partial {
		b.WriteString(" partial batches/yr | their lines not produced |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	} else {
		b.WriteString("\n|---:|---:|---:|---:|---:|\n")
	}
	deployed := rv.CostAt(0)
	for _, p := range deployed.Projections(cost.Phase) {
		fmt.Fprintf(b, "| %s | %.2f | %s | %.2f | %s |", rate(p.EventsPerYear), p.MissedBatches, thousands(p.MissedLines(), 0), p.DoubleBatches, thousands(p.DoubleLines(), 0))
		if partial {
			ph := deployed.Phase
			fmt.Fprintf(b, " %.2f | %s |", p.EventsPerYear*ph.Partial, thousands(p.EventsPerYear*ph.Unwritten*p.LinesPerBatch, 0))
		}
		b.WriteString("\n")
	}
	ph := deployed.Projections(cost.Phase)[0]
	fenced := rv.CostAt(1).Projections(cost.Phase)[0]
	delay := fmt.Sprintf("%.2f rounds", rv.Cost[1].Result.Phase.DelayedRounds)
	if rv.Tick != 0 {
		delay = fmt.Sprintf("%.2fs", rv.Tick.Seconds(rv.Cost[1].Result.Phase.DelayedRounds))
	}
	what := rv.event()
	if single {
		what = "the " + u.span(rv.Base.Outage) + " outage alone"
	}
	fmt.Fprintf(b, "\nAt %s events a year of %s, as deployed, %s lines are never produced and %s produced twice. With fencing and the persistent trigger, %s and %s, at a mean delay of %s per event. ",
		rate(ph.EventsPerYear), what, thousands(ph.MissedLines(), 0), thousands(ph.DoubleLines(), 0), thousands(fenced.MissedLines(), 0), thousands(fenced.DoubleLines(), 0), delay)
	win := deployed.Projections(cost.Window)[0]
	fmt.Fprintf(b, "The publication's window method projects %s and %s for the same: it reads the share of one run spent leaderless or with two leaders, not batches, so it cannot see a batch cut mid-run or queued; the appendix gives its figures and says why they differ.\n\n",
		thousands(win.MissedLines(), 0), thousands(win.DoubleLines(), 0))
}

// writeWindowAppendix writes the publication's window method beside the
// phase method, and why they differ.
func (rv review) writeWindowAppendix(b *strings.Builder) {
	b.WriteString("## Appendix: the publication's window method\n\n")
	b.WriteString("The publication projects a year's cost from one run: the share of the run spent leaderless (or with two leaders) is taken as the chance that an event's one trigger falls there. This review does not use it for its figures. It measures time, not batches, so it cannot see what fencing and the persistent trigger do to a batch, and it takes the share of the whole run, so it dilutes an outage by the run's length instead of asking where in the period it falls.\n\n")
	b.WriteString("| outages/yr | method | missed batches/yr | lines not produced | double batches/yr | double lines |\n|---:|---|---:|---:|---:|---:|\n")
	ps := rv.CostAt(0).Projections(cost.Window, cost.Phase)
	for _, p := range ps {
		fmt.Fprintf(b, "| %s | %s | %.2f | %s | %.2f | %s |\n", rate(p.EventsPerYear), p.Method, p.MissedBatches, thousands(p.MissedLines(), 0), p.DoubleBatches, thousands(p.DoubleLines(), 0))
	}
	win, ph := ps[0], ps[1]
	times := ""
	if win.MissedLines() > 0 && win.DoubleLines() > 0 {
		times = fmt.Sprintf(" (%s and %s times as many)", ratio(ph.MissedLines(), win.MissedLines()), ratio(ph.DoubleLines(), win.DoubleLines()))
	}
	fmt.Fprintf(b, "\nAt %s outage events a year the window method projects %s lines never produced and %s produced twice; the phase method %s and %s%s. ",
		rate(win.EventsPerYear), thousands(win.MissedLines(), 0), thousands(win.DoubleLines(), 0), thousands(ph.MissedLines(), 0), thousands(ph.DoubleLines(), 0), times)
	fenced := rv.CostAt(1).Projections(cost.Window, cost.Phase)
	reads := "rounds"
	if rv.Tick != 0 {
		reads = "leaderless and two-leader time"
	}
	fmt.Fprintf(b, "With fencing and the persistent trigger the phase method projects %s and %s; the window method, which reads only %s, still projects %s and %s.\n\n",
		thousands(fenced[1].MissedLines(), 0), thousands(fenced[1].DoubleLines(), 0), reads, thousands(fenced[0].MissedLines(), 0), thousands(fenced[0].DoubleLines(), 0))
}

func (rv review) writeZone(b *strings.Builder) {
	u, t := unit{rv.Tick}, rv.Tick
	b.WriteString("## Quorum under a zone outage\n\n")
	every := rv.EveryNodeShare()
	switch {
	case every == 1:
		b.WriteString("Every failure of the review's mix takes every node down at once: more nodes or zones cannot help against them. The deployment as deployed, its node count and quorum varied, against every node failing together, as the review's failures do.")
	case every > 0:
		fmt.Fprintf(b, "%.0f%% of the review's failure events take every node down at once: more nodes or zones cannot help against those. The deployment as deployed, its node count and quorum varied, against a zone of nodes failing together, the others.", 100*every)
	default:
		b.WriteString("The deployment as deployed, its node count and quorum varied, against a zone of nodes failing together.")
	}
	partial := rv.Base.BatchLen > 1
	if partial {
		b.WriteString(" Partial batches are the started batches cut mid-run, and their lines those never written.\n\n")
		fmt.Fprintf(b, "| nodes | quorum | handovers | %s | %s | missed | partial | their lines never written | started twice |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|\n",
			u.stat(model.LeaderlessRounds, "leaderless rounds"), u.stat(model.TwoLeaderRounds, "two-leader rounds"))
	} else {
		b.WriteString("\n\n")
		fmt.Fprintf(b, "| nodes | quorum | handovers | %s | %s | missed | started twice |\n|---:|---|---:|---:|---:|---:|---:|\n",
			u.stat(model.LeaderlessRounds, "leaderless rounds"), u.stat(model.TwoLeaderRounds, "two-leader rounds"))
	}
	blocked := 0
	for i, r := range rv.Zone {
		st := r.Stats
		fmt.Fprintf(b, "| %d | %t | %d | %s | %s | %d |", r.Config.Nodes, r.Config.Quorum, st.Handovers,
			t.AppendStat(nil, model.LeaderlessRounds, st.LeaderlessRounds), t.AppendStat(nil, model.TwoLeaderRounds, st.TwoLeaderRounds), st.Missed)
		if partial {
			fmt.Fprintf(b, " %d | %s |", st.PartialBatches, thousands(rv.partialLines(r.Config, st), 0))
		}
		fmt.Fprintf(b, " %d |\n", st.DoubleStarts)
		if r.Config.Quorum && st.Handovers == 0 && rv.Zone[i-1].Stats.Handovers > 0 {
			blocked = r.Config.Nodes
		}
	}
	from := rv.Base.DownFrom
	if every == 1 {
		lo, hi := rv.Zone[0].Stats, rv.Zone[0].Stats
		sameBatches := true
		for _, r := range rv.Zone {
			st := r.Stats
			lo.LeaderlessRounds, hi.LeaderlessRounds = min(lo.LeaderlessRounds, st.LeaderlessRounds), max(hi.LeaderlessRounds, st.LeaderlessRounds)
			sameBatches = sameBatches && st.Missed == lo.Missed && st.PartialBatches == lo.PartialBatches && st.DoubleStarts == lo.DoubleStarts
		}
		fmt.Fprintf(b, "\nEvery node fails together for %s, however many there are: no node is left to take over while it lasts, so more nodes cannot ride it out", u.span(rv.Base.Outage))
		if lo.LeaderlessRounds != hi.LeaderlessRounds {
			fmt.Fprintf(b, "; they change only how soon a node polls once it is over (leaderless %s to %s over these node counts)", u.span(lo.LeaderlessRounds), u.span(hi.LeaderlessRounds))
		}
		if sameBatches {
			b.WriteString(", and the batches missed, cut and started twice not at all")
		}
		b.WriteString(".\n\n")
		return
	}
	fmt.Fprintf(b, "\nNodes %d-%d fail together for %s. ", from, from+rv.ZoneNodes()-1, u.span(rv.Base.Outage))
	if blocked > 0 {
		fmt.Fprintf(b, "Up to %d nodes, quorum blocks the handover (the %d reachable are no strict majority) and the whole outage is leaderless; from %d nodes on, quorum costs nothing here.\n\n",
			blocked, blocked-rv.ZoneNodes(), blocked+1)
		return
	}
	var changed []string
	for i, r := range rv.Zone {
		if i == 0 || !r.Config.Quorum || rv.Zone[i-1].Config.Nodes != r.Config.Nodes {
			continue
		}
		if d := quorumDiff(u, rv.Zone[i-1].Stats, r.Stats); d != "" {
			changed = append(changed, fmt.Sprintf("with %d nodes %s", r.Config.Nodes, d))
		}
	}
	if len(changed) == 0 {
		b.WriteString("Quorum changes nothing here.\n\n")
		return
	}
	fmt.Fprintf(b, "Quorum changes, %s; at the other node counts nothing. Where it adds leaderless time, the reachable nodes are no strict majority and wait for the zone to come back.\n\n",
		strings.Join(changed, "; "))
}

// quorumDiff says what quorum changes in a zone outage's statistics, "" if
// nothing: "leaderless 18s → 33s, missed 1 → 0".
func quorumDiff(u unit, without, with model.Stats) string {
	var d []string
	for _, m := range []struct {
		name   string
		a, b   int
		isTime bool
	}{
		{"leaderless", without.LeaderlessRounds, with.LeaderlessRounds, true},
		{"two leaders", without.TwoLeaderRounds, with.TwoLeaderRounds, true},
		{"handovers", without.Handovers, with.Handovers, false},
		{"missed", without.Missed, with.Missed, false},
		{"partial", without.PartialBatches, with.PartialBatches, false},
		{"started twice", without.DoubleStarts, with.DoubleStarts, false},
	} {
		switch {
		case m.a == m.b:
		case m.isTime:
			d = append(d, fmt.Sprintf("%s %s → %s", m.name, u.span(m.a), u.span(m.b)))
		default:
			d = append(d, fmt.Sprintf("%s %d → %d", m.name, m.a, m.b))
		}
	}
	return strings.Join(d, ", ")
}

func (rv review) writeNodes(b *strings.Builder) {
	mc, u := rv.NodeStudy, unit{rv.Tick}
	fmt.Fprintf(b, "## How many nodes, under independent failures\n\n![Invoice lines per year against node count](nodes.png)\n\n")
	rounds := mc.Grid.Values[model.Rounds].At(0)
	replicas := thousands(float64(mc.Replicas), 0) + " replicas"
	if mc.Precision > 0 {
		replicas = "replicas, as many as the table says,"
	}
	if rv.Tick == 0 {
		years := fmt.Sprintf("%d years of %s rounds", study.StudyYears, rate(rv.RoundsPerYear))
		if float64(rounds) < study.StudyYears*rv.RoundsPerYear {
			years = fmt.Sprintf("%.3g years of %s rounds, not %d: longer replicas would draw more than %.0g failure periods", float64(rounds)/rv.RoundsPerYear, rate(rv.RoundsPerYear), study.StudyYears, float64(study.MaxStudyPeriods))
		}
		fmt.Fprintf(b, "Every node is up for %s rounds, then down for %s, independently of the others; %s of %d rounds (%s), seed %d. Means with 95%% confidence intervals.\n\n",
			mc.Up, mc.Down, replicas, rounds, years, mc.Seed)
	} else {
		years := fmt.Sprintf("%d years", study.StudyYears)
		if float64(rounds) < study.StudyYears*rv.RoundsPerYear {
			years = fmt.Sprintf("%.3g years, not %d: longer replicas would draw more than %.0g failure periods", float64(rounds)/rv.RoundsPerYear, study.StudyYears, float64(study.MaxStudyPeriods))
		}
		fmt.Fprintf(b, "As deployed, every node is up for %s, then down for %s, independently of the others; %s of %s each (%s), seed %d. Means with 95%% confidence intervals.\n\n",
			lengthsText(rv.Tick, mc.Up), lengthsText(rv.Tick, mc.Down), replicas, u.span(rounds), years, mc.Seed)
	}
	every := rv.EveryNodeShare()
	switch {
	case every == 1:
		b.WriteString("**Not the review's failures:** every failure of its mix takes every node down at once, which no node count rides out, so more nodes cannot help against them; this study's independent failures of one node at a time are another deployment's, shown for comparison only.\n\n")
	case every > 0:
		fmt.Fprintf(b, "%.0f%% of the review's failure events take every node down at once, which no node count rides out: more nodes cannot help against those, and this study's independent failures leave them out.\n\n", 100*every)
	}
	rv.writeNodesMethod(b)
	if mc.PhaseAverage {
		rv.writePhaseAverage(b)
	}
	if mc.Precision > 0 {
		rv.writePrecision(b)
	}
	partial := rv.Base.BatchLen > 1
	b.WriteString("| nodes | quorum | missed lines/yr | 95% interval |")
	align := "|---:|---|---:|---:|"
	if partial {
		b.WriteString(" of them in partial batches |")
		align += "---:|"
	}
	b.WriteString(" double lines/yr | 95% interval |")
	align += "---:|---:|"
	if mc.Precision > 0 {
		b.WriteString(" replicas |")
		align += "---:|"
	}
	b.WriteString("\n" + align + "\n")
	lines := func(s montecarlo.Summary) (float64, montecarlo.Interval, float64, montecarlo.Interval) {
		k := mc.LinesPerBatch
		return s.MissedPerYear * k, s.MissedPerYearCI95.Scale(k), s.DoublePerYear * k, s.DoublePerYearCI95.Scale(k)
	}
	for _, s := range rv.Nodes {
		m, mci, d, dci := lines(s)
		fmt.Fprintf(b, "| %d | %t | %s | %s-%s |", s.Config.Nodes, s.Config.Quorum, thousands(m, 0), thousands(mci.Lo, 0), thousands(mci.Hi, 0))
		if partial {
			fmt.Fprintf(b, " %s |", thousands(rv.NodePartialLines(s), 0))
		}
		fmt.Fprintf(b, " %s | %s-%s |", thousands(d, 0), thousands(dci.Lo, 0), thousands(dci.Hi, 0))
		switch {
		case mc.Precision == 0:
		case s.Precise:
			fmt.Fprintf(b, " %s |", thousands(float64(s.Replicas), 0))
		default:
			fmt.Fprintf(b, " %s, not precise |", thousands(float64(s.Replicas), 0))
		}
		b.WriteByte('\n')
	}
	one, _, _, _ := lines(rv.NodeSummary(1, false))
	two, twoCI, twoDouble, _ := lines(rv.NodeSummary(2, false))
	most := study.MostNodes(rv.Base)
	last, lastCI, lastDouble, _ := lines(rv.NodeSummary(most, false))
	if every == 1 {
		b.WriteString("\nAgainst the review's own failures, which take every node at once, a node count changes nothing: nobody is left to take over.\n\n")
		return
	}
	fmt.Fprintf(b, "\nWithout quorum, one node misses %s lines a year: nobody can take over. A second node takes that to %s missed and %s doubled; with %d nodes it is %s and %s",
		thousands(one, 0), thousands(two, 0), thousands(twoDouble, 0), most, thousands(last, 0), thousands(lastDouble, 0))
	if twoCI.Lo <= lastCI.Hi && lastCI.Lo <= twoCI.Hi {
		fmt.Fprintf(b, ", missed lines whose 95%% intervals overlap: the study cannot tell %d nodes from %d there", 2, most)
	}
	b.WriteString(". ")
	qTwo, _, _, _ := lines(rv.NodeSummary(2, true))
	fmt.Fprintf(b, "With quorum, two nodes miss %s lines a year: when either fails, the other alone is no majority.", thousands(qTwo, 0))
	if !rv.nodesSeen(1) {
		b.WriteString(" No replica at any node count produced a line twice, so the plot has no panel for them.")
	}
	b.WriteString("\n\n")
}

// writeNodesMethod says why the node-count study's figure for the
// deployment's node count differs from the summary's: another method,
// against another failure model.
func (rv review) writeNodesMethod(b *strings.Builder) {
	m := rv.NodeSummary(rv.Base.Nodes, rv.Base.Quorum).MissedPerYear * rv.NodeStudy.LinesPerBatch
	quorum := ""
	if rv.Base.Quorum {
		quorum = " with quorum"
	}
	fmt.Fprintf(b, "This study is a sample, not the summary's method: every node fails on its own, the leader or not, where the summary's outage events each reach the leader. So its %s missed lines a year for %d nodes%s, an estimate with its sampling interval, differ from the summary's %s, an expectation over its outage events; the summary uses the phase method, which asks for each outage every phase of the batch. Use this study to compare node counts, not to price the deployment.\n\n",
		thousands(m, 0), rv.Base.Nodes, quorum, thousands(rv.Current().MissedLines, 1))
}

// writePhaseAverage says that the node-count study averages over the
// trigger's phase (montecarlo.MonteCarlo.PhaseAverage), and why that measures
// what the deployment's own triggers lose.
func (rv review) writePhaseAverage(b *strings.Builder) {
	c, u := rv.Nodes[0].Config, unit{rv.Tick}
	step := c.PhasePeriod()
	if step == c.Period {
		return
	}
	every, instead := u.span(step), u.span(c.Period)
	if rv.Tick == 0 {
		every, instead = thousands(float64(step), 0)+" rounds", thousands(float64(c.Period), 0)+" rounds"
	}
	k := strconv.FormatFloat(float64(c.Period)/float64(step), 'g', 3, 64) // period/step
	if c.Period%step == 0 {
		k = thousands(float64(c.Period/step), 0)
	}
	fmt.Fprintf(b, "Each replica triggers the batch every %s instead of every %s and counts each trigger as 1/%s of a batch: the lines a year are averaged over where in the period the failures strike. "+
		"Without the persistent trigger no batch depends on another, so that is on average what one batch every %s loses, with far less noise: each failure is %s times as likely to meet a trigger, and each trigger counts %s times less.\n\n",
		every, instead, k, instead, k, k)
}

// writePrecision says how the node-count study ran to precision, and
// whether every configuration got there.
func (rv review) writePrecision(b *strings.Builder) {
	mc := rv.NodeStudy
	loose := 0
	for _, s := range rv.Nodes {
		if !s.Precise {
			loose++
		}
	}
	fmt.Fprintf(b, "Replicas ran %s at a time until the missed and the double lines a year were each within ±%s%% of their value, or ±%s a year, at 95%% confidence, or %s replicas had run: ",
		thousands(float64(mc.Replicas), 0), strconv.FormatFloat(100*mc.Precision, 'g', 12, 64), plural(int(mc.Floor), "line", "lines"), thousands(float64(mc.MaxReplicas), 0))
	switch loose {
	case 0:
		b.WriteString("every configuration got there.\n\n")
	case len(rv.Nodes):
		fmt.Fprintf(b, "none of the %d configurations got there, and their intervals are wider than asked.\n\n", len(rv.Nodes))
	default:
		fmt.Fprintf(b, "%d of the %d configurations did not, and their intervals are wider than asked.\n\n", loose, len(rv.Nodes))
	}
}

// event names the outage event the review prices: the group outage, or
// the incident.
func (rv review) event() string {
	if rv.Incident != nil {
		return "the incident"
	}
	return "the outage"
}

// plural writes n and the noun in the form that goes with it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func rates(rs []float64) string {
	var s []string
	for _, r := range rs {
		s = append(s, rate(r))
	}
	return strings.Join(s, ", ")
}

// variantMeasure is one row of the arrangements table: a statistic and
// the publication's label for it.
type variantMeasure struct {
	stat model.Stat
	long string
}

// variantMeasures are the publication's measures, in the publication's order.
func variantMeasures() []variantMeasure {
	return []variantMeasure{
		{model.Started, "batches started"}, {model.Missed, "batches missed"},
		{model.DelayedRounds, "delayed start rounds"}, {model.DoubleStarts, "double-started batches"},
		{model.Rejected, "rejected by fencing"}, {model.TwoLeaderRounds, "two-leader rounds"},
		{model.LeaderlessRounds, "leaderless rounds"}, {model.HandoverRounds, "handover rounds"},
	}
}

// lengthsText writes a distribution of period lengths for the prose:
// an empirical one as where its lengths come from.
func lengthsText(t model.Tick, l model.Lengths) string {
	if l.Kind == model.Empirical {
		return "lengths drawn from " + l.Source
	}
	return t.FormatLengths(l)
}

// Names returns the name of every file WriteDir writes into the report's
// folder.
func Names() []string {
	var names []string
	rv := &study.Review{}
	for _, f := range Files(rv) {
		names = append(names, f.Name)
	}
	for _, f := range Figures(rv) {
		names = append(names, f.Name)
	}
	return names
}
