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

// WriteRecommendCSV writes one row per lease.
func WriteRecommendCSV(w io.Writer, ranks []LeaseRank) error {
	b := []byte("lease,window_rounds_per_event,missed_lines_per_year,double_lines_per_year\n")
	for _, r := range ranks {
		b = fmt.Appendf(b, "%d,%.6f,%.6f,%.6f\n", r.Lease, r.WindowRounds, r.MissedLines, r.DoubleLines)
	}
	_, err := w.Write(b)
	return err
}
