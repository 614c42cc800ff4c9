package cost

import (
	"slices"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestLeases leaves out the leases that do not go together with the
// other settings, counting them and keeping the first one's reason.
func TestLeases(t *testing.T) {
	c := model.Default()
	c.RenewDeadline, c.RetryPeriod = 4, 1 // a lease must be longer than the renew deadline
	for _, cse := range []struct {
		leases  []int
		valid   []int
		skipped int
	}{
		{[]int{6, 8}, []int{6, 8}, 0},
		{[]int{2, 3, 6, 4}, []int{6}, 3},
		{[]int{1}, nil, 1},
	} {
		valid, configs, skipped, first := Leases(c, slices.Values(cse.leases))
		if !slices.Equal(valid, cse.valid) || skipped != cse.skipped || (skipped > 0) != (first != nil) || len(configs) != len(valid) {
			t.Errorf("Leases(%v) = %v, %d skipped (%v); want %v, %d skipped", cse.leases, valid, skipped, first, cse.valid, cse.skipped)
		}
		for i, cfg := range configs {
			if cfg.Lease != valid[i] || cfg.RenewDeadline != 4 {
				t.Errorf("Leases(%v): configuration %d has lease %d, renew deadline %d", cse.leases, i, cfg.Lease, cfg.RenewDeadline)
			}
		}
	}
}
