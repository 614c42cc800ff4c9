package reports_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
)

// TestNodeStudyBounded: where ten years of replicas would draw more than
// MaxStudyPeriods failure periods, replicas are shortened to fit, and
// report.md says so.
func TestNodeStudyBounded(t *testing.T) {
	base := model.Default()
	opt := study.DefaultReviewOptions(base)
	opt.Up, _ = parse.Lengths(0, "fixed:2")
	opt.Down, _ = parse.Lengths(0, "fixed:2")
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
