package settings

import (
	"fmt"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Etcd is leader election by etcd's client/v3/concurrency: a Session
// (NewSession, its lease kept alive by the client's lessor) and an
// Election (Campaign, Resign) among Nodes candidates.
//
// The client sends a keep-alive TTL/3 after each answer
// (lessor.recvKeepAlive, nextKeepAlive) and stops believing TTL after the
// last answer, noticed by a loop that looks every second
// (lessor.deadlineLoop), which closes Session.Done. The server expires the
// lease TTL after the last keep-alive it heard, found by a loop that looks
// every 500 ms (server/lease lessor.runLoop), and deletes the candidate's
// key; the next candidate waits on that key's deletion by a watch
// (Campaign, waitDeletes) and leads at once. Resign deletes the key.
type Etcd struct {
	SessionTTL time.Duration // concurrency.WithTTL, whole seconds; defaultSessionTTL 60
	Nodes      int
}

// The loops' periods that decide the sign of etcd's margin, and the
// server's least TTL.
const (
	etcdDeadlineLoop = 1.0 // s, client/v3 lessor.deadlineLoop
	etcdRevokeLoop   = 0.5 // s, server/lease lessor.runLoop
	// etcdMinTTL is the server's MinLeaseTTL at its default election
	// timeout: ⌈3/2 · 10 ticks of 100 ms⌉ (etcdserver NewServer); lessor.Grant
	// raises a shorter TTL to it.
	etcdMinTTL = 2 * time.Second
)

// Granted is the TTL the server grants: the session's, at least 2 s.
func (e Etcd) Granted() time.Duration { return max(e.SessionTTL, etcdMinTTL) }

// EtcdDefaults is a session with concurrency's default TTL of 60 s.
func EtcdDefaults() Etcd { return Etcd{SessionTTL: 60 * time.Second, Nodes: 3} }

// Title names the lock and its TTL.
func (e Etcd) Title() string {
	granted := ""
	if e.Granted() != e.SessionTTL {
		granted = fmt.Sprintf(" (granted %s, the server's least)", dur(e.Granted()))
	}
	return fmt.Sprintf("etcd concurrency election: session TTL %s%s, %d nodes", dur(e.SessionTTL), granted, e.Nodes)
}

// Protocol is a server-side lease kept alive every TTL/3, watched.
func (e Etcd) Protocol() Protocol {
	return Protocol{Expiry: ServerExpiry, Notice: Watch, Renewal: e.Granted() / 3, Expires: e.Granted(),
		GiveUp: OwnDeadline, GiveUpAfter: e.Granted(), LeaderChangeResets: true}
}

// Validate refuses a TTL that is not whole seconds (WithTTL takes an int).
func (e Etcd) Validate() error {
	if e.SessionTTL < time.Second || e.SessionTTL%time.Second != 0 {
		return fmt.Errorf("session TTL %s: want whole seconds, at least 1s (concurrency.WithTTL takes seconds)", e.SessionTTL)
	}
	return checkNodes(e.Nodes)
}

// Figures follow the session's keep-alive and the election's watch. Times
// are from the last keep-alive the server heard, its answer arriving at
// once.
func (e Etcd) Figures() []Figure {
	ttl := e.Granted().Seconds()
	renewal := ttl / 3
	// The client's deadline is TTL after the last answer; its deadline loop
	// sees it up to a second later.
	giveUp := uniform(ttl, ttl+etcdDeadlineLoop)
	// The server expires the lease at TTL, its revoke loop up to 500 ms
	// later, and the watching candidate leads at once.
	crash := uniform(ttl, ttl+etcdRevokeLoop)
	// An outage starting between two keep-alives must end before the server
	// expires the lease: the first keep-alive after it (sent at once, the
	// next being overdue) renews it. A hung keep-alive stream delivers its
	// requests when the outage ends, with the same result.
	survived := uniform(ttl-renewal, ttl)
	// The margin is the revoke loop's delay less the deadline loop's: the
	// difference of two uniform delays, symmetric about its mean.
	margin := span{-etcdDeadlineLoop, (etcdRevokeLoop - etcdDeadlineLoop) / 2, etcdRevokeLoop}
	return lockFigures(giveUp, survived, survived, crash, exact(0), margin, pauseTolerated(crash.min, renewal), [7]string{
		"the holder's session ends TTL after the last keep-alive answer, seen by the client's one-second deadline loop (Session.Done closes)",
		"the longest outage of etcd, its calls failing at once, after which the first keep-alive renews the lease before the server expires it; by the outage's phase between keep-alives",
		"the same when calls hang: the keep-alive stream delivers its requests when the outage ends",
		"from the last keep-alive the server heard to the next candidate's lead: the server expires the lease at TTL (its revoke loop every 500 ms) and the candidate's watch on the deleted key fires at once",
		"Resign deletes the leader's key and the next candidate's watch fires at once",
		"from the holder's give-up to the earliest takeover: the server's revoke loop (0–0.5 s after TTL) against the client's deadline loop (0–1 s after TTL)",
		"the longest stop-the-world pause of the holder after which it cannot act beside its successor, by when between keep-alives it starts",
	})
}

// NoMargin: the server may delete the key before the client's loop closes
// Session.Done.
func (e Etcd) NoMargin() string {
	return fmt.Sprintf("the server can expire the session up to %gs before the holder's client closes Session.Done, so a holder cut off from etcd leads beside its successor for up to a second; an etcd leader change restarts every lease, so a crashed holder's takeover can come later than shown, never sooner", etcdDeadlineLoop)
}

// etcdRow is etcd's row of LockRows.
func etcdRow() LockRow {
	return LockRow{
		Preset: "etcd", Defaults: EtcdDefaults(), WithNodes: withNodes(func(e *Etcd) *int { return &e.Nodes }),
		Flags: []LockFlag{{Name: "session-ttl", Type: "duration",
			Usage:         "with --preset etcd or consul: the session TTL (etcd's concurrency.WithTTL, default 60s; consul's LockOptions.SessionTTL, default 15s), which sets the model's lease and retry period",
			SettingsUsage: "session TTL (etcd's concurrency.WithTTL, default 60s; consul's LockOptions.SessionTTL, default 15s)",
			Set:           durationField(func(e *Etcd) *time.Duration { return &e.SessionTTL })}},
		Round: func(l Lock, r *RoundLock) bool {
			_, ok := l.(Etcd)
			r.Protocol = model.ProtocolEtcd
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolEtcd},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return Etcd{SessionTTL: d(c.Lease), Nodes: nodes}
		},
	}
}
