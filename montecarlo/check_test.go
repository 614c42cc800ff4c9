package montecarlo_test

import (
	"slices"
	"testing"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
)

// TestCheckWork: a study is refused once its expected up and down periods
// pass MaxPeriods, about replicas × nodes × 2·rounds / (mean up + mean down).
func TestCheckWork(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Rounds = 2, 1_000_000_000
	for _, c := range []struct {
		replicas int
		want     string
	}{
		{20, ""}, // 20 × 2 × 10^9 = 4·10^10 periods
		{100 /* 2·10^11 */, "the study would draw about 2e+11 up and down periods, more than 1e+11 (hours of work): fewer configurations, --replicas, --rounds or --nodes, or longer --uptime"},
	} {
		mc := study(t, base, "fixed:1", "fixed:1", c.replicas)
		err := mc.CheckWork()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%d replicas: %q, want %q", c.replicas, got, c.want)
		}
		if err != nil && !slices.Equal(flagerr.Of(err), []string{"replicas", "rounds", "nodes", "uptime"}) {
			t.Errorf("%d replicas: names %q", c.replicas, flagerr.Of(err))
		}
	}
}
