package settings

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// A Lock is a leader-election library other than client-go, with its own
// options, whose figures follow its own protocol: etcd's concurrency
// session, Consul's api.Lock, Curator's leader recipes on ZooKeeper, the
// DynamoDB lock client and Redisson's RLock. docs/settings.md names, for every formula, the
// file and function of the library's code it comes from.
type Lock interface {
	// Title names the library and its options, for the table's first line.
	Title() string
	// Protocol is what the library does, in the terms every lock shares.
	Protocol() Protocol
	// Validate returns an error naming the option that the library or its
	// service would refuse, or nil.
	Validate() error
	// Figures returns the figures of the metrics client-go's Figures
	// gives, in the same order, computed from the library's protocol (a
	// per-fire lock, ShedLock, adds its own after them); a figure without
	// a bound is ±Inf. The lock must be valid.
	Figures() []Figure
	// NoMargin explains, in one sentence, how two leaders come about when
	// the two-leader margin is not above zero.
	NoMargin() string
	// Options is the times the library lets its user set, with the lock's
	// values, in the order Setting names them.
	Options() []Option
}

// Expiry says who ends a lease that is no longer renewed.
type Expiry int

const (
	// ServerExpiry: the lock service ends it on its own clock (etcd,
	// Consul, ZooKeeper) and deletes or frees the lock.
	ServerExpiry Expiry = iota
	// ClientExpiry: nobody ends it; each client counts it on its own clock
	// (client-go, DynamoDB).
	ClientExpiry
)

// Notice says how a waiting candidate learns that the lock is free.
type Notice int

const (
	// Watch: the service tells it at once (a watch or a blocking query).
	Watch Notice = iota
	// Poll: it reads the record every poll period.
	Poll
)

// GiveUp says when a holder cut off from the service stops believing it
// leads.
type GiveUp int

const (
	// OwnDeadline: a fixed time after its last renewal (or the answer to
	// it), on its own clock, whatever the calls do.
	OwnDeadline GiveUp = iota
	// FirstFailedCall: when a call to the service fails; never while a call
	// hangs.
	FirstFailedCall
	// Disconnect: when its connection is declared lost (a failed call, or
	// a read timeout with nothing heard), under an error policy that may
	// wait a further session timeout.
	Disconnect
	// NeverTold: never while it is cut off: nothing tells it (a failed
	// renewal is only logged); it stops as it reaches the service again
	// and finds the lock gone.
	NeverTold
	// WorksOn: never: nothing tells it, even when it reaches the service
	// again (a node another declared failed only logs so at its next
	// check-in); it runs its job to the end beside the one recovered
	// elsewhere.
	WorksOn
)

// Protocol describes a lock in the terms every protocol shares: who
// expires the lease, how a candidate notices, how often the holder
// renews, when the lease ends after the last renewal, the lock-delay after
// an expiry, the waiter's version-observation wait, the holder's give-up
// rule and whether a leader change of the lock service restarts every
// lease's expiry. It is the data the round model's protocol will take
// (docs/ARCHITECTURE.md, "A lock protocol").
type Protocol struct {
	Expiry  Expiry
	Notice  Notice
	Poll    time.Duration // between a waiter's reads (Poll)
	Renewal time.Duration // between the holder's renewals
	// Expires is when, after the last renewal the service saw, the lease
	// ends: the service's expiry (ServerExpiry) or the lease the waiters
	// count (ClientExpiry).
	Expires   time.Duration
	LockDelay time.Duration // after an expiry (not a release), nobody may take the lock
	// Observation is how long a waiter must see the record's version
	// unchanged before it takes the lock (ClientExpiry), within acquire
	// calls of Call each that start their observation afresh (0: one call
	// for ever).
	Observation, Call time.Duration
	GiveUp            GiveUp
	GiveUpAfter       time.Duration // OwnDeadline: after the last renewal; Disconnect: the read timeout
	// LeaderChangeResets: a leader change of the lock service grants every
	// lease a fresh expiry.
	LeaderChangeResets bool
	// PerFire: no leader; each node takes the lock at its own fire of the
	// task and the others skip theirs (ShedLock, shedlock.go).
	PerFire bool
}

// String is the protocol in one line.
func (p Protocol) String() string {
	if p.PerFire {
		return perFireString(p)
	}
	var b strings.Builder
	if p.Expiry == ServerExpiry {
		fmt.Fprintf(&b, "the service expires the lease %s after its last renewal", dur(p.Expires))
	} else {
		fmt.Fprintf(&b, "no one expires the lease: waiters count %s on their own clocks", dur(p.Expires))
	}
	fmt.Fprintf(&b, "; renewed every %s", dur(p.Renewal))
	if p.LockDelay > 0 {
		fmt.Fprintf(&b, "; a lock-delay of %s after an expiry", dur(p.LockDelay))
	}
	if p.Notice == Watch {
		b.WriteString("; waiters watch")
	} else {
		fmt.Fprintf(&b, "; waiters read every %s", dur(p.Poll))
	}
	if p.Observation > 0 {
		fmt.Fprintf(&b, " and take the lock when its version stayed the same for more than %s", dur(p.Observation))
		if p.Call > 0 {
			fmt.Fprintf(&b, " within one acquire call of %s", dur(p.Call))
		}
	}
	switch p.GiveUp {
	case OwnDeadline:
		fmt.Fprintf(&b, "; the holder gives up %s after its last renewal", dur(p.GiveUpAfter))
	case FirstFailedCall:
		b.WriteString("; the holder gives up at its first failed call, never while one hangs")
	case Disconnect:
		fmt.Fprintf(&b, "; the holder is disconnected by a failed call or %s of silence", dur(p.GiveUpAfter))
	case NeverTold:
		b.WriteString("; the holder is never told it lost the lock, and stops only as it reaches the service again")
	case WorksOn:
		b.WriteString("; the holder is never told it lost the lock, even as it reaches the service again: it runs its job to the end")
	}
	if p.LeaderChangeResets {
		b.WriteString("; a leader change of the service restarts every lease")
	}
	return b.String()
}

// dur formats a duration as leasesim's tables do: seconds to the
// millisecond, without trailing zeros.
func dur(d time.Duration) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".") + "s"
}

// span is a figure's range: its least, median and greatest value.
type span struct{ min, median, max float64 }

// exact is a span of one value.
func exact(v float64) span { return span{v, v, v} }

// uniform is the span of a value uniform over lo … hi.
func uniform(lo, hi float64) span { return span{lo, (lo + hi) / 2, hi} }

// plus shifts a span by d.
func (s span) plus(d float64) span { return span{s.min + d, s.median + d, s.max + d} }

// figure is a figure of a lock, which no library-go formula claims.
func figure(metric, doc string, s span) Figure {
	return Figure{Metric: metric, Doc: doc, Min: s.min, Median: s.median, Max: s.max, Published: math.NaN()}
}

// lockFigures returns the seven figures in client-go's order.
func lockFigures(giveUp, fastFail, blackHole, crash, release, margin, pause span, docs [7]string) []Figure {
	metrics := [7]string{"give_up_after_renewal", "fast_fail_outage_survived", "black_hole_outage_survived",
		"takeover_after_crash", "takeover_after_release", "two_leader_margin", "leader_pause_tolerated"}
	spans := [7]span{giveUp, fastFail, blackHole, crash, release, margin, pause}
	fs := make([]Figure, 7)
	for i := range fs {
		fs[i] = figure(metrics[i], docs[i], spans[i])
	}
	return fs
}

// pauseTolerated is the span of the longest pause of the holder after
// which it cannot act beside a successor: the pause starts between one
// renewal and the next, and must end before the earliest takeover.
func pauseTolerated(earliestTakeover, renewal float64) span {
	return uniform(earliestTakeover-renewal, earliestTakeover)
}

// checkNodes returns an error for fewer than 2 or more than 1000
// candidates, as Settings.Validate does.
func checkNodes(n int) error {
	if n < 2 || n > 1000 {
		return fmt.Errorf("nodes %d: want 2 to 1000, a leader and at least one follower", n)
	}
	return nil
}

// firstOf returns the median of the least of k draws of a value whose
// quantile function is q: the quantile 1 − 2^(−1/k) of one draw.
func firstOf(k int, q func(p float64) float64) float64 {
	return q(1 - math.Pow(0.5, 1/float64(k)))
}
