package study_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
)

// TestInputsReproduceReport: the library alone, without the command,
// builds the review `leasesim report` builds from the shipped example
// review file (report --example) with the gate test's narrowed candidates
// and two replicas, and its gate gives the line the command's golden
// (testdata/golden/cmd/report-gate-example.txt) pins: the tick's
// defaults (a year's rounds, the node-count study's failures) come from
// ReviewInputs.Prepare, not from the command.
func TestInputsReproduceReport(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "cmd", "report-gate-example.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, want, ok := strings.Cut(string(golden), "leasesim report: gate: ")
	if !ok {
		t.Fatalf("no gate line in the golden:\n%s", golden)
	}
	want, _, _ = strings.Cut(want, "\n")

	tick, err := parse.Tick("1s")
	if err != nil {
		t.Fatal(err)
	}
	preset, err := settings.PresetByName("kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	scheduler, err := settings.SchedulerByName("cronjob")
	if err != nil {
		t.Fatal(err)
	}
	// What the review file and the command line give: the deployment's
	// flags in the unit of the tick, then the preset and the scheduler
	// where none of them set a value.
	given := map[string]bool{"preset": true, "tick": true, "scheduler": true, "outages-per-year": true, "outage-mix": true, "lines-per-batch": true,
		"candidates": true, "candidate-renew-deadline": true, "candidate-retry-period": true, "replicas": true, "currency": true,
		"cost-missed-line": true, "cost-double-line": true, "cost-delay-hour": true, "cost-handover": true}
	base := model.Default()
	for _, v := range []struct {
		p    model.Param
		text string
	}{{model.Nodes, "3"}, {model.Fencing, "false"}, {model.Period, "24h"}, {model.Outage, "30s"}, {model.Start, "23h59m50s"}, {model.Rounds, "24h10m"}} {
		n, err := parse.Value(tick, v.p, v.text)
		if err != nil {
			t.Fatal(err)
		}
		base.Set(v.p, n)
		given[v.p.Flag()] = true
	}
	vals, err := preset.Values(settings.RoundLock{}, tick)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := study.SchedulerValues(scheduler, tick)
	if err != nil {
		t.Fatal(err)
	}
	for _, values := range []map[model.Param]int{sched, vals} {
		for p, v := range values {
			if !given[p.Flag()] {
				base.Set(p, v)
			}
		}
	}
	list := func(p model.Param, s string) sweep.List {
		l, err := sweep.ParseValues(tick, p, s)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	in := study.ReviewInputs{Base: base, Options: study.DefaultReviewOptions(base), Tick: tick, Preset: preset,
		Given: func(flag string) bool { return given[flag] }, DelayHour: 30, OutageMix: "5s:0.6,30s:0.3,2m:0.1",
		CandidateLeases:         list(model.Lease, "15s,1m"),
		CandidateRenewDeadlines: list(model.RenewDeadline, "10s,40s"),
		CandidateRetryPeriods:   list(model.RetryPeriod, "2s")}
	in.Options.EventsPerYear, in.Options.LinesPerBatch, in.Options.Replicas, in.Options.Currency = []float64{8}, 50000, 2, "EUR"
	in.Options.Weights.MissedLine, in.Options.Weights.DoubleLine, in.Options.Weights.Handover = 0.40, 2.50, 5

	b, opt, err := in.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if opt.RoundsPerYear != tick.RoundsPerYear() || opt.Up.Kind != model.Geometric || opt.Down.Kind != model.Empirical || opt.Replicas != 2 {
		t.Errorf("Prepare's tick defaults: %v rounds a year, up %v, down %v, %d replicas; want a year of seconds, a geometric up time over the events a year, the outage mix's down times, the 2 replicas given",
			opt.RoundsPerYear, opt.Up, opt.Down, opt.Replicas)
	}
	rv, err := study.NewReview(context.Background(), b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := reports.GateLine(rv, rv.Gate()); got != want {
		t.Errorf("the gate's line from the library:\n%s\nthe command's golden:\n%s", got, want)
	}
}
