package montecarlo_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/sweep"
)

// TestRunCSV writes the header and a row a configuration, each as
// AppendRow writes the summary emit is given, and with no CSV emits the
// same summaries.
func TestRunCSV(t *testing.T) {
	base := model.Default()
	base.Rounds = 2000
	mc := study(t, base, "geometric:200", "fixed:3", 4)
	mc.Grid.Values[model.Lease] = sweep.ListOf(4, 6)
	var csv bytes.Buffer
	var want []string
	err := mc.RunCSV(context.Background(), 2, &csv, func(s *montecarlo.Summary) error {
		want = append(want, string(mc.AppendRow(nil, s)))
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := csv.String(); got != string(mc.AppendHeader(nil))+strings.Join(want, "") || len(want) != 2 {
		t.Errorf("CSV %q, want the header and the %d rows emitted", got, len(want))
	}
	n := 0
	if err := mc.RunCSV(context.Background(), 2, nil, func(*montecarlo.Summary) error { n++; return nil }, nil); err != nil || n != 2 {
		t.Errorf("without a CSV: %d summaries, %v; want 2", n, err)
	}
}
