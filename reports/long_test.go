package reports_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
)

// TestLongRunTrace: a trace of a billion rounds shows the window around
// the outage, says so, and agrees with the run's statistics.
func TestLongRunTrace(t *testing.T) {
	c := model.Default()
	c.Rounds, c.Start = 1_000_000_000, 500_000_000
	var b bytes.Buffer
	if err := reports.WriteTrace(&b, new(model.Runner), c, c.Schedule()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[0] != "rounds 499999988 to 500000023 of 1000000000, around the outage; the others are left out" || len(lines) != 2+36 {
		t.Errorf("%d lines, first %q", len(lines), lines[0])
	}
	rounds, st, err := new(model.Runner).TraceRounds(c, c.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	run, _ := model.Run(c)
	leaderless := 0
	for _, r := range rounds {
		if r.Active == 0 {
			leaderless++
		}
	}
	if st != run || leaderless != run.LeaderlessRounds || leaderless == 0 {
		t.Errorf("the window holds %d leaderless rounds; the run has %d (trace stats %+v, run %+v)", leaderless, run.LeaderlessRounds, st, run)
	}
}

// TestNodeStudyBounded: where ten years of replicas would draw more than
// MaxStudyPeriods failure periods, replicas are shortened to fit, and
// report.md says so.
func TestNodeStudyBounded(t *testing.T) {
	base := model.Default()
	opt := study.DefaultReviewOptions(base)
	opt.Up, _ = model.ParseLengths("fixed:2")
	opt.Down, _ = model.ParseLengths("fixed:2")
	opt.Replicas = 40
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	rounds := rv.NodeStudy.Grid.Values[model.Rounds].At(0)
	if p := rv.NodeStudy.Periods(); rounds >= study.StudyYears*2190 || p > study.MaxStudyPeriods || p < 0.9*study.MaxStudyPeriods {
		t.Errorf("replicas of %d rounds, %.3g periods", rounds, p)
	}
	for _, f := range reports.Files(rv) {
		if f.Name == "report.md" {
			var b bytes.Buffer
			f.Write(&b)
			if !strings.Contains(b.String(), "not 10: longer replicas would draw more than 2e+07 failure periods") {
				t.Error("report.md does not say the replicas were shortened")
			}
		}
	}
}
