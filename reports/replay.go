package reports

import (
	"fmt"
	"image/color"
	"io"
	"slices"
	"strings"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ReplayRow is an incident under one of the settings compared: the spread
// of its runs over the incident's phase and the followers' jitter, and the
// run of it drawn and traced (the spread's median, or the one pinned).
type ReplayRow = incident.Replayed

// WriteReplay writes an incident's runs side by side: the spread of its
// leaderless, two-leader and takeover times under each setting, then what
// the named run of each cost, then, where kept, each run round by round.
// A spread of one run (a pinned phase and seed) is that run alone.
func WriteReplay(w io.Writer, t model.Tick, in incident.Incident, rows []ReplayRow) error {
	var b strings.Builder
	u := unit{t}
	var failures []string
	for _, f := range in.Windows {
		failures = append(failures, fmt.Sprintf("node %d %s %s", f.Node, f.Kind, u.during(f.First, f.Last)))
	}
	first, last := in.Span()
	fmt.Fprintf(&b, "incident: %s, %s\n", plural(len(in.Windows), "failure", "failures"), u.during(first, last))
	for _, f := range failures {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	if t != 0 {
		fmt.Fprintf(&b, "one round = %s; times in seconds\n", t)
	}
	width := len("setting")
	spread, believers := false, false
	for _, r := range rows {
		width = max(width, len(r.Name))
		spread = spread || len(r.Spread.Runs) > 1
		for _, run := range r.Spread.Runs {
			believers = believers || run.TwoBelieverRounds() != run.Stats.TwoLeaderRounds
		}
	}
	if spread {
		writeSpread(&b, t, width, rows, believers)
		b.WriteString("\nthe median run of each setting by leaderless time, the one --png and --trace draw (--phase and --seed pin one):\n")
	}
	stats := []model.Stat{model.Missed, model.Unresolved, model.DoubleStarts, model.Deduplicated, model.DelayedRounds, model.LeaderlessRounds, model.TwoLeaderRounds, model.Handovers}
	fmt.Fprintf(&b, "\n%-*s", width, "setting")
	runWidth := len("phase")
	for _, r := range rows {
		runWidth = max(runWidth, len(u.time(r.Run.Phase)))
	}
	fmt.Fprintf(&b, "  %*s  %4s", runWidth, "phase", "seed")
	for _, s := range stats {
		fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.StatName(s))
	}
	if believers {
		fmt.Fprintf(&b, "  %s", twoBelievers(t))
	}
	b.WriteByte('\n')
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s  %*s  %4d", width, r.Name, runWidth, u.time(r.Run.Phase), r.Run.Seed)
		for _, s := range stats {
			fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.AppendStat(nil, s, r.Run.Stats.Get(s)))
		}
		if believers {
			fmt.Fprintf(&b, "  %*s", len(twoBelievers(t)), t.AppendStat(nil, model.TwoLeaderRounds, r.Run.TwoBelieverRounds()))
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n" + twoLeaderNote(t, believers) + "\n")
	for _, r := range rows {
		if r.Trace == nil {
			continue
		}
		fmt.Fprintf(&b, "\n%s, phase %s (the incident %s later than written), seed %d, a run of %s:\n", r.Name, u.count(r.Run.Phase), u.span(r.Run.Phase), r.Run.Seed, u.span(r.Config.Rounds+r.Run.Phase))
		b.Write(r.Trace)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// twoBelievers is the name of the column of rounds with two believers.
func twoBelievers(t model.Tick) string {
	if t == 0 {
		return "two_believer_rounds"
	}
	return "two_believers_s"
}

// twoLeaderNote says which two-leader figure the tables give.
func twoLeaderNote(t model.Tick, believers bool) string {
	note := t.StatName(model.TwoLeaderRounds) + " counts rounds in which two nodes can act as leader (each believes it leads and its work reaches the store)"
	if believers {
		return note + "; " + twoBelievers(t) + " those in which two believe it, acting or not (frozen, isolated or black-holed)"
	}
	return note + "; here no round has two believers but those"
}

// writeSpread writes the table of the rows' spreads: over how many phases
// and seeds, the least, median and greatest leaderless, two-leader (and,
// if believers, two-believer) and takeover times, and the share of runs
// with a handover and with two leaders.
func writeSpread(b *strings.Builder, t model.Tick, width int, rows []ReplayRow, believers bool) {
	u := unit{t}
	seeds := "one run a phase: no jitter"
	for _, r := range rows {
		if r.Spread.Seeds > 1 {
			seeds = fmt.Sprintf("%d seeds of the followers' jitter at each (seed %d to %d) where it is on", r.Spread.Seeds, r.Spread.Seed, r.Spread.Seed+uint64(r.Spread.Seeds)-1)
		}
	}
	fmt.Fprintf(b, "\neach setting over every phase of the incident against its renewals (moved 0 to lcm(retry period, renewal) - 1 rounds later), %s; takeover from the incident's start to the first handover:\n", seeds)
	groups := []struct {
		name string
		of   func(incident.Run) (int, bool)
	}{
		{t.StatName(model.LeaderlessRounds), func(r incident.Run) (int, bool) { return r.Stats.LeaderlessRounds, true }},
		{t.StatName(model.TwoLeaderRounds), func(r incident.Run) (int, bool) { return r.Stats.TwoLeaderRounds, true }},
	}
	if believers {
		groups = append(groups, struct {
			name string
			of   func(incident.Run) (int, bool)
		}{twoBelievers(t), func(r incident.Run) (int, bool) { return r.TwoBelieverRounds(), true }})
	}
	takeover := "takeover_rounds"
	if t != 0 {
		takeover = "takeover_s"
	}
	groups = append(groups, struct {
		name string
		of   func(incident.Run) (int, bool)
	}{takeover, func(r incident.Run) (int, bool) { return r.Takeover, r.Takeover > 0 }})
	const cell = 6 // a figure's column
	fmt.Fprintf(b, "\n%-*s  %7s", width, "", "")
	for _, g := range groups {
		fmt.Fprintf(b, "  %-*s", max(3*cell+2, len(g.name)), g.name)
	}
	fmt.Fprintf(b, "  %8s  %11s\n", "with a", "with two")
	fmt.Fprintf(b, "%-*s  %7s", width, "setting", "runs")
	for _, g := range groups {
		fmt.Fprintf(b, "  %*s", max(3*cell+2, len(g.name)), fmt.Sprintf("%*s %*s %*s", cell, "min", cell, "median", cell, "max"))
	}
	fmt.Fprintf(b, "  %8s  %11s\n", "handover", "leaders")
	for _, r := range rows {
		sp := r.Spread
		fmt.Fprintf(b, "%-*s  %7s", width, r.Name, fmt.Sprintf("%dx%d", sp.Phases, sp.Seeds))
		for _, g := range groups {
			f := sp.Figures(g.of)
			cells := fmt.Sprintf("%*s %*s %*s", cell, "-", cell, "-", cell, "-")
			if f.Runs > 0 {
				cells = fmt.Sprintf("%*s %*s %*s", cell, u.time(f.Min), cell, u.time(f.Median), cell, u.time(f.Max))
			}
			fmt.Fprintf(b, "  %*s", max(3*cell+2, len(g.name)), cells)
		}
		handover := sp.Share(func(r incident.Run) bool { return r.Stats.Handovers > 0 })
		two := sp.Share(func(r incident.Run) bool { return r.Stats.TwoLeaderRounds > 0 })
		fmt.Fprintf(b, "  %7.0f%%  %10.0f%%\n", 100*handover, 100*two)
	}
}

// ReplayFigure is the timeline of an incident's runs: a row for each
// failing node, shaded where it was down, and one for each setting,
// shaded red where no node led and orange where two did. Spans are drawn
// as bars, not a mark a round, so a day at 1 s rounds reads as well as a
// minute; the axis is zoomed to the incident and what followed it.
func ReplayFigure(t model.Tick, in incident.Incident, rows []ReplayRow) Figure {
	height := vg.Length(len(nodes(in))+len(rows))*0.45*vg.Inch + 2*vg.Inch
	return Figure{"replay.png", 10 * vg.Inch, height, func(dc draw.Canvas) error {
		return drawReplay(dc, t, in, rows)
	}}
}

func drawReplay(dc draw.Canvas, t model.Tick, in incident.Incident, rows []ReplayRow) error {
	u := unit{t}
	first, last := in.Span()
	lo, hi := first, last
	for _, r := range rows {
		for _, s := range append(slices.Clone(r.Run.Leaderless), r.Run.TwoLeaders...) {
			lo, hi = min(lo, s.First-r.Run.Phase), max(hi, s.Last-r.Run.Phase)
		}
	}
	margin := max(2, (hi-lo+1)/10)
	lo, hi = max(1, lo-margin), hi+margin
	// Round r covers (r−1, r] on the axis, in rounds or seconds.
	x := func(r int) float64 { return u.value(float64(r)) }
	p := newPlot(fmt.Sprintf("Incident: %s, %s", plural(len(in.Windows), "failure", "failures"), u.during(first, last)), u.axis("time from the run's start"), "")
	bar := func(y float64, s incident.Span, c color.Color) error {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: x(s.First - 1), Y: y - 0.3}, {X: x(s.Last), Y: y - 0.3}, {X: x(s.Last), Y: y + 0.3}, {X: x(s.First - 1), Y: y + 0.3}})
		if err != nil {
			return err
		}
		poly.Color, poly.LineStyle.Width = c, 0
		p.Add(poly)
		return nil
	}
	grey, red, orange := color.RGBA{150, 150, 150, 255}, color.RGBA{200, 30, 30, 255}, color.RGBA{240, 150, 0, 255}
	var ticks []plot.Tick
	y := 0.0
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		back := func(s incident.Span) incident.Span {
			return incident.Span{First: s.First - r.Run.Phase, Last: s.Last - r.Run.Phase}
		}
		for _, s := range r.Run.Leaderless {
			if err := bar(y, back(s), red); err != nil {
				return err
			}
		}
		for _, s := range r.Run.TwoLeaders {
			if err := bar(y, back(s), orange); err != nil {
				return err
			}
		}
		label := r.Name
		if len(r.Spread.Runs) > 1 {
			label = fmt.Sprintf("%s\n(median: phase %s, seed %d)", r.Name, u.span(r.Run.Phase), r.Run.Seed)
		}
		ticks = append(ticks, plot.Tick{Value: y, Label: label})
		y++
	}
	var ns []int
	for n := range nodes(in) {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	for i := len(ns) - 1; i >= 0; i-- {
		for _, f := range in.Windows {
			if f.Node == ns[i] {
				if err := bar(y, incident.Span{First: f.First, Last: f.Last}, grey); err != nil {
					return err
				}
			}
		}
		var how []string
		for _, f := range in.Windows {
			if f.Node == ns[i] && !slices.Contains(how, f.Kind.String()) {
				how = append(how, f.Kind.String())
			}
		}
		ticks = append(ticks, plot.Tick{Value: y, Label: fmt.Sprintf("node %d: %s", ns[i], strings.Join(how, ", "))})
		y++
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.6, y-0.4
	p.X.Min, p.X.Max = x(lo-1), x(hi)
	for _, l := range []struct {
		name string
		c    color.Color
	}{{"down", grey}, {"no leader", red}, {"two leaders", orange}} {
		box, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}})
		if err != nil {
			return err
		}
		box.Color, box.LineStyle.Width = l.c, 0
		p.Legend.Add(l.name, box)
	}
	p.Legend.Top = true
	p.Draw(draw.Crop(dc, 2*vg.Millimeter, -2*vg.Millimeter, 2*vg.Millimeter, -2*vg.Millimeter))
	return nil
}

// nodes is the set of nodes an incident's failures name.
// ReplayFigureRows is the number of rows ReplayFigure draws for in and
// that many settings: one per failing node, one per setting.
func ReplayFigureRows(in incident.Incident, settings int) int {
	return len(nodes(in)) + settings
}

func nodes(in incident.Incident) map[int]bool {
	m := map[int]bool{}
	for _, f := range in.Windows {
		m[f.Node] = true
	}
	return m
}

// spreadSentences says an incident's spread in words, for report.md: over
// how many runs, the least, median and greatest leaderless, two-leader
// (and two-believer, where they differ) and takeover times, and the
// shares of runs with a handover and with two leaders.
func spreadSentences(t model.Tick, sp incident.Spread) string {
	u := unit{t}
	figures := func(of func(incident.Run) (int, bool)) string {
		f := sp.Figures(of)
		if f.Runs == 0 {
			return "none"
		}
		return fmt.Sprintf("%s, %s, %s", u.span(f.Min), u.span(f.Median), u.span(f.Max))
	}
	seeds := "the followers do not jitter, so one run a phase"
	if sp.Seeds > 1 {
		seeds = fmt.Sprintf("%d seeds of the followers' jitter at each, %d to %d", sp.Seeds, sp.Seed, sp.Seed+uint64(sp.Seeds)-1)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Over %s of the incident against the renewals (moved 0 to %s later) and %s, %s: least, median and greatest leaderless time %s; two leaders that can act %s",
		plural(sp.Phases, "phase", "phases"), u.span(sp.Phases-1), seeds, plural(len(sp.Runs), "run", "runs"),
		figures(func(r incident.Run) (int, bool) { return r.Stats.LeaderlessRounds, true }),
		figures(func(r incident.Run) (int, bool) { return r.Stats.TwoLeaderRounds, true }))
	for _, r := range sp.Runs {
		if r.TwoBelieverRounds() != r.Stats.TwoLeaderRounds {
			fmt.Fprintf(&b, "; two believers, acting or not, %s", figures(func(r incident.Run) (int, bool) { return r.TwoBelieverRounds(), true }))
			break
		}
	}
	fmt.Fprintf(&b, "; takeover, from the incident's start to the first handover, %s. %.0f%% of the runs hand over, %.0f%% have two leaders.",
		figures(func(r incident.Run) (int, bool) { return r.Takeover, r.Takeover > 0 }),
		100*sp.Share(func(r incident.Run) bool { return r.Stats.Handovers > 0 }), 100*sp.Share(func(r incident.Run) bool { return r.Stats.TwoLeaderRounds > 0 }))
	return b.String()
}

// WriteReplayCSV writes the replay's table as CSV, one row a setting: its
// name, its parameters (the incident as written), how many phases and
// jitter seeds its spread ran, the drawn run's phase, seed and every
// statistic, its two-believer rounds, then the spread's minimum, median
// and maximum of the leaderless, two-leader, two-believer and takeover
// times (empty where no run has a takeover) and the share of runs with a
// handover and with two leaders. Times are rounds, or seconds with a tick,
// as the columns' names say.
func WriteReplayCSV(w io.Writer, t model.Tick, rows []ReplayRow) error {
	takeover, phase := "takeover_rounds", "phase_rounds"
	if t != 0 {
		takeover, phase = "takeover_s", "phase_s"
	}
	figures := []struct {
		name string
		of   func(incident.Run) (int, bool)
	}{
		{t.StatName(model.LeaderlessRounds), func(r incident.Run) (int, bool) { return r.Stats.LeaderlessRounds, true }},
		{t.StatName(model.TwoLeaderRounds), func(r incident.Run) (int, bool) { return r.Stats.TwoLeaderRounds, true }},
		{twoBelievers(t), func(r incident.Run) (int, bool) { return r.TwoBelieverRounds(), true }},
		{takeover, func(r incident.Run) (int, bool) { return r.Takeover, r.Takeover > 0 }},
	}
	b := t.AppendNames([]byte("setting,"), model.Params()...)
	b = append(b, "phases,seeds,"+phase+",seed"...)
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		b = append(b, ","+t.StatName(s)...)
	}
	b = append(b, ","+twoBelievers(t)...)
	for _, f := range figures {
		b = append(b, ","+f.name+"_min,"+f.name+"_median,"+f.name+"_max"...)
	}
	b = append(b, ",runs_with_handover,runs_with_two_leaders\n"...)
	for _, r := range rows {
		b = appendCSVField(b, r.Name)
		b = append(b, ',')
		b = t.AppendValues(b, &r.Config)
		b = fmt.Appendf(b, ",%d,%d,", r.Spread.Phases, r.Spread.Seeds)
		b = t.AppendStat(b, model.LeaderlessRounds, r.Run.Phase) // a time in the statistics' unit
		b = fmt.Appendf(b, ",%d", r.Run.Seed)
		for s, v := range r.Run.Stats.Values() {
			b = t.AppendStat(append(b, ','), model.Stat(s), v)
		}
		b = t.AppendStat(append(b, ','), model.TwoLeaderRounds, r.Run.TwoBelieverRounds())
		for _, f := range figures {
			fig := r.Spread.Figures(f.of)
			for _, v := range []int{fig.Min, fig.Median, fig.Max} {
				b = append(b, ',')
				if fig.Runs > 0 {
					b = t.AppendStat(b, model.LeaderlessRounds, v)
				}
			}
		}
		handover := r.Spread.Share(func(r incident.Run) bool { return r.Stats.Handovers > 0 })
		two := r.Spread.Share(func(r incident.Run) bool { return r.Stats.TwoLeaderRounds > 0 })
		b = fmt.Appendf(b, ",%.4f,%.4f\n", handover, two)
	}
	_, err := w.Write(b)
	return err
}

// appendCSVField appends s as one CSV field, quoted if it holds a comma,
// a quote or a line break (RFC 4180).
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	return append(append(b, '"'), strings.ReplaceAll(s, `"`, `""`)+`"`...)
}
