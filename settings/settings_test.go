package settings_test

import (
	"math"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// TestFigures: every figure against values worked by hand from client-go's
// code, for Kubernetes' and OpenShift's defaults; medians, which are drawn,
// only inside their range.
func TestFigures(t *testing.T) {
	nan := math.NaN()
	type want struct {
		min, max, median, published float64 // median NaN: only within min … max
		disagrees                   bool
	}
	tests := []struct {
		preset string
		want   map[string]want
	}{
		{"kubernetes", map[string]want{
			// Renewed at 0, the leader retries at 2, 4, 6, 8, 10 and gives up at 12.
			"give_up_after_renewal": {12, 12, 12, nan, false},
			// An outage from just after a renewal must end by the attempt at 10;
			// from just before the first retry at 2, it may last 8. library-go's
			// floor(10/2)·2 − 2 = 8 agrees.
			"fast_fail_outage_survived": {8, 10, 9, 8, false},
			// Calls hang 5s: the update at 2 hangs to 7, the read at 7 is the
			// last call before the deadline at 12.
			"black_hole_outage_survived": {5, 7, 6, nan, false},
			// A follower sees the renewal at once or up to 2.2·2 = 4.4 later,
			// and takes over at once or up to 4.4 after the lease of 15 runs out.
			"takeover_after_crash":   {15, 23.8, nan, 17, true},
			"takeover_after_release": {0, 4.4, nan, 2, true},
			"two_leader_margin":      {3, 3, 3, 5, true},
			"leader_pause_tolerated": {13, 15, 14, nan, false},
		}},
		{"openshift", map[string]want{
			"give_up_after_renewal": {133, 133, 133, nan, false},
			// Retries at 26, 52, 78, 104, 130; the deadline is 133. library-go
			// says 78 (floor(107/26)·26 − 26).
			"fast_fail_outage_survived": {104, 130, 117, 78, true},
			// The update at 26 hangs 53.5s; the read at 79.5 is the last call.
			"black_hole_outage_survived": {53.5, 79.5, 66.5, nan, false},
			"takeover_after_crash":       {137, 137 + 4.4*26, nan, 163, true},
			"takeover_after_release":     {0, 2.2 * 26, nan, 26, true},
			"two_leader_margin":          {4, 4, 4, 30, true},
			"leader_pause_tolerated":     {111, 137, 124, nan, false},
		}},
	}
	for _, tt := range tests {
		p, err := settings.PresetByName(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		s := settings.Settings{LeaseDuration: p.LeaseDuration, RenewDeadline: p.RenewDeadline, RetryPeriod: p.RetryPeriod, Nodes: 3}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		figures := settings.Figures(s, 1)
		if len(figures) != len(tt.want) {
			t.Errorf("%s: %d figures, want %d", tt.preset, len(figures), len(tt.want))
		}
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 || math.IsNaN(a) && math.IsNaN(b) }
		for _, f := range figures {
			w, ok := tt.want[f.Metric]
			switch {
			case !ok:
				t.Errorf("%s: unexpected figure %s", tt.preset, f.Metric)
			case !near(f.Min, w.min) || !near(f.Max, w.max) || !near(f.Published, w.published) || f.Disagrees() != w.disagrees:
				t.Errorf("%s %s: min %v max %v published %v disagrees %t; want %v %v %v %t", tt.preset, f.Metric, f.Min, f.Max, f.Published, f.Disagrees(), w.min, w.max, w.published, w.disagrees)
			case !math.IsNaN(w.median) && !near(f.Median, w.median):
				t.Errorf("%s %s: median %v, want %v", tt.preset, f.Metric, f.Median, w.median)
			case f.Median < f.Min || f.Median > f.Max:
				t.Errorf("%s %s: median %v outside %v … %v", tt.preset, f.Metric, f.Median, f.Min, f.Max)
			}
		}
	}
}

// TestValidate: client-go's own checks, with its error's meaning.
func TestValidate(t *testing.T) {
	s := time.Second
	tests := []struct {
		lease, deadline, retry time.Duration
		nodes                  int
		ok                     bool
	}{
		{15 * s, 10 * s, 2 * s, 3, true},
		{10 * s, 10 * s, 2 * s, 3, false}, // leaseDuration must be greater than renewDeadline
		{15 * s, 6 * s, 5 * s, 3, false},  // 6s is not above 1.2 × 5s
		{15 * s, 7 * s, 5 * s, 3, true},
		{15 * s, 10 * s, 2 * s, 1, false}, // nobody to take over
		{900 * time.Millisecond, 500 * time.Millisecond, 100 * time.Millisecond, 3, false},
	}
	for _, tt := range tests {
		err := settings.Settings{LeaseDuration: tt.lease, RenewDeadline: tt.deadline, RetryPeriod: tt.retry, Nodes: tt.nodes}.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("%v/%v/%v, %d nodes: %v, want ok %t", tt.lease, tt.deadline, tt.retry, tt.nodes, err, tt.ok)
		}
	}
}

// TestRecordLeaseTruncates: the record holds whole seconds, so a lease of
// 15.9s is counted as 15s by followers.
func TestRecordLeaseTruncates(t *testing.T) {
	s := settings.Settings{LeaseDuration: 15900 * time.Millisecond, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 2}
	if got := s.RecordLease(); got != 15*time.Second {
		t.Errorf("RecordLease = %v, want 15s", got)
	}
	if f := settings.Figures(s, 1)[5]; f.Metric != "two_leader_margin" || math.Abs(f.Min-3) > 1e-9 {
		t.Errorf("%s = %v, want 3 (15 − 2 − 10)", f.Metric, f.Min)
	}
}

// TestFiguresRepeat: the same seed gives the same medians.
func TestFiguresRepeat(t *testing.T) {
	s := settings.Settings{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 5}
	a, b := settings.Figures(s, 7), settings.Figures(s, 7)
	for i := range a {
		if a[i].Median != b[i].Median {
			t.Errorf("%s: median %v then %v", a[i].Metric, a[i].Median, b[i].Median)
		}
	}
}

// TestSchedulers: every scheduler preset keeps a missed slot, the names
// are unique, and a name that is not one is refused with the list.
func TestSchedulers(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range settings.Schedulers() {
		if seen[s.Name] {
			t.Errorf("scheduler %q twice", s.Name)
		}
		seen[s.Name] = true
		got, err := settings.SchedulerByName(s.Name)
		if err != nil || got != s {
			t.Errorf("SchedulerByName(%q) = %+v, %v", s.Name, got, err)
		}
		if s.CatchUpWindow < 0 {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
	if _, err := settings.SchedulerByName("nomad"); err == nil || err.Error() != "want one of cronjob, quartz, temporal" {
		t.Errorf("SchedulerByName(nomad) = %v", err)
	}
}
