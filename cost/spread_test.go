package cost

import (
	"context"
	"math"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestPhaseLosses: the losses of each phase average to the phase method's
// figures, their shares sum to one, and the publication's run has the
// three outcomes its hand-computed table (TestMethods) gives: nothing at
// four phases, a doubled batch at start 7, a missed and a doubled one at
// starts 11 and 12.
func TestPhaseLosses(t *testing.T) {
	c := model.Default()
	losses, err := PhaseLosses(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := PhaseMethod(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var share, missed, double, handovers float64
	for _, l := range losses {
		share += l.Share
		missed += l.Share * l.Missed
		double += l.Share * l.Double
		handovers += l.Share * l.Handovers
	}
	pe := in.PerEvent()
	for _, f := range []struct {
		name      string
		got, want float64
	}{{"shares", share, 1}, {"missed", missed, pe.Missed}, {"double", double, pe.Double}, {"handovers", handovers, in.Handovers}} {
		if math.Abs(f.got-f.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", f.name, f.got, f.want)
		}
	}
	if len(losses) != 3 {
		t.Errorf("%d distinct losses, want 3: %+v", len(losses), losses)
	}
}

// TestSpreadOf: a year of events that each cost one batch of 100 lines
// at every phase is 100 times a Poisson count: at 2 events a year, no loss
// in e^-2 of the years, and its 95% interval 0 to 500 lines (Poisson(2)'s
// 2.5% and 97.5% quantiles are 0 and 5); an event that costs at half its
// phases is as often quiet as Poisson(1); the same seed draws the same
// years.
func TestSpreadOf(t *testing.T) {
	every := []YearEvent{{PerYear: 2, LinesPerBatch: 100, Losses: []Loss{{Missed: 1, Handovers: 1, Share: 1}}}}
	half := []YearEvent{{PerYear: 2, LinesPerBatch: 100, Losses: []Loss{{Share: 0.5}, {Double: 1, Share: 0.5}}}}
	w := Weights{MissedLine: 1, DoubleLine: 2, Handover: 10}
	for _, tt := range []struct {
		name                   string
		events                 []YearEvent
		quiet                  float64
		missed, double, handov [2]float64
		cost                   [2]float64
	}{
		{"every phase", every, math.Exp(-2), [2]float64{0, 500}, [2]float64{0, 0}, [2]float64{0, 5}, [2]float64{0, 550}},
		{"half the phases", half, math.Exp(-1), [2]float64{0, 0}, [2]float64{0, 300}, [2]float64{0, 0}, [2]float64{0, 600}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := SpreadOf(tt.events, w, 1)
			if math.Abs(s.Quiet-tt.quiet) > 0.01 {
				t.Errorf("quiet years %.4f, want %.4f", s.Quiet, tt.quiet)
			}
			if s.Missed != tt.missed || s.Double != tt.double || s.Handovers != tt.handov || s.Cost != tt.cost {
				t.Errorf("missed %v double %v handovers %v cost %v, want %v %v %v %v", s.Missed, s.Double, s.Handovers, s.Cost, tt.missed, tt.double, tt.handov, tt.cost)
			}
			if again := SpreadOf(tt.events, w, 1); again != s {
				t.Errorf("the same seed drew %+v, then %+v", s, again)
			}
		})
	}
}
