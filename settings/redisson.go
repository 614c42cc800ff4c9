package settings

import (
	"fmt"
	"math"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Redisson is leader election by Redisson's RLock with its lock watchdog
// (lock() or tryLock() without a lease time) among Nodes candidates.
//
// Acquiring sets the lock's hash with a lease of lockWatchdogTimeout on
// Redis's clock (RedissonLock.tryLockInnerAsync: pexpire) and adds it to
// the client's renewal task (RedissonBaseLock.scheduleExpirationRenewal),
// which every lockWatchdogTimeout/3 after its last pass re-extends the
// locks this client still holds (RenewalTask.schedule; LockTask.renew:
// hexists, then pexpire). A pass whose call fails is only logged ("Can't
// update locks … expiration") and rescheduled (RenewalTask.run): nothing
// tells the holder, which works on; a pass that finds the lock gone drops
// it from renewal, silently (LockTask's cancelExpirationRenewal), and the
// application learns only at its own next call (unlock throws
// IllegalMonitorStateException). Redis ends the lease on its own clock.
// A waiter subscribes to the lock's channel and sleeps for the lease's
// remaining pttl or until unlock's message (RedissonLock.lock), so it
// takes an expired lock as the lease ends and a released one at once.
type Redisson struct {
	WatchdogTimeout time.Duration // Config.lockWatchdogTimeout; 30 s
	Nodes           int
}

// RedissonDefaults is Redisson's Config: a 30 s lockWatchdogTimeout.
func RedissonDefaults() Redisson { return Redisson{WatchdogTimeout: 30 * time.Second, Nodes: 3} }

// Renewal is the watchdog's period: lockWatchdogTimeout / 3 in whole
// milliseconds (RenewalTask.schedule).
func (r Redisson) Renewal() time.Duration {
	return time.Duration(r.WatchdogTimeout.Milliseconds()/3) * time.Millisecond
}

// Title names the lock and its watchdog.
func (r Redisson) Title() string {
	return fmt.Sprintf("Redisson RLock with the lock watchdog: lockWatchdogTimeout %s (renewed every %s), %d nodes", dur(r.WatchdogTimeout), dur(r.Renewal()), r.Nodes)
}

// Protocol is a lease on Redis's clock renewed every third of it, waiters
// woken at its end or by the unlock message, and a holder never told.
func (r Redisson) Protocol() Protocol {
	return Protocol{Expiry: ServerExpiry, Notice: Watch, Renewal: r.Renewal(), Expires: r.WatchdogTimeout, GiveUp: NeverTold}
}

// Validate refuses a timeout whose third is under a millisecond.
func (r Redisson) Validate() error {
	if r.WatchdogTimeout < 3*time.Millisecond {
		return fmt.Errorf("lockWatchdogTimeout %s: want at least 3ms, so that the watchdog renews every third of it", r.WatchdogTimeout)
	}
	return checkNodes(r.Nodes)
}

// Figures follow the watchdog and the waiters' pttl-timed waits; times are
// from the last renewal Redis applied.
func (r Redisson) Figures() []Figure {
	lease, renewal := r.WatchdogTimeout.Seconds(), r.Renewal().Seconds()
	inf := math.Inf(1)
	// Passes at renewal, 2·renewal, …: the first after the outage must
	// come before Redis ends the lease, so the last that can renew is the
	// greatest k·renewal below it.
	last := math.Ceil(lease/renewal-1) * renewal
	survived := uniform(last-renewal, last)
	crash := exact(lease)
	return lockFigures(exact(inf), survived, survived, crash, exact(0), exact(-inf), pauseTolerated(crash.min, renewal), [7]string{
		"no bound: a failed renewal is only logged (RenewalTask.run) and nothing tells the holder, which works on until it reaches Redis again",
		"the longest outage of Redis, the watchdog's passes failing at once, after which its next pass (every lockWatchdogTimeout/3) renews the lock before Redis ends the lease; by the outage's phase between passes",
		"the same when calls hang, a hung pass taken as a failed one (Redisson's command timeout and retries, which may land it sooner or later, are left out)",
		"from the last renewal Redis applied to a waiter's lead: Redis ends the lease at lockWatchdogTimeout, when the waiter's pttl-timed wait runs out and it takes the lock",
		"unlock deletes the lock and publishes the unlock message, which wakes a subscribed waiter at once",
		"no bound: the holder never gives up while it is cut off, so a cut-off holder leads beside the waiter that takes the lock at the lease's end",
		"the longest stop-the-world pause of the holder (its watchdog stops with it) after which it cannot act beside its successor, by when between renewals it starts",
	})
}

// NoMargin: nothing tells the holder.
func (r Redisson) NoMargin() string {
	return "Redisson's watchdog only logs a failed renewal and nothing tells the holder it lost the lock: a holder cut off from Redis, or paused, for longer than lockWatchdogTimeout works on beside the waiter that took the lock when Redis ended the lease, until its own next call to Redis (unlock throws IllegalMonitorStateException); only RFencedLock's token, checked by the store, keeps its writes out"
}

// Options is Redisson's lockWatchdogTimeout.
func (r Redisson) Options() []Option {
	return []Option{{Key: "lock_watchdog_timeout", Library: "Config.lockWatchdogTimeout", Value: r.WatchdogTimeout, Default: RedissonDefaults().WatchdogTimeout, Step: time.Millisecond, Tries: scaled(r.WatchdogTimeout),
		with: func(v time.Duration) Settable { l := r; l.WatchdogTimeout = v; return l }}}
}

// redissonRow is Redisson's row of LockRows.
func redissonRow() LockRow {
	return LockRow{
		Preset: "redisson", Defaults: RedissonDefaults(), WithNodes: withNodes(func(r *Redisson) *int { return &r.Nodes }),
		Flags: []LockFlag{{Name: "lock-watchdog-timeout", Type: "duration",
			Usage:         "with --preset redisson: Redisson's Config.lockWatchdogTimeout (default 30s), the lease on Redis's clock, renewed every third of it: the model's lease and retry period",
			SettingsUsage: "redisson: Config.lockWatchdogTimeout, the lease Redis keeps, renewed every third of it",
			Set:           durationField(func(r *Redisson) *time.Duration { return &r.WatchdogTimeout })}},
		Round: func(l Lock, r *RoundLock) bool {
			_, ok := l.(Redisson)
			r.Protocol = model.ProtocolRedisson
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolRedisson},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return Redisson{WatchdogTimeout: d(c.Lease), Nodes: nodes}
		},
	}
}
