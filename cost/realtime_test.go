package cost_test

import (
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// TestRealTimeRun: with neither given, a nightly batch (period 86400 of
// 1 s rounds) meets its outage as it falls due and runs four nights; a
// start given is kept and only the run follows; both given, nothing is
// derived.
func TestRealTimeRun(t *testing.T) {
	night := model.Default()
	night.Period, night.Start, night.Rounds = 86400, 7, 24
	for _, tt := range []struct {
		start, rounds       bool
		name                string
		wantStart, wantRuns int
	}{
		{false, false, "start,rounds", 86400, 4 * 86400},
		{true, false, "rounds", 7, 4 * 86400},
		{false, true, "start", 86400, 24},
	} {
		derive, name := cost.RealTimeRun(tt.start, tt.rounds)
		c := night
		derive(&c)
		if name != tt.name || c.Start != tt.wantStart || c.Rounds != tt.wantRuns {
			t.Errorf("RealTimeRun(%v, %v): %s, start %d, rounds %d; want %s, %d, %d", tt.start, tt.rounds, name, c.Start, c.Rounds, tt.name, tt.wantStart, tt.wantRuns)
		}
	}
	if derive, name := cost.RealTimeRun(true, true); derive != nil || name != "" {
		t.Errorf("RealTimeRun with both given derives %q", name)
	}
}
