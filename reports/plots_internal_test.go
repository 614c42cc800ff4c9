package reports

import (
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
	"gonum.org/v1/plot/plotter"
)

// trace is a synthetic trace of rounds 1 … n with one leader throughout,
// a handover in round handover, and the batch started in round start (0:
// none) and cut in round cut (0: never).
func trace(n, handover, start, cut int) []model.TraceRound {
	var tl []model.TraceRound
	for r := 1; r <= n; r++ {
		tr := model.TraceRound{Round: r, Active: 1, Handover: r == handover, Trigger: model.NoTrigger}
		if r == start {
			tr.Trigger = model.TriggerStarted
		}
		if r == cut {
			tr.Cut = 1
		}
		tl = append(tl, tr)
	}
	return tl
}

// TestTimelineZoom: a 10-round outage handed over 20 rounds after it
// begins fills 21 rounds: of a 1,000-round trace the plot shows 21 rounds
// on each side of it, so that it fills a third; a 100-round trace, which
// it fills more than a sixth of, is shown whole.
func TestTimelineZoom(t *testing.T) {
	for _, tt := range []struct {
		n, start, lo, hi int
	}{{1000, 500, 479, 541}, {100, 50, 1, 100}} {
		c := model.Default()
		c.Start, c.Outage, c.Rounds = tt.start, 10, tt.n
		rv := review{&study.Review{Base: c, Timeline: trace(tt.n, tt.start+20, 0, 0)}}
		if lo, hi := rv.timelineZoom(); lo != tt.lo || hi != tt.hi {
			t.Errorf("a %d-round trace: rounds %d-%d, want %d-%d", tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

// TestBatchSpans: a 30-round batch started in round 100 and cut in round
// 110 is a span of its written parts, 100 to 109, and one of its parts
// never written, 109 to 130, clipped to the window shown; an instant
// batch has none.
func TestBatchSpans(t *testing.T) {
	c := model.Default()
	c.BatchLen, c.Period, c.Rounds = 30, 100, 200
	rv := review{&study.Review{Base: c, ReviewOptions: study.ReviewOptions{Tick: model.Tick(time.Second)}, Timeline: trace(200, 0, 100, 110)}}
	spans := rv.batchSpans(1, 120)
	if len(spans) != 2 || spans[0].unwritten || !spans[1].unwritten ||
		spans[0].xys[0].X != 100 || spans[0].xys[1].X != 109 || spans[1].xys[0].X != 109 || spans[1].xys[1].X != 120 {
		t.Errorf("spans %+v, want 100-109 written and 109-120 (clipped) unwritten", spans)
	}
	rv.Base.BatchLen = 1
	if spans := rv.batchSpans(1, 200); spans != nil {
		t.Errorf("an instant batch: spans %+v", spans)
	}
}

// TestSameSeries: series are the same to a millionth of their values, at
// the same points.
func TestSameSeries(t *testing.T) {
	a := plotter.XYs{{X: 1, Y: 1000}, {X: 2, Y: 2000}}
	for _, tt := range []struct {
		b    plotter.XYs
		want bool
	}{
		{plotter.XYs{{X: 1, Y: 1000}, {X: 2, Y: 2000.0000001}}, true},
		{plotter.XYs{{X: 1, Y: 1000}, {X: 2, Y: 2001}}, false},
		{plotter.XYs{{X: 1, Y: 1000}}, false},
		{plotter.XYs{{X: 1, Y: 1000}, {X: 3, Y: 2000}}, false},
	} {
		if got := sameSeries(a, tt.b); got != tt.want {
			t.Errorf("%v and %v: %t, want %t", a, tt.b, got, tt.want)
		}
	}
}

// TestHeatZeroEverywhere: a heat map zero in every cell is a sentence in
// report.md, not an image.
func TestHeatZeroEverywhere(t *testing.T) {
	c := model.Default()
	rv := review{&study.Review{Base: c, Ranges: study.Ranges{Leases: []int{2, 4}, Outages: []int{0, 3}}, Heat: make([]study.Result, 4)}}
	var b strings.Builder
	rv.writeHeat(&b)
	if want := "## Lease × outage\n\nThe deployment as deployed, its lease varied from 2 rounds to 4 rounds against outages of up to 3 rounds, is never leaderless and never has two leaders: the heat map (`heatmap.png`) is zero in every cell, so it is not shown.\n\n"; b.String() != want {
		t.Errorf("report.md says\n%q\nwant\n%q", b.String(), want)
	}
}
