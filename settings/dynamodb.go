package settings

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/leasesim/leasesim/model"
)

// DynamoDB is leader election by the AWS DynamoDB lock client
// (AmazonDynamoDBLockClient) among Nodes candidates. DynamoDB expires
// nothing: the lock is a record with a lease duration and a record version
// number (RVN) that every heartbeat changes.
//
// The holder's background thread heartbeats every heartbeat period
// (run, sleeping the period less the time the heartbeats took); its lock
// item expires a lease after the start of its last successful heartbeat
// (sendHeartbeat, lastUpdateOfLock; LockItem.isExpired), which the holder
// must check before it acts. A waiter in acquireLock reads the record
// every refresh period; it takes the lock once it has seen the same RVN
// for more than the record's lease on its own clock, counted from the read
// that first showed it (createLockItem, lookupTime); an acquireLock call
// gives up after the lease plus additionalTimeToWaitForLock (1 s,
// DEFAULT_BUFFER_MS, if not given), and the observation restarts with the
// application's next call. A released lock is taken at the next read.
type DynamoDB struct {
	LeaseDuration   time.Duration // AmazonDynamoDBLockClientOptions leaseDuration; DEFAULT_LEASE_DURATION 20 s
	HeartbeatPeriod time.Duration // heartbeatPeriod; DEFAULT_HEARTBEAT_PERIOD 5 s
	RefreshPeriod   time.Duration // AcquireLockOptions refreshPeriod; DEFAULT_BUFFER_MS 1 s
	AdditionalWait  time.Duration // AcquireLockOptions additionalTimeToWaitForLock; DEFAULT_BUFFER_MS 1 s
	// HoldOnUnavailable is holdLockOnServiceUnavailable: a heartbeat that
	// DynamoDB answers 503 extends the holder's own lease.
	HoldOnUnavailable bool
	Nodes             int
}

// DynamoDBDefaults is the lock client's defaults.
func DynamoDBDefaults() DynamoDB {
	return DynamoDB{LeaseDuration: 20 * time.Second, HeartbeatPeriod: 5 * time.Second, RefreshPeriod: time.Second, AdditionalWait: time.Second, Nodes: 3}
}

// Title names the client and its options.
func (d DynamoDB) Title() string {
	hold := ""
	if d.HoldOnUnavailable {
		hold = ", holdLockOnServiceUnavailable"
	}
	return fmt.Sprintf("DynamoDB lock client: lease %s, heartbeat period %s, refresh period %s, additional time to wait %s%s, %d nodes",
		dur(d.LeaseDuration), dur(d.HeartbeatPeriod), dur(d.RefreshPeriod), dur(d.AdditionalWait), hold, d.Nodes)
}

// Protocol is a client-side lease, polled, with the version-observation
// wait.
func (d DynamoDB) Protocol() Protocol {
	return Protocol{Expiry: ClientExpiry, Notice: Poll, Poll: d.RefreshPeriod, Renewal: d.HeartbeatPeriod, Expires: d.LeaseDuration,
		Observation: d.LeaseDuration, Call: d.LeaseDuration + d.AdditionalWait, GiveUp: OwnDeadline, GiveUpAfter: d.LeaseDuration}
}

// reads is the number of reads after the first that one acquireLock call
// makes: it reads every refresh period and gives up, after a read, once
// more than lease + additional wait has passed since it began. Reads take
// a little time, so the read due at ⌈(lease + wait)/refresh⌉ periods is
// the first past it, and the last.
func (d DynamoDB) reads() int64 {
	w, r := d.LeaseDuration+d.AdditionalWait, d.RefreshPeriod
	return int64((w + r - 1) / r)
}

// unchanged is how many refresh periods after the read that first showed
// an RVN a read must come to find more than the lease passed since:
// ⌈lease/refresh⌉, reads taking a little time. A call always makes that
// many, its wait being the lease and more.
func (d DynamoDB) unchanged() int64 {
	return int64((d.LeaseDuration + d.RefreshPeriod - 1) / d.RefreshPeriod)
}

// Validate refuses a heartbeat that does not come before the lease runs
// out.
func (d DynamoDB) Validate() error {
	switch {
	case d.LeaseDuration < time.Millisecond || d.HeartbeatPeriod < time.Millisecond || d.RefreshPeriod < time.Millisecond:
		return fmt.Errorf("lease %s, heartbeat period %s, refresh period %s: want each at least 1ms", d.LeaseDuration, d.HeartbeatPeriod, d.RefreshPeriod)
	case d.HeartbeatPeriod >= d.LeaseDuration:
		return fmt.Errorf("heartbeat period %s: want it shorter than the lease %s, or the lock expires between heartbeats", d.HeartbeatPeriod, d.LeaseDuration)
	case d.AdditionalWait < 0:
		return fmt.Errorf("additional time to wait %s: want 0s or more", d.AdditionalWait)
	}
	return checkNodes(d.Nodes)
}

// crashQuantile is the quantile function of one waiter's takeover after
// the holder's last heartbeat, over the phase of the waiter's acquire
// calls. With N = reads() and m = unchanged() in refresh periods R: a
// heartbeat falling in the call's k-th period is first seen at read k+1;
// if k+1+m ≤ N the same call takes the lock m periods later, 1 to 0
// periods more than mR after the heartbeat; otherwise the next call, from
// its first read, does, at mR plus N−k to N−k−1 periods. So the takeover
// is mR + R·Y with Y uniform on (0, 1] with weight (N−m+1)/N and uniform
// on each (j−1, j], j = 2 … m, with weight 1/N.
func (d DynamoDB) crashQuantile(p float64) float64 {
	n, m, r := float64(d.reads()), float64(d.unchanged()), d.RefreshPeriod.Seconds()
	first := (n - m + 1) / n
	y := p * n / (n - m + 1)
	if p > first {
		y = 1 + (p-first)*n
	}
	return (m + y) * r
}

// Figures follow the heartbeat thread and acquireLock; times are from the
// start of the holder's last successful heartbeat.
func (d DynamoDB) Figures() []Figure {
	lease, hb, r := d.LeaseDuration.Seconds(), d.HeartbeatPeriod.Seconds(), d.RefreshPeriod.Seconds()
	followers := d.Nodes - 1
	// Heartbeats after the last success at hb, 2hb, …; one due at the
	// lease or later finds the item expired (isExpired: elapsed > lease,
	// and the thread wakes a little late), so the last is the greatest
	// k·hb < lease.
	last := math.Ceil(lease/hb-1) * hb
	crash := span{d.crashQuantile(0), firstOf(followers, d.crashQuantile), d.crashQuantile(1)}
	giveUp, fastFail, margin := exact(lease), uniform(last-hb, last), exact(crash.min-lease)
	unavailable := "it gives up once that lease has passed, as it must check isExpired() before it acts"
	fastDoc := "the longest outage, its heartbeats failing at once, that ends before the last heartbeat due within the lease; by the outage's phase between heartbeats"
	marginDoc := "from the holder's give-up to the earliest takeover, both counted on clocks of their own"
	if d.HoldOnUnavailable {
		inf := math.Inf(1)
		giveUp, fastFail, margin = exact(inf), exact(inf), exact(-inf)
		unavailable = "but with holdLockOnServiceUnavailable a heartbeat DynamoDB answers 503 extends the holder's lease, so through a 503 outage it never gives up"
		fastDoc = "no bound: with holdLockOnServiceUnavailable the holder keeps its lock through any outage in which DynamoDB answers its heartbeats 503 (other failures end it as without the option)"
		marginDoc = "no bound: a holder kept by holdLockOnServiceUnavailable leads beside the waiter that took the lock after the lease"
	}
	return lockFigures(giveUp, fastFail, uniform(lease-hb, lease), crash,
		span{0, firstOf(followers, func(p float64) float64 { return p * r }), r}, margin, pauseTolerated(crash.min, hb), [7]string{
			"the holder's lock item expires the lease after the start of its last successful heartbeat; " + unavailable,
			fastDoc,
			"the same when the heartbeat hangs: it lands when the outage ends, in time if within the lease",
			fmt.Sprintf("from the crashed holder's last heartbeat to the first of %d waiters, each in acquireLock calls of %s reading every %s, seeing the same record version for more than the lease", followers, dur(d.LeaseDuration+d.AdditionalWait), dur(d.RefreshPeriod)),
			fmt.Sprintf("releaseLock marks the record released (or deletes it) and the first of %d waiters takes it at its next read", followers),
			marginDoc,
			"the longest stop-the-world pause of the holder, right after it checked isExpired(), after which it cannot act beside its successor, by when between heartbeats it starts",
		})
}

// NoMargin: the waiters' count starts as the holder's lease does, at
// worst; holdLockOnServiceUnavailable keeps a holder the waiters no
// longer see.
func (d DynamoDB) NoMargin() string {
	if d.HoldOnUnavailable {
		return "with holdLockOnServiceUnavailable a holder whose heartbeats DynamoDB answers 503 keeps its lock on its own clock, while a waiter whose reads succeed takes the lock after the lease: two holders, by design"
	}
	return "a waiter counts the lease from its first read after the last heartbeat, which at the worst phase comes as the heartbeat lands, so the first waiter can take the lock as the holder's lease runs out: a holder whose clock runs slow, or that pauses after isExpired(), leads beside it (a lease that is not a whole number of refresh periods leaves the remainder as margin)"
}

// dynamoDBRow is the DynamoDB lock client's row of LockRows.
func dynamoDBRow() LockRow {
	return LockRow{
		Preset: "dynamodb", Defaults: DynamoDBDefaults(), WithNodes: withNodes(func(d *DynamoDB) *int { return &d.Nodes }),
		Flags: []LockFlag{
			{Name: "lease", Type: "duration", Model: true, OneValue: "the DynamoDB lock client's leaseDuration under --preset dynamodb takes one value",
				Usage: "; with --preset dynamodb, the lock client's leaseDuration (20s by default), a whole number of --refresh-period",
				Set:   durationField(func(d *DynamoDB) *time.Duration { return &d.LeaseDuration })}, // settings has it as client-go's
			{Name: "heartbeat-period", Type: "duration",
				Usage:         "with --preset dynamodb: the lock client's heartbeatPeriod (default 5s), the model's retry period; a whole number of --refresh-period",
				SettingsUsage: "dynamodb's heartbeatPeriod",
				Set:           durationField(func(d *DynamoDB) *time.Duration { return &d.HeartbeatPeriod })},
			{Name: "refresh-period", Type: "duration",
				Usage:         "with --preset dynamodb: acquireLock's refreshPeriod (default 1s), between a waiter's reads: the round, so the tick",
				SettingsUsage: "dynamodb: acquireLock's refreshPeriod, between a waiter's reads",
				Set:           durationField(func(d *DynamoDB) *time.Duration { return &d.RefreshPeriod })},
			{Name: "additional-time-to-wait", Type: "duration",
				Usage:         "with --preset dynamodb: acquireLock's additionalTimeToWaitForLock (default 1s), the model's acquire wait; a whole number of --refresh-period",
				SettingsUsage: "dynamodb: acquireLock's additionalTimeToWaitForLock, an acquire call lasting the lease and this",
				Set:           nonNegativeField(func(d *DynamoDB) *time.Duration { return &d.AdditionalWait })},
			{Name: HoldOption, Type: "bool", Refusal: HoldRefusal,
				SettingsUsage: "dynamodb's holdLockOnServiceUnavailable",
				Set: setField(func(d *DynamoDB, s string) error {
					v, err := strconv.ParseBool(s)
					d.HoldOnUnavailable = v
					return err
				})},
		},
		Notes: []FlagNote{{"acquire-wait", "; refused with --preset dynamodb, which takes it as --additional-time-to-wait"}},
		Round: func(l Lock, r *RoundLock) bool {
			d, ok := l.(DynamoDB)
			r.Protocol, r.AcquireWait, r.Refresh = model.ProtocolDynamoDB, d.AdditionalWait, d.RefreshPeriod
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolDynamoDB},
		// The refresh period is the round.
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return DynamoDB{LeaseDuration: d(c.Lease), HeartbeatPeriod: d(c.RetryPeriod), RefreshPeriod: d(1), AdditionalWait: d(c.AcquireWait), Nodes: nodes}
		},
		RoundCheck: func(l Lock, flag func(string) string) error { return l.(DynamoDB).RoundError(flag) },
	}
}
