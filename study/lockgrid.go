package study

import (
	"slices"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// lockTimes is what of a candidate a lock's options set, in rounds: its
// protocol and times (settings.RoundLock).
type lockTimes struct {
	protocol                                                              model.LockProtocol
	lease, retry, lockDelay, acquireWait, disconnectDelay, lockAtLeastFor int
}

// timesOf is k's lock times.
func timesOf(k cost.Candidate) lockTimes {
	return lockTimes{k.Protocol, k.Lease, k.RetryPeriod, k.LockDelay, k.AcquireWait, k.DisconnectDelay, k.LockAtLeastFor}
}

// WithLock is k with the protocol and times of r in rounds of t, its
// renew deadline 0, as a lock's preset sets them; ok is false where t
// does not hold them (settings.RoundLock.Holds).
func WithLock(k cost.Candidate, r settings.RoundLock, t model.Tick) (cost.Candidate, bool) {
	if t == 0 || r.Holds(time.Duration(t)) != nil {
		return k, false
	}
	n := func(d time.Duration) int { return int(d / time.Duration(t)) }
	k.Protocol, k.Lease, k.RenewDeadline, k.RetryPeriod = r.Protocol, n(r.Lease), 0, n(r.RetryPeriod)
	k.LockDelay, k.AcquireWait, k.DisconnectDelay = n(r.LockDelay), n(r.AcquireWait), n(r.DisconnectDelay)
	k.LockAtLeastFor = n(r.LockAtLeastFor)
	return k, true
}

// deployedLock is the deployment's lock as its library's options set it:
// the one the review was given, or Base's read back (LockOf); nil for
// client-go, and without a tick, whose grid is of leases.
func (rv *Review) deployedLock() settings.Lock {
	if rv.Tick == 0 || rv.Base.Protocol == model.ProtocolClientGo {
		return nil
	}
	if rv.Lock != nil {
		return rv.Lock
	}
	return rv.LockOf(cost.CandidateOf(rv.Base))
}

// lockCandidates is the grid of a lock of its own: each lock
// settings.Grid tries around the deployment's, with the base's other
// settings, those the model takes with them (model.Config.Validate),
// the base's own settings among them, and the candidates listed, in
// cost.Compare's order, each once. It remembers each candidate's lock,
// for its name. ok is false for client-go, whose grid is of leases.
func (rv *Review) lockCandidates() (ks []cost.Candidate, ok bool) {
	lock := rv.deployedLock()
	if lock == nil || rv.CandidateLeases != nil {
		return nil, false
	}
	current := cost.CandidateOf(rv.Base)
	rv.rememberListed()
	for _, l := range settings.Grid(lock, time.Duration(rv.Tick)) {
		r, _ := settings.RoundLockOf(l)
		k, fits := WithLock(current, r, rv.Tick)
		if c := k.Apply(rv.Base); !fits || c.Validate() != nil {
			continue
		}
		rv.remember(k, l)
		ks = append(ks, k)
	}
	ks = append(append(ks, current), rv.CandidateList...)
	slices.SortFunc(ks, cost.Compare)
	return slices.Compact(ks), true
}

// rememberListed notes the deployment's lock as what sets the current
// settings' lock times, then each listed candidate's (CandidateLocks).
func (rv *Review) rememberListed() {
	rv.remember(cost.CandidateOf(rv.Base), rv.deployedLock())
	for i, l := range rv.CandidateLocks {
		rv.remember(rv.CandidateList[i], l)
	}
}

// remember notes lock as what sets k's lock times, unless a lock already
// does: the deployment's first, then the listed candidates', then the
// grid's.
func (rv *Review) remember(k cost.Candidate, lock settings.Lock) {
	if rv.locks == nil {
		rv.locks = map[lockTimes]settings.Lock{}
	}
	if _, ok := rv.locks[timesOf(k)]; !ok && lock != nil {
		rv.locks[timesOf(k)] = lock
	}
}

// LockOf is the library's settings of candidate k: the lock whose options
// the review set it from (the deployment's, a listed candidate's, the
// grid's), else its configuration's read back (LockOf) where that lock
// runs with k's times (a --protocol given with times of the model's own,
// such as a retry period other than etcd's TTL/3, is no setting of the
// library); nil for client-go and the publication's round model.
func (rv *Review) LockOf(k cost.Candidate) settings.Lock {
	if l, ok := rv.locks[timesOf(k)]; ok {
		return l
	}
	l, _, _ := LockOf(k.Apply(rv.Base), rv.Tick)
	if l == nil {
		return nil
	}
	r, _ := settings.RoundLockOf(l)
	if back, ok := WithLock(k, r, rv.Tick); !ok || timesOf(back) != timesOf(k) {
		return nil
	}
	return l
}

// Setting names candidate k by its library's options, as a candidate
// list writes them (settings.Setting): "session_ttl=60s" under a lock of
// its own, "lease=15s renew_deadline=10s retry_period=2s" under
// client-go; "" without a tick, whose times are rounds, and for the
// publication's round model, which no library sets.
func (rv *Review) Setting(k cost.Candidate) string {
	if rv.Tick == 0 {
		return ""
	}
	if k.Protocol == model.ProtocolClientGo {
		if _, cg, ok := LockOf(k.Apply(rv.Base), rv.Tick); ok {
			return settings.Setting(cg)
		}
		return ""
	}
	if l := rv.LockOf(k); l != nil {
		return settings.Setting(l)
	}
	return ""
}
