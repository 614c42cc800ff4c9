package settings_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
)

// fig is a figure's expected min, median and max.
type fig struct{ min, median, max float64 }

// TestLockFigures: every figure of every lock, worked by hand from the
// library's code (docs/settings.md names each function), at its defaults
// and at other options. Times are in seconds, from the holder's last
// renewal the service saw.
func TestLockFigures(t *testing.T) {
	s := time.Second
	inf := math.Inf(1)
	curatorSession := settings.CuratorDefaults()
	curatorSession.Policy = settings.SessionPolicy
	curator3s := settings.CuratorDefaults()
	curator3s.TickTime = 3 * s
	curator3sSession := curator3s
	curator3sSession.Policy = settings.SessionPolicy
	curatorClamped := settings.Curator{SessionTimeout: s, TickTime: 2 * s, Policy: settings.SessionPolicy, Nodes: 3}
	dynamoLong := settings.DynamoDBDefaults()
	dynamoLong.AdditionalWait = 24 * time.Hour
	dynamoLong.Nodes = 5
	dynamoHold := settings.DynamoDBDefaults()
	dynamoHold.HoldOnUnavailable = true
	dynamoSlow := settings.DynamoDBDefaults()
	dynamoSlow.HeartbeatPeriod = 6 * s
	dynamoSlow.RefreshPeriod = 3 * s
	dynamoNoWait := settings.DynamoDBDefaults()
	dynamoNoWait.AdditionalWait = 0
	tests := []struct {
		name string
		lock settings.Lock
		want [7]fig // give-up, fast-fail, black hole, crash, release, margin, pause
	}{
		{"etcd defaults", settings.EtcdDefaults(), [7]fig{
			// recvKeepAlive: deadline = answer + TTL 60; deadlineLoop looks every 1 s.
			{60, 60.5, 61},
			// Keep-alives every TTL/3 = 20 (nextKeepAlive); the outage starts 0–20 after
			// one and must end by the server's expiry at 60.
			{40, 50, 60},
			// The stream's requests are delivered when the outage ends: the same.
			{40, 50, 60},
			// The server's revokeExpiredLeases runs every 500 ms after the expiry at 60;
			// waitDeletes returns at the key's deletion.
			{60, 60.25, 60.5},
			// Resign deletes the key.
			{0, 0, 0},
			// Revoke delay U[0, 0.5) less deadline delay U[0, 1): −1 … 0.5, median −0.25.
			{-1, -0.25, 0.5},
			// A pause from 0–20 after a keep-alive must end by the expiry at 60.
			{40, 50, 60},
		}},
		{"etcd TTL 10s", settings.Etcd{SessionTTL: 10 * s, Nodes: 3}, [7]fig{
			{10, 10.5, 11}, {10 - 10.0/3, 10 - 10.0/6, 10}, {10 - 10.0/3, 10 - 10.0/6, 10},
			{10, 10.25, 10.5}, {0, 0, 0}, {-1, -0.25, 0.5}, {10 - 10.0/3, 10 - 10.0/6, 10},
		}},
		{"etcd TTL 1s, granted 2s", settings.Etcd{SessionTTL: s, Nodes: 3}, [7]fig{
			// lessor.Grant raises the TTL to the server's MinLeaseTTL, 2 s.
			{2, 2.5, 3}, {2 - 2.0/3, 2 - 2.0/6, 2}, {2 - 2.0/3, 2 - 2.0/6, 2},
			{2, 2.25, 2.5}, {0, 0, 0}, {-1, -0.25, 0.5}, {2 - 2.0/3, 2 - 2.0/6, 2},
		}},
		{"consul defaults", settings.ConsulDefaults(), [7]fig{
			// monitorLock returns at the first failed query: the outage starts 0–7.5
			// (RenewPeriodic's TTL/2) after the last renewal.
			{0, 3.75, 7.5},
			// MonitorRetries 0.
			{0, 0, 0},
			// A hung renewal delivered at the outage's end must reach the server before
			// createSessionTimer's 2·15 = 30; the outage starts 0–7.5 after a renewal.
			{22.5, 26.25, 30},
			// Invalidated at 30; Lock tries at 30, 35, 40 (refused by the 15 s lock-delay)
			// and 45.
			{45, 45, 45},
			// Unlock: kv.Release, no lock-delay; the waiter's blocking query returns.
			{0, 0, 0},
			// A hung monitor query never ends the lock.
			{-inf, -inf, -inf},
			// A pause from 0–7.5 after a renewal must end by the takeover at 45.
			{37.5, 41.25, 45},
		}},
		{"consul TTL 10s, lock-delay 7s", settings.Consul{SessionTTL: 10 * s, LockDelay: 7 * s, Nodes: 3}, [7]fig{
			// Renewal every 5; invalidated at 20; tries at 20, 25 refused, 30 taken.
			{0, 2.5, 5}, {0, 0, 0}, {15, 17.5, 20}, {30, 30, 30}, {0, 0, 0}, {-inf, -inf, -inf}, {25, 27.5, 30},
		}},
		{"consul lock-delay 0", settings.Consul{SessionTTL: 15 * s, Nodes: 3}, [7]fig{
			// No lock-delay: the waiter acquires at the invalidation, 30.
			{0, 3.75, 7.5}, {0, 0, 0}, {22.5, 26.25, 30}, {30, 30, 30}, {0, 0, 0}, {-inf, -inf, -inf}, {22.5, 26.25, 30},
		}},
		{"curator defaults", settings.CuratorDefaults(), [7]fig{
			// 60 s clamped to 20 ticks of 2 s: 40 s; readTimeout 40000·2/3 = 26666 ms,
			// pings after 13333 ms idle. A failed call disconnects at once, 0–13.333
			// after the last ping; SUSPENDED 0.1 later (ClientCnxnSocketNIO.cleanup's
			// sleep) ends leadership (StandardConnectionStateErrorPolicy).
			{0.1, 6.7665, 13.433},
			// RECONNECTED with the session gives it back: back before the expiry
			// (40 + U(0, 2] after the last ping) and before LOST (40 after
			// SUSPENDED, 0.1 after the start, 0–13.333 after the ping):
			// 40 + min(0.1, b − φ), median 40 + min(0.1, 1 − 6.6665).
			{26.667, 34.3335, 40.1},
			// Hanging calls: SUSPENDED 0.1 after the read timeout 26.666 after the
			// last answer, LOST at 66.766; only the expiry counts.
			{26.667, 34.3335, 42},
			// The server expires at 40 rounded up to its next 2 s tick: 40–42.
			{40, 41, 42},
			{0, 0, 0},
			// 40–42 less the read timeout 26.666 and the 0.1 before SUSPENDED.
			{13.234, 14.234, 15.234},
			// A pause from 0–13.333 after a ping must end 0.1 before the expiry,
			// 40–42: woken, the client disconnects and learns 0.1 later.
			{26.567, 34.2335, 41.9},
		}},
		{"curator session policy", curatorSession, [7]fig{
			// SessionConnectionStateErrorPolicy: LOST, injected by checkSessionExpiration 40
			// after SUSPENDED, 0.1 after the outage's start.
			{40.1, 46.7665, 53.433},
			// Back before the expiry (40 + U(0, 2] after the last ping) and before LOST
			// (40.1 after the start, 0–13.333 after the ping): 40 + min(0.1, b − φ),
			// median 40 + min(0.1, 1 − 6.6665).
			{26.667, 34.3335, 40.1},
			// Hanging calls: SUSPENDED at 26.766, LOST at 66.766; only the expiry counts.
			{26.667, 34.3335, 42},
			{40, 41, 42},
			{0, 0, 0},
			// The expiry less LOST at 26.666 + 0.1 + 40.
			{-26.766, -25.766, -24.766},
			{26.567, 34.2335, 41.9},
		}},
		{"curator tick 3s", curator3s, [7]fig{
			// 60 s fits 2 … 20 ticks of 3 s; readTimeout 40, pings after 20; every
			// disconnect reported 0.1 later.
			{0.1, 10.1, 20.1}, {40, 51.5, 60.1}, {40, 51.5, 63}, {60, 61.5, 63}, {0, 0, 0}, {19.9, 21.4, 22.9}, {39.9, 51.4, 62.9},
		}},
		{"curator tick 3s, session policy", curator3sSession, [7]fig{
			{60.1, 70.1, 80.1}, {40, 51.5, 60.1}, {40, 51.5, 63}, {60, 61.5, 63}, {0, 0, 0}, {-40.1, -38.6, -37.1}, {39.9, 51.4, 62.9},
		}},
		{"curator 1s clamped up, session policy", curatorClamped, [7]fig{
			// 1 s raised to 2 ticks: 4 s; readTimeout 2666 ms, pings after 1333 ms. The
			// fast-fail median is 4 + min(0.1, (2 − 1.333)/2) = 4.1.
			{4.1, 4.7665, 5.433}, {2.667, 4.1, 4.1}, {2.667, 4.3335, 6}, {4, 5, 6}, {0, 0, 0}, {-2.766, -1.766, -0.766}, {2.567, 4.2335, 5.9},
		}},
		{"dynamodb defaults", settings.DynamoDBDefaults(), [7]fig{
			// LockItem.isExpired: 20 after the start of the last successful heartbeat.
			{20, 20, 20},
			// Heartbeats at 5, 10, 15 (the one due at 20 finds the item expired): the
			// outage starts 0–5 after the last success and must end by 15.
			{10, 12.5, 15},
			// A hung heartbeat lands at the outage's end, in time before 20.
			{15, 17.5, 20},
			// acquireLock calls of 20 + 1 s read at 1, …, 21 after their first (N = 21)
			// and need ⌈20/1⌉ = 20 periods with the RVN unchanged (m = 20): a heartbeat
			// in a call's first second is waited out by the same call, 20–21 s after
			// it; one in its k-th second (k = 1 … 20) by the next call, at
			// 20 + (20 − k) … 20 + (21 − k). So 20 + Y, Y uniform on (0, 1] with weight
			// 2/21, on each later second with 1/21; the first of 2 waiters' median is
			// the quantile q = 1 − √½ of one: 20 + 1 + (q − 2/21)·21 = 19 + 21q.
			{20, 19 + 21*(1-math.Sqrt(0.5)), 40},
			// The next read of the first of 2 waiters: 1 − √½.
			{0, 1 - math.Sqrt(0.5), 1},
			// The earliest takeover 20 less the give-up at 20.
			{0, 0, 0},
			// A pause from 0–5 after a heartbeat must end by the earliest takeover, 20.
			{15, 17.5, 20},
		}},
		{"dynamodb endless acquire call, 5 nodes", dynamoLong, [7]fig{
			// One call reads for a day: N = 86420, m = 20; Y is uniform on (0, 1] with
			// weight 86401/86420, so the first of 4 waiters' median is
			// 20 + q·86420/86401 for q = 1 − ½^¼.
			{20, 20, 20}, {10, 12.5, 15}, {15, 17.5, 20},
			{20, 20 + (1-math.Pow(0.5, 0.25))*86420/86401, 40},
			{0, 1 - math.Pow(0.5, 0.25), 1},
			{0, 0, 0}, {15, 17.5, 20},
		}},
		{"dynamodb holdLockOnServiceUnavailable", dynamoHold, [7]fig{
			// A 503 heartbeat updates the lookup time: the holder never gives up.
			{inf, inf, inf}, {inf, inf, inf}, {15, 17.5, 20},
			{20, 19 + 21*(1-math.Sqrt(0.5)), 40}, {0, 1 - math.Sqrt(0.5), 1},
			{-inf, -inf, -inf}, {15, 17.5, 20},
		}},
		{"dynamodb heartbeat 6s, refresh 3s", dynamoSlow, [7]fig{
			// Heartbeats at 6, 12, 18 < 20. Reads every 3: a call of 21 reads 7 times
			// after its first (N = 7) and needs ⌈20/3⌉ = 7 periods (m = 7): only an RVN
			// seen at a call's first read is waited out, so the takeover is
			// 21 + U(0, 21], the first of 2 waiters' median 42 − 21·√½, and the lease
			// not being a whole number of periods leaves 21 − 20 = 1 of margin.
			{20, 20, 20}, {12, 15, 18}, {14, 17, 20},
			{21, 42 - 21*math.Sqrt(0.5), 42}, {0, 3 * (1 - math.Sqrt(0.5)), 3},
			{1, 1, 1}, {15, 18, 21},
		}},
		{"dynamodb no additional wait", dynamoNoWait, [7]fig{
			// A call of 20 + 0 s: N = m = 20, the takeover 20 + U(0, 20].
			{20, 20, 20}, {10, 12.5, 15}, {15, 17.5, 20},
			{20, 40 - 20*math.Sqrt(0.5), 40}, {0, 1 - math.Sqrt(0.5), 1},
			{0, 0, 0}, {15, 17.5, 20},
		}},
	}
	metrics := []string{"give_up_after_renewal", "fast_fail_outage_survived", "black_hole_outage_survived",
		"takeover_after_crash", "takeover_after_release", "two_leader_margin", "leader_pause_tolerated"}
	for i, f := range figuresOf(t, settings.Settings{LeaseDuration: 15 * s, RenewDeadline: 10 * s, RetryPeriod: 2 * s, Nodes: 3}, 1) {
		if f.Metric != metrics[i] {
			t.Fatalf("client-go's figure %d is %s, the locks' %s", i, f.Metric, metrics[i])
		}
	}
	near := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-3 }
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
			if f.Metric != metrics[i] || !near(f.Min, w.min) || !near(f.Median, w.median) || !near(f.Max, w.max) {
				t.Errorf("%s %s: %v %v %v, want %s %v %v %v", tt.name, f.Metric, f.Min, f.Median, f.Max, metrics[i], w.min, w.median, w.max)
			}
			if !math.IsNaN(f.Published) || f.Disagrees() {
				t.Errorf("%s %s: published %v, want none", tt.name, f.Metric, f.Published)
			}
		}
	}
}

// TestLockValidate: the options each library or its service refuses, with
// the option named.
func TestLockValidate(t *testing.T) {
	s := time.Second
	dynamo := func(f func(*settings.DynamoDB)) settings.DynamoDB {
		d := settings.DynamoDBDefaults()
		f(&d)
		return d
	}
	tests := []struct {
		lock settings.Lock
		want string // "" for valid
	}{
		{settings.Etcd{SessionTTL: 1500 * time.Millisecond, Nodes: 3}, "session TTL 1.5s: want whole seconds"},
		{settings.Etcd{SessionTTL: s, Nodes: 3}, ""},
		{settings.Etcd{SessionTTL: 60 * s, Nodes: 1}, "nodes 1"},
		{settings.Consul{SessionTTL: 9 * s, LockDelay: 15 * s, Nodes: 3}, "session TTL 9s: want 10s to 24h0m0s"},
		{settings.Consul{SessionTTL: 10 * s, LockDelay: 61 * s, Nodes: 3}, "lock-delay 1m1s: want 0s to 1m0s"},
		{settings.Consul{SessionTTL: 24 * time.Hour, LockDelay: time.Minute, Nodes: 3}, ""},
		{settings.Curator{SessionTimeout: 0, TickTime: 2 * s, Nodes: 3}, "session timeout 0s"},
		{settings.Curator{SessionTimeout: 60 * s, TickTime: 0, Nodes: 3}, "tickTime 0s"},
		{dynamo(func(d *settings.DynamoDB) { d.HeartbeatPeriod = 20 * s }), "heartbeat period 20s: want it shorter than the lease 20s"},
		{dynamo(func(d *settings.DynamoDB) { d.AdditionalWait = -s }), "additional time to wait -1s: want 0s or more"},
		{dynamo(func(d *settings.DynamoDB) { d.RefreshPeriod = 0 }), "refresh period 0s: want each at least 1ms"},
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

// TestCuratorNegotiation: the server clamps the session timeout to 2 … 20
// ticks, and the client's read timeout and ping follow in integer
// milliseconds (ClientCnxn.onConnected, SendThread.run).
func TestCuratorNegotiation(t *testing.T) {
	ms := time.Millisecond
	for _, tt := range []struct {
		timeout, tick, negotiated, read, ping time.Duration
	}{
		{60000 * ms, 2000 * ms, 40000 * ms, 26666 * ms, 13333 * ms}, // at most 20 ticks
		{60000 * ms, 3000 * ms, 60000 * ms, 40000 * ms, 20000 * ms},
		{1000 * ms, 2000 * ms, 4000 * ms, 2666 * ms, 1333 * ms}, // at least 2 ticks
		{10001 * ms, 1000 * ms, 10001 * ms, 6667 * ms, 3333 * ms},
	} {
		c := settings.Curator{SessionTimeout: tt.timeout, TickTime: tt.tick, Nodes: 3}
		if c.Negotiated() != tt.negotiated || c.ReadTimeout() != tt.read || c.Ping() != tt.ping {
			t.Errorf("%v with tick %v: %v, %v, %v; want %v, %v, %v", tt.timeout, tt.tick, c.Negotiated(), c.ReadTimeout(), c.Ping(), tt.negotiated, tt.read, tt.ping)
		}
	}
}

// TestProtocolString: each lock's protocol in one line, in the terms they
// share.
func TestProtocolString(t *testing.T) {
	for _, tt := range []struct {
		lock settings.Lock
		want string
	}{
		{settings.EtcdDefaults(), "the service expires the lease 60s after its last renewal; renewed every 20s; waiters watch; the holder gives up 60s after its last renewal; a leader change of the service restarts every lease"},
		{settings.ConsulDefaults(), "the service expires the lease 30s after its last renewal; renewed every 7.5s; a lock-delay of 15s after an expiry; waiters watch; the holder gives up at its first failed call, never while one hangs; a leader change of the service restarts every lease"},
		{settings.CuratorDefaults(), "the service expires the lease 40s after its last renewal; renewed every 13.333s; waiters watch; the holder is disconnected by a failed call or 26.666s of silence; a leader change of the service restarts every lease"},
		{settings.DynamoDBDefaults(), "no one expires the lease: waiters count 20s on their own clocks; renewed every 5s; waiters read every 1s and take the lock when its version stayed the same for more than 20s within one acquire call of 21s; the holder gives up 20s after its last renewal"},
		{settings.QuartzDefaults(), "no one expires the lease: waiters count 15s on their own clocks; renewed every 7.5s; waiters read every 7.5s; the holder is never told it lost the lock, even as it reaches the service again: it runs its job to the end"},
		{settings.DBSchedulerDefaults(), "no one expires the lease: waiters count 1800s on their own clocks; renewed every 300s; waiters read every 600s; the holder is never told it lost the lock, even as it reaches the service again: it runs its job to the end"},
	} {
		if got := tt.lock.Protocol().String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.lock.Title(), got, tt.want)
		}
	}
}

// TestErrorPolicy: the policy's names, and a name that is not one.
func TestErrorPolicy(t *testing.T) {
	for _, p := range []settings.ErrorPolicy{settings.StandardPolicy, settings.SessionPolicy} {
		if got, err := settings.ParseErrorPolicy(p.String()); got != p || err != nil {
			t.Errorf("ParseErrorPolicy(%q) = %v, %v", p, got, err)
		}
	}
	if _, err := settings.ParseErrorPolicy("lost"); err == nil {
		t.Error("ParseErrorPolicy(lost): no error")
	}
}

// acquireLockTakeover replays AmazonDynamoDBLockClient.acquireLock, line
// for line, for one waiter whose calls start at 0 and follow each other at
// once, the holder heartbeating every hb until its last heartbeat at h and
// every read taking delta: it returns when the waiter takes the lock, less
// h, and when its first call ended (only that, for h < 0). Times in
// milliseconds.
func acquireLockTakeover(lease, refresh, wait, hb, h, delta int64) (takeover, firstCall int64) {
	rvn := func(t int64) int64 { // the index of the last heartbeat written by t
		if h < 0 { // a new one at every read: no takeover
			return t
		}
		if t >= h {
			return 0
		}
		return -((h - t + hb - 1) / hb)
	}
	t := int64(0)
	for {
		start, waitMs := t, wait+lease // millisecondsToWait: the buffer, plus the existing lock's lease
		var trying, lookup int64
		have := false
		for {
			t += delta // getLockFromDynamoDB; createLockItem's lookupTime is after it
			seen := rvn(t)
			switch {
			case !have:
				have, trying, lookup = true, seen, t
			case seen == trying:
				if t-lookup > lease { // lockTryingToBeAcquired.isExpired()
					return t - h, firstCall
				}
			default:
				trying, lookup = seen, t
			}
			if t-start > waitMs { // LockNotGrantedException: the application calls again
				if firstCall == 0 {
					firstCall = t
				}
				if h < 0 { // asked only for the call's length
					return 0, firstCall
				}
				break
			}
			t += refresh // Thread.sleep(refreshPeriodInMilliseconds)
		}
	}
}

// TestDynamoDBTakeoverReplay: the closed form of DynamoDB's takeover after
// a crash against a replay of acquireLock's loop over the phase of the last
// heartbeat in the waiter's calls, with reads of 1 ms: its least, its
// greatest, and the median of the first of k waiters, the single waiter's
// quantile 1 − 2^(−1/k).
func TestDynamoDBTakeoverReplay(t *testing.T) {
	for _, d := range []settings.DynamoDB{
		settings.DynamoDBDefaults(),
		{LeaseDuration: 20 * time.Second, HeartbeatPeriod: 6 * time.Second, RefreshPeriod: 3 * time.Second, AdditionalWait: time.Second, Nodes: 3},
		{LeaseDuration: 20 * time.Second, HeartbeatPeriod: 5 * time.Second, RefreshPeriod: time.Second, AdditionalWait: 0, Nodes: 5},
		{LeaseDuration: 10 * time.Second, HeartbeatPeriod: 3 * time.Second, RefreshPeriod: 700 * time.Millisecond, AdditionalWait: 30 * time.Second, Nodes: 2},
	} {
		ms := func(x time.Duration) int64 { return x.Milliseconds() }
		replay := func(h int64) (int64, int64) {
			return acquireLockTakeover(ms(d.LeaseDuration), ms(d.RefreshPeriod), ms(d.AdditionalWait), ms(d.HeartbeatPeriod), h, 1)
		}
		_, cycle := replay(-1) // one call's length, the period of the waiter's phase
		var delays []float64
		for h := int64(0); h < 4*cycle; h += 3 { // four whole cycles
			delay, _ := replay(h)
			delays = append(delays, float64(delay)/1000)
		}
		slices.Sort(delays)
		q := 1 - math.Pow(0.5, 1/float64(d.Nodes-1))
		got := d.Figures()[3]
		lo, mid, hi := delays[0], delays[int(q*float64(len(delays)))], delays[len(delays)-1]
		// The replay's reads drift 1 ms a read, over up to two calls.
		tol := float64(2*ms(d.LeaseDuration+d.AdditionalWait)/ms(d.RefreshPeriod)+4) / 1000
		if math.Abs(got.Min-lo) > tol || math.Abs(got.Max-hi) > tol || math.Abs(got.Median-mid) > tol {
			t.Errorf("%s: takeover %v %v %v, the replay's %v %v %v", d.Title(), got.Min, got.Median, got.Max, lo, mid, hi)
		}
	}
}

// lockTakeover replays api.Lock.Lock for a waiter whose blocking query on
// the key returns as the server invalidates the crashed holder's session,
// 2·ttl after its last renewal, every call taking delta: Acquire is refused
// while the lock-delay set at the invalidation has not expired
// (lockDelay.GetExpiration after now), then the waiter reads the key again
// (WaitIndex 0), sleeps DefaultLockRetryTime and tries again. It returns
// when the waiter holds the key, from the last renewal. Milliseconds.
func lockTakeover(ttl, lockDelay, delta int64) int64 {
	invalidated := 2 * ttl
	expires := invalidated + lockDelay
	t := invalidated + delta // the blocking kv.Get returns: the key has no session
	for {
		t += delta // kv.Acquire
		if expires <= t {
			return t
		}
		t += delta // kv.Get, WaitIndex 0: still no session, a lock-delay
		t += 5000  // time.After(DefaultLockRetryTime)
		t += delta // goto WAIT: kv.Get returns at once
	}
}

// TestConsulTakeoverReplay: Consul's takeover after a crash against a
// replay of Lock.Lock's loop, within the calls' few milliseconds.
func TestConsulTakeoverReplay(t *testing.T) {
	for _, c := range []settings.Consul{
		settings.ConsulDefaults(),
		{SessionTTL: 10 * time.Second, LockDelay: 7 * time.Second, Nodes: 3},
		{SessionTTL: 30 * time.Second, Nodes: 3},
		{SessionTTL: 10 * time.Second, LockDelay: time.Minute, Nodes: 3},
	} {
		got := c.Figures()[3]
		replay := float64(lockTakeover(c.SessionTTL.Milliseconds(), c.LockDelay.Milliseconds(), 1)) / 1000
		if got.Min != got.Max || replay < got.Min || replay > got.Min+0.05 {
			t.Errorf("%s: takeover %v … %v, the replay's %v", c.Title(), got.Min, got.Max, replay)
		}
	}
}
