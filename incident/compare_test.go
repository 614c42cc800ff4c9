package incident

import (
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
)

// TestCompare names and sets each preset's settings with each lease: a
// lock's preset with its own lease alone, client-go's with its own
// where one lease is not given.
func TestCompare(t *testing.T) {
	sec := model.Tick(time.Second)
	kube := PresetValues{"kubernetes", false, map[model.Param]int{model.Lease: 15, model.RenewDeadline: 10}}
	etcd := PresetValues{"etcd", true, map[model.Param]int{model.Lease: 60}}
	type want struct {
		name         string
		lease, renew int
	}
	for _, c := range []struct {
		what       string
		presets    []PresetValues
		leases     []int
		leaseGiven bool
		t          model.Tick
		want       []want
	}{
		{"flags alone", nil, []int{4, 8}, true, 0, []want{{"lease 4", 4, 0}, {"lease 8", 8, 0}}},
		{"a preset's own lease", []PresetValues{kube}, []int{5}, false, sec, []want{{"kubernetes, lease 15s", 15, 10}}},
		{"a lease given over the preset's", []PresetValues{kube}, []int{20}, true, sec, []want{{"kubernetes, lease 20s", 20, 10}}},
		{"leases under each", []PresetValues{kube, etcd}, []int{20, 30}, true, sec,
			[]want{{"kubernetes, lease 20s", 20, 10}, {"kubernetes, lease 30s", 30, 10}, {"etcd, lease 1m0s", 60, 0}}},
	} {
		base := model.Default()
		base.RenewDeadline = 0
		got := Compare(base, c.t, c.presets, c.leases, c.leaseGiven)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d settings, want %d", c.what, len(got), len(c.want))
			continue
		}
		for i, w := range c.want {
			if got[i].Name != w.name || got[i].Config.Lease != w.lease || got[i].Config.RenewDeadline != w.renew {
				t.Errorf("%s: setting %d is %q with lease %d, renew deadline %d; want %q, %d, %d", c.what, i, got[i].Name, got[i].Config.Lease, got[i].Config.RenewDeadline, w.name, w.lease, w.renew)
			}
		}
	}
}
