package settings

import (
	"fmt"
	"math"
	"time"

	"github.com/leasesim/leasesim/model"
)

// DBScheduler is a recurring task run by db-scheduler among Nodes
// schedulers sharing its table. No node leads: an execution is picked by
// the first scheduler whose poll finds it due (JdbcTaskRepository.pick,
// conditioned on the row's version), and runs there.
//
// While it runs, its scheduler writes its own clock's time to the row's
// last_heartbeat every heartbeat interval (Scheduler.updateHeartbeats).
// Every scheduler looks for dead executions every two heartbeat intervals
// (Scheduler.detectDeadExecutions): one whose last_heartbeat is at or
// before its own clock's now less heartbeat interval × missed heartbeats
// limit (30 min at the defaults) is dead, and a RecurringTask's
// ReviveDeadExecution reschedules it to now, so the next poll of any
// scheduler picks it and runs it again. The old executor is never told:
// its heartbeats, conditioned on the version the revival moved on, fail
// with a warning, and it runs on. Its schedule's next time is counted from
// when a run is done (CronSchedule.getNextExecutionTime), so missed slots
// give one late run.
type DBScheduler struct {
	HeartbeatInterval time.Duration // SchedulerBuilder.heartbeatInterval; DEFAULT_HEARTBEAT_INTERVAL 5 min
	// MissedHeartbeatsLimit is SchedulerBuilder.missedHeartbeatsLimit;
	// DEFAULT_MISSED_HEARTBEATS_LIMIT 6, at least 4.
	MissedHeartbeatsLimit int
	PollingInterval       time.Duration // SchedulerBuilder.pollingInterval; DEFAULT_POLLING_INTERVAL 10 s
	// Skew is how far the checking schedulers' clocks run ahead of the
	// executor's (negative: behind): the deployment's, not db-scheduler's.
	Skew  time.Duration
	Nodes int
}

// dbSchedulerMinLimit is the least missedHeartbeatsLimit SchedulerBuilder
// takes.
const dbSchedulerMinLimit = 4

// DBSchedulerDefaults is db-scheduler's defaults.
func DBSchedulerDefaults() DBScheduler {
	return DBScheduler{HeartbeatInterval: 5 * time.Minute, MissedHeartbeatsLimit: 6, PollingInterval: 10 * time.Second, Nodes: 3}
}

// Title names the scheduler and its options.
func (d DBScheduler) Title() string {
	skew := ""
	if d.Skew != 0 {
		skew = fmt.Sprintf(", the checkers' clocks %s ahead", dur(d.Skew))
	}
	return fmt.Sprintf("db-scheduler: heartbeat interval %s, missed heartbeats limit %d (dead after %s), polling interval %s, ReviveDeadExecution%s, the old executor never told, %d nodes",
		dur(d.HeartbeatInterval), d.MissedHeartbeatsLimit, dur(d.Dead()), dur(d.PollingInterval), skew, d.Nodes)
}

// Dead is the age of last_heartbeat at which an execution is dead:
// heartbeat interval × missed heartbeats limit
// (Scheduler.getMaxAgeBeforeConsideredDead).
func (d DBScheduler) Dead() time.Duration {
	return d.HeartbeatInterval * time.Duration(d.MissedHeartbeatsLimit)
}

// Detected is the earliest time, after the executor's last heartbeat, at
// which a checker finds the execution dead: Dead less the skew. The
// checkers look every two heartbeat intervals, at phases of their own.
func (d DBScheduler) Detected() time.Duration { return d.Dead() - d.Skew }

// Protocol is a heartbeat that the checkers count on their own clocks,
// read every two heartbeat intervals; the old executor is never told.
func (d DBScheduler) Protocol() Protocol {
	return Protocol{Expiry: ClientExpiry, Notice: Poll, Poll: 2 * d.HeartbeatInterval, Renewal: d.HeartbeatInterval,
		Expires: d.Dead(), GiveUp: WorksOn}
}

// Validate refuses what db-scheduler refuses (a missed heartbeats limit
// below 4; a heartbeat or polling interval the executors' fixed delays do
// not take), and a skew at which the checkers find a live execution dead.
func (d DBScheduler) Validate() error {
	switch {
	case d.MissedHeartbeatsLimit < dbSchedulerMinLimit:
		return fmt.Errorf("missed heartbeats limit %d: want at least %d (SchedulerBuilder.missedHeartbeatsLimit: \"Heartbeat-limit must be at least 4\")", d.MissedHeartbeatsLimit, dbSchedulerMinLimit)
	case d.HeartbeatInterval < time.Millisecond || d.HeartbeatInterval%time.Millisecond != 0:
		return fmt.Errorf("heartbeat interval %s: want whole milliseconds, at least 1ms (scheduleWithFixedDelay takes a positive delay in milliseconds)", d.HeartbeatInterval)
	case d.PollingInterval < time.Millisecond || d.PollingInterval%time.Millisecond != 0:
		return fmt.Errorf("polling interval %s: want whole milliseconds, at least 1ms", d.PollingInterval)
	case d.Skew >= d.Dead()-d.HeartbeatInterval:
		return fmt.Errorf("clock skew %s: want less than %s, (missed heartbeats limit − 1) × heartbeat interval, or the checkers find a live execution dead", d.Skew, dur(d.Dead()-d.HeartbeatInterval))
	}
	return checkNodes(d.Nodes)
}

// Figures follow the heartbeat, dead-execution and polling loops; times
// are from the executor's last heartbeat.
func (d DBScheduler) Figures() []Figure {
	hb, poll, detected := d.HeartbeatInterval.Seconds(), d.PollingInterval.Seconds(), d.Detected().Seconds()
	others := d.Nodes - 1
	inf := math.Inf(1)
	// The first of the others' dead checks at or after Detected (each
	// every 2 heartbeats, at a phase of its own), then the first of their
	// polls after the revival.
	crash := span{detected, detected + firstSumMedian(others, 2*hb, poll), detected + 2*hb + poll}
	// Calls failing at once: heartbeats every interval after the last; the
	// last before the earliest detection must find the outage over.
	last := (math.Ceil(detected/hb) - 1) * hb
	// Calls hanging: the hung heartbeat lands as the outage ends, in time
	// if before the earliest detection.
	hung := uniform(detected-hb, detected)
	pickedAt := span{0, firstOf(others, func(p float64) float64 { return p * poll }), poll}
	return lockFigures(exact(inf), uniform(last-hb, last), hung, crash, pickedAt, exact(-inf), pauseTolerated(crash.min, hb), [7]string{
		"no give-up: the old executor is never told; its heartbeats, conditioned on the version the revival moved on, fail with a warning, and its task runs on",
		"the longest outage, its heartbeats failing at once, that ends before the executor's last heartbeat ahead of the earliest detection; by the outage's phase between heartbeats, whatever the checkers' phases",
		"the same when the heartbeat hangs: it lands as the outage ends, in time if before the earliest detection",
		fmt.Sprintf("from the crashed executor's last heartbeat: the first of %d other schedulers' dead checks (every %s) that finds last_heartbeat %s old on its own clock revives the execution to now, and the first of their polls (every %s) picks it", others, dur(2*d.HeartbeatInterval), dur(d.Dead()), dur(d.PollingInterval)),
		fmt.Sprintf("a run that is done reschedules its execution; a due execution is picked at the first of %d other schedulers' polls", others),
		"no bound: the old executor is never told, and runs its task beside the revived execution",
		"the longest stop-the-world pause of the executor after which its execution is not revived beside it, by when between heartbeats it starts",
	})
}

// NoMargin: the old executor is never told.
func (d DBScheduler) NoMargin() string {
	return fmt.Sprintf("the old executor is not stopped and never told: a pause or a partition from the database that lasts past %s after its last heartbeat (less any lead of the checkers' clocks over its own) gets its execution revived and run again by another scheduler while it runs", dur(d.Detected()))
}

// Options is db-scheduler's heartbeat interval, which the grid varies, and
// its polling interval, which it keeps; the missed heartbeats limit, a
// count, is not a time.
func (d DBScheduler) Options() []Option {
	def := DBSchedulerDefaults()
	return []Option{
		{Key: "heartbeat_interval", Library: "SchedulerBuilder.heartbeatInterval", Value: d.HeartbeatInterval, Default: def.HeartbeatInterval, Step: time.Millisecond, Tries: scaled(d.HeartbeatInterval),
			with: func(v time.Duration) Settable { l := d; l.HeartbeatInterval = v; return l }},
		{Key: "polling_interval", Library: "SchedulerBuilder.pollingInterval", Value: d.PollingInterval, Default: def.PollingInterval, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := d; l.PollingInterval = v; return l }},
	}
}

// firstSumMedian is the median of X + Y, X the least of k draws uniform
// over 0 … a and Y the least of k draws uniform over 0 … b, independent:
// the t at which P(X + Y ≤ t) = ∫ f_Y(y) F_X(t − y) dy over 0 … b is ½,
// by bisection, the integral by Simpson's rule.
func firstSumMedian(k int, a, b float64) float64 {
	kf := float64(k)
	fX := func(x float64) float64 { return 1 - math.Pow(1-min(max(x/a, 0), 1), kf) }
	fY := func(y float64) float64 { return kf / b * math.Pow(1-y/b, kf-1) }
	cdf := func(t float64) float64 {
		const n = 2000 // even
		h := b / n
		sum := fY(0)*fX(t) + fY(b)*fX(t-b)
		for i := 1; i < n; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			y := float64(i) * h
			sum += w * fY(y) * fX(t-y)
		}
		return sum * h / 3
	}
	lo, hi := 0.0, a+b
	for range 60 {
		mid := (lo + hi) / 2
		if cdf(mid) < 0.5 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// RoundLease is the round model's lease (docs/model.md, Quartz and
// db-scheduler): the earliest detection and the mean wait for the first
// of the other schedulers' dead checks, every two heartbeat intervals,
// and their polls, (2 × heartbeat + polling) / nodes, rounded to the
// round.
func (d DBScheduler) RoundLease() time.Duration {
	return d.Detected() + detectedWait(d.Detected(), d.HeartbeatInterval, 2*d.HeartbeatInterval+d.PollingInterval, d.Nodes)
}

// dbSchedulerRow is db-scheduler as a row of LockRows: protocol
// db-scheduler, its lease RoundLease, its retry period the heartbeat
// interval, its on_cut rerun: ReviveDeadExecution, its default
// dead-execution handler (--on-cut none is CancelDeadExecution).
func dbSchedulerRow() LockRow {
	return LockRow{
		Preset: "db-scheduler", Defaults: DBSchedulerDefaults(), WithNodes: withNodes(func(d *DBScheduler) *int { return &d.Nodes }),
		Flags: []LockFlag{
			{Name: "heartbeat-interval", Type: "duration",
				Usage:         "with --preset db-scheduler: SchedulerBuilder.heartbeatInterval (default 5m0s), the model's retry period; the lease is when another scheduler takes over: interval × missed heartbeats limit and the mean wait for the first of the others' dead checks (every 2 intervals) and polls, (2 × interval + polling interval)/nodes",
				SettingsUsage: "db-scheduler: SchedulerBuilder.heartbeatInterval (default 5m0s)",
				Set:           durationField(func(d *DBScheduler) *time.Duration { return &d.HeartbeatInterval })},
			{Name: "missed-heartbeats-limit", Type: "int",
				Usage:         "with --preset db-scheduler: SchedulerBuilder.missedHeartbeatsLimit (default 6, at least 4): an execution is dead after heartbeat interval × limit",
				SettingsUsage: "db-scheduler: SchedulerBuilder.missedHeartbeatsLimit (default 6, at least 4)",
				Set:           countField(func(d *DBScheduler) *int { return &d.MissedHeartbeatsLimit })},
			{Name: "polling-interval", Type: "duration",
				Usage:         "with --preset db-scheduler: SchedulerBuilder.pollingInterval (default 10s), in the lease's mean wait",
				SettingsUsage: "db-scheduler: SchedulerBuilder.pollingInterval (default 10s)",
				Set:           durationField(func(d *DBScheduler) *time.Duration { return &d.PollingInterval })},
		},
		Round: func(l Lock, r *RoundLock) bool {
			d, ok := l.(DBScheduler)
			if ok {
				r.Protocol, r.Lease, r.OnCut = model.ProtocolDBScheduler, d.RoundLease(), model.CutRerun
			}
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolDBScheduler},
		FromConfig: func(c model.Config, dur func(int) time.Duration, nodes int) Lock {
			d := DBSchedulerDefaults() // the missed heartbeats limit the lease holds beside the mean wait, at the default polling interval
			d.HeartbeatInterval, d.Nodes = dur(c.RetryPeriod), nodes
			wait := d.RoundLease() - d.Detected()
			d.MissedHeartbeatsLimit = max(dbSchedulerMinLimit, int(math.Round(float64(dur(c.Lease)-wait)/float64(d.HeartbeatInterval))))
			return d
		},
	}
}
