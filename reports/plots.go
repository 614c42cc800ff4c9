package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/study"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// DPI is the resolution of the report's PNG plots.
const DPI = 96

// Figure is one PNG plot of the report: its file name, its size in points
// and how it is drawn.
type Figure struct {
	Name          string
	Width, Height vg.Length
	Draw          func(dc draw.Canvas) error
}

// Pixels is the figure's size in pixels.
func (f Figure) Pixels() (w, h int) {
	return int(math.Round(f.Width.Points() * DPI / 72)), int(math.Round(f.Height.Points() * DPI / 72))
}

// WriteTo draws the figure and writes it as PNG.
func (f Figure) WriteTo(w io.Writer) (int64, error) {
	img := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
	if err := f.Draw(draw.New(img)); err != nil {
		return 0, err
	}
	return vgimg.PngCanvas{Canvas: img}.WriteTo(w)
}

// Figures returns every plot of the report of rv.
func Figures(rv *study.Review) []Figure { return review{rv}.figures() }

func (rv review) figures() []Figure {
	if rv.PerFire != nil { // every plot weighs a leader's lease or nodes
		return nil
	}
	return []Figure{
		{"lease-sweep.png", 10 * vg.Inch, 7 * vg.Inch, rv.drawLeaseSweep},
		{"heatmap.png", 10 * vg.Inch, 6.5 * vg.Inch, rv.drawHeatMap},
		{"cost.png", 10 * vg.Inch, 5.5 * vg.Inch, rv.drawCost},
		{"timeline.png", 10 * vg.Inch, timelineHeight(rv.Base.Nodes), rv.drawTimeline},
		{"nodes.png", 10 * vg.Inch, 5.5 * vg.Inch, rv.drawNodes},
	}
}

// newPlot returns a plot with the report's type sizes.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 14
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = 12, 12
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = 10, 10
	p.Legend.TextStyle.Font.Size = 11
	p.Add(plotter.NewGrid())
	return p
}

// seriesColor is the colour of a plot's i-th series: Okabe and Ito's
// palette, which readers with the common colour-vision deficiencies tell
// apart (blue, vermilion, bluish green, reddish purple, orange, sky blue).
func seriesColor(i int) color.Color {
	palette := []color.RGBA{{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255}, {230, 159, 0, 255}, {86, 180, 233, 255}}
	return palette[i%len(palette)]
}

// addLines adds named series to p as lines with points, each its own
// colour, dash and glyph, as plotutil.AddLinePoints does but in
// seriesColor's palette: name, series, name, series, ….
func addLines(p *plot.Plot, named ...any) error {
	for i := 0; i+1 < len(named); i += 2 {
		line, points, err := plotter.NewLinePoints(named[i+1].(plotter.XYs))
		if err != nil {
			return err
		}
		k := i / 2
		line.Color, points.Color = seriesColor(k), seriesColor(k)
		line.Dashes, points.Shape = plotutil.Dashes(k), plotutil.Shape(k)
		p.Add(line, points)
		p.Legend.Add(named[i].(string), line, points)
	}
	return nil
}

// fitWithLegend fits p's y axis to its data from zero, with room above
// for a legend of entries lines at the top, so that the legend covers no
// data; a plot of zeros keeps its zero line visible at the bottom.
func fitWithLegend(p *plot.Plot, entries int) {
	p.Legend.Top = true
	p.Y.Min = 0
	if p.Y.Max <= 0 {
		p.Y.Max = 1
	}
	p.Y.Max *= 1 + 0.09*float64(entries)
}

// wholeTicks marks whole numbers of an axis at a round step (1, 2, 5, 10,
// 20, …) chosen so that there are at most about most, or a dozen if most is 0.
type wholeTicks struct{ most int }

func (w wholeTicks) Ticks(min, max float64) []plot.Tick {
	most := float64(w.most)
	if most == 0 {
		most = 12
	}
	step := 1.0
	for i := 0; (max-min)/step > most; i++ {
		step *= []float64{2, 2.5, 2}[i%3] // 1, 2, 5, 10, 20, 50, …
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step)*step + 0; v <= max; v += step { // + 0 turns -0 into 0
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

// constant reports whether every series has one value throughout: a
// panel of such lines says only that, which a title says better.
func constant(series ...plotter.XYs) bool {
	for _, xys := range series {
		for _, xy := range xys {
			if xy.Y != xys[0].Y {
				return false
			}
		}
	}
	return true
}

// drawLeaseSweep: rounds (top) and batches (bottom) against the lease, for
// the long outage (left) and the short one (right). Where neither
// outage's batches change with the lease, the bottom row is left out and
// the top row's titles say what every lease gives.
func (rv review) drawLeaseSweep(dc draw.Canvas) error {
	var grid [2][2]*plot.Plot
	var batches [2][2]plotter.XYs // missed, double-started; by column
	u := unit{rv.Tick}
	for col, outage := range []int{rv.Ranges.Long, rv.Ranges.Short} {
		series := map[model.Stat]plotter.XYs{}
		for _, r := range rv.LeaseSweep {
			if r.Config.Outage != outage {
				continue
			}
			for s := model.Stat(0); int(s) < model.NumStats; s++ {
				y := float64(r.Stats.Get(s))
				if s.Time() {
					y = u.value(y)
				}
				series[s] = append(series[s], plotter.XY{X: u.value(float64(r.Config.Lease)), Y: y})
			}
		}
		times, perRun := "Rounds", "rounds per run"
		if rv.Tick != 0 {
			times, perRun = "Time", "seconds per run"
		}
		top := newPlot(fmt.Sprintf("%s, outage of %s", times, u.span(outage)), u.axis("lease"), perRun)
		bottom := newPlot(fmt.Sprintf("Batches, outage of %s", u.span(outage)), u.axis("lease"), "batches per run")
		var lines []any // the series not zero at every lease; the others said in the title
		var zero []string
		for _, st := range []struct {
			s     model.Stat
			label string
		}{{model.HandoverRounds, "handover rounds"}, {model.LeaderlessRounds, "leaderless rounds"}, {model.TwoLeaderRounds, "two-leader rounds"}} {
			xys := series[st.s]
			if len(xys) > 0 && constant(xys) && xys[0].Y == 0 {
				zero = append(zero, strings.TrimSuffix(u.stat(st.s, st.label), " (s)"))
				continue
			}
			lines = append(lines, u.stat(st.s, st.label), xys)
		}
		if err := addLines(top, lines...); err != nil {
			return err
		}
		if zero != nil {
			top.Title.Text += "\n(" + andList(zero) + ": none at any lease)"
		}
		if err := addLines(bottom,
			"missed batches", series[model.Missed],
			"double-started batches", series[model.DoubleStarts]); err != nil {
			return err
		}
		batches[col] = [2]plotter.XYs{series[model.Missed], series[model.DoubleStarts]}
		for _, p := range []*plot.Plot{top, bottom} {
			p.X.Tick.Marker = wholeTicks{}
			p.Y.Tick.Marker = wholeTicks{}
		}
		fitWithLegend(top, 3)
		fitWithLegend(bottom, 2)
		grid[0][col], grid[1][col] = top, bottom
	}
	if !constant(batches[0][0], batches[0][1], batches[1][0], batches[1][1]) {
		panels(dc, grid[0][:], grid[1][:])
		return nil
	}
	for col, b := range batches {
		if len(b[0]) > 0 {
			grid[0][col].Title.Text += fmt.Sprintf("\nat every lease, %s missed and %s double-started batches per run",
				strconv.FormatFloat(b[0][0].Y, 'f', -1, 64), strconv.FormatFloat(b[1][0].Y, 'f', -1, 64))
		}
	}
	panels(dc, grid[0][:])
	return nil
}

// heatGrid is the lease × outage grid of leaderless plus two-leader
// rounds, or seconds with a tick.
type heatGrid struct {
	rv review
	u  unit
}

func (g heatGrid) Dims() (c, r int) { return len(g.rv.Ranges.Leases), len(g.rv.Ranges.Outages) }
func (g heatGrid) X(c int) float64  { return g.u.value(float64(g.rv.Ranges.Leases[c])) }
func (g heatGrid) Y(r int) float64  { return g.u.value(float64(g.rv.Ranges.Outages[r])) }
func (g heatGrid) Z(c, r int) float64 {
	return g.u.value(float64(WindowRounds(g.rv.Heat[c*len(g.rv.Ranges.Outages)+r].Stats)))
}

// heatColors is the heat map's palette: sequential, from pale yellow for
// the least leaderless and two-leader time to dark red for the most, as
// ColorBrewer's YlOrRd, with a luminance that falls evenly with the value.
// The quantity runs one way from zero, so a diverging palette's middle
// colour would mark a value that means nothing.
func heatColors() (palette.ColorMap, error) {
	cm, err := moreland.NewLuminance([]color.Color{
		color.NRGBA{128, 0, 38, 255}, color.NRGBA{227, 26, 28, 255}, color.NRGBA{253, 141, 60, 255},
		color.NRGBA{254, 217, 118, 255}, color.NRGBA{255, 255, 204, 255},
	})
	if err != nil {
		return nil, err
	}
	return palette.Reverse(cm), nil
}

// WindowRounds is the publication's decision measure: leaderless plus
// two-leader rounds.
func WindowRounds(st model.Stats) int { return st.LeaderlessRounds + st.TwoLeaderRounds }

func (rv review) drawHeatMap(dc draw.Canvas) error {
	g := heatGrid{rv, unit{rv.Tick}}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rv.Heat {
		w := g.u.value(float64(WindowRounds(r.Stats)))
		lo, hi = math.Min(lo, w), math.Max(hi, w)
	}
	if hi == lo {
		hi = lo + 1
	}
	cm, err := heatColors()
	if err != nil {
		return err
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	title := fmt.Sprintf("Leaderless + two-leader rounds per run (%d nodes, renewal %d, %d rounds)", rv.Base.Nodes, rv.Base.RereadPeriod, rv.Base.Rounds)
	barLabel := "leaderless + two-leader rounds"
	if rv.Tick != 0 {
		title = fmt.Sprintf("Leaderless + two-leader seconds per run (%d nodes, retry period %s, renew deadline %s, a run of %s)", rv.Base.Nodes, g.u.span(rv.Base.RetryPeriod), g.u.span(rv.Base.RenewDeadline), g.u.span(rv.Base.Rounds))
		barLabel = "leaderless + two-leader seconds"
	}
	p := newPlot(title, g.u.axis("lease"), g.u.axis("outage"))
	p.Add(plotter.NewHeatMap(g, cm.Palette(256)))
	var labels plotter.XYLabels
	cols, rows := g.Dims()
	for c := range cols {
		for r := range rows {
			labels.XYs = append(labels.XYs, plotter.XY{X: g.X(c), Y: g.Y(r)})
			labels.Labels = append(labels.Labels, strconv.FormatFloat(g.Z(c, r), 'f', -1, 64))
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = 10
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		if z := g.Z(i/rows, i%rows); z > lo+0.6*(hi-lo) { // white on the darkest cells
			l.TextStyle[i].Color = color.White
		}
	}
	p.Add(l)
	p.X.Tick.Marker, p.Y.Tick.Marker = wholeTicks{}, wholeTicks{}
	p.X.Padding, p.Y.Padding = 0, 0

	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Padding = 0
	bar.Y.Label.Text = barLabel
	bar.Y.Label.TextStyle.Font.Size = 12
	bar.Y.Tick.Label.Font.Size = 10
	bar.Y.Tick.Marker = wholeTicks{}

	barWidth := 1.1 * vg.Inch
	main := draw.Crop(dc, 2*vg.Millimeter, -barWidth-3*vg.Millimeter, 2*vg.Millimeter, -2*vg.Millimeter)
	p.Draw(main)
	data := p.DataCanvas(main) // the bar spans the heat map's height exactly
	side := draw.Crop(dc, dc.Max.X-dc.Min.X-barWidth, -3*vg.Millimeter, data.Min.Y-dc.Min.Y, data.Max.Y-dc.Max.Y)
	bar.Draw(side)
	return nil
}

// drawCost: missed and duplicate invoice lines per year against outage
// events per year: the current settings and, if the verdict names others,
// the recommended ones over the review's outage events (their yearly
// figures scale with the rate), and as deployed and with fencing +
// persistent trigger by both methods. Series that coincide are drawn
// once, their legend naming each, so that none hides another.
func (rv review) drawCost(dc draw.Canvas) error {
	type key struct {
		m     cost.Method
		fence bool // the second of rv.Cost: fencing + persistent trigger
	}
	missed, double := map[key]plotter.XYs{}, map[key]plotter.XYs{}
	var rates []float64
	for i, a := range rv.Cost {
		for _, p := range a.Result.Projections(cost.Window, cost.Phase) {
			k := key{p.Method, i == 1}
			missed[k] = append(missed[k], plotter.XY{X: p.EventsPerYear, Y: p.MissedLines()})
			double[k] = append(double[k], plotter.XY{X: p.EventsPerYear, Y: p.DoubleLines()})
			if i == 0 && p.Method == cost.Phase {
				rates = append(rates, p.EventsPerYear)
			}
		}
	}
	u := unit{rv.Tick}
	alone := "as deployed"
	if mix := rv.mix(); rv.Incident == nil && (len(mix) > 1 || mix[0].Outage != rv.Base.Outage) {
		alone = "as deployed, the " + u.span(rv.Base.Outage) + " outage alone"
	}
	over := "over the mix"
	if rv.Mix == nil {
		over = "over " + rv.event()
	}
	ranked := []struct {
		name string
		r    cost.Rank
	}{{fmt.Sprintf("current (%s), %s", rv.name(rv.Current().Candidate), over), rv.Current()}}
	if top := rv.top(); top.Candidate != rv.Current().Candidate {
		ranked = append(ranked, struct {
			name string
			r    cost.Rank
		}{fmt.Sprintf("recommended (%s), %s", rv.name(top.Candidate), over), top})
	}
	type series = costSeries
	build := func(data map[key]plotter.XYs, of func(cost.Rank) float64) []series {
		var ss []series
		for _, k := range ranked {
			var xys plotter.XYs
			for _, x := range rates {
				xys = append(xys, plotter.XY{X: x, Y: of(k.r) * x / rv.EventsPerYear[0]})
			}
			ss = append(ss, series{k.name, xys})
		}
		if data != nil {
			ss = append(ss, series{"phase method, " + alone, data[key{cost.Phase, false}]},
				series{"phase method, fencing + persistent trigger", data[key{cost.Phase, true}]},
				series{"the publication's window method (any arrangement)", data[key{cost.Window, false}]})
		}
		for i := 0; i < len(ss); i++ { // coinciding series drawn once, each named
			for j := i + 1; j < len(ss); {
				if sameSeries(ss[i].xys, ss[j].xys) {
					ss[i].name += "\n  = " + ss[j].name
					ss = append(ss[:j], ss[j+1:]...)
					continue
				}
				j++
			}
		}
		return ss
	}
	var row []*plot.Plot
	parts := []struct {
		title string
		data  []series
	}{{"Invoice lines never produced", build(missed, func(r cost.Rank) float64 { return r.MissedLines })},
		{"Invoice lines produced twice", build(double, func(r cost.Rank) float64 { return r.DoubleLines })}}
	if rv.Weights != (cost.Weights{}) { // what the verdict weighs, current against recommended
		row = append(row, rv.costPanel(build(nil, func(r cost.Rank) float64 { return r.Cost(rv.Weights) })))
	}
	none := "" // the parts that are zero throughout, said in the other's title instead
	for i := 0; i < len(parts); {
		zero := true
		for _, s := range parts[i].data {
			zero = zero && constant(s.xys) && (len(s.xys) == 0 || s.xys[0].Y == 0)
		}
		if zero && len(parts) > 1 {
			none = strings.ToLower(parts[i].title[:1]) + parts[i].title[1:]
			parts = append(parts[:i], parts[i+1:]...)
			continue
		}
		i++
	}
	for _, part := range parts {
		title := part.title
		if none != "" {
			title += fmt.Sprintf("\n(%s: none, by any method)", none)
		}
		p := newPlot(title, "outage events per year", fmt.Sprintf("lines per year (%d per batch)", rv.LinesPerBatch))
		var named []any
		entries := 0
		for _, s := range part.data {
			named = append(named, s.name, s.xys)
			entries += 1 + strings.Count(s.name, "\n")
		}
		if err := addLines(p, named...); err != nil {
			return err
		}
		fitWithLegend(p, entries)
		p.Legend.Left = true
		p.X.Tick.Marker, p.Y.Tick.Marker = wholeTicks{}, wholeTicks{}
		row = append(row, p)
	}
	panels(dc, row)
	return nil
}

// costSeries is a named series of the cost plot.
type costSeries struct {
	name string
	xys  plotter.XYs
}

// costPanel is the cost plot's panel of the cost a year, current and
// recommended, named by their series.
func (rv review) costPanel(ss []costSeries) *plot.Plot {
	p := newPlot("Cost a year", "outage events per year", "cost a year ("+rv.costUnit()+")")
	for i, s := range ss {
		line, points, _ := plotter.NewLinePoints(s.xys)
		line.Color, points.Color = seriesColor(i), seriesColor(i)
		line.Dashes, points.Shape = plotutil.Dashes(i), plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(s.name, line, points)
	}
	fitWithLegend(p, len(ss)+1)
	p.Legend.Left = true
	p.X.Tick.Marker, p.Y.Tick.Marker = wholeTicks{}, wholeTicks{}
	return p
}

// sameSeries reports whether two series have the same points, to a
// millionth of the larger value.
func sameSeries(a, b plotter.XYs) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].X != b[i].X || math.Abs(a[i].Y-b[i].Y) > 1e-6*max(1, math.Abs(a[i].Y), math.Abs(b[i].Y)) {
			return false
		}
	}
	return true
}

// Bounds that keep the timeline readable.
const (
	maxTimelineNodes = 12  // nodes drawn
	maxTokenRounds   = 60  // rounds up to which every round shows its tokens
	maxTitle         = 110 // characters in a line of the title
)

// wrap breaks s after a "; " or ", " so that no line is longer than width,
// where it can.
func wrap(s string, width int) []string {
	var lines []string
	for len(s) > width {
		cut := strings.LastIndex(s[:width], "; ")
		if cut < 0 {
			cut = strings.LastIndex(s[:width], ", ")
		}
		if cut < 0 {
			break
		}
		lines, s = append(lines, s[:cut+1]), s[cut+2:]
	}
	return append(lines, s)
}

func timelineHeight(nodes int) vg.Length {
	return 2.5*vg.Inch + vg.Length(min(nodes, maxTimelineNodes)+2)*0.45*vg.Inch
}

// timelineKind is how the timeline's legend names a failed node: by the
// group outage's kind, or an incident's kinds, each once; and, beside
// "believes it leads", that kind, or "failed" for several, which would
// run off the plot's edge.
func (rv review) timelineKind() (kind, beside string) {
	kind = failingKind(rv.Tick, rv.Base)
	if rv.Incident != nil { // its nodes fail each their own way
		kind = incidentKinds(rv.Tick, rv.Base, rv.Incident)
	}
	if strings.Contains(kind, " or ") {
		return kind, "failed"
	}
	return kind, kind
}

// drawTimeline: one row per node (reachable, believing it leads, with its
// fencing token), one for the batch's trigger and a batch cut mid-run,
// and one for the record.
func (rv review) drawTimeline(dc draw.Canvas) error {
	nodes := min(rv.Base.Nodes, maxTimelineNodes)
	batchRow, recordRow := -1.0, -2.0
	type state struct {
		name  string
		shape draw.GlyphDrawer
		color color.Color
		size  vg.Length
	}
	grey, red, blue := color.RGBA{160, 160, 160, 255}, color.RGBA{200, 30, 30, 255}, color.RGBA{30, 90, 200, 255}
	kind, failed := rv.timelineKind()
	states := []state{
		{"reachable", draw.CircleGlyph{}, grey, 3},
		{kind, draw.CrossGlyph{}, red, 6},
		{"believes it leads (active)", draw.CircleGlyph{}, blue, 8},
		{"believes it leads, " + failed, draw.RingGlyph{}, blue, 8},
		{"batch started", draw.TriangleGlyph{}, color.RGBA{20, 150, 60, 255}, 8},
		{"batch started twice", draw.SquareGlyph{}, color.RGBA{230, 130, 0, 255}, 8},
		{"batch missed", draw.CrossGlyph{}, red, 8},
		{"batch queued", draw.RingGlyph{}, color.RGBA{230, 130, 0, 255}, 8},
		{"batch cut mid-run (partial)", draw.PyramidGlyph{}, color.RGBA{120, 40, 160, 255}, 10},
	}
	points := make([]plotter.XYs, len(states))
	var tokens, record plotter.XYLabels
	u := unit{rv.Tick}
	// Over a long window a token on every round would be a solid bar of
	// digits: there, each belief's token is written where it begins.
	lo, hi := rv.timelineZoom()
	everyRound := hi-lo+1 <= maxTokenRounds
	for i, r := range rv.Timeline {
		if r.Round < lo || r.Round > hi {
			continue
		}
		x := u.value(float64(r.Round))
		for n := range nodes {
			y := float64(nodes - 1 - n)
			s := 0
			switch {
			case r.Token[n] > 0 && r.Reachable[n]:
				s = 2
			case r.Token[n] > 0:
				s = 3
			case !r.Reachable[n]:
				s = 1
			}
			points[s] = append(points[s], plotter.XY{X: x, Y: y})
			if r.Token[n] > 0 && (everyRound || i == 0 || r.Round == lo || rv.Timeline[i-1].Token[n] != r.Token[n]) {
				tokens.XYs = append(tokens.XYs, plotter.XY{X: x, Y: y + 0.3})
				tokens.Labels = append(tokens.Labels, strconv.Itoa(r.Token[n]))
			}
		}
		switch {
		case r.Trigger == model.TriggerStarted && r.Accepted > 1:
			points[5] = append(points[5], plotter.XY{X: x, Y: batchRow})
		case r.Trigger == model.TriggerStarted:
			points[4] = append(points[4], plotter.XY{X: x, Y: batchRow})
		case r.Trigger == model.TriggerMissed || r.Trigger == model.TriggerSkipped:
			points[6] = append(points[6], plotter.XY{X: x, Y: batchRow})
		case r.Trigger == model.TriggerQueued:
			points[7] = append(points[7], plotter.XY{X: x, Y: batchRow})
		}
		if r.Cut > 0 {
			points[8] = append(points[8], plotter.XY{X: x, Y: batchRow})
		}
		var notes []string
		if r.Dequeued > 0 {
			notes = append(notes, fmt.Sprintf("+%d queued", r.Dequeued))
		}
		if rej := r.Active - r.Accepted; rej > 0 && (r.Trigger != model.NoTrigger || r.Dequeued > 0) {
			notes = append(notes, fmt.Sprintf("%d refused", rej))
		}
		for i, note := range notes {
			tokens.XYs = append(tokens.XYs, plotter.XY{X: x, Y: batchRow - 0.35 - 0.25*float64(i)})
			tokens.Labels = append(tokens.Labels, note)
		}
		if r.Round == lo || r.Handover {
			record.XYs = append(record.XYs, plotter.XY{X: x, Y: recordRow})
			record.Labels = append(record.Labels, fmt.Sprintf("leader %d, token %d", r.Leader, r.Record))
		}
	}

	var scenario []string
	for _, sentence := range strings.SplitAfter(describe(rv.Tick, rv.Base, rv.IncidentFile, rv.Incident), ". ") {
		scenario = append(scenario, wrap(strings.TrimSpace(sentence), maxTitle)...)
	}
	xLabel := "round"
	if rv.Tick != 0 {
		xLabel = "end of the round, seconds from the run's start"
	}
	p := newPlot("Round by round, as deployed\n"+strings.Join(scenario, "\n"), xLabel, "")
	p.Title.TextStyle.Font.Size = 11
	for i, s := range states {
		if len(points[i]) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(points[i])
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Shape: s.shape, Color: s.color, Radius: s.size / 2}
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	for _, set := range []struct {
		labels plotter.XYLabels
		align  draw.XAlignment
	}{{tokens, draw.XCenter}, {record, draw.XLeft}} {
		if len(set.labels.Labels) == 0 {
			continue
		}
		l, err := plotter.NewLabels(set.labels)
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = 9
			l.TextStyle[i].XAlign = set.align
			l.TextStyle[i].YAlign = draw.YCenter
		}
		p.Add(l)
	}
	var rows []plot.Tick
	for n := range nodes {
		rows = append(rows, plot.Tick{Value: float64(nodes - 1 - n), Label: fmt.Sprintf("node %d", n)})
	}
	rows = append(rows, plot.Tick{Value: batchRow, Label: "batch"}, plot.Tick{Value: recordRow, Label: "record"})
	p.Y.Tick.Marker = plot.ConstantTicks(rows)
	p.Y.Min, p.Y.Max = recordRow-0.6, float64(nodes)-0.4
	named := map[string]bool{} // the legend's span entries
	for _, sp := range rv.batchSpans(lo, hi) {
		if sp.xys[0].X == sp.xys[1].X {
			continue
		}
		l, err := plotter.NewLine(sp.xys)
		if err != nil {
			return err
		}
		l.Width = 5
		l.Color = color.NRGBA{20, 150, 60, 150}
		name := "batch running"
		if sp.unwritten {
			l.Color, l.Dashes, l.Width, name = color.RGBA{120, 40, 160, 255}, []vg.Length{vg.Points(4), vg.Points(3)}, 2, "batch's parts never written"
		}
		p.Add(l)
		if !named[name] {
			named[name] = true
			p.Legend.Add(name, l)
		}
	}
	p.X.Min, p.X.Max = u.value(float64(lo)-0.7), u.value(float64(hi)+0.7)
	// Fewer marks as their labels grow, so that a day's seconds do not
	// run into each other: 30 of up to two digits, 12 of five.
	p.X.Tick.Marker = wholeTicks{most: min(30, 60/len(strconv.Itoa(int(p.X.Max))))}
	p.Legend.Top = true
	legendWidth := 2.6 * vg.Inch
	p.Legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-legendWidth, -2*vg.Millimeter, 0, -vg.Inch))
	p.Legend = plot.NewLegend()
	p.Draw(draw.Crop(dc, 2*vg.Millimeter, -legendWidth, 2*vg.Millimeter, -2*vg.Millimeter))
	return nil
}

// timelineZoom is the rounds the timeline plot shows: the whole trace,
// unless the outage and what it sets off (the handovers, leaderless and
// two-leader rounds up to the model's settling after it) fill less than
// a sixth of it; then a window three times as wide as they are, centred
// on them, so that they fill about a third.
func (rv review) timelineZoom() (lo, hi int) {
	tl := rv.Timeline
	lo, hi = tl[0].Round, tl[len(tl)-1].Round
	c := rv.Base
	if c.Outage == 0 || c.Down == 0 || c.Start > hi {
		return lo, hi
	}
	first, last := c.Start, c.Start+c.Outage-1
	settled := last + cost.SettleRounds(c)
	for _, r := range tl {
		if r.Round >= first && r.Round <= settled && (r.Handover || r.Active != 1) {
			last = max(last, r.Round)
		}
	}
	w := last - first + 1
	if 6*w > hi-lo+1 {
		return lo, hi
	}
	return max(lo, first-w), min(hi, last+w)
}

// timelineSpan is a stretch of the batch row: a batch running, or the
// parts of one cut mid-run that no run wrote.
type timelineSpan struct {
	xys       plotter.XYs
	unwritten bool
}

// batchSpans is the batch's runs on the timeline's batch row, each from
// its start (a trigger started, or queued batches dequeued) for its
// length, or to where it was cut and then its unwritten parts, clipped
// to rounds lo … hi; none for an instant batch.
func (rv review) batchSpans(lo, hi int) []timelineSpan {
	c, u := rv.Base, unit{rv.Tick}
	if c.BatchLen <= 1 {
		return nil
	}
	y := -1.0 // the batch row
	clip := func(a, b int) plotter.XYs {
		a, b = max(a, lo), min(b, hi)
		if a > b {
			a = b
		}
		return plotter.XYs{{X: u.value(float64(a)), Y: y}, {X: u.value(float64(b)), Y: y}}
	}
	var spans []timelineSpan
	var starts []int
	for _, r := range rv.Timeline {
		if r.Trigger == model.TriggerStarted || r.Dequeued > 0 {
			starts = append(starts, r.Round)
		}
	}
	for _, start := range starts {
		end := start + c.BatchLen
		cut := 0
		for _, r := range rv.Timeline {
			if r.Round > start && r.Round <= end && r.Cut > 0 {
				cut = r.Round
				break
			}
		}
		if cut == 0 {
			if end >= lo && start <= hi {
				spans = append(spans, timelineSpan{clip(start, end), false})
			}
			continue
		}
		if cut-1 >= lo && start <= hi {
			spans = append(spans, timelineSpan{clip(start, cut-1), false})
		}
		if end >= lo && cut-1 <= hi {
			spans = append(spans, timelineSpan{clip(cut-1, end), true})
		}
	}
	return spans
}

// panels draws rows of plots of equal length as a grid, their axes aligned.
func panels(dc draw.Canvas, rows ...[]*plot.Plot) {
	canvases := plot.Align(rows, draw.Tiles{Rows: len(rows), Cols: len(rows[0]), PadX: vg.Centimeter, PadY: vg.Centimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}, dc)
	for i, row := range rows {
		for j, p := range row {
			p.Draw(canvases[i][j])
		}
	}
}

// nodesSeen reports whether some replica of the node-count study saw
// missed lines (part 0) or double lines (part 1).
func (rv review) nodesSeen(part int) bool {
	return slices.ContainsFunc(rv.Nodes, func(s montecarlo.Summary) bool {
		return []float64{s.MissedPerYear, s.DoublePerYear}[part] > 0
	})
}

// errPoints are points with vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// drawNodes: missed and duplicate invoice lines per year against the node
// count, under independent failures, with 95% confidence intervals.
func (rv review) drawNodes(dc draw.Canvas) error {
	lines := rv.NodeStudy.LinesPerBatch
	var row []*plot.Plot
	parts := []struct {
		title string
		mean  func(s *montecarlo.Summary) float64
		ci    func(s *montecarlo.Summary) montecarlo.Interval
	}{
		{"Invoice lines never produced", func(s *montecarlo.Summary) float64 { return s.MissedPerYear }, func(s *montecarlo.Summary) montecarlo.Interval { return s.MissedPerYearCI95 }},
		{"Invoice lines produced twice", func(s *montecarlo.Summary) float64 { return s.DoublePerYear }, func(s *montecarlo.Summary) montecarlo.Interval { return s.DoublePerYearCI95 }},
	}
	// A part no replica saw is no panel of bars up to its bound, but a
	// line in the other's title (the first kept if neither was seen).
	var none []string
	for i := 0; i < len(parts); {
		seen := slices.ContainsFunc(rv.Nodes, func(s montecarlo.Summary) bool { return parts[i].mean(&s) > 0 })
		if !seen && len(parts) > 1 && (i > 0 || rv.nodesSeen(1)) {
			none = append(none, strings.ToLower(parts[i].title[:1])+parts[i].title[1:])
			parts = slices.Delete(parts, i, i+1)
			continue
		}
		i++
	}
	for _, part := range parts {
		p := newPlot(part.title+", independent failures", "nodes", "lines per year (mean, 95% interval)")
		for i, quorum := range []bool{false, true} {
			var pts errPoints
			for j := range rv.Nodes {
				s := &rv.Nodes[j]
				if s.Config.Quorum != quorum {
					continue
				}
				// Quorum is drawn a little to the right so the bars do not overlap.
				pts.XYs = append(pts.XYs, plotter.XY{X: float64(s.Config.Nodes) + 0.08*float64(i), Y: lines * part.mean(s)})
				m, ci := lines*part.mean(s), part.ci(s).Scale(lines)
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{m - ci.Lo, ci.Hi - m})
			}
			line, points, err := plotter.NewLinePoints(pts.XYs)
			if err != nil {
				return err
			}
			bars, err := plotter.NewYErrorBars(pts)
			if err != nil {
				return err
			}
			line.Color, points.Color, bars.Color = seriesColor(i), seriesColor(i), seriesColor(i)
			line.Dashes, points.Shape = plotutil.Dashes(i), plotutil.Shape(i)
			p.Add(line, points, bars)
			name := "no quorum"
			if quorum {
				name = "quorum"
			}
			p.Legend.Add(name, line, points)
		}
		fitWithLegend(p, 2)
		p.X.Tick.Marker, p.Y.Tick.Marker = wholeTicks{}, wholeTicks{}
		if p.Y.Max < 5 { // whole numbers would mark 0 alone
			p.Y.Tick.Marker = plot.DefaultTicks{}
		}
		if seen := slices.ContainsFunc(rv.Nodes, func(s montecarlo.Summary) bool { return part.mean(&s) > 0 }); !seen {
			p.Title.Text += "\nnone in any replica: the bars reach the 95% upper bound"
		}
		for _, n := range none {
			p.Title.Text += "\n(" + n + ": none in any replica, at any node count)"
		}
		row = append(row, p)
	}
	panels(dc, row)
	return nil
}
