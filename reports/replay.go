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

// ReplayRow is an incident's run under one of the settings compared.
type ReplayRow struct {
	Name   string // the setting, as "kubernetes, lease 15s"
	Config model.Config
	Stats  model.Stats
	Trace  []byte // the run round by round, if asked for

	Leaderless, TwoLeaders []incident.Span // the rounds with no leader and with two or more
}

// WriteReplay writes an incident's runs side by side: what it cost under
// each setting, then, where kept, each run round by round.
func WriteReplay(w io.Writer, t model.Tick, in incident.Incident, rows []ReplayRow) error {
	var b strings.Builder
	u := unit{t}
	var failures []string
	for _, f := range in.Failures {
		failures = append(failures, fmt.Sprintf("node %d %s %s", f.Node, f.Kind, u.during(f.First, f.Last)))
	}
	first, last := in.Span()
	fmt.Fprintf(&b, "incident: %s, %s\n", plural(len(in.Failures), "failure", "failures"), u.during(first, last))
	for _, f := range failures {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	if t != 0 {
		fmt.Fprintf(&b, "one round = %s; times in seconds\n", t)
	}
	width := len("setting")
	for _, r := range rows {
		width = max(width, len(r.Name))
	}
	stats := []model.Stat{model.Missed, model.Unresolved, model.DoubleStarts, model.Deduplicated, model.DelayedRounds, model.LeaderlessRounds, model.TwoLeaderRounds, model.Handovers}
	fmt.Fprintf(&b, "\n%-*s", width, "setting")
	for _, s := range stats {
		fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.StatName(s))
	}
	b.WriteByte('\n')
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s", width, r.Name)
		for _, s := range stats {
			fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.AppendStat(nil, s, r.Stats.Get(s)))
		}
		b.WriteByte('\n')
	}
	for _, r := range rows {
		if r.Trace == nil {
			continue
		}
		fmt.Fprintf(&b, "\n%s, a run of %s:\n", r.Name, u.span(r.Config.Rounds))
		b.Write(r.Trace)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
		for _, s := range append(slices.Clone(r.Leaderless), r.TwoLeaders...) {
			lo, hi = min(lo, s.First), max(hi, s.Last)
		}
	}
	margin := max(2, (hi-lo+1)/10)
	lo, hi = max(1, lo-margin), hi+margin
	// Round r covers (r−1, r] on the axis, in rounds or seconds.
	x := func(r int) float64 { return u.value(float64(r)) }
	p := newPlot(fmt.Sprintf("Incident: %s, %s", plural(len(in.Failures), "failure", "failures"), u.during(first, last)), u.axis("time from the run's start"), "")
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
		for _, s := range r.Leaderless {
			if err := bar(y, s, red); err != nil {
				return err
			}
		}
		for _, s := range r.TwoLeaders {
			if err := bar(y, s, orange); err != nil {
				return err
			}
		}
		ticks = append(ticks, plot.Tick{Value: y, Label: r.Name})
		y++
	}
	var ns []int
	for n := range nodes(in) {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	for i := len(ns) - 1; i >= 0; i-- {
		for _, f := range in.Failures {
			if f.Node == ns[i] {
				if err := bar(y, incident.Span{First: f.First, Last: f.Last}, grey); err != nil {
					return err
				}
			}
		}
		var how []string
		for _, f := range in.Failures {
			if f.Node == ns[i] && !slices.Contains(how, f.Kind) {
				how = append(how, f.Kind)
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
	for _, f := range in.Failures {
		m[f.Node] = true
	}
	return m
}
