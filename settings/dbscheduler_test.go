package settings_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// firstOfTwoSumMedian is, worked by hand, the median of X + Y with X the
// least of 2 draws uniform over 0 … a and Y of 2 over 0 … b, for a median
// t between b and a: P(X + Y > t) = E[(u + Y/a)²] with u = 1 − t/a, and
// E[Y] = b/3, E[Y²] = b²/6, so u² + (2b/3a)·u + b²/6a² = ½, a quadratic.
func firstOfTwoSumMedian(a, b float64) float64 {
	p, q := 2*b/(3*a), b*b/(6*a*a)-0.5
	u := (-p + math.Sqrt(p*p-4*q)) / 2
	return a * (1 - u)
}

// TestDBSchedulerFigures: db-scheduler's figures worked by hand from
// Scheduler and JdbcTaskRepository (docs/settings.md names each
// function), in seconds from the executor's last heartbeat.
func TestDBSchedulerFigures(t *testing.T) {
	inf := math.Inf(1)
	short := settings.DBScheduler{HeartbeatInterval: time.Minute, MissedHeartbeatsLimit: 4, PollingInterval: 5 * time.Second, Skew: 30 * time.Second, Nodes: 3}
	tests := []struct {
		name string
		lock settings.DBScheduler
		want [7]spanOf
	}{
		{"defaults", settings.DBSchedulerDefaults(), [7]spanOf{
			// Never told: no give-up.
			{inf, inf, inf},
			// Dead at 300·6 = 1800. Heartbeats at 300, 600, …; the last before 1800
			// is 1500 (⌈1800/300⌉ − 1 = 5), so an outage from φ ∈ [0, 300) must
			// end by 1500: 1500 − φ.
			{1200, 1350, 1500},
			// The hung heartbeat lands as the outage ends, by 1800: 1800 − φ.
			{1500, 1650, 1800},
			// The first of 2 checkers every 600 after 1800, then the first of 2
			// polls every 10: 1800 + firstOfTwoSumMedian(600, 10) = 1800 + 179.076
			// (u = (−1/90 + √(1/8100 + 2 − 4/86400))/2 = 0.701540, 600·(1 − u));
			// at most 1800 + 600 + 10.
			{1800, 1800 + firstOfTwoSumMedian(600, 10), 2410},
			// The first of 2 polls every 10: 10·(1 − 2^(−1/2)) = 2.929.
			{0, 10 * (1 - math.Sqrt(0.5)), 10},
			{-inf, -inf, -inf},
			// A pause from φ after the heartbeat must end by 1800.
			{1500, 1650, 1800},
		}},
		{"1 min heartbeat, limit 4, 5s polls, checkers 30s ahead", short, [7]spanOf{
			{inf, inf, inf},
			// Detected = 60·4 − 30 = 210; heartbeats at 60, 120, 180 (< 210), 240:
			// the last before 210 is 180 (⌈210/60⌉ − 1 = 3).
			{120, 150, 180},
			{150, 180, 210},
			// 210 + firstOfTwoSumMedian(120, 5) = 210 + 36.822; at most 210 + 120 + 5.
			{210, 210 + firstOfTwoSumMedian(120, 5), 335},
			{0, 5 * (1 - math.Sqrt(0.5)), 5},
			{-inf, -inf, -inf},
			{150, 180, 210},
		}},
	}
	for _, tt := range tests {
		checkFigures(t, "db-scheduler "+tt.name, tt.lock, tt.want)
	}
	if got := firstOfTwoSumMedian(600, 10); math.Abs(got-179.076) > 1e-3 {
		t.Errorf("hand median %v, want 179.076", got)
	}
}

// TestDBSchedulerTakeoverReplay runs the dead check as
// JdbcTaskRepository.getDeadExecutions writes it, in whole seconds, over
// every phase of one checker's loop (every 2 heartbeats, its clock skew
// ahead) and of the poller's (every polling interval): the executor's
// last heartbeat is 0; the checker finds it dead at its first look where
// last_heartbeat ≤ now − heartbeat × limit, revives it to then, and the
// poll after picks it. The least, median and greatest over the phases
// must be the figure's for 2 nodes (one other scheduler).
func TestDBSchedulerTakeoverReplay(t *testing.T) {
	for _, d := range []settings.DBScheduler{
		{HeartbeatInterval: 5 * time.Minute, MissedHeartbeatsLimit: 6, PollingInterval: 10 * time.Second, Nodes: 2},
		{HeartbeatInterval: time.Minute, MissedHeartbeatsLimit: 4, PollingInterval: 5 * time.Second, Skew: 30 * time.Second, Nodes: 2},
	} {
		check, poll := int64(2*d.HeartbeatInterval/time.Second), int64(d.PollingInterval/time.Second)
		dead, skew := int64(d.Dead()/time.Second), int64(d.Skew/time.Second)
		var takeovers []float64
		for cph := range check {
			revived := cph // the first look on which 0 ≤ now − dead on the checker's clock
			for revived+skew < dead {
				revived += check
			}
			for pph := range poll {
				picked := pph // the first poll at or after the revival
				for picked < revived {
					picked += poll
				}
				takeovers = append(takeovers, float64(picked))
			}
		}
		slices.Sort(takeovers)
		crash := d.Figures()[3]
		lo, mid, hi := takeovers[0], takeovers[len(takeovers)/2], takeovers[len(takeovers)-1]
		// Whole-second phases: the least on the figure's, the median within a
		// second, the greatest a second short for each of the two loops.
		if lo != crash.Min || math.Abs(mid-crash.Median) > 1 || hi != crash.Max-2 {
			t.Errorf("%s: replay %v %v %v, figure %v %v %v", d.Title(), lo, mid, hi, crash.Min, crash.Median, crash.Max)
		}
	}
}

// TestDBSchedulerValidate: what db-scheduler refuses, and the skew at
// which a live execution is found dead, each with the option named.
func TestDBSchedulerValidate(t *testing.T) {
	with := func(f func(*settings.DBScheduler)) settings.DBScheduler {
		d := settings.DBSchedulerDefaults()
		f(&d)
		return d
	}
	tests := []struct {
		name string
		lock settings.DBScheduler
		want string // in the error; "" for valid
	}{
		{"defaults", settings.DBSchedulerDefaults(), ""},
		{"limit 4", with(func(d *settings.DBScheduler) { d.MissedHeartbeatsLimit = 4 }), ""},
		{"limit 3", with(func(d *settings.DBScheduler) { d.MissedHeartbeatsLimit = 3 }), "Heartbeat-limit must be at least 4"},
		{"zero heartbeat", with(func(d *settings.DBScheduler) { d.HeartbeatInterval = 0 }), "heartbeat interval 0s"},
		{"zero polling", with(func(d *settings.DBScheduler) { d.PollingInterval = 0 }), "polling interval 0s"},
		{"skew just under", with(func(d *settings.DBScheduler) { d.Skew = 25*time.Minute - time.Millisecond }), ""},
		// (6 − 1) × 5 min = 25 min.
		{"skew of 25 min", with(func(d *settings.DBScheduler) { d.Skew = 25 * time.Minute }), "clock skew 25m0s: want less than 1500s"},
		{"one node", with(func(d *settings.DBScheduler) { d.Nodes = 1 }), "nodes 1"},
	}
	for _, tt := range tests {
		err := tt.lock.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestDBSchedulerProtocol: the heartbeat counted by the checkers, the old
// executor never told, and the options under db-scheduler's names.
func TestDBSchedulerProtocol(t *testing.T) {
	d := settings.DBSchedulerDefaults()
	p := d.Protocol()
	if p.Expiry != settings.ClientExpiry || p.Notice != settings.Poll || p.Renewal != 5*time.Minute ||
		p.Poll != 10*time.Minute || p.Expires != 30*time.Minute || p.GiveUp != settings.WorksOn {
		t.Errorf("protocol %+v", p)
	}
	if got, want := settings.Setting(d), "heartbeat_interval=300s"; got != want {
		t.Errorf("setting %q, want %q", got, want)
	}
	changed := d.Options()[0].With(time.Minute).(settings.DBScheduler)
	if changed.Dead() != 6*time.Minute || changed.PollingInterval != 10*time.Second {
		t.Errorf("heartbeat_interval=60s: dead after %s, polling %s", changed.Dead(), changed.PollingInterval)
	}
}
