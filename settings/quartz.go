package settings

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Quartz is a job run by Quartz's JDBC job store in a cluster of Nodes
// schedulers (JobStoreSupport, org.quartz.jobStore.isClustered). No node
// leads: each firing is claimed under the TRIGGER_ACCESS row lock by the
// first scheduler to acquire it, and runs there.
//
// Every node checks in by writing its own clock's time to its scheduler
// state row every check-in interval (ClusterManager.run, clusterCheckIn).
// At its check-in each node reads the others' rows and declares a node
// failed when, on the reader's own clock, checkinTimestamp +
// max(checkinInterval, now − its own last check-in) + 7500 ms < now
// (findFailedInstances, calcFailedIfAfter): 15 s after the node's last
// check-in at the defaults, and the skew between the two clocks enters
// whole. It then recovers the failed node (clusterRecover): the node's
// acquired firings go back to waiting, its blocked triggers are freed,
// and a firing it was executing of a job that requestsRecovery gets a
// recovery trigger at the original time, which fires at once elsewhere.
// The failed node is never told: if it was alive, it runs on and only
// logs, at its next check-in, that it "was recovered by another
// instance".
type Quartz struct {
	CheckinInterval  time.Duration // org.quartz.jobStore.clusterCheckinInterval; 7500 ms
	MisfireThreshold time.Duration // org.quartz.jobStore.misfireThreshold; 60000 ms
	// RequestsRecovery is the job's requestsRecovery (JobBuilder
	// requestRecovery; false): a failed node's executing firing of it
	// runs again at once elsewhere.
	RequestsRecovery bool
	// Skew is how far the detecting nodes' clocks run ahead of the
	// holder's (negative: behind): the deployment's, not Quartz's.
	Skew  time.Duration
	Nodes int
}

// Quartz's fixed times (JobStoreSupport).
const (
	// quartzGrace is the 7500 ms calcFailedIfAfter adds to a node's
	// check-in interval before it is failed.
	quartzGrace = 7500 * time.Millisecond
	// quartzRetry is dbRetryInterval's default: ClusterManager.run waits
	// that long after a failed check-in.
	quartzRetry = 15 * time.Second
)

// QuartzDefaults is Quartz's clustered JDBC job store at its defaults,
// with a job that does not request recovery.
func QuartzDefaults() Quartz {
	return Quartz{CheckinInterval: 7500 * time.Millisecond, MisfireThreshold: time.Minute, Nodes: 3}
}

// Title names the job store and its options.
func (q Quartz) Title() string {
	recovery := "a job without requestsRecovery"
	if q.RequestsRecovery {
		recovery = "a job with requestsRecovery"
	}
	skew := ""
	if q.Skew != 0 {
		skew = fmt.Sprintf(", the detectors' clocks %s ahead", dur(q.Skew))
	}
	return fmt.Sprintf("Quartz JDBC job store, clustered: clusterCheckinInterval %s, misfireThreshold %s, %s%s, a failed node never told, %d nodes",
		dur(q.CheckinInterval), dur(q.MisfireThreshold), recovery, skew, q.Nodes)
}

// Protocol is a check-in every interval that the other nodes count on
// their own clocks, read at their own check-ins; the failed node is never
// told.
func (q Quartz) Protocol() Protocol {
	return Protocol{Expiry: ClientExpiry, Notice: Poll, Poll: q.CheckinInterval, Renewal: q.CheckinInterval,
		Expires: q.CheckinInterval + quartzGrace, GiveUp: WorksOn}
}

// Validate refuses what Quartz refuses (a misfireThreshold below 1 ms),
// times that are not whole milliseconds (Quartz's properties are longs of
// milliseconds), a check-in interval of 0 or less (Quartz takes it, and
// checks in every 100 ms), and a skew at which the detectors declare a
// live node failed.
func (q Quartz) Validate() error {
	switch {
	case q.CheckinInterval < time.Millisecond || q.CheckinInterval%time.Millisecond != 0:
		return fmt.Errorf("clusterCheckinInterval %s: want whole milliseconds, at least 1ms", q.CheckinInterval)
	case q.MisfireThreshold < time.Millisecond || q.MisfireThreshold%time.Millisecond != 0:
		return fmt.Errorf("misfireThreshold %s: want whole milliseconds, at least 1ms (setMisfireThreshold refuses less: \"Misfire threshold must be larger than 0\")", q.MisfireThreshold)
	case q.Skew >= quartzGrace:
		return fmt.Errorf("clock skew %s: want less than %s, or the other nodes declare a live node failed (calcFailedIfAfter's 7500 ms grace)", q.Skew, dur(quartzGrace))
	}
	return checkNodes(q.Nodes)
}

// Detected is the earliest time, after the holder's last check-in, at
// which another node's check-in finds it failed: the check-in interval
// and the 7500 ms grace, less the skew. The detectors check in every
// interval, at phases of their own.
func (q Quartz) Detected() time.Duration { return q.CheckinInterval + quartzGrace - q.Skew }

// Figures follow the check-in loops; times are from the holder's last
// check-in.
func (q Quartz) Figures() []Figure {
	interval, detected := q.CheckinInterval.Seconds(), q.Detected().Seconds()
	inf := math.Inf(1)
	// The first detector's check-in after Detected: each detector's phase
	// uniform over an interval, the first of Nodes − 1.
	crash := span{detected, detected + firstOf(q.Nodes-1, func(p float64) float64 { return p * interval }), detected + interval}
	// Calls failing at once: the holder's check-in at one interval fails,
	// and it retries every dbRetryInterval; the last attempt before the
	// earliest detection must find the outage over.
	retries := math.Ceil((detected-interval)/quartzRetry.Seconds()) - 1
	last := interval + retries*quartzRetry.Seconds()
	// Calls hanging: the hung check-in writes the time it was let through,
	// in time if before the earliest detection.
	hung := uniform(detected-interval, detected)
	rerun, marginDoc := "its executing firing is not run again (the job does not request recovery); its acquired triggers are freed, and a @DisallowConcurrentExecution job's blocked triggers, so its next firing may start at once",
		"no bound: the node declared failed is never told, and runs on while its acquired and blocked triggers are handed over (without requestsRecovery its running firing is not run again, but a @DisallowConcurrentExecution job's next firing can start beside it)"
	if q.RequestsRecovery {
		rerun = "its executing firing, whose job requests recovery, gets a recovery trigger at its original time that fires at once (MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY)"
		marginDoc = "no bound: the node declared failed is never told, and its running firing runs again elsewhere at once beside it (requestsRecovery)"
	}
	return lockFigures(exact(inf), uniform(last-interval, last), hung, crash, exact(0), exact(-inf), pauseTolerated(crash.min, interval), [7]string{
		"no give-up: nothing stops a node declared failed; it is never told, and only logs at its next check-in that it was recovered by another instance",
		fmt.Sprintf("the longest outage, its check-ins failing at once (retried every %s), that ends before the holder's last attempt ahead of the earliest detection; by the outage's phase between check-ins, whatever the detectors' phases", dur(quartzRetry)),
		"the same when the check-in hangs: it writes the time it is let through, in time if before the earliest detection",
		fmt.Sprintf("from the crashed node's last check-in to the first of %d other nodes' check-ins that finds checkinTimestamp + interval + 7.5s passed on its own clock; then %s", q.Nodes-1, rerun),
		"nothing is held between firings: each is claimed under the TRIGGER_ACCESS row lock by the first node to acquire it",
		marginDoc,
		"the longest stop-the-world pause of the node running the job after which its work is not handed over beside it, by when between check-ins it starts",
	})
}

// NoMargin: the node declared failed is never told.
func (q Quartz) NoMargin() string {
	if q.RequestsRecovery {
		return fmt.Sprintf("a node declared failed is not stopped and never told: a pause or a partition from the database that lasts past %s after its last check-in (less any lead of the other nodes' clocks over its own) gets it recovered while it runs, and its firing runs again at once on another node beside it", dur(q.Detected()))
	}
	return fmt.Sprintf("a node declared failed is not stopped and never told: a pause or a partition from the database that lasts past %s after its last check-in (less any lead of the other nodes' clocks over its own) frees its acquired and blocked triggers while it runs (its running firing is not run again: the job does not request recovery)", dur(q.Detected()))
}

// Options is Quartz's check-in interval, which the grid varies, and its
// misfire threshold, which it keeps.
func (q Quartz) Options() []Option {
	d := QuartzDefaults()
	return []Option{
		{Key: "cluster_checkin_interval", Library: "org.quartz.jobStore.clusterCheckinInterval", Value: q.CheckinInterval, Default: d.CheckinInterval, Step: time.Millisecond, Tries: scaled(q.CheckinInterval),
			with: func(v time.Duration) Settable { l := q; l.CheckinInterval = v; return l }},
		{Key: "misfire_threshold", Library: "org.quartz.jobStore.misfireThreshold", Value: q.MisfireThreshold, Default: d.MisfireThreshold, Step: time.Millisecond,
			with: func(v time.Duration) Settable { l := q; l.MisfireThreshold = v; return l }},
	}
}

// detectedWait rounds the mean wait, after the earliest detection
// detected, for the first of nodes − 1 detectors whose checks come every
// cadence at phases of their own, cadence / nodes, to the nearest round of
// the tick detected and renewal take (RoundLock.Tick): what the round
// model adds to the detection threshold as its lease, so that its
// takeover after a crash comes at the detectors' mean.
func detectedWait(detected, renewal, cadence time.Duration, nodes int) time.Duration {
	tick := RoundLock{Lease: detected, RetryPeriod: renewal}.Tick()
	wait := cadence / time.Duration(max(nodes, 1))
	return (wait + tick/2) / tick * tick
}

// RoundLease is the round model's lease (docs/model.md, Quartz and
// db-scheduler): the earliest detection and the mean wait for the first
// of the other nodes' check-ins after it, interval / nodes, rounded to
// the round.
func (q Quartz) RoundLease() time.Duration {
	return q.Detected() + detectedWait(q.Detected(), q.CheckinInterval, q.CheckinInterval, q.Nodes)
}

// quartzRow is Quartz's clustered job store as a row of LockRows: protocol
// quartz, its lease RoundLease, its retry period the check-in interval.
// requestsRecovery is the model's on_cut rerun, which the row leaves to
// --on-cut.
func quartzRow() LockRow {
	return LockRow{
		Preset: "quartz", Defaults: QuartzDefaults(), WithNodes: withNodes(func(q *Quartz) *int { return &q.Nodes }),
		Flags: []LockFlag{
			{Name: "cluster-checkin-interval", Type: "duration",
				Usage:         "with --preset quartz: org.quartz.jobStore.clusterCheckinInterval (default 7.5s), the model's retry period; the lease is when the other nodes take over: interval + 7.5s (calcFailedIfAfter) and the mean wait for the first of their check-ins, interval/nodes",
				SettingsUsage: "quartz: org.quartz.jobStore.clusterCheckinInterval (default 7.5s)",
				Set:           durationField(func(q *Quartz) *time.Duration { return &q.CheckinInterval })},
			{Name: "misfire-threshold", Type: "duration", SettingsUsage: "quartz: org.quartz.jobStore.misfireThreshold (default 1m0s)",
				Refusal: "misfireThreshold decides when Quartz fires a late trigger once, which the round model takes from --scheduler quartz (catch_up_once), not from the threshold (leasesim settings gives its figures)",
				Set:     durationField(func(q *Quartz) *time.Duration { return &q.MisfireThreshold })},
			{Name: "requests-recovery", Type: "bool", SettingsUsage: "quartz: the job's requestsRecovery (default false): a failed node's running firing runs again at once elsewhere",
				Refusal: "the round model takes a job's requestsRecovery as --on-cut rerun (none: a job that does not request recovery, Quartz's default)",
				Set: setField(func(q *Quartz, s string) error {
					v, err := strconv.ParseBool(s)
					if err != nil {
						return fmt.Errorf("want true or false")
					}
					q.RequestsRecovery = v
					return nil
				})},
		},
		Round: func(l Lock, r *RoundLock) bool {
			q, ok := l.(Quartz)
			if ok {
				r.Protocol, r.Lease = model.ProtocolQuartz, q.RoundLease()
			}
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolQuartz},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			q := QuartzDefaults() // the lease is no option of Quartz's: the interval, requestsRecovery and the nodes say it
			q.CheckinInterval, q.Nodes, q.RequestsRecovery = d(c.RetryPeriod), nodes, c.OnCut == model.CutRerun
			return q
		},
	}
}
