package cost

import (
	"fmt"
	"io"

	"github.com/leasesim/leasesim/model"
)

// The cost package's two CSV formats: yearly projections and lease
// rankings.

// ConfigProjection is a projection with the configuration it is of.
type ConfigProjection struct {
	Config model.Config
	Projection
}

// WithConfig pairs each of projections with the configuration c it is of.
func WithConfig(c model.Config, projections []Projection) []ConfigProjection {
	ps := make([]ConfigProjection, len(projections))
	for i, p := range projections {
		ps[i] = ConfigProjection{c, p}
	}
	return ps
}

// WriteCostCSV writes projections as CSV: the parameter columns of each
// projection's configuration in the unit of t, then the method, the rate,
// lines per batch and the yearly figures.
func WriteCostCSV(w io.Writer, t model.Tick, ps []ConfigProjection) error {
	b := t.AppendNames(nil, model.Params()...)
	b = append(b, "method,handovers_per_year,lines_per_batch,missed_batches_per_year,missed_lines_per_year,double_batches_per_year,double_lines_per_year\n"...)
	for _, p := range ps {
		b = t.AppendValues(b, &p.Config)
		b = fmt.Appendf(b, ",%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", p.Method, p.EventsPerYear, p.LinesPerBatch,
			p.MissedBatches, p.MissedLines(), p.DoubleBatches, p.DoubleLines())
	}
	_, err := w.Write(b)
	return err
}

// WriteRecommendCSV writes one row per lease: its yearly measures, its
// two-leader margin (empty without a renew deadline, which sets none),
// whether it is on their Pareto front, its cost under w, left empty when
// no weight is given, and last, after the columns a reader already
// takes, the batches' lateness a year (Rank.LateRounds), which the cost
// prices with the start's delay. With a tick, the lease, the window, the
// delay, the margin and the lateness are in seconds, under names that say
// so.
func WriteRecommendCSV(w io.Writer, t model.Tick, ranks []Rank, weights Weights) error {
	window, delayed, margin, late := "window_rounds_per_event", "delayed_rounds_per_year", "two_leader_margin_rounds", "lateness_rounds_per_year"
	if t != 0 {
		window, delayed, margin, late = "window_s_per_event", "delayed_s_per_year", "two_leader_margin_s", "lateness_s_per_year"
	}
	b := fmt.Appendf(nil, "%s,%s,missed_lines_per_year,double_lines_per_year,%s,handovers_per_year,%s,pareto,cost_per_year,%s\n", t.Name(model.Lease), window, delayed, margin, late)
	scale := 1.0
	if t != 0 {
		scale = t.Seconds(1)
	}
	front := Pareto(ranks)
	for i, r := range ranks {
		b = t.AppendValue(b, model.Lease, r.Lease)
		b = fmt.Appendf(b, ",%.6f,%.6f,%.6f,%.6f,%.6f,", scale*r.WindowRounds, r.MissedLines, r.DoubleLines, scale*r.DelayedRounds, r.Handovers)
		if r.HasMargin {
			b = fmt.Appendf(b, "%g", scale*float64(r.Margin))
		}
		b = fmt.Appendf(b, ",%t,", front[i])
		if weights != (Weights{}) {
			b = fmt.Appendf(b, "%.6f", r.Cost(weights))
		}
		b = fmt.Appendf(b, ",%.6f\n", scale*r.LateRounds)
	}
	_, err := w.Write(b)
	return err
}
