package settings_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
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
		figures := figuresOf(t, s, 1)
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
	if f := figuresOf(t, s, 1)[5]; f.Metric != "two_leader_margin" || math.Abs(f.Min-3) > 1e-9 {
		t.Errorf("%s = %v, want 3 (15 − 2 − 10)", f.Metric, f.Min)
	}
}

// TestFiguresRepeat: the same seed gives the same medians.
func TestFiguresRepeat(t *testing.T) {
	s := settings.Settings{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 5}
	a, b := figuresOf(t, s, 7), figuresOf(t, s, 7)
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
	if c, _ := settings.SchedulerByName("cronjob"); c.RunsIn != "job" { // the controller only creates the Job; its pods run the batch
		t.Errorf("cronjob runs its batch in %q, want job", c.RunsIn)
	}
	if _, err := settings.SchedulerByName("nomad"); err == nil || err.Error() != "want one of cronjob, quartz, temporal" {
		t.Errorf("SchedulerByName(nomad) = %v", err)
	}
}

// figuresOf is settings.Figures of s drawn with seed, which fails the
// test if it returns an error.
func figuresOf(t *testing.T, s settings.Settings, seed uint64) []settings.Figure {
	t.Helper()
	fs, err := settings.Figures(context.Background(), s, seed)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestTakeoverWork: a follower's takeover is drawn in at most
// settings.Settled gaps between polls, whatever the lease and the retry
// period, and in none once the lease spans that many retry periods: a
// lease of a day over a retry period of 1 ms is drawn at once.
func TestTakeoverWork(t *testing.T) {
	r := rand.NewPCG(1, 2)
	for _, tt := range []struct {
		lease, rp float64 // seconds
		most      int     // the most gaps a draw may take
	}{
		{86400, 0.001, 0},
		{600, 0.001, 0},
		{settings.Settled * 2, 2, 0},
		{settings.Settled*2 - 0.001, 2, settings.Settled},
		{15, 2, 15 / 2},
		{1, 1, 1},
	} {
		for range 10000 {
			got, gaps := settings.Takeover(r, tt.rp, tt.lease)
			if gaps > tt.most || got < tt.lease || got > tt.lease+2*(1+model.JitterFactor)*tt.rp {
				t.Fatalf("lease %gs, retry period %gs: takeover at %gs after %d gaps, want at most %d gaps and %g … %g", tt.lease, tt.rp, got, gaps, tt.most, tt.lease, tt.lease+2*(1+model.JitterFactor)*tt.rp)
			}
		}
	}
}

// TestTakeoverSettles: just short of settings.Settled retry periods, poll
// by poll, and from there on, from the limit, a takeover's time past the
// lease has the same quantiles to within a hundredth of a retry period,
// far less than a median of Figures' draws can tell apart.
func TestTakeoverSettles(t *testing.T) {
	const n = 200001
	r := rand.NewPCG(3, 4)
	quantiles := func(lease float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			got, _ := settings.Takeover(r, 1, lease)
			xs[i] = got - lease
		}
		slices.Sort(xs)
		return []float64{xs[n/10], xs[n/4], xs[n/2], xs[3*n/4], xs[9*n/10]}
	}
	polled, limit := quantiles(settings.Settled-1e-9), quantiles(settings.Settled)
	for i := range polled {
		if math.Abs(polled[i]-limit[i]) > 0.01 {
			t.Errorf("quantile %d: %.4f poll by poll, %.4f from the limit", i, polled[i], limit[i])
		}
	}
}

// TestLastCallClosedForm: LastCall, computed at once, is the last call of
// the attempts played one by one, as client-go makes them, for retry
// periods, deadlines and timeouts from a millisecond to a day.
func TestLastCallClosedForm(t *testing.T) {
	played := func(s settings.Settings, timeout time.Duration) time.Duration {
		start, deadline := s.RetryPeriod, s.RetryPeriod+s.RenewDeadline
		last := start
		for attempt := start; attempt < deadline; {
			last = attempt
			if read := attempt + timeout; timeout > 0 && read < deadline {
				last = read
			}
			attempt = max(attempt+s.RetryPeriod, attempt+2*timeout)
		}
		return last
	}
	ms := time.Millisecond
	durations := []time.Duration{ms, 2 * ms, 999 * ms, time.Second, 1500 * ms, 2 * time.Second, 5 * time.Second, 10 * time.Second, 26 * time.Second, 107 * time.Second, time.Hour}
	for _, rp := range durations {
		for _, rd := range durations {
			for _, timeout := range append([]time.Duration{0}, durations...) {
				s := settings.Settings{LeaseDuration: 2 * time.Hour, RenewDeadline: rd, RetryPeriod: rp, Nodes: 2}
				if got, want := s.LastCall(timeout), played(s, timeout); got != want {
					t.Errorf("retry period %s, renew deadline %s, timeout %s: %s, want %s", rp, rd, timeout, got, want)
				}
			}
		}
	}
	// A day's deadline retried every millisecond: the last attempt starts
	// 1 ms before the deadline, at 24h after the first retry at 1 ms.
	s := settings.Settings{LeaseDuration: 25 * time.Hour, RenewDeadline: 24 * time.Hour, RetryPeriod: ms, Nodes: 2}
	if got := s.LastCall(0); got != 24*time.Hour {
		t.Errorf("LastCall(0) = %s, want 24h", got)
	}
	if got := s.LastCall(s.CallTimeout()); got != 12*time.Hour+ms {
		t.Errorf("LastCall(12h) = %s, want 12h0m0.001s: the update at 1ms hangs until then, and the read it starts is the last call", got)
	}
}

// TestFiguresStopWithContext: Figures returns the context's error once it
// ends, and no figures.
func TestFiguresStopWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := settings.Settings{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second, Nodes: 3}
	if fs, err := settings.Figures(ctx, s, 1); err != context.Canceled || fs != nil {
		t.Errorf("Figures after cancel: %d figures, %v", len(fs), err)
	}
}
