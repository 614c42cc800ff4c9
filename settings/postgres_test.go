package settings_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// TestPostgresFigures: a session advisory lock's figures, worked by hand
// from Linux's tcp_keepalive_timer (a probe idle after the last segment
// heard, then one every interval; dead when count went unanswered, or
// with tcp_user_timeout at the first probe time after the first probe
// that is the timeout or more after that segment). Times are in seconds
// from the last segment the server heard from the holder.
func TestPostgresFigures(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	inf := math.Inf(1)
	tests := []struct {
		name string
		lock settings.Postgres
		dead time.Duration
		want [7]fig // give-up, fast-fail, black hole, crash, release, margin, pause
	}{
		// Linux's 7200 + 75·9 = 7875 s = 2 h 11 min 15 s; an outage starts 0–7200
		// after the last answered probe.
		{"defaults", settings.PostgresDefaults(), 7875 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {675, 4275, 7875}, {7875, 7875, 7875}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// The validation's server: 1 + 1·2 = 3.
		{"idle 1 interval 1 count 2", settings.Postgres{KeepalivesIdle: s, KeepalivesInterval: s, KeepalivesCount: 2, Nodes: 2}, 3 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {2, 2.5, 3}, {3, 3, 3}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// Azure's 120/30/9: 120 + 270 = 390.
		{"azure", settings.Postgres{KeepalivesIdle: 120 * s, KeepalivesInterval: 30 * s, KeepalivesCount: 9, Nodes: 3}, 390 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {270, 330, 390}, {390, 390, 390}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// Aurora's idle 300, the rest Linux's: 300 + 75·9 = 975.
		{"idle 300, Linux's interval and count", settings.Postgres{KeepalivesIdle: 300 * s, Nodes: 3}, 975 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {675, 825, 975}, {975, 975, 975}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// Probes at 60 (the first, not yet a death), 70: 70 ≥ 30 with one probe out.
		{"user timeout below idle", settings.Postgres{KeepalivesIdle: 60 * s, KeepalivesInterval: 10 * s, KeepalivesCount: 9, UserTimeout: 30 * s, Nodes: 3}, 70 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {10, 40, 70}, {70, 70, 70}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// Checks at 60, 70, 80, 90, 100: the first at 95 or more is 100; the count 9
		// (which would give 150) no longer counts.
		{"user timeout between probes", settings.Postgres{KeepalivesIdle: 60 * s, KeepalivesInterval: 10 * s, KeepalivesCount: 9, UserTimeout: 95000 * ms, Nodes: 3}, 100 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {40, 70, 100}, {100, 100, 100}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
		// idle_session_timeout 60 ends the idle lock session at 60, long before 7875.
		{"idle session timeout", settings.Postgres{IdleSessionTimeout: 60 * s, Nodes: 3}, 7875 * s, [7]fig{
			{inf, inf, inf}, {0, 0, 0}, {60, 60, 60}, {60, 60, 60}, {0, 0, 0}, {-inf, -inf, -inf}, {inf, inf, inf},
		}},
	}
	near := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-3 }
	for _, tt := range tests {
		if err := tt.lock.Validate(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := tt.lock.Dead(); got != tt.dead {
			t.Errorf("%s: Dead %v, want %v", tt.name, got, tt.dead)
		}
		figures := tt.lock.Figures()
		if len(figures) != 7 {
			t.Fatalf("%s: %d figures, want 7", tt.name, len(figures))
		}
		for i, f := range figures {
			w := tt.want[i]
			if !near(f.Min, w.min) || !near(f.Median, w.median) || !near(f.Max, w.max) {
				t.Errorf("%s %s: %v %v %v, want %v %v %v", tt.name, f.Metric, f.Min, f.Median, f.Max, w.min, w.median, w.max)
			}
		}
	}
}

// TestPostgresValidate: what PostgreSQL's GUCs or Linux's socket options
// refuse, with the option named.
func TestPostgresValidate(t *testing.T) {
	s := time.Second
	tests := []struct {
		lock settings.Postgres
		want string // "" for valid
	}{
		{settings.PostgresDefaults(), ""},
		{settings.Postgres{KeepalivesIdle: 32767 * s, KeepalivesInterval: 32767 * s, KeepalivesCount: 127, UserTimeout: time.Millisecond, IdleSessionTimeout: time.Millisecond, Nodes: 2}, ""},
		{settings.Postgres{KeepalivesIdle: 1500 * time.Millisecond, Nodes: 3}, "tcp_keepalives_idle 1.5s: want 0 or more whole seconds"},
		{settings.Postgres{KeepalivesInterval: -s, Nodes: 3}, "tcp_keepalives_interval -1s: want 0 or more whole seconds"},
		{settings.Postgres{KeepalivesIdle: 32768 * s, Nodes: 3}, "tcp_keepalives_idle 9h6m8s: want at most 9h6m7s"},
		{settings.Postgres{KeepalivesCount: 128, Nodes: 3}, "tcp_keepalives_count 128: want 0 (Linux's 9) to 127"},
		{settings.Postgres{KeepalivesCount: -1, Nodes: 3}, "tcp_keepalives_count -1"},
		{settings.Postgres{UserTimeout: 1500 * time.Microsecond, Nodes: 3}, "tcp_user_timeout 1.5ms: want 0 or more whole milliseconds"},
		{settings.Postgres{IdleSessionTimeout: -s, Nodes: 3}, "idle_session_timeout -1s"},
		{settings.Postgres{Nodes: 1}, "nodes 1"},
	}
	for _, tt := range tests {
		err := tt.lock.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want valid", tt.lock.Title(), err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.lock.Title(), err, tt.want)
		}
	}
}

// TestPostgresProtocol: the protocol line and the title name the
// keepalive in force and a holder never told.
func TestPostgresProtocol(t *testing.T) {
	p := settings.PostgresDefaults()
	if got, want := p.Protocol().String(), "the service expires the lease 7875s after its last renewal; renewed every 7200s; waiters watch; the holder is never told it lost the lock, and stops only as it reaches the service again"; got != want {
		t.Errorf("protocol %q, want %q", got, want)
	}
	if got := p.Protocol().GiveUp; got != settings.NeverTold {
		t.Errorf("give-up %v, want NeverTold", got)
	}
	if got, want := p.Title(), "PostgreSQL session advisory lock: tcp_keepalives_idle 7200s, tcp_keepalives_interval 75s, tcp_keepalives_count 9 (0 given: Linux's), tcp_user_timeout off, idle_session_timeout off, 3 nodes; the holder is never told it lost the lock"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}
