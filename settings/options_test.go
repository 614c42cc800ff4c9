package settings_test

import (
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// settingsOf is each lock's Setting.
func settingsOf(locks []settings.Lock) []string {
	var ss []string
	for _, l := range locks {
		ss = append(ss, settings.Setting(l))
	}
	return ss
}

// TestGrid: a review's grid tries, around each lock, only settings its
// library takes and whose round-model times the round holds: etcd's
// session TTLs whose keep-alive (TTL/3) is whole seconds, Consul's TTLs of
// at least 10 s with the lock-delays 0, the lock's and twice it, Curator's
// session timeouts granted as asked (2 to 20 of the server's ticks), the
// DynamoDB lock client's leases and heartbeats (shorter than the lease) in
// whole refresh periods.
func TestGrid(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	curator := settings.CuratorDefaults() // asks 60 s, granted 40 s at the 2 s tick
	for _, tt := range []struct {
		lock settings.Lock
		tick time.Duration
		want string
	}{
		{settings.EtcdDefaults(), s, "session_ttl=15s session_ttl=30s session_ttl=45s session_ttl=60s session_ttl=90s session_ttl=120s session_ttl=180s session_ttl=240s"},
		// 20 s would renew every 6.667 s; 40 s every 13.333 s.
		{settings.Etcd{SessionTTL: 80 * s, Nodes: 3}, s, "session_ttl=21s session_ttl=39s session_ttl=60s session_ttl=81s session_ttl=120s session_ttl=159s session_ttl=240s session_ttl=321s"},
		{settings.ConsulDefaults(), 500 * ms, "session_ttl=10s lock_delay=0s session_ttl=10s lock_delay=15s session_ttl=10s lock_delay=30s " +
			"session_ttl=11s lock_delay=0s session_ttl=11s lock_delay=15s session_ttl=11s lock_delay=30s " +
			"session_ttl=15s lock_delay=0s session_ttl=15s lock_delay=15s session_ttl=15s lock_delay=30s " +
			"session_ttl=22s lock_delay=0s session_ttl=22s lock_delay=15s session_ttl=22s lock_delay=30s " +
			"session_ttl=30s lock_delay=0s session_ttl=30s lock_delay=15s session_ttl=30s lock_delay=30s " +
			"session_ttl=45s lock_delay=0s session_ttl=45s lock_delay=15s session_ttl=45s lock_delay=30s " +
			"session_ttl=60s lock_delay=0s session_ttl=60s lock_delay=15s session_ttl=60s lock_delay=30s"},
		{curator, ms, "session_timeout=10s session_timeout=20s session_timeout=30s session_timeout=40s"},
		{settings.DynamoDBDefaults(), s, "lease_duration=6s heartbeat_period=2s lease_duration=6s heartbeat_period=5s " +
			"lease_duration=10s heartbeat_period=2s lease_duration=10s heartbeat_period=5s " +
			"lease_duration=15s heartbeat_period=2s lease_duration=15s heartbeat_period=5s lease_duration=15s heartbeat_period=10s " +
			"lease_duration=20s heartbeat_period=2s lease_duration=20s heartbeat_period=5s lease_duration=20s heartbeat_period=10s " +
			"lease_duration=30s heartbeat_period=2s lease_duration=30s heartbeat_period=5s lease_duration=30s heartbeat_period=10s " +
			"lease_duration=40s heartbeat_period=2s lease_duration=40s heartbeat_period=5s lease_duration=40s heartbeat_period=10s " +
			"lease_duration=60s heartbeat_period=2s lease_duration=60s heartbeat_period=5s lease_duration=60s heartbeat_period=10s " +
			"lease_duration=80s heartbeat_period=2s lease_duration=80s heartbeat_period=5s lease_duration=80s heartbeat_period=10s"},
	} {
		t.Run(tt.lock.Title(), func(t *testing.T) {
			grid := settings.Grid(tt.lock, tt.tick)
			if got := strings.Join(settingsOf(grid), " "); got != tt.want {
				t.Errorf("grid at a round of %s:\n got %s\nwant %s", tt.tick, got, tt.want)
			}
			for _, l := range grid {
				if err := settings.Takes(l, tt.tick); err != nil {
					t.Errorf("%s: %v", settings.Setting(l), err)
				}
				if c, ok := l.(settings.Curator); ok && c.Negotiated() != c.SessionTimeout {
					t.Errorf("%s: granted %s, not as asked", settings.Setting(l), c.Negotiated())
				}
			}
		})
	}
}

// TestOptionWith: setting one option of a lock leaves the others as they
// were, whichever of its options were set before from the same list.
func TestOptionWith(t *testing.T) {
	d := settings.DynamoDBDefaults()
	opts := d.Options()
	_ = opts[0].With(30 * time.Second)
	got := opts[1].With(10 * time.Second).(settings.DynamoDB)
	if got.LeaseDuration != d.LeaseDuration || got.HeartbeatPeriod != 10*time.Second {
		t.Errorf("heartbeat_period=10s gives lease %s, heartbeat %s; want lease %s, heartbeat 10s", got.LeaseDuration, got.HeartbeatPeriod, d.LeaseDuration)
	}
}

// TestSetting: a lock is named by the options its grid varies, and by
// those it keeps where they are not the library's defaults; client-go by
// its three.
func TestSetting(t *testing.T) {
	s := time.Second
	dyn := settings.DynamoDBDefaults()
	dyn.AdditionalWait = 3 * s
	for _, tt := range []struct {
		lock settings.Settable
		want string
	}{
		{settings.EtcdDefaults(), "session_ttl=60s"},
		{settings.ConsulDefaults(), "session_ttl=15s lock_delay=15s"},
		{settings.CuratorDefaults(), "session_timeout=60s"},
		{settings.Curator{SessionTimeout: 30 * s, TickTime: 3 * s, Nodes: 3}, "session_timeout=30s tick_time=3s"},
		{settings.DynamoDBDefaults(), "lease_duration=20s heartbeat_period=5s"},
		{dyn, "lease_duration=20s heartbeat_period=5s additional_time_to_wait=3s"},
		{settings.Settings{LeaseDuration: 60 * s, RenewDeadline: 40 * s, RetryPeriod: 2 * s}, "lease=60s renew_deadline=40s retry_period=2s"},
	} {
		if got := settings.Setting(tt.lock); got != tt.want {
			t.Errorf("Setting = %q, want %q", got, tt.want)
		}
	}
}

// TestNearest: a setting the library refuses, or whose times the round
// cannot hold, is answered with the nearest it takes, one option changed
// (nearest first), or both where no one will do.
func TestNearest(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	for _, tt := range []struct {
		lock settings.Lock
		tick time.Duration
		want string
	}{
		{settings.Etcd{SessionTTL: 10 * s, Nodes: 3}, s, "session_ttl=9s, session_ttl=12s"},                           // renews every 3.333 s
		{settings.Etcd{SessionTTL: 2500 * ms, Nodes: 3}, s, "session_ttl=3s"},                                         // whole seconds; 2 s renews every 0.667 s
		{settings.Consul{SessionTTL: 5 * s, LockDelay: 15 * s, Nodes: 3}, 500 * ms, "session_ttl=10s lock_delay=15s"}, // at least 10 s
		{settings.Consul{SessionTTL: 7 * s, LockDelay: 70 * s, Nodes: 3}, 500 * ms, "session_ttl=10s lock_delay=60s"}, // both refused
		{settings.DynamoDB{LeaseDuration: 20 * s, HeartbeatPeriod: 25 * s, RefreshPeriod: s, AdditionalWait: s, Nodes: 3}, s,
			"lease_duration=20s heartbeat_period=19s, lease_duration=26s heartbeat_period=25s"},
		{settings.CuratorDefaults(), s, ""}, // its 100 ms disconnect delay: no setting holds at 1 s
	} {
		t.Run(settings.Setting(tt.lock), func(t *testing.T) {
			if got := strings.Join(settingsOf(settings.Nearest(tt.lock, tt.tick)), ", "); got != tt.want {
				t.Errorf("Nearest at a round of %s = %q, want %q", tt.tick, got, tt.want)
			}
		})
	}
}
