package settings

import (
	"fmt"
	"math"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Consul is leader election by Consul's api.Lock (api/lock.go) among Nodes
// candidates, each with a session of its own created by Lock.
//
// The session is renewed every TTL/2 (api/session.go RenewPeriodic); the
// server invalidates it TTL × SessionTTLMultiplier (2) after the last
// renewal it saw (agent/consul/session_ttl.go createSessionTimer), which
// frees the key and puts the session's lock-delay on it. The holder keeps
// no clock: a blocking query on the key (Lock.monitorLock) closes its
// leader channel when the query fails (MonitorRetries 0) or shows another
// session. A waiter's blocking query returns when the key is freed; it
// tries to acquire at once and, while the lock-delay refuses it, every
// DefaultLockRetryTime (5 s) (Lock.Lock). Unlock releases the key with no
// lock-delay.
type Consul struct {
	SessionTTL time.Duration // LockOptions.SessionTTL; DefaultLockSessionTTL "15s"
	LockDelay  time.Duration // LockOptions.LockDelay; the session default 15s
	Nodes      int
}

// The server's bounds on sessions, and the lock's retry.
const (
	consulTTLMultiplier = 2                // structs.SessionTTLMultiplier
	consulMinTTL        = 10 * time.Second // the server's session_ttl_min default
	consulMaxTTL        = 24 * time.Hour   // structs.SessionTTLMax
	consulMaxLockDelay  = time.Minute      // structs.MaxLockDelay
	consulLockRetry     = 5 * time.Second  // api.DefaultLockRetryTime
)

// ConsulDefaults is api.Lock's session: TTL 15 s, lock-delay 15 s.
func ConsulDefaults() Consul {
	return Consul{SessionTTL: 15 * time.Second, LockDelay: 15 * time.Second, Nodes: 3}
}

// Title names the lock and its session.
func (c Consul) Title() string {
	return fmt.Sprintf("Consul api.Lock: session TTL %s, lock-delay %s, %d nodes", dur(c.SessionTTL), dur(c.LockDelay), c.Nodes)
}

// Protocol is a server-side session at twice its TTL, a lock-delay, a
// blocking query each side.
func (c Consul) Protocol() Protocol {
	return Protocol{Expiry: ServerExpiry, Notice: Watch, Renewal: c.SessionTTL / 2, Expires: consulTTLMultiplier * c.SessionTTL,
		LockDelay: c.LockDelay, GiveUp: FirstFailedCall, LeaderChangeResets: true}
}

// Validate refuses what Consul's server refuses: a TTL outside 10s … 24h,
// a lock-delay above 60s.
func (c Consul) Validate() error {
	switch {
	case c.SessionTTL < consulMinTTL || c.SessionTTL > consulMaxTTL:
		return fmt.Errorf("session TTL %s: want %s to %s (Consul's session_ttl_min and SessionTTLMax)", c.SessionTTL, consulMinTTL, consulMaxTTL)
	case c.LockDelay < 0 || c.LockDelay > consulMaxLockDelay:
		return fmt.Errorf("lock-delay %s: want 0s to %s (Consul's MaxLockDelay)", c.LockDelay, consulMaxLockDelay)
	}
	return checkNodes(c.Nodes)
}

// TakeoverAfterCrash is, from the crashed holder's last renewal, when a
// waiter acquires the key: the server invalidates the session at 2·TTL,
// and the waiter, woken at once, tries then and every 5 s until the
// lock-delay has run out.
func (c Consul) TakeoverAfterCrash() time.Duration {
	return consulTTLMultiplier*c.SessionTTL + c.LockDelayMet()
}

// LockDelayMet is the lock-delay as a waiter meets it: rounded up to its
// DefaultLockRetryTime (5 s) tries, each refused while the lock-delay
// lasts, from the invalidation that woke it.
func (c Consul) LockDelayMet() time.Duration {
	tries := (c.LockDelay + consulLockRetry - 1) / consulLockRetry // attempts refused by the lock-delay
	return tries * consulLockRetry
}

// Figures follow api.Lock: times from the holder's last renewal.
func (c Consul) Figures() []Figure {
	renewal := (c.SessionTTL / 2).Seconds()
	invalidated := (consulTTLMultiplier * c.SessionTTL).Seconds()
	crash := c.TakeoverAfterCrash().Seconds()
	inf := math.Inf(1)
	return lockFigures(
		// Calls failing at once: the monitor's query fails at the outage's
		// start, between one renewal and the next.
		uniform(0, renewal),
		// MonitorRetries 0: the first failed query ends the lock.
		exact(0),
		// Calls hanging: the monitor's query and the renewal hang, and the
		// renewal reaches the server when the outage ends, in time if before
		// the session's invalidation at 2·TTL.
		uniform(invalidated-renewal, invalidated),
		exact(crash),
		exact(0),
		// A holder whose query hangs believes until the outage ends, however
		// long after its session was invalidated.
		exact(-inf),
		pauseTolerated(crash, renewal),
		[7]string{
			"calls failing at once: the holder's monitor query fails at the outage's start, anywhere between its last renewal and the next (TTL/2); while its calls hang it never gives up",
			"any outage whose calls fail at once ends the lock: monitorLock returns at its first failed query (MonitorRetries 0)",
			"the longest outage with hanging calls whose renewal, delivered as it ends, reaches the server before it invalidates the session at 2·TTL; by the outage's phase between renewals",
			fmt.Sprintf("from the crashed holder's last renewal: the server invalidates the session at 2·TTL, and the waiters, woken at once, acquire once the %s lock-delay is over, trying every 5 s", dur(c.LockDelay)),
			"Unlock releases the key, with no lock-delay, and a waiter's blocking query returns at once",
			"no bound: a holder whose blocking query hangs stops believing only when the outage ends, while the others take the lock at the takeover after a crash",
			"the longest stop-the-world pause of the holder after which it cannot act beside its successor, by when between renewals it starts",
		})
}

// NoMargin: the holder's belief ends with its query, not a clock.
func (c Consul) NoMargin() string {
	return fmt.Sprintf("the holder has no clock of its own: cut off by a silent partition (calls that hang), it believes it holds the lock until its blocking query answers, while the server invalidates its session and another candidate takes the lock %s after its last renewal", dur(c.TakeoverAfterCrash()))
}

// consulRow is Consul's row of LockRows.
func consulRow() LockRow {
	return LockRow{
		Preset: "consul", Defaults: ConsulDefaults(), WithNodes: withNodes(func(c *Consul) *int { return &c.Nodes }),
		Flags: []LockFlag{
			{Name: "session-ttl", Type: "duration", Set: durationField(func(c *Consul) *time.Duration { return &c.SessionTTL })}, // etcd's row gives its help
			{Name: "lock-delay", Type: "duration", Model: true, OneValue: "Consul's lock-delay under --preset consul takes one value",
				Usage:         "; with --preset consul, Consul's LockOptions.LockDelay (default 15s), which the waiters meet rounded up to their 5s tries",
				SettingsUsage: "consul's LockOptions.LockDelay",
				Set:           nonNegativeField(func(c *Consul) *time.Duration { return &c.LockDelay })},
		},
		Round: func(l Lock, r *RoundLock) bool {
			c, ok := l.(Consul)
			r.Protocol, r.LockDelay = model.ProtocolConsul, c.LockDelayMet()
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolConsul},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return Consul{SessionTTL: d(c.Lease) / 2, LockDelay: d(c.LockDelay), Nodes: nodes}
		},
	}
}
