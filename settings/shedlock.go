package settings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
)

// ShedLock is a Spring @Scheduled task guarded by ShedLock's
// @SchedulerLock on Nodes nodes. It is no leader election: each node's
// own scheduler fires the task at its own time, and at each fire the
// node tries to take the lock (the JDBC provider's UPDATE … WHERE
// lock_until <= now, SqlStatementsSource.getUpdateStatement); the first
// runs the task, the others skip that fire
// (DefaultLockingTaskExecutor.executeWithLock: onLockNotAcquired,
// TaskResult.notExecuted). lockAtMostFor is the lock's only expiry: no
// call renews it, and the task is never stopped. At the task's end the
// lock is held until max(now, lockedAt + lockAtLeastFor)
// (LockConfiguration.getUnlockTime, in the unlock statement). With
// KeepAliveLockProvider the lock is extended every lockAtMostFor/2 for
// another lockAtMostFor; it refuses a lockAtMostFor under 30 s and stops
// extending, with a warning only, at the first failed extension
// (KeepAliveLockProvider.lock, KeepAliveLock.extendForNextPeriod).
//
// FireSpread and Task are the deployment's, not ShedLock's: how far
// apart the nodes' fires of one slot fall (their clocks' skew and their
// schedulers' delay), and how long the task runs.
type ShedLock struct {
	LockAtMostFor  time.Duration // @SchedulerLock lockAtMostFor; required (EnableSchedulerLock.defaultLockAtMostFor has no default): the preset takes the README's 10m
	LockAtLeastFor time.Duration // lockAtLeastFor; EnableSchedulerLock.defaultLockAtLeastFor PT0S
	KeepAlive      bool          // the provider is wrapped in KeepAliveLockProvider
	// UsingDbTime: the JDBC provider's usingDbTime(), the database's clock
	// decides whether the lock has ended; otherwise each node compares
	// lock_until, written on the holder's clock, with its own.
	UsingDbTime bool
	FireSpread  time.Duration // from the first node's fire of a slot to the last's: clock skew and scheduler delay
	Task        time.Duration // how long the task runs
	Nodes       int
	// ReleasesAny: the Redis or Mongo provider, whose unlock frees the
	// lock whoever holds it (the JDBC provider's checks locked_by).
	ReleasesAny bool
}

// The --provider values: the JDBC provider, and the Redis and Mongo ones
// (ShedLock.ReleasesAny).
const (
	providerJDBC  = "jdbc"
	providerRedis = "redis"
)

// shedlockRow is ShedLock as a row: a per-fire lock, its preset's
// lockAtMostFor the model's lease, lockAtLeastFor, the fire spread and
// usingDbTime the model's own flags, the provider its protocol (shedlock
// for JDBC, shedlock-redis for Redis and Mongo, the key expiring on
// Redis's clock); keep-alive and the task's length are settings' alone
// (the round model runs ShedLock without KeepAliveLockProvider and takes
// the task's length as --batch-len).
func shedlockRow() LockRow {
	boolField := func(field func(s *ShedLock) *bool) func(Lock, string) (Lock, error) {
		return setField(func(s *ShedLock, text string) error {
			v, err := strconv.ParseBool(text)
			*field(s) = v
			return err
		})
	}
	return LockRow{
		Preset: "shedlock", Defaults: ShedLockDefaults(), WithNodes: withNodes(func(s *ShedLock) *int { return &s.Nodes }),
		Flags: []LockFlag{
			{Name: "lock-at-most-for", Type: "duration",
				Usage:         "with --preset shedlock: ShedLock's lockAtMostFor (the preset's 10m, the README's example), the model's lease",
				SettingsUsage: "shedlock's lockAtMostFor (required in ShedLock; the preset takes the README's 10m)",
				Set:           durationField(func(s *ShedLock) *time.Duration { return &s.LockAtMostFor })},
			{Name: "lock-at-least-for", Type: "duration", Model: true, OneValue: "ShedLock's lockAtLeastFor under --preset shedlock takes one value",
				Usage:         "; with --preset shedlock, ShedLock's lockAtLeastFor (default 0s), read as a duration",
				SettingsUsage: "shedlock's lockAtLeastFor (default 0s)",
				Set:           nonNegativeField(func(s *ShedLock) *time.Duration { return &s.LockAtLeastFor })},
			{Name: "fire-spread", Type: "duration", Model: true, OneValue: "the fire spread under --preset shedlock takes one value",
				Usage:         "; with --preset shedlock, the deployment's fire spread (default 1s), read as a duration",
				SettingsUsage: "shedlock: the deployment's spread of one slot's fires over the nodes, clock skew and scheduler delay (default 1s)",
				Set:           nonNegativeField(func(s *ShedLock) *time.Duration { return &s.FireSpread })},
			{Name: "provider", Type: "provider",
				Usage:         "with --preset shedlock: ShedLock's lock provider, jdbc (default: a run's end frees the lock only if it is still its node's; protocol shedlock) or redis (Redis and Mongo: whoever holds it; protocol shedlock-redis)",
				SettingsUsage: "shedlock's lock provider: jdbc (default; its unlock checks locked_by) or redis (Redis and Mongo: an unlock frees the lock whoever holds it)",
				Set: setField(func(s *ShedLock, text string) error {
					switch text {
					case providerJDBC, providerRedis:
						s.ReleasesAny = text == providerRedis
						return nil
					}
					return fmt.Errorf("want %s or %s", providerJDBC, providerRedis)
				})},
			{Name: "keep-alive", Type: "bool", Refusal: "the round model runs ShedLock without KeepAliveLockProvider: leasesim settings --preset shedlock --keep-alive gives its figures",
				SettingsUsage: "shedlock: the provider wrapped in KeepAliveLockProvider",
				Set:           boolField(func(s *ShedLock) *bool { return &s.KeepAlive })},
			{Name: "using-db-time", Type: "bool", Model: true, OneValue: "ShedLock's usingDbTime() under --preset shedlock takes one value",
				Usage:         "; with --preset shedlock, ShedLock's usingDbTime() (the preset's: true; false with --provider redis, whose key expires on Redis's clock)",
				SettingsUsage: "shedlock: the JDBC provider's usingDbTime(), the database's clock deciding (the preset's: true); false: the nodes' clocks",
				Set:           boolField(func(s *ShedLock) *bool { return &s.UsingDbTime })},
			{Name: "task-length", Type: "duration", Refusal: "the round model takes the task's length as --batch-len",
				SettingsUsage: "shedlock: how long the task runs (default 1m)",
				Set:           durationField(func(s *ShedLock) *time.Duration { return &s.Task })},
		},
		Round: func(l Lock, r *RoundLock) bool {
			s, ok := l.(ShedLock)
			r.Protocol, r.RetryPeriod, r.LockAtLeastFor, r.FireSpread, r.UsingDbTime = model.ProtocolShedLock, r.Lease, s.LockAtLeastFor, s.FireSpread, s.UsingDbTime
			if s.ReleasesAny { // Redis's key expires on Redis's clock: no option to choose one
				r.Protocol, r.UsingDbTime = model.ProtocolShedLockRedis, false
			}
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolShedLock, model.ProtocolShedLockRedis},
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			return ShedLock{LockAtMostFor: d(c.Lease), LockAtLeastFor: d(c.LockAtLeastFor), UsingDbTime: c.UsingDbTime || c.Protocol == model.ProtocolShedLockRedis, FireSpread: d(c.FireSpread), Task: d(c.BatchLen), Nodes: nodes,
				ReleasesAny: c.Protocol == model.ProtocolShedLockRedis}
		},
	}
}

// keepAliveLeast is the shortest lockAtMostFor KeepAliveLockProvider
// takes (its constructor's minimalLockAtMostFor).
const keepAliveLeast = 30 * time.Second

// ShedLockDefaults is the preset: ShedLock's defaults, the README's
// @EnableSchedulerLock(defaultLockAtMostFor = "10m") for the required
// lockAtMostFor, usingDbTime() as the README strongly recommends, a fire
// spread of 1 s (a cron fire lands within its second on NTP-synced
// nodes, the scheduler's delay coming on top: 0 would hide the double
// run lockAtLeastFor is there for), a task of 1 min, 3 nodes.
func ShedLockDefaults() ShedLock {
	return ShedLock{LockAtMostFor: 10 * time.Minute, UsingDbTime: true, FireSpread: time.Second, Task: time.Minute, Nodes: 3}
}

// Title names ShedLock's options and the deployment's.
func (s ShedLock) Title() string {
	var opts []string
	if s.KeepAlive {
		opts = append(opts, "KeepAliveLockProvider")
	}
	if s.UsingDbTime {
		opts = append(opts, "usingDbTime()")
	} else {
		opts = append(opts, "the nodes' clocks")
	}
	if s.ReleasesAny {
		opts = append(opts, "the Redis or Mongo provider")
	}
	return fmt.Sprintf("ShedLock: lockAtMostFor %s, lockAtLeastFor %s, %s; fires of a slot spread over %s, a task of %s, %d nodes",
		dur(s.LockAtMostFor), dur(s.LockAtLeastFor), strings.Join(opts, ", "), dur(s.FireSpread), dur(s.Task), s.Nodes)
}

// Protocol is a lock taken at each fire and ended by lockAtMostFor, on
// the database's clock (usingDbTime) or the nodes'; with keep-alive it is
// extended every lockAtMostFor/2.
func (s ShedLock) Protocol() Protocol {
	p := Protocol{Expiry: ServerExpiry, Notice: Poll, Expires: s.LockAtMostFor, PerFire: true}
	if !s.UsingDbTime {
		p.Expiry = ClientExpiry
	}
	if s.KeepAlive {
		p.Renewal = s.LockAtMostFor / 2
	}
	return p
}

// perFireString is a per-fire lock's protocol in one line (Protocol.String).
func perFireString(p Protocol) string {
	var b strings.Builder
	b.WriteString("no leader: each node's scheduler fires the task, the first to take the lock runs it and the others skip that fire")
	if p.Expiry == ServerExpiry {
		fmt.Fprintf(&b, "; the lock ends %s after it was taken, on the database's clock", dur(p.Expires))
	} else {
		fmt.Fprintf(&b, "; the lock ends %s after it was taken, each node comparing on its own clock", dur(p.Expires))
	}
	if p.Renewal > 0 {
		fmt.Fprintf(&b, "; extended every %s while extensions succeed", dur(p.Renewal))
	} else {
		b.WriteString("; never renewed")
	}
	b.WriteString("; the task runs to its end, holding the lock until lockAtLeastFor after it was taken")
	return b.String()
}

// Validate refuses what LockConfiguration's constructor and
// KeepAliveLockProvider.lock refuse.
func (s ShedLock) Validate() error {
	switch {
	case s.LockAtMostFor < time.Millisecond:
		return fmt.Errorf("lock at most for %s: want at least 1ms", s.LockAtMostFor)
	case s.LockAtLeastFor < 0 || s.LockAtLeastFor > s.LockAtMostFor:
		return fmt.Errorf("lock at least for %s: want 0s to lock at most for %s, as ShedLock requires (lockAtLeastFor is longer than lockAtMostFor)", s.LockAtLeastFor, s.LockAtMostFor)
	case s.KeepAlive && s.LockAtMostFor < keepAliveLeast:
		return fmt.Errorf("lock at most for %s: want at least 30s with keep-alive, as KeepAliveLockProvider requires (Can not use KeepAliveLockProvider with lockAtMostFor shorter than PT30S)", s.LockAtMostFor)
	case s.FireSpread < 0:
		return fmt.Errorf("fire spread %s: want 0s or more", s.FireSpread)
	case s.Task < time.Millisecond:
		return fmt.Errorf("task length %s: want at least 1ms", s.Task)
	}
	return checkNodes(s.Nodes)
}

// Held is how long after a node took the lock another may take it,
// failures aside: the task's end, or lockAtLeastFor after it took it if
// later (LockConfiguration.getUnlockTime); without keep-alive, at most
// lockAtMostFor, where the lock ends under a task still running.
func (s ShedLock) Held() time.Duration {
	h := max(s.Task, s.LockAtLeastFor)
	if !s.KeepAlive {
		h = min(h, s.LockAtMostFor)
	}
	return h
}

// RunsPerSlot is how many times a slot's task runs, failures aside, with
// node i firing i·FireSpread/(Nodes−1) after node 0 on the lock's clock:
// each fire at or after the lock's end (Held after the latest run began)
// runs it again.
func (s ShedLock) RunsPerSlot() int {
	runs, free := 1, s.Held()
	for i := 1; i < s.Nodes; i++ {
		if at := s.FireSpread * time.Duration(i) / time.Duration(s.Nodes-1); at >= free {
			runs, free = runs+1, at+s.Held()
		}
	}
	return runs
}

// Figures follow DefaultLockingTaskExecutor.executeWithLock and the JDBC
// provider's statements; times are from the holder's taking the lock.
// Their eighth, past client-go's seven, is when a later fire runs the
// slot again. Without usingDbTime every lock end moves by up to the fire
// spread, which bounds the clocks' difference.
func (s ShedLock) Figures() []Figure {
	inf := math.Inf(1)
	most, task, held := s.LockAtMostFor.Seconds(), s.Task.Seconds(), s.Held().Seconds()
	clock := 0.0
	if !s.UsingDbTime {
		clock = s.FireSpread.Seconds()
	}
	around := func(v float64) span { return span{v - clock, v, v + clock} }
	margin := exact(most - task - clock)
	pause := margin
	if s.KeepAlive {
		pause = uniform(most/2-clock, most-clock)
	}
	marginDoc := "from the task's end to the earliest end of lockAtMostFor, which no call renews: a task longer than lockAtMostFor runs on after its lock has ended, and a fire then runs it beside itself (README: more than one process will effectively hold the lock)"
	if s.KeepAlive {
		marginDoc = "the same when the database cannot be reached from the taking on: KeepAliveLock.extendForNextPeriod stops at the first failed extension, with a warning only, and the task runs on; while extensions succeed the lock outlasts the task"
	}
	if s.UsingDbTime {
		marginDoc += "; on the database's clock no skew of the nodes' clocks eats it"
	} else {
		marginDoc += "; on the nodes' clocks it is also how far another node's clock may run ahead of the holder's before that node, firing, reads the lock's end on its own clock while the task still runs (lock_until is written on the holder's clock: SqlStatementsSource.params)"
	}
	skewDoc := "; a node whose clock is behind fires that much later but reads the lock's end on the same clock, so the skew reruns no slot"
	if s.UsingDbTime {
		skewDoc = fmt.Sprintf("; on the database's clock a node whose clock is behind fires that much later: the spread and the most a clock is behind must together stay under this figure, a clock less than %s behind here", dur(max(0, s.Held()-s.FireSpread)))
	}
	runs := s.RunsPerSlot()
	fs := lockFigures(exact(inf), exact(inf), exact(inf), around(most), around(held), margin, pause, [7]string{
		"never: the task runs to its end whatever becomes of the lock (DefaultLockingTaskExecutor.executeWithLock unlocks only in its finally, and no call tells the task it lost the lock)",
		"no bound: the holder makes no call between taking and releasing the lock (with keep-alive a failed extension only stops the extensions), so no outage ends its run",
		"no bound, as for a failing outage: nothing the holder waits on hangs",
		fmt.Sprintf("the crashed holder's lock ends lockAtMostFor after it was taken (after its last extension with keep-alive); no node runs the slot then: the other %d fired and skipped, and Spring's scheduler keeps no missed fire, so the slot is missed, and the lock goes to the first fire after this", s.Nodes-1),
		"the task's end sets lock_until to max(now, lockedAt + lockAtLeastFor) (LockConfiguration.getUnlockTime; the JDBC unlock statement checks locked_by, the Redis and Mongo providers do not), the lock going to the first fire after it",
		marginDoc,
		"the longest pause of the holder, right after it took the lock (with keep-alive: between extensions), after which its task still ends within the lock",
	})
	return append(fs, figure("rerun_after_first_fire", fmt.Sprintf("a node whose fire comes this long or more after the first node's takes the freed lock and runs the slot again; with %d nodes firing evenly over %s, the slot runs %d time%s (%d double run%s) on a night without failures%s",
		s.Nodes, dur(s.FireSpread), runs, plural(runs), runs-1, plural(runs-1), skewDoc), around(held)))
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// NoMargin: the task outlives lockAtMostFor.
func (s ShedLock) NoMargin() string {
	if s.KeepAlive {
		return "the task runs longer than lockAtMostFor, which keep-alive covers only while every extension succeeds: a failed one stops them with a warning, the lock ends lockAtMostFor after the last, and a node firing then runs the task beside the one still running"
	}
	return "the task runs longer than lockAtMostFor, which no call renews: the lock ends under it, and a node firing after that runs the task beside the one still running"
}

// Options is lockAtMostFor and lockAtLeastFor, which a review's grid
// varies.
func (s ShedLock) Options() []Option {
	d := ShedLockDefaults()
	return []Option{
		{Key: "lock_at_most_for", Library: "lockAtMostFor", Value: s.LockAtMostFor, Default: d.LockAtMostFor, Step: time.Millisecond, Tries: scaled(s.LockAtMostFor),
			with: func(v time.Duration) Settable { l := s; l.LockAtMostFor = v; return l }},
		{Key: "lock_at_least_for", Library: "lockAtLeastFor", Value: s.LockAtLeastFor, Default: d.LockAtLeastFor, Step: time.Millisecond,
			Tries: []time.Duration{0, s.FireSpread, 2 * s.FireSpread, s.Task + s.FireSpread},
			with:  func(v time.Duration) Settable { l := s; l.LockAtLeastFor = v; return l }},
	}
}
