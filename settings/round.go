package settings

import (
	"fmt"
	"time"

	"github.com/leasesim/leasesim/model"
)

// RoundLock is a lock in the round model's terms (docs/model.md, Lock
// protocols): the model's protocol and the times it takes, read from the
// lock's Protocol so that settings and the model share one source. Lease
// is when the service ends an unrenewed lease (Protocol.Expires),
// RetryPeriod how often the holder renews (Protocol.Renewal, to the
// millisecond below: etcd's TTL/3 may have a fraction of one), LockDelay
// the lock-delay as the waiters meet it (Consul's, rounded up to their
// 5 s tries), AcquireWait how long a DynamoDB waiter's acquire call lasts
// beyond the lease (additionalTimeToWaitForLock) and Refresh the DynamoDB
// waiters' refresh period, which is the round: they read the record every
// round (0 under the other protocols). DisconnectDelay is how long the
// ZooKeeper client takes to report a disconnect (Curator's, 0 under the
// other protocols). The model's renew deadline and
// renewal are 0 under these protocols, and its followers do not jitter.
type RoundLock struct {
	Protocol                      model.LockProtocol
	Lease, RetryPeriod, LockDelay time.Duration
	AcquireWait, Refresh          time.Duration
	DisconnectDelay               time.Duration
	// LockAtLeastFor and FireSpread are ShedLock's lockAtLeastFor and the
	// deployment's fire spread (0 under the other protocols); under
	// ShedLock Lease is lockAtMostFor and RetryPeriod, which nothing
	// renews at, the same.
	LockAtLeastFor, FireSpread time.Duration
	// UsingDbTime is ShedLock's usingDbTime() under its JDBC provider
	// (false under the others): the lock's times are the database's,
	// not the nodes' clocks.
	UsingDbTime bool
	// OnCut is what the library does by default with a batch its holder
	// was cut from: db-scheduler's ReviveDeadExecution runs it again
	// (rerun); the others' none.
	OnCut model.CutPolicy
}

// RoundLockOf returns lock's round-model settings, and false for a lock
// the model does not run by its own protocol.
func RoundLockOf(lock Lock) (RoundLock, bool) {
	p := lock.Protocol()
	r := RoundLock{Lease: p.Expires, RetryPeriod: p.Renewal.Truncate(time.Millisecond)} // etcd's TTL/3 of a TTL not a multiple of 3 s, to the millisecond below
	for _, row := range LockRows() {
		if q := r; row.Round(lock, &q) {
			return q, true
		}
	}
	return RoundLock{}, false
}

// Tick is the round the lock's times are counted in when no tick is
// given: the longest of 1 s, 500 ms, 100 ms, 50 ms, 10 ms, 5 ms and 1 ms
// of which its lease, retry period, lock-delay and disconnect delay are
// whole numbers
// (Consul's default TTL/2 of 7.5 s takes 500 ms; Curator's default ping
// of 13.333 s, a third of a 40 s session, 1 ms). A DynamoDB lock's is its
// refresh period, whatever its times: its waiters read every round.
func (r RoundLock) Tick() time.Duration {
	if r.Refresh > 0 {
		return r.Refresh
	}
	ms := time.Millisecond
	for _, t := range []time.Duration{1000 * ms, 500 * ms, 100 * ms, 50 * ms, 10 * ms, 5 * ms} {
		if r.Lease%t == 0 && r.RetryPeriod%t == 0 && r.LockDelay%t == 0 && r.DisconnectDelay%t == 0 && r.LockAtLeastFor%t == 0 && r.FireSpread%t == 0 {
			return t
		}
	}
	return ms
}

// RoundError is why the round model cannot run d, or nil: it reads the
// record every round, so the round is the refresh period, and the lease,
// the heartbeat period and the additional time to wait must be whole
// numbers of it. Each option is named by its flag (flag: the option's
// name as the caller's user gives it, from "lease", "heartbeat-period",
// "additional-time-to-wait" and "refresh-period").
func (d DynamoDB) RoundError(flag func(option string) string) error {
	r := d.RefreshPeriod
	for _, o := range []struct {
		name string
		d    time.Duration
	}{{"lease", d.LeaseDuration}, {"heartbeat-period", d.HeartbeatPeriod}, {"additional-time-to-wait", d.AdditionalWait}} {
		if o.d%r != 0 {
			return fmt.Errorf("%s %s is not a whole number of %s %s: the round model's waiters read the record every round, which is the refresh period, so it takes a multiple of it (%s, %s, …)", flag(o.name), dur(o.d), flag("refresh-period"), dur(r), dur(o.d/r*r), dur((o.d/r+1)*r))
		}
	}
	return nil
}
