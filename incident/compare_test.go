package incident

import (
	"context"
	"errors"
	"strings"
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

// TestSamples leaves out a setting that does not go together, counting
// it, pins the run when asked, and is refused past its bounds.
func TestSamples(t *testing.T) {
	in, err := Parse(strings.NewReader("0, partition, 10, 5\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	good := model.Default()
	bad := model.Default()
	bad.RenewDeadline = bad.Lease + 1 // a renew deadline past the lease: no setting
	settings := []Compared{{"lease 6", good}, {"bad", bad}, {"lease 6 again", good}}
	rows, skipped, first, err := in.Samples(context.Background(), settings, false, "inc.txt", 0, 7, -1)
	if err != nil || skipped != 1 || first == nil || len(rows) != 2 {
		t.Fatalf("Samples = %d rows, %d skipped (%v), %v; want 2 rows, 1 skipped", len(rows), skipped, first, err)
	}
	if rows[0].Spread.Sample != SampleOf(rows[0].Config, 7) {
		t.Errorf("sample %+v, want SampleOf's %+v", rows[0].Spread.Sample, SampleOf(rows[0].Config, 7))
	}
	rows, _, _, _ = in.Samples(context.Background(), settings[:1], false, "inc.txt", 0, 7, 3)
	if want := (Sample{Phase: 3, Phases: 1, Seed: 7, Seeds: 1}); rows[0].Spread.Sample != want {
		t.Errorf("pinned sample %+v, want %+v", rows[0].Spread.Sample, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := in.Samples(ctx, settings, false, "inc.txt", 0, 7, -1); !errors.Is(err, context.Canceled) {
		t.Errorf("Samples after cancel = %v, want context.Canceled", err)
	}
}
