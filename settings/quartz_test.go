package settings_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// spanOf is a figure's expected min, median and max, in seconds.
type spanOf struct{ min, median, max float64 }

// checkFigures compares lock's seven figures with want, in client-go's
// order, to the millisecond; an infinite value must match exactly.
func checkFigures(t *testing.T, name string, lock settings.Lock, want [7]spanOf) {
	t.Helper()
	metrics := []string{"give_up_after_renewal", "fast_fail_outage_survived", "black_hole_outage_survived",
		"takeover_after_crash", "takeover_after_release", "two_leader_margin", "leader_pause_tolerated"}
	if err := lock.Validate(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	figures := lock.Figures()
	if len(figures) != len(metrics) {
		t.Fatalf("%s: %d figures, want %d", name, len(figures), len(metrics))
	}
	near := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-3 }
	for i, f := range figures {
		w := want[i]
		if f.Metric != metrics[i] || !near(f.Min, w.min) || !near(f.Median, w.median) || !near(f.Max, w.max) {
			t.Errorf("%s %s: %v %v %v, want %s %v %v %v", name, f.Metric, f.Min, f.Median, f.Max, metrics[i], w.min, w.median, w.max)
		}
		if f.Doc == "" || !math.IsNaN(f.Published) {
			t.Errorf("%s %s: doc %q, published %v; want a doc and none published", name, f.Metric, f.Doc, f.Published)
		}
	}
}

// TestQuartzFigures: Quartz's figures worked by hand from JobStoreSupport
// (docs/settings.md names each function), in seconds from the holder's
// last check-in.
func TestQuartzFigures(t *testing.T) {
	inf := math.Inf(1)
	slow := settings.Quartz{CheckinInterval: 20 * time.Second, MisfireThreshold: time.Minute, RequestsRecovery: true, Skew: 2 * time.Second, Nodes: 5}
	behind := settings.QuartzDefaults()
	behind.Skew = -20 * time.Second
	tests := []struct {
		name string
		lock settings.Quartz
		want [7]spanOf
	}{
		{"defaults", settings.QuartzDefaults(), [7]spanOf{
			// Never told: no give-up.
			{inf, inf, inf},
			// Detected = 7.5 + 7.5 − 0 = 15. The check-in at 7.5 fails, the retry
			// comes 15 later at 22.5 > 15: ⌈(15 − 7.5)/15⌉ − 1 = 0 retries count, so
			// the outage starting φ ∈ [0, 7.5) after the check-in must end by 7.5.
			{0, 3.75, 7.5},
			// The hung check-in writes its time as the outage ends, by 15: 15 − φ.
			{7.5, 11.25, 15},
			// 2 detectors, each checking in every 7.5 at its own phase: the first
			// after 15 comes 15 + 7.5·(1 − 2^(−1/2)) = 17.197 at the median, 22.5 at most.
			{15, 15 + 7.5*(1-math.Sqrt(0.5)), 22.5},
			// Nothing held between firings.
			{0, 0, 0},
			{-inf, -inf, -inf},
			// A pause from φ after the check-in must end by 15: 15 − φ.
			{7.5, 11.25, 15},
		}},
		{"20s interval, detectors 2s ahead, 5 nodes, requestsRecovery", slow, [7]spanOf{
			{inf, inf, inf},
			// Detected = 20 + 7.5 − 2 = 25.5; the retry at 20 + 15 = 35 is after it:
			// the outage must end by the check-in at 20.
			{0, 10, 20},
			// 25.5 − φ, φ ∈ [0, 20).
			{5.5, 15.5, 25.5},
			// The first of 4 detectors every 20: 25.5 + 20·(1 − 2^(−1/4)) = 28.682.
			{25.5, 25.5 + 20*(1-math.Pow(2, -0.25)), 45.5},
			{0, 0, 0},
			{-inf, -inf, -inf},
			{5.5, 15.5, 25.5},
		}},
		{"detectors 20s behind", behind, [7]spanOf{
			{inf, inf, inf},
			// Detected = 7.5 + 7.5 + 20 = 35. Attempts at 7.5 and, retried every 15,
			// 22.5 (< 35) and 37.5 (> 35): the last before 35 is 22.5, so the
			// outage from φ must end by 22.5: 15 to 22.5.
			{15, 18.75, 22.5},
			{27.5, 31.25, 35},
			// The first of 2 detectors every 7.5 after 35.
			{35, 35 + 7.5*(1-math.Sqrt(0.5)), 42.5},
			{0, 0, 0},
			{-inf, -inf, -inf},
			{27.5, 31.25, 35},
		}},
	}
	for _, tt := range tests {
		checkFigures(t, "quartz "+tt.name, tt.lock, tt.want)
	}
}

// TestQuartzTakeoverReplay runs the failure rule as JobStoreSupport writes
// it, in milliseconds, over every phase of one detector's check-in loop:
// the holder checks in at 0 and crashes; the detector, checking in every
// interval at phase ph (its own clock skew ahead), declares it failed at
// the first check-in where checkinTimestamp + max(interval, now −
// lastCheckin) + 7500 < now (findFailedInstances, calcFailedIfAfter).
// The least, median and greatest takeover over the phases must be the
// figure's for 2 nodes (one detector).
func TestQuartzTakeoverReplay(t *testing.T) {
	for _, q := range []settings.Quartz{
		{CheckinInterval: 7500 * time.Millisecond, MisfireThreshold: time.Minute, Nodes: 2},
		{CheckinInterval: 20 * time.Second, MisfireThreshold: time.Minute, Skew: 2 * time.Second, Nodes: 2},
		{CheckinInterval: 3 * time.Second, MisfireThreshold: time.Minute, Skew: -4 * time.Second, Nodes: 2},
	} {
		interval, skew := q.CheckinInterval.Milliseconds(), q.Skew.Milliseconds()
		var takeovers []float64
		for ph := range interval {
			lastCheckin := ph - interval + skew // the detector's own clock
			for now := ph + skew; ; now += interval {
				if 0+max(interval, now-lastCheckin)+7500 < now {
					takeovers = append(takeovers, float64(now-skew)/1000)
					break
				}
				lastCheckin = now
			}
		}
		slices.Sort(takeovers)
		crash := q.Figures()[3]
		lo, mid, hi := takeovers[0], takeovers[len(takeovers)/2], takeovers[len(takeovers)-1]
		// The replay's phases are whole milliseconds and the rule is strict:
		// the least comes 1 ms after the figure's bound, the greatest on it.
		if math.Abs(lo-crash.Min) > 0.0015 || math.Abs(mid-crash.Median) > 0.0015 || math.Abs(hi-crash.Max) > 0.0015 {
			t.Errorf("%s: replay %v %v %v, figure %v %v %v", q.Title(), lo, mid, hi, crash.Min, crash.Median, crash.Max)
		}
	}
}

// TestQuartzValidate: what Quartz refuses, and the skew at which a live
// node is declared failed, each with the option named.
func TestQuartzValidate(t *testing.T) {
	with := func(f func(*settings.Quartz)) settings.Quartz { q := settings.QuartzDefaults(); f(&q); return q }
	tests := []struct {
		name string
		lock settings.Quartz
		want string // in the error; "" for valid
	}{
		{"defaults", settings.QuartzDefaults(), ""},
		{"skew just under the grace", with(func(q *settings.Quartz) { q.Skew = 7499 * time.Millisecond }), ""},
		{"skew far behind", with(func(q *settings.Quartz) { q.Skew = -time.Hour }), ""},
		{"zero interval", with(func(q *settings.Quartz) { q.CheckinInterval = 0 }), "clusterCheckinInterval 0s"},
		{"sub-millisecond interval", with(func(q *settings.Quartz) { q.CheckinInterval = 7500*time.Millisecond + time.Microsecond }), "clusterCheckinInterval"},
		{"zero misfire threshold", with(func(q *settings.Quartz) { q.MisfireThreshold = 0 }), "Misfire threshold must be larger than 0"},
		{"skew at the grace", with(func(q *settings.Quartz) { q.Skew = 7500 * time.Millisecond }), "clock skew 7.5s: want less than 7.5s"},
		{"one node", with(func(q *settings.Quartz) { q.Nodes = 1 }), "nodes 1"},
	}
	for _, tt := range tests {
		err := tt.lock.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestQuartzProtocol: the check-in counted by the detectors, the holder
// never told, and the options under Quartz's names.
func TestQuartzProtocol(t *testing.T) {
	q := settings.QuartzDefaults()
	p := q.Protocol()
	if p.Expiry != settings.ClientExpiry || p.Notice != settings.Poll || p.Renewal != 7500*time.Millisecond ||
		p.Poll != 7500*time.Millisecond || p.Expires != 15*time.Second || p.GiveUp != settings.WorksOn {
		t.Errorf("protocol %+v", p)
	}
	if got, want := settings.Setting(q), "cluster_checkin_interval=7.5s"; got != want {
		t.Errorf("setting %q, want %q", got, want)
	}
	changed := q.Options()[1].With(30 * time.Second).(settings.Quartz)
	if got, want := settings.Setting(changed), "cluster_checkin_interval=7.5s misfire_threshold=30s"; got != want {
		t.Errorf("setting %q, want %q", got, want)
	}
	recovering := q
	recovering.RequestsRecovery = true
	if !strings.Contains(recovering.NoMargin(), "runs again at once") || strings.Contains(q.NoMargin(), "runs again at once") {
		t.Errorf("no margin: %q without requestsRecovery, %q with", q.NoMargin(), recovering.NoMargin())
	}
}

// TestRoundLease: Quartz's and db-scheduler's round-model lease is the
// earliest detection and the mean wait for the first of the other nodes'
// checks, cadence / nodes, rounded to the round of the detection and the
// interval (RoundLockOf gives it, with the interval as the retry period),
// and a preset's --nodes, one count, is the lock's.
func TestRoundLease(t *testing.T) {
	q5, q20 := settings.QuartzDefaults(), settings.QuartzDefaults()
	q5.Nodes = 5
	q20.CheckinInterval = 20 * time.Second // D 27.5 s, rounds of 500 ms; 20 s / 3 = 6.667 s, 6.5 s
	d, d1 := settings.DBSchedulerDefaults(), settings.DBSchedulerDefaults()
	d1.HeartbeatInterval, d1.MissedHeartbeatsLimit, d1.PollingInterval = 10*time.Second, 4, 5*time.Second
	for _, tt := range []struct {
		name         string
		lock         settings.Lock
		lease, retry time.Duration
		tick         time.Duration
	}{
		{"quartz", settings.QuartzDefaults(), 17500 * time.Millisecond, 7500 * time.Millisecond, 500 * time.Millisecond}, // 15 s + 7.5 s / 3
		{"quartz, 5 nodes", q5, 16500 * time.Millisecond, 7500 * time.Millisecond, 500 * time.Millisecond},               // 15 s + 1.5 s
		{"quartz, 20 s", q20, 34 * time.Second, 20 * time.Second, time.Second},                                           // 27.5 s + 6.5 s
		{"db-scheduler", d, 2003 * time.Second, 5 * time.Minute, time.Second},                                            // 1800 s + (600 s + 10 s) / 3 = 203.33 s, 203 s
		{"db-scheduler, scenarios'", d1, 48 * time.Second, 10 * time.Second, time.Second},                                // 40 s + (20 s + 5 s) / 3 = 8.33 s, 8 s
	} {
		r, ok := settings.RoundLockOf(tt.lock)
		if !ok || r.Lease != tt.lease || r.RetryPeriod != tt.retry || r.Tick() != tt.tick {
			t.Errorf("%s: %+v, %t (tick %s); want lease %s, retry period %s, tick %s", tt.name, r, ok, r.Tick(), tt.lease, tt.retry, tt.tick)
		}
	}
	p, err := settings.PresetByName("quartz")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		nodes string
		lease time.Duration
	}{{"5", 16500 * time.Millisecond}, {"3", 17500 * time.Millisecond}, {"3,5", 17500 * time.Millisecond}} {
		_, r, err := p.WithOptions(func(o string) (string, bool) { return tt.nodes, o == "nodes" })
		if err != nil || r.Lease != tt.lease {
			t.Errorf("quartz with nodes %s: lease %s, %v; want %s (a list leaves the lock's 3)", tt.nodes, r.Lease, err, tt.lease)
		}
	}

	// Read back among other nodes than the preset's lease counted: the
	// library's own detection, no skew; db-scheduler's limit from the lease.
	second := func(n int) time.Duration { return time.Duration(n) * time.Second }
	quartzRow, _ := settings.LockRowOf("quartz")
	back := quartzRow.FromConfig(model.Config{Policy: model.Policy{Protocol: model.ProtocolQuartz, Lease: 35, RetryPeriod: 15, Nodes: 5}}, func(n int) time.Duration { return time.Duration(n) * 500 * time.Millisecond }, 5)
	if q, ok := back.(settings.Quartz); !ok || q.Detected() != 15*time.Second || q.Nodes != 5 || q.RequestsRecovery {
		t.Errorf("quartz read back among 5 nodes: %+v; want a 15s detection, 5 nodes, no requestsRecovery", back)
	}
	dbRow, _ := settings.LockRowOf("db-scheduler")
	for _, tt := range []struct{ lease, limit int }{{2003, 6}, {1403, 4}, {2903, 9}} { // 300 s × limit + 203 s, read among 5 nodes (a 122 s wait)
		back := dbRow.FromConfig(model.Config{Policy: model.Policy{Protocol: model.ProtocolDBScheduler, Lease: tt.lease, RetryPeriod: 300, Nodes: 5}}, second, 5)
		if d, ok := back.(settings.DBScheduler); !ok || d.MissedHeartbeatsLimit != tt.limit || d.Skew != 0 {
			t.Errorf("db-scheduler lease %ds read back: %+v; want limit %d, no skew", tt.lease, back, tt.limit)
		}
	}
}
