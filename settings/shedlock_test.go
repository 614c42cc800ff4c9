package settings_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestShedLockFigures: ShedLock's eight figures, computed by hand from
// the rules in docs/settings.md (ShedLock): never a give-up, the lock
// free lockAtMostFor after a crash, max(task, lockAtLeastFor) after a
// clean end (at most lockAtMostFor without keep-alive), the margin
// lockAtMostFor − task, and the runs of a slot whose fires spread evenly.
func TestShedLockFigures(t *testing.T) {
	s, m := time.Second, time.Minute
	inf := math.Inf(1)
	shed := func(f func(*settings.ShedLock)) settings.ShedLock {
		l := settings.ShedLockDefaults()
		f(&l)
		return l
	}
	tests := []struct {
		name string
		lock settings.ShedLock
		want [8][3]float64
		runs int
	}{
		// 10 min lock, 1 min task, fires over 1 s: held 60 s, nobody fires that late.
		{"defaults", settings.ShedLockDefaults(), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{600, 600, 600}, {60, 60, 60}, {540, 540, 540}, {540, 540, 540}, {60, 60, 60}}, 1},
		// Two nodes 2 s apart, a 1 s task, lockAtLeastFor 0: the lock is
		// free at 1 s, the second fire at 2 s runs it again.
		{"short task, 2s apart", shed(func(l *settings.ShedLock) { l.Nodes, l.FireSpread, l.Task = 2, 2*s, s }), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{600, 600, 600}, {1, 1, 1}, {599, 599, 599}, {599, 599, 599}, {1, 1, 1}}, 2},
		// lockAtLeastFor 5 s covers the spread: once.
		{"at least for covers", shed(func(l *settings.ShedLock) {
			l.Nodes, l.FireSpread, l.Task, l.LockAtLeastFor = 2, 2*s, s, 5*s
		}), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{600, 600, 600}, {5, 5, 5}, {599, 599, 599}, {599, 599, 599}, {5, 5, 5}}, 1},
		// Three nodes over 4 s (at 0, 2, 4), a 1 s task: each runs it.
		{"three runs", shed(func(l *settings.ShedLock) { l.FireSpread, l.Task = 4*s, s }), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{600, 600, 600}, {1, 1, 1}, {599, 599, 599}, {599, 599, 599}, {1, 1, 1}}, 3},
		// A 1 s lockAtMostFor under a 20 min task, two nodes 2 s apart:
		// the lock ends at 1 s under the task, the second fire runs it
		// beside it; margin 1 − 1200.
		{"task longer than most for", shed(func(l *settings.ShedLock) {
			l.Nodes, l.FireSpread, l.Task, l.LockAtMostFor = 2, 2*s, 20*m, s
		}), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{1, 1, 1}, {1, 1, 1}, {-1199, -1199, -1199}, {-1199, -1199, -1199}, {1, 1, 1}}, 2},
		// Keep-alive holds the lock to the task's end (20 min); the margin is
		// the worst case, no extension landing; a pause between extensions
		// is tolerated for 300 to 600 s.
		{"keep-alive", shed(func(l *settings.ShedLock) { l.KeepAlive, l.Task = true, 20*m }), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{600, 600, 600}, {1200, 1200, 1200}, {-600, -600, -600}, {300, 450, 600}, {1200, 1200, 1200}}, 1},
		// The nodes' clocks: each lock end moves by up to the 1 s spread.
		{"nodes' clocks", shed(func(l *settings.ShedLock) { l.UsingDbTime = false }), [8][3]float64{
			{inf, inf, inf}, {inf, inf, inf}, {inf, inf, inf},
			{599, 600, 601}, {59, 60, 61}, {539, 539, 539}, {539, 539, 539}, {59, 60, 61}}, 1},
	}
	metrics := []string{"give_up_after_renewal", "fast_fail_outage_survived", "black_hole_outage_survived",
		"takeover_after_crash", "takeover_after_release", "two_leader_margin", "leader_pause_tolerated", "rerun_after_first_fire"}
	for _, tt := range tests {
		if err := tt.lock.Validate(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		figures := tt.lock.Figures()
		if len(figures) != len(metrics) {
			t.Fatalf("%s: %d figures, want %d", tt.name, len(figures), len(metrics))
		}
		for i, f := range figures {
			w := tt.want[i]
			if f.Metric != metrics[i] || f.Min != w[0] || f.Median != w[1] || f.Max != w[2] {
				t.Errorf("%s %s: %v %v %v, want %s %v", tt.name, f.Metric, f.Min, f.Median, f.Max, metrics[i], w)
			}
		}
		if got := tt.lock.RunsPerSlot(); got != tt.runs {
			t.Errorf("%s: %d runs a slot, want %d", tt.name, got, tt.runs)
		}
	}
}

// TestShedLockValidate: what LockConfiguration and KeepAliveLockProvider
// refuse, with the option named.
func TestShedLockValidate(t *testing.T) {
	s := time.Second
	shed := func(f func(*settings.ShedLock)) settings.ShedLock {
		l := settings.ShedLockDefaults()
		f(&l)
		return l
	}
	for _, tt := range []struct {
		lock settings.ShedLock
		want string
	}{
		{shed(func(l *settings.ShedLock) { l.LockAtLeastFor = 11 * time.Minute }), "lock at least for 11m0s: want 0s to lock at most for 10m0s"},
		{shed(func(l *settings.ShedLock) { l.KeepAlive, l.LockAtMostFor = true, 29*s }), "lock at most for 29s: want at least 30s with keep-alive"},
		{shed(func(l *settings.ShedLock) { l.Task = 0 }), "task length 0s: want at least 1ms"},
		{shed(func(l *settings.ShedLock) { l.Nodes = 1 }), "nodes 1: want 2 to 1000"},
	} {
		err := tt.lock.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.lock, err, tt.want)
		}
	}
	if err := shed(func(l *settings.ShedLock) { l.KeepAlive, l.LockAtMostFor = true, 30*s }).Validate(); err != nil {
		t.Errorf("keep-alive with 30s: %v, want none", err)
	}
}

// TestShedLockRow: the shedlock preset on a round-model command runs its
// provider's protocol, lockAtMostFor as the lease (and retry period),
// lockAtLeastFor, the fire spread and usingDbTime as the model's own
// (usingDbTime the preset's true under JDBC, false under Redis, whose key
// expires on Redis's clock); it refuses a provider it does not know, and
// the options settings alone takes (keep-alive, the task's length) in one
// line each.
func TestShedLockRow(t *testing.T) {
	p, err := settings.PresetByName("shedlock")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		options map[string]string
		want    settings.RoundLock
	}{
		{nil, settings.RoundLock{Protocol: model.ProtocolShedLock, Lease: 10 * time.Minute, RetryPeriod: 10 * time.Minute, FireSpread: time.Second, UsingDbTime: true}},
		{map[string]string{"provider": "redis", "lock-at-most-for": "30s", "lock-at-least-for": "5s", "fire-spread": "2s"},
			settings.RoundLock{Protocol: model.ProtocolShedLockRedis, Lease: 30 * time.Second, RetryPeriod: 30 * time.Second, LockAtLeastFor: 5 * time.Second, FireSpread: 2 * time.Second}},
		{map[string]string{"provider": "jdbc"}, settings.RoundLock{Protocol: model.ProtocolShedLock, Lease: 10 * time.Minute, RetryPeriod: 10 * time.Minute, FireSpread: time.Second, UsingDbTime: true}},
		{map[string]string{"using-db-time": "false"}, settings.RoundLock{Protocol: model.ProtocolShedLock, Lease: 10 * time.Minute, RetryPeriod: 10 * time.Minute, FireSpread: time.Second}},
	} {
		_, r, err := p.WithOptions(func(o string) (string, bool) { s, ok := tt.options[o]; return s, ok })
		if err != nil || r != tt.want {
			t.Errorf("%v: %+v, %v; want %+v", tt.options, r, err, tt.want)
		}
	}
	if _, _, err := p.WithOptions(func(o string) (string, bool) { return "mongo", o == "provider" }); err == nil || !strings.Contains(err.Error(), "want jdbc or redis") {
		t.Errorf("--provider mongo: %v; want jdbc or redis", err)
	}
	for _, o := range []string{"keep-alive", "task-length"} {
		err := settings.CheckOptions(func(f string) bool { return f == o }, []settings.Preset{p})
		if err == nil || !strings.Contains(err.Error(), "--"+o+" is refused here: ") {
			t.Errorf("--%s on a round-model command: %v; want its refusal", o, err)
		}
	}
	for _, presets := range [][]settings.Preset{{p}, nil} { // the model's own flag, with the preset or without
		if err := settings.CheckOptions(func(f string) bool { return f == "using-db-time" }, presets); err != nil {
			t.Errorf("--using-db-time on a round-model command with presets %v: %v; want it taken", presets, err)
		}
	}
}
