package reports

import (
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// Run is one configuration and what its run counted.
type Run struct {
	Config model.Config
	Stats  model.Stats
}

// Arrangement is one of the two arrangements the cost plot compares.
type Arrangement struct {
	Name   string
	Result CostResult
}

// Review is every number of a capacity-planning report, computed once from
// a base configuration. The plots, the CSV and text files and report.md all
// read it.
type Review struct {
	Base          model.Config
	Handovers     []float64 // the rates of the cost tables
	LinesPerBatch int

	Variants   []Run           // plain, fencing, fencing+trigger, as Variants()
	LeaseSweep []Run           // ReportLeases × {LongOutage, ShortOutage}, lease outermost
	Heat       []Run           // ReportLeases × HeatOutages, lease outermost
	Cost       [2]Arrangement  // plain, and fencing + persistent trigger
	Timeline   []TimelineRound // the plain run, round by round
}

// The ranges the report sweeps.
const (
	MaxReportLease  = 12 // leases 1 … 12
	MaxHeatOutage   = 12 // outages 0 … 12
	LongOutage      = 5  // the seed's long outage
	ShortOutage     = 2  // and its short one
	MaxPlotHandover = 24 // the cost plot's handovers per year, 1 … 24
)

// NewReview computes a review of base at the given rates.
func NewReview(base model.Config, handovers []float64, linesPerBatch int) (*Review, error) {
	rv := &Review{Base: base, Handovers: handovers, LinesPerBatch: linesPerBatch}
	var r model.Runner
	run := func(c model.Config) (Run, error) {
		st, err := r.Run(c)
		return Run{c, st}, err
	}
	for _, v := range Variants() {
		x, err := run(v.Apply(base))
		if err != nil {
			return nil, err
		}
		rv.Variants = append(rv.Variants, x)
	}
	plain := Variants()[0].Apply(base)
	for lease := 1; lease <= MaxReportLease; lease++ {
		for _, outage := range []int{LongOutage, ShortOutage} {
			c := plain
			c.Lease, c.Outage = lease, outage
			x, err := run(c)
			if err != nil {
				return nil, err
			}
			rv.LeaseSweep = append(rv.LeaseSweep, x)
		}
		for outage := 0; outage <= MaxHeatOutage; outage++ {
			c := plain
			c.Lease, c.Outage = lease, outage
			x, err := run(c)
			if err != nil {
				return nil, err
			}
			rv.Heat = append(rv.Heat, x)
		}
	}
	var plotRates []float64
	for h := 1; h <= MaxPlotHandover; h++ {
		plotRates = append(plotRates, float64(h))
	}
	for i, v := range []Variant{Variants()[0], Variants()[2]} {
		res, err := ComputeCost(CostInput{Config: v.Apply(base), Handovers: plotRates, LinesPerBatch: linesPerBatch})
		if err != nil {
			return nil, err
		}
		rv.Cost[i] = Arrangement{v.Name, res}
	}
	var err error
	rv.Timeline, _, err = Timeline(plain, plain.Schedule())
	return rv, err
}

// CostAt returns the cost result of arrangement i at the review's own rates.
func (rv *Review) CostAt(i int) CostResult {
	res := rv.Cost[i].Result
	res.Handovers = rv.Handovers
	return res
}

// Projections returns the cost plot's numbers: every arrangement, method
// and rate of 1 … MaxPlotHandover a year.
func (rv *Review) Projections() []ArrangedProjection {
	var ps []ArrangedProjection
	for _, a := range rv.Cost {
		ps = append(ps, Arranged(a.Result.Config, a.Result.Projections(cost.Window, cost.Phase))...)
	}
	return ps
}

// ArrangedProjection is a projection with the configuration it is of.
type ArrangedProjection struct {
	Config model.Config
	cost.Projection
}
