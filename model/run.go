package model

import (
	"math"
	"math/rand/v2"
)

// believer is a node that believes it leads but is no longer the record's
// leader, with the fencing token it was handed when it took over, the
// round in which its renew deadline makes it give up (never without a
// renew deadline; under a service protocol, the round its own clock's
// rule makes it, the first it is not frozen from then on) and the round
// of its last renewal, from which a service protocol's rule counts. The
// record's leader holds the current token and believes unless it has
// given up, so it is not listed.
type believer struct {
	node, token, giveUp, renewed int
	// cut: under curator's rules with a disconnect delay, the round it was
	// disconnected in (0: not yet), reported DisconnectDelay rounds later;
	// under actsAsItWakes, the round it woke and acted in
	cut   int
	slept bool // with a disconnect delay, or under actsAsItWakes, it was frozen at the end of the latest stretch: it is disconnected, or acts once more, as it wakes
}

// Runner runs configurations of the round model. It keeps its scratch space
// between runs, so a run allocates nothing once the Runner has grown to the
// largest node count it has seen. A Runner is not safe for concurrent use;
// give each goroutine its own.
type Runner struct {
	state
	outage GroupOutage // the publication's schedule, kept here so it needs no allocation
	index  windowIndex // a long Windows schedule, sorted, kept here for the same reason

	shed       shedState // a per-fire protocol's scratch (shedlock.go)
	kinds      kindsRead // the table of kinds, as the engine reads it, once kindsKnown
	kindsKnown bool

	// JitterSeed seeds the followers' jitter of a configuration with
	// Jitter. Every run starts from it afresh, so a run repeats.
	JitterSeed [2]uint64
}

// state is a run in progress: who can reach the shared record, what the
// record and the believers hold, the queue and the counts so far.
type state struct {
	c     Config
	reach Reachability
	t     int // the first round of the next stretch

	// The shared durable record, and the stale believers. renewed is the
	// round of the leader's last renewal; gaveUp says its renew deadline
	// passed since, so it no longer believes.
	leader, renewed, token int
	gaveUp                 bool
	gaveUpAt               int  // the round the leader gave up or crashed in, while gaveUp
	frozen                 bool // with Pause and a renew deadline, the leader froze since its last renewal: it renews at once when it wakes
	wokeAt                 int  // while frozen, the round it wakes in: its renew deadline counts from there if it wakes still cut off
	hung                   bool // the leader's renew attempts are followed call by call: a call hung since its last renewal (BlackHole, Slowed), or it woke still cut off
	answered               bool // while hung, the call in flight hangs on a slow API (Slowed): it is answered when the leader is back
	inFlight, reading      bool // while hung, a call is in flight (it ends in round callAt), and the next call or the one in flight is the attempt's read
	attemptAt, callAt      int  // while hung, the round the latest attempt began in, and that of its next call or of the end of the one in flight
	released               bool // with Release, the leader emptied the record as it stopped: the next poll takes over
	overdue                bool // under a service protocol, the leader was down, believing, at the end of the latest stretch, or under dynamodb is back and waits for its next heartbeat (heartbeatWaits): back, it renews at once if a retry period has passed
	slept                  bool // while overdue, it was frozen then: it wakes in the next round it is not frozen
	heartbeatWaits         bool // while overdue under dynamodb, its heartbeats failed at once: back, it renews at its next heartbeat, a multiple of the retry period after its last renewal
	cut                    int  // under curator's rule, the round the leader was disconnected in, if after its last renewal
	suspended              bool // under curator's rule, the leader gave up as it was disconnected (SUSPENDED) and its process lives: back before the service frees the lock, it leads again (reconnect)
	sessionGone            bool // under curator's rules with a disconnect delay, the leader was disconnected (cut) as it woke past its session's end: it gives up at the report
	believers              []believer

	// Under dynamodb (observes), waiters take the lock by watching the
	// record's version in acquire calls (dynamodb.go); quitAt is, by
	// node, the round it last stopped believing it leads, from which its
	// calls begin again.
	observes bool
	quitAt   []int
	// recovers: the protocol's new holder recovers its predecessor's
	// unfinished batch (isCut)
	recovers bool
	// noticeDelay is the rounds from the record's leader's disconnect
	// (cut) to its give-up at the report: the disconnect delay under
	// curator's rules; under actsAsItWakes, 1, as it woke past its lease's
	// end in round cut, acts in it and gives up in the next (wakesLate).
	// It is read once a run: building the protocol's row on the settled
	// path each round cost a fifth of a publication run.
	noticeDelay int
	// skews: under detectsOnOwnClock, the schedule skews some node's
	// clock, so that the other nodes find the holder's check-in a lease
	// old by their own clocks (skewedTaker), even while it checks in;
	// stamp is how far the holder's clock was ahead at its last renewal.
	skews bool
	stamp int

	queued       int // batches waiting in the persistent trigger's queue
	queuedFirst  int // the trigger round of the first waiting batch
	queuedSecond int // of the second, while two or more wait: the others follow it a period apart (queue.go)
	nextTrigger  int // the next round in which the batch must start
	st           Stats

	leaderless, twoLeader episode // the latest episodes of st's leaderless and two-leader rounds

	dropStale bool // the re-read at the end of the latest stretch drops stale believers

	change int // the round of the schedule's next change

	// With Jitter, while the record goes unrenewed (watching): every node's
	// polls (the leader's only once it has given up) and the round of the
	// next of them; the source of their jitter.
	watching bool
	polls    []poll
	nextPoll int
	src      rand.PCG

	// With BatchLen, the runs of batches still writing, in start order
	// (batch.go); the overlap policy's traits the run follows, and whether
	// it has anything to decide (overlap.go).
	groups  []batchGroup
	runs    []batchRun
	cuts    int // the batches cut so far, counted as RoundView.Cut counts them
	overlap overlapTraits
	decides bool

	view RoundView // what observers get, reused so traces allocate nothing
}

// Run runs c with the publication's failure scenario, c.Schedule().
func Run(c Config) (Stats, error) {
	var r Runner
	return r.Run(c)
}

// Run runs c with the publication's failure scenario, c.Schedule().
func (r *Runner) Run(c Config) (Stats, error) {
	r.c = c
	if err := r.c.Validate(); err != nil {
		return Stats{}, err
	}
	r.outage = *r.c.Schedule()
	if r.c.Protocol.traits().perFire {
		r.runShedLock(&r.outage)
		return r.st, nil
	}
	r.run(&r.outage, 1, 0, nil)
	return r.st, nil
}

// RunSchedule runs c with the failure schedule s instead of the publication's
// outage; c.Outage, c.Start and c.Down are then not used.
func (r *Runner) RunSchedule(c Config, s Schedule) (Stats, error) {
	return r.Trace(c, s, 1, 0, nil)
}

// Trace runs c with schedule s like RunSchedule and, for each round from
// first to last, calls observe after the round's trigger step, before the
// re-read, with a view of that round. The rounds outside first … last run
// stretch by stretch, unobserved, so a trace of a long run around its
// events costs what the events and the observed rounds cost, not a call
// per round.
func (r *Runner) Trace(c Config, s Schedule, first, last int, observe func(*RoundView)) (Stats, error) {
	r.c = c
	if err := r.c.Validate(); err != nil {
		return Stats{}, err
	}
	if !r.kindsKnown {
		r.kinds, r.kindsKnown = readKinds(), true
	}
	if err := r.c.validateSchedule(s, &r.kinds); err != nil {
		return Stats{}, err
	}
	if r.c.Protocol.traits().perFire { // no round view: nothing is observed
		r.runShedLock(s)
		return r.st, nil
	}
	r.run(s, first, last, observe)
	return r.st, nil
}

// run runs r.c with schedule s, stretch by stretch, and leaves the
// statistics in r.st. Within a stretch every round behaves like its first:
// reachability is fixed (the schedule is called only where it changes), no
// handover falls due, and no believer drops out before the stretch's last
// round. So a run costs per event, not per round, and a round costs the
// same whatever the node count, touching only the record's leader and the
// nodes that believe they lead. Observed rounds, first … last, are
// stretches of one round.
func (r *Runner) run(s Schedule, first, last int, observe func(*RoundView)) {
	x, c := &r.state, &r.c
	x.overlap = c.overlap()
	x.decides = x.overlap.decides()
	x.begin()
	x.watching, x.hung, x.frozen, x.released, x.overdue, x.cut, x.suspended, x.sessionGone = false, false, false, false, false, 0, false, false // apart from begin, which must stay small enough to inline
	// What each kind of failure does in this run, from the table of kinds
	// read once: no node has a kind of its own until a schedule gives it one.
	if !r.kindsKnown {
		r.kinds, r.kindsKnown = readKinds(), true
	}
	x.reach.failAs(&r.kinds, c.toggles())
	x.noticeDelay = c.DisconnectDelay
	if c.Protocol.traits().actsAsItWakes {
		x.noticeDelay = 1
	}
	x.recovers = c.Protocol.traits().recovers
	x.skews, x.stamp = false, 0
	if c.Protocol.traits().detectsOnOwnClock {
		_, _, x.skews = skewBounds(s, &r.kinds)
	}
	if x.observes = c.Protocol != ProtocolClientGo && c.Protocol.traits().observes; x.observes {
		x.observeAll()
	}
	x.groups, x.runs = x.groups[:0], x.runs[:0]
	if c.Jitter {
		x.seed(r.JitterSeed)
	}
	if ws, ok := s.(Windows); ok && len(ws) >= indexFrom {
		r.index.reset(ws)
		s = &r.index
	}
	x.change = s.Begin(&x.reach)
	a, _ := s.(*Alternating) // a schedule a settled stretch may run on through
	for x.t <= c.Rounds {
		for x.t == x.change {
			x.reach.at = x.t
			x.change = s.ChangeAt(x.t, &x.reach)
		}
		switch {
		case observe == nil || x.t > last:
			x.stretch(x.change-1, nil, a)
		case x.t < first:
			x.stretch(min(x.change, first)-1, nil, nil)
		default:
			x.stretch(x.t, &x.view, nil)
			observe(x.observed())
		}
		if x.dropStale {
			x.reread()
		}
	}
	if c.BatchLen == 1 { // an instant batch is one part, written once by each run
		x.st.DoubledParts = x.st.DoubleStarts
	}
	e := x.expired(c.Rounds + 1) // past the catch-up window at the end: missed
	u := x.queued - e
	if c.CatchUpOnce && u > 1 { // only the latest slot can still run
		e, u = e+u-1, 1
	}
	x.st.Missed += e
	x.st.Unresolved = u // C6
}

// begin sets up a run of x.c: every node reachable, node 0 leading and
// believing it, nobody else believing yet, nothing queued.
func (x *state) begin() {
	x.reach.reset(x.c.Nodes)
	x.t, x.leader, x.renewed, x.token, x.gaveUp = 1, 0, 0, 1, false
	x.believers = x.believers[:0]
	x.queued, x.nextTrigger = 0, x.c.Period
	x.st = Stats{}
}

// seed starts the jitter's source afresh from seed.
func (x *state) seed(seed [2]uint64) {
	x.src.Seed(seed[0], seed[1])
}

// settleAhead lets a settled stretch that would end where the schedule
// next changes run on through the changes: it makes them, up to the round
// the leader goes down, and returns the stretch's new last round. A
// settled stretch reads no node but the leader, so the other nodes'
// failures and returns cannot end it, nor change it; open batch runs
// could, as their writers may be other nodes.
func (x *state) settleAhead(a *Alternating) int {
	x.change = a.advance(min(x.c.Rounds, a.nextChangeOf(x.leader)-1), &x.reach)
	return min(x.c.Rounds, x.change-1)
}

// stretch runs steps 1 to 5 of the rounds t … last, where last is at most
// end: the first round in full, the others counted in bulk. It leaves t at
// the round after last and, if view is not nil, records there what each
// round of the stretch saw. Given ahead, the run's schedule if it is an
// Alternating, a settled stretch may make its changes ahead
// (settleAhead); the stretches before and of observed rounds pass none,
// as they must end where those begin and end. The schedules of replays
// and of the publication's outage change too seldom to need it.
//
// Its phases are those of docs/model.md's "How a run is computed", each a
// function: a settled stretch's short path (settled, settledStretch), or
// the renew deadline and crashes (expireAndCrash), renew (renewIfDue,
// step 1), the poll, written here, and the handover (takeOver, step 2),
// count believers and fence (countBelievers, steps 3 and 4), where the
// stretch ends (stretchEnd, with step 6's re-read), its rounds counted
// and its timers carried to that end (passRounds), and the trigger
// (trigger, step 5).
func (x *state) stretch(end int, view *RoundView, ahead *Alternating) {
	if x.settled() {
		x.settledStretch(end, view, ahead)
		return
	}
	t := x.t
	x.expireAndCrash(t)
	renewing, racing := x.renewIfDue(t)

	// 2. Hand over once the lease has expired: at the followers' poll, in
	// step in retry rounds or, with jitter, each at its own; under a lock
	// service, once it frees the lock. The followers poll while the
	// leader is cut off or has given up, or races. The poll is written
	// here, not in a phase of its own, so that the profile-guided
	// compiler inlines takerOver: it finds a hot call by its line in the
	// function it compiles, not in one inlined into it.
	next, free := -1, Never // free: under a lock service or dynamodb, the first round the lock may be taken (lockTaker)
	switch {
	case renewing && !racing && !x.reporting() && !x.skews: // back before its disconnect's report (curator's), it does not hold the lock off; under a skew, a node whose clock is ahead may find its check-in old (skewedTaker)
	case x.c.Jitter: // the first follower to poll after its lease ran out
		next = x.watch(t)
	case racing || x.c.Protocol == ProtocolClientGo:
		next = x.takerOver(t)
	default: // the service freed the lock: the watch tells at once
		next, free = x.lockTaker(t)
	}
	handover := next >= 0 && x.takeOver(t, next)
	if handover {
		renewing, racing = true, false
		if x.skews { // when a node whose clock is ahead finds the new holder's check-in old
			_, free = x.lockTaker(t)
		}
	}
	working, active, accepted, readers := x.countBelievers(renewing)
	last := x.stretchEnd(t, end, renewing, racing, free, accepted, readers)
	x.passRounds(t, last, renewing, racing, active, accepted)

	// 5. Trigger (trigger), skipped where no slot falls due in the
	// stretch, none waits and no run writes.
	if x.nextTrigger <= last || x.queued > 0 || x.c.BatchLen > 1 || view != nil {
		x.trigger(last, accepted, working, view)
	}
	x.t = last + 1
	if view != nil {
		view.Handover, view.Active, view.Accepted, view.Deduplicating = handover, active, accepted, x.c.IdempotencyKey
	}
}

// settled reports whether the stretch from round t is settled, the usual
// one between failures: the leader is reachable, nobody else believes it
// leads, nothing is queued and the followers no longer watch the record
// (they do until it renews). The leader renews a retry period after each
// renewal and starts every batch; nothing else happens, whatever the other
// nodes do.
func (x *state) settled() bool {
	c := &x.c
	return !x.skews && !x.reach.down[x.leader] && !x.gaveUp && !x.hung && !x.frozen && !x.overdue && !x.watching && len(x.believers) == 0 && x.queued == 0 &&
		(c.RenewDeadline == 0 || !x.deadlineFirst(x.t) && !x.races(x.t)) && (len(x.groups) == 0 || !x.decides)
}

// settledStretch runs a settled stretch through end, or, given ahead, on
// through the schedule's changes that cannot end it (settleAhead). Its
// trigger is step 5's (trigger) with the leader alone accepted, nothing
// queued and no run an overlap policy could meet, written out: a call
// would cost the publication's run 6%.
func (x *state) settledStretch(end int, view *RoundView, ahead *Alternating) {
	c := &x.c
	last := min(end, c.Rounds)
	if ahead != nil && len(x.groups) == 0 {
		last = x.settleAhead(ahead)
	}
	k, after := stepsThrough(x.nextTrigger, last, c.Period)
	x.st.Started += k
	cuts := x.cuts
	if c.BatchLen > 1 {
		x.batches(last, x.nextTrigger, k, 0, true)
	}
	x.renewThrough(last)
	x.nextTrigger, x.t, x.dropStale = after, last+1, false
	if view != nil {
		*view = RoundView{Active: 1, Accepted: 1, Trigger: started(k), Cut: x.cuts - cuts}
	}
}

// renewIfDue is step 1 of docs/model.md in round t: the leader renews, a
// retry period after the last renewal (when calls hang, at the first
// call once it is back). A reachable leader that has not given up renews
// every retry period, so its lease never expires, unless it is racing:
// back too late to renew before a follower may take over, it makes no
// call until then, and the followers poll on (step 2, in stretch). While
// it renews on time the followers that watch the record poll on too,
// until it renews. It returns whether the leader is renewing (reachable,
// not given up) and racing.
func (x *state) renewIfDue(t int) (renewing, racing bool) {
	c, down := &x.c, x.reach.down
	renewing = !down[x.leader] && !x.gaveUp
	if c.RenewDeadline > 0 && !x.gaveUp && !(down[x.leader] && x.fails(x.leader, Freezes)) {
		switch {
		case x.frozen && x.wokeAt == t: // woken, its renew loop begins a cycle now: call by call if still cut off
			x.hung = down[x.leader]
			x.startCalls(t)
		case down[x.leader] && !x.hung && x.fails(x.leader, Hangs):
			// its calls hang from its first attempt in the outage on; those before failed at once
			x.hung = true
			x.startCalls(x.renewed + c.RetryPeriod + roundUp(max(t-x.renewed-c.RetryPeriod, 0), c.RetryPeriod))
		}
	}
	racing = renewing && c.RenewDeadline > 0 && x.races(t)
	switch {
	case !renewing || racing: // the followers poll (step 2)
	case x.frozen && !x.hung: // woken, its renew loop begins a cycle at once, and the record is still its own
		x.renew(t)
	case x.hung:
		if x.nextCall(t) == t { // the first call after it is back succeeds
			x.renew(t)
			x.hung = false
		} else if x.watching {
			x.watch(t) // the followers poll on until it renews; not racing, it renews or gives up before any can take over
		}
	case x.overdue: // back under a service protocol: it renews at once if a retry period has passed; after heartbeats that failed at once, at its next; not before its disconnect is reported (curator's)
		if d := t - x.renewed; d >= c.RetryPeriod && (!x.heartbeatWaits || d%c.RetryPeriod == 0) && !x.reporting() {
			x.renew(t)
		}
	case c.RetryPeriod == 1 || (t-x.renewed)%c.RetryPeriod == 0: // a retry period after its last renewal
		x.renew(t)
	case x.watching:
		x.watch(t)
	}
	return renewing, racing
}

// takeOver is step 2's handover in round t: next takes over with the next
// token, unless quorum is set and no strict majority of all nodes is
// reachable; the record's leader, if it had not given up, becomes a stale
// believer. It reports whether next took over.
func (x *state) takeOver(t, next int) bool {
	c := &x.c
	if c.Quorum && 2*x.reach.count <= c.Nodes {
		return false
	}
	x.st.HandoverRounds += t - x.renewed
	x.st.Handovers++
	switch {
	case x.gaveUp:
		x.believers = dropBelief(x.believers, next)
	case x.skews && !x.reach.down[x.leader]: // up, taken over by a node whose clock is ahead of its own (skewedTaker): it leaves off leading at once, its job running on
	default:
		old := believer{node: x.leader, token: x.token, giveUp: x.giveUpRound(), renewed: x.renewed}
		if c.Protocol != ProtocolClientGo {
			old.giveUp = x.lockDue()
		}
		if x.reporting() { // its disconnect's report is still to come
			old.cut = x.cut
		}
		x.believers = handOver(x.believers, old, next)
	}
	x.leader, x.renewed, x.gaveUp, x.watching, x.hung, x.frozen, x.released, x.suspended, x.sessionGone = next, t, false, false, false, false, false, false, false
	x.stamp = x.reach.ahead(next)
	x.token++
	return true
}

// countBelievers is steps 3 and 4 of docs/model.md: 3. count believers,
// 4. fence. A believer is active while its work reaches the store: while
// it reaches the record or, in a partition, always. The leader's work is
// accepted while it believes; stale believers' tokens are older than the
// record's, so fencing refuses theirs. Stale believers that reach the
// record drop out at the next re-read; in a partition the others cannot
// read it.
func (x *state) countBelievers(renewing bool) (working bool, active, accepted, readers int) {
	stale := 0
	for _, b := range x.believers {
		stale += b2i(!x.reach.down[b.node] || x.fails(b.node, ReachesStore))
		readers += b2i(!x.reach.down[b.node])
	}
	working = renewing || x.fails(x.leader, ReachesStore) && !x.gaveUp // the leader, reaching the store
	active, accepted = b2i(working)+stale, b2i(working)
	if !x.c.Fencing {
		accepted += stale
	}
	return working, active, accepted, readers
}

// stretchEnd is the last round, at most end, of the stretch from round
// t: before reachability changes, when the lease expires, when
// a belief meets its renew deadline (under a service protocol, a give-up
// rule's timer), where an overlap policy decides, or with the re-read of
// step 6 that drops the stale believers, which it then sets to run.
func (x *state) stretchEnd(t, end int, renewing, racing bool, free, accepted, readers int) int {
	c, down := &x.c, x.reach.down
	last := min(end, c.Rounds)
	switch {
	case renewing && x.hung && !racing: // the call that renews, and the followers' next poll until then
		if call := x.nextCall(t); call > t {
			last = min(last, call-1)
		}
		if x.watching {
			last = min(last, x.nextPoll-1)
		}
	case renewing && !racing && !x.reporting():
		if x.watching {
			last = min(last, x.nextPoll-1)
		}
		if x.skews && free < Never { // the round a node whose clock is ahead finds its check-in a lease old; by now (a taker of a freed lock whose check-in is already old to another), the next round
			last = min(last, max(free-1, t))
		}
		if x.skews && x.reach.ahead(x.leader) != x.stamp { // its next check-in, stamped anew, moves that round
			last = min(last, x.renewed+c.RetryPeriod-1)
		}
		if x.renewed == t && c.RenewDeadline > 0 && x.races(t+1) { // renewed off the followers' retry rounds, with a lease shorter than the retry period
			last = t
		}
	case x.watching: // the next poll
		last = min(last, x.nextPoll-1)
	case c.Protocol != ProtocolClientGo: // until the lock may be taken; free and not taken, only a change of reachability can let someone
		if free > t {
			last = min(last, free-1)
		}
	default:
		// The next retry round in which the lease has expired; if that is
		// this one and nobody took over, only a change of reachability
		// can let someone.
		expiry := x.renewed + c.Lease
		if x.released {
			expiry = t
		}
		if expiry := roundUp(max(expiry, t), c.RetryPeriod); expiry > t {
			last = min(last, expiry-1)
		}
		if c.Drift != 0 && !x.released { // the drifting nodes' lease runs out at its own time
			if expiry := roundUp(max(x.renewed+x.leaseOf(c.DownFrom), t), c.RetryPeriod); expiry > t {
				last = min(last, expiry-1)
			}
		}
	}
	if racing { // the racing leader's next attempt, which renews if nobody took over
		if r := x.nextRenewal(t); r < Never {
			last = min(last, r-1)
		}
	}
	if c.RenewDeadline > 0 { // a frozen believer's deadline cannot fire
		if !x.gaveUp && (!renewing || racing || x.deadlineFirst(t)) && !(down[x.leader] && x.fails(x.leader, Freezes)) {
			last = min(last, x.giveUpRound()-1)
		}
		for _, b := range x.believers {
			if !(down[b.node] && x.fails(b.node, Freezes)) {
				last = min(last, b.giveUp-1)
			}
		}
	} else if c.Protocol != ProtocolClientGo {
		last = x.lockTimers(t, last)
	}
	if x.decides {
		last = x.overlapCut(t, last, accepted > 0)
	}
	x.dropStale = false
	if readers > 0 && c.RereadPeriod > 0 {
		if reread := roundUp(t, c.RereadPeriod); reread <= last {
			last, x.dropStale = reread, true
		}
	}
	return last
}

// passRounds passes the rounds t … last of the stretch: the
// leader's calls while it is cut off and the frozen nodes' wake-ups are
// carried to its end, each round counted as two-leader, leaderless or
// neither, with the work it refused (steps 3 and 4), and the leader's
// renewals made through last.
func (x *state) passRounds(t, last int, renewing, racing bool, active, accepted int) {
	c, down := &x.c, x.reach.down
	n := last - t + 1
	if x.hung && down[x.leader] && !x.gaveUp && !x.fails(x.leader, Freezes) {
		x.callsThrough(last)
	}
	if x.reach.may&Freezes != 0 && c.RenewDeadline > 0 { // the frozen wake no earlier than round last+1
		x.wakeFrozen(last + 1)
	}
	if active > 1 {
		x.st.TwoLeaderRounds += n
		x.twoLeader.count(&x.st.TwoLeaderEpisodes, t, n)
	} else if active == 0 {
		x.st.LeaderlessRounds += n
		x.leaderless.count(&x.st.LeaderlessEpisodes, t, n)
	}
	x.st.Rejected += n * (active - accepted)
	if renewing && !x.hung && !racing && !x.reporting() { // not before a disconnect's report (curator's)
		x.renewThrough(last)
	}
}

// expireAndCrash is the renew deadline of docs/model.md (the paragraph
// after step 6) and the crashes, in round t, before step 1: a leader that
// has not renewed for a retry period and its deadline gives up, and so
// does a stale believer; a crashed or stopped node loses its belief. Under
// a service protocol it is the lock protocols' give-up (loseLocks).
func (x *state) expireAndCrash(t int) {
	if x.c.Protocol != ProtocolClientGo {
		x.loseLocks(t)
		return
	}
	if x.c.RenewDeadline > 0 {
		x.expireBeliefs(t)
	}
	if x.reach.may&Stops != 0 {
		x.crash(t)
	}
}

// trigger is step 5 of docs/model.md in the stretch t … last: the batch
// starts, or is queued or missed, at every multiple of the period in the
// stretch (C7), and the queued slots start once work is accepted (C2 to
// C5). Where slots wait or the overlap policy decides, overlapStarts
// starts them as the policy's traits have it. It records in view, if not
// nil, what the trigger did; stretch adds what the rounds before it saw.
func (x *state) trigger(last, accepted int, working bool, view *RoundView) {
	c, t := &x.c, x.t
	var v triggerView
	first := x.nextTrigger
	k, after := stepsThrough(first, last, c.Period)
	started := 0
	switch {
	case accepted > 0:
		started = k
		if k > 0 {
			v.trigger = TriggerStarted
		}
		if x.queued > 0 || x.decides { // queued slots start, or the policy decides
			started = x.overlapStarts(t, first, k, accepted, &v)
		}
		x.st.Started += started
		x.extraStarts(started * (accepted - 1))
	case k == 0:
	case c.PersistentTrigger:
		x.enqueue(first, k)
		v.trigger = TriggerQueued
	default:
		x.st.Missed += k
		v.trigger = TriggerMissed
	}
	x.nextTrigger = after
	cuts := x.cuts
	if c.BatchLen > 1 {
		x.batches(last, first+(k-started)*c.Period, started, v.dequeued, working)
	}
	if view != nil {
		*view = RoundView{Trigger: v.trigger, Dequeued: v.dequeued, Expired: v.expired, Collapsed: v.collapsed, Skipped: v.skipped, Cancelled: v.cancelled, Cut: x.cuts - cuts}
	}
}

// triggerView is what the trigger did in a stretch's first round: the
// trigger's fields of its RoundView.
type triggerView struct {
	trigger                                          Outcome
	dequeued, expired, collapsed, skipped, cancelled int
}

// extraStarts counts n starts of batches already started in their round
// by another accepted node: double starts, or, with an idempotency key,
// starts the store refused.
func (x *state) extraStarts(n int) {
	if x.c.IdempotencyKey {
		x.st.Deduplicated += n
	} else {
		x.st.DoubleStarts += n
	}
}

// giveUpRound is the round in which the record's leader gives up if it
// cannot renew: a retry period and its renew deadline after its last
// renewal, as client-go's renew loop; never without a renew deadline. A
// frozen leader's timers stand still: it gives up a renew deadline after
// it wakes, as a stale believer does, if it wakes still cut off (its
// failure turned from a pause into another kind).
func (x *state) giveUpRound() int {
	if x.c.RenewDeadline == 0 {
		return Never
	}
	from, wait := x.renewed, x.c.RetryPeriod+x.c.RenewDeadline
	if x.frozen {
		from, wait = x.wokeAt, x.c.RenewDeadline
	}
	return from + x.inRounds(wait, x.leader)
}

// drifts reports whether node's clock drifts: it is one of the failing
// nodes (Down from DownFrom) and Drift is set.
func (x *state) drifts(node int) bool {
	return x.c.Drift != 0 && node >= x.c.DownFrom && node < x.c.DownFrom+x.c.Down
}

// inRounds is how many rounds node's clock takes to count span rounds:
// span, or with Drift span·1000/(1000+Drift), rounded up (its timer fires
// in the round in which its clock gets there).
func (x *state) inRounds(span, node int) int {
	if !x.drifts(node) {
		return span
	}
	return drifted(span, x.c.Drift)
}

// drifted is how many rounds a clock drift thousandths fast takes to count
// span rounds: span·1000/(1000+drift), rounded up.
func drifted(span, drift int) int { return (span*1000 + 1000 + drift - 1) / (1000 + drift) }

// leaseOf is the lease in rounds as node counts it.
func (x *state) leaseOf(node int) int { return x.inRounds(x.c.Lease, node) }

// leaseRunOut returns, with Drift, the node that takes over in round t, a
// retry round: the lowest reachable one, the record's leader only if it
// gave up, whose lease has run out by its own clock, or any if the record
// was released; -1 if none.
func (x *state) leaseRunOut(t int) int {
	for n := range x.c.Nodes {
		if !x.reach.down[n] && (n != x.leader || x.gaveUp) && (x.released || t-x.renewed >= x.leaseOf(n)) {
			return n
		}
	}
	return -1
}

// wakeFrozen readies the frozen believers (Pause) to wake in round w, as
// client-go's renew loop does after a pause: its timers ran on
// while it was frozen, so it begins a renew cycle the moment it wakes. The
// record's leader renews then (frozen); a stale believer, whose record
// another node now holds, tries in vain and gives up its renew deadline
// after waking, acting on its belief until then.
func (x *state) wakeFrozen(w int) {
	if x.reach.down[x.leader] && !x.gaveUp && x.fails(x.leader, Freezes) {
		x.frozen, x.wokeAt = true, w
	}
	for i := range x.believers {
		if n := x.believers[i].node; x.reach.down[n] && x.fails(n, Freezes) {
			x.believers[i].giveUp = w + x.inRounds(x.c.RenewDeadline, n)
		}
	}
}

// fails reports whether node, when down, does d: what its kind of its
// own does (Reachability.Fail), or, without one, what the configuration's
// toggles say together (Config.DoesAs).
func (x *state) fails(node int, d Does) bool { return x.reach.doesOf(node)&d != 0 }

// deadlineFirst reports whether the leader, believing and reachable from
// round t, meets its renew deadline before its next retry round: it came
// back too late to renew in time, or its clock runs so fast that its
// deadline comes before a retry period has passed. A leader that renewed
// or took over in round t itself renews next a retry period later.
func (x *state) deadlineFirst(t int) bool {
	return x.c.RenewDeadline > 0 && x.nextRenewal(t) == Never
}

// nextRenewal is the round in which the leader, believing and reachable
// from round t on, next renews if the record is still its own: its next
// attempt, a retry period after its last renewal and every retry period
// after that (when its calls hung, the first call once it is back), or
// Never if none comes before its deadline. client-go's renew loop makes
// no attempt at the deadline itself: the deadline's context, made before
// the retry ticker, ends first.
func (x *state) nextRenewal(t int) int {
	if x.hung {
		return x.nextCall(t)
	}
	if r := x.renewed + roundUp(max(t-x.renewed, 1), x.c.RetryPeriod); r < x.giveUpRound() {
		return r
	}
	return Never
}

// races reports whether the leader, believing and reachable from round t
// but back from an outage that cost it an attempt (or with its calls
// hung), may meet a follower's takeover before it renews or gives up: the
// lease, as the fastest clock counts it, runs out before its deadline and
// before its next renewal. Then the followers
// poll on while it leads, as client-go's do: its renew loop makes no call
// between two attempts, nor between its last attempt and its deadline, and
// it acts as leader until the deadline, beside a follower that took over
// a lease after observing its last renewal. Without a deadline, or frozen
// (it renews as it wakes), it never races; nor within a retry period of
// its last renewal if the lease lasts a retry period, as its next attempt
// then comes first. A shorter lease can run out before that attempt when
// the renewal fell off the followers' retry rounds (a woken leader renews
// as it wakes): then a follower takes over at its poll.
func (x *state) races(t int) bool {
	if x.c.RenewDeadline == 0 || x.frozen && !x.hung {
		return false
	}
	soonest := x.renewed + shortestLease(x.c)
	r := x.nextRenewal(t)
	if !x.hung && t-x.renewed <= x.c.RetryPeriod &&
		(soonest >= x.renewed+x.c.RetryPeriod || !x.c.Jitter && roundUp(max(soonest, t), x.c.RetryPeriod) >= r) {
		return false
	}
	return r > t && soonest < x.giveUpRound() && soonest < r
}

// takerOver returns, without jitter, the node that takes over in round t,
// or -1: in a retry round once the lease has expired (or the record was
// released), the lowest reachable node but the record's leader, which may
// take over too once it gave up (client-go's process restarts as a
// follower); with Drift, the lowest whose own clock says the lease ran
// out.
func (x *state) takerOver(t int) int {
	c := &x.c
	switch {
	case c.RetryPeriod > 1 && t%c.RetryPeriod != 0:
		return -1
	case c.Drift != 0:
		return x.leaseRunOut(t) // each node counts the lease by its own clock
	case t-x.renewed >= c.Lease || x.released:
		return x.lowestTaker() // C1
	}
	return -1
}

// lowestTaker is the lowest-numbered reachable node that may take over:
// any but the record's leader, which may too once it gave up (its
// process restarts as a follower); -1 if none.
func (x *state) lowestTaker() int {
	except := x.leader
	if x.gaveUp {
		except = -1
	}
	return x.reach.lowestReachableExcept(except)
}

// nextCall is the round at or after round t in which the leader, back
// from an outage in which its renew attempts are followed call by call
// (hung), renews: at the next call it starts (the next attempt's update,
// or the read of an update in flight, which starts as that times out),
// or, on a slow API (answered), in round t itself if a call is still in
// flight; Never if none comes before its deadline. The deadline cancels a
// call in flight.
func (x *state) nextCall(t int) int {
	call := x.callAt
	switch {
	case x.inFlight && x.answered:
		call = t
	case x.inFlight && x.reading: // the read times out: the next attempt starts a retry period after the last began, or then
		call = max(x.attemptAt+x.c.RetryPeriod, x.callAt)
	}
	if call < x.giveUpRound() {
		return call
	}
	return Never
}

// startCalls begins following the leader's renew attempts call by call
// with an attempt in round a, none in flight.
func (x *state) startCalls(a int) {
	x.attemptAt, x.callAt, x.inFlight, x.reading, x.answered = a, a, false, false, false
}

// callsThrough runs the leader's calls through round last while it is cut
// off, not frozen and believing, failing as its kind says, as client-go's
// renew loop: each attempt an update and then a read; a call that starts
// hangs for half the renew deadline, rounded up (the client's timeout;
// on a slow API until the leader is back, see nextCall), or fails at once
// and ends the attempt; the next attempt starts a retry period after the
// last began, or when it ends if later (in the round the attempt failed
// at once, that one fails at once too). No call starts at or after the
// deadline.
func (x *state) callsThrough(last int) {
	c := &x.c
	hangs := x.fails(x.leader, Hangs)
	slow := x.fails(x.leader, HangsUntilAnswered)
	end := min(last, x.giveUpRound()-1)
	for x.callAt <= end {
		switch now := x.callAt; {
		case x.inFlight && x.reading: // the read timed out: the attempt ends
			x.attemptAt = max(x.attemptAt+c.RetryPeriod, now)
			x.callAt, x.inFlight, x.reading = x.attemptAt, false, false
		case x.inFlight: // the update timed out: the read starts
			x.inFlight, x.reading = false, true
		case hangs:
			x.inFlight, x.answered = true, slow
			x.callAt += (c.RenewDeadline + 1) / 2
		default: // it fails at once: the attempt ends
			if x.attemptAt += c.RetryPeriod; x.attemptAt <= now {
				x.attemptAt = now + c.RetryPeriod
			}
			x.callAt, x.reading = x.attemptAt, false
		}
	}
}

// renewThrough records the renewals of a leader reachable and believing
// from round x.t through last: it renews a retry period after each
// renewal, as client-go's renew loop, so its last renewal is the stretch's
// last such round, if the stretch has one.
func (x *state) renewThrough(last int) {
	r := last
	if x.c.RetryPeriod > 1 {
		r -= (last - x.renewed) % x.c.RetryPeriod
	}
	if r >= x.t {
		x.renew(r)
	}
}

// watch runs the polls that fall in round t while the record goes
// unrenewed, starting the watch if it has not begun, and returns the node
// that takes over in round t, or -1: of the reachable nodes whose poll
// comes a lease or more after they observed the last renewal, the first to
// poll. A node observes the renewal at its first poll after it while
// reachable; polls before round t, drawn when the watch begins late, are
// taken as reachable. A leader that gave up polls too, from its give-up
// round, as the follower its restarted process is. With a renew deadline
// a poll of a node down whose calls hang (BlackHoled, Slowed) hangs for
// the client's timeout, half the deadline rounded up as the leader's
// calls, and its next poll comes a jittered wait after the call ends, as
// client-go's acquire loop (wait.JitterUntil, sliding) waits from the end
// of each try: a black-holed call ends at its timeout; a call to a slow
// API is answered as the node is back, as a poll at the start of that
// round, unless it timed out before; its lease check counts from when the
// call was sent (client-go's tryAcquireOrRenew takes the time as it
// begins), its observation from the answer.
func (x *state) watch(t int) int {
	c := &x.c
	rp, lease, hang := float64(c.RetryPeriod), float64(c.Lease), float64((c.RenewDeadline+1)/2)
	if !x.watching {
		x.watching = true
		if cap(x.polls) < c.Nodes {
			x.polls = make([]poll, c.Nodes)
		}
		x.polls = x.polls[:c.Nodes]
		for j := range x.polls {
			x.polls[j] = newPoll(float64(x.renewed) + PollResidual(&x.src, rp))
		}
		if x.gaveUp {
			x.polls[x.leader] = newPoll(float64(x.gaveUpAt))
		}
	}
	best, first, next := -1, math.Inf(1), Never
	for j := range x.polls {
		if j == x.leader && !x.gaveUp {
			continue
		}
		p := &x.polls[j]
		if p.hung && !x.reach.down[j] && p.round >= t { // the slow API answers as the node is back, at the round's start
			p.at(math.Nextafter(float64(t-1), math.Inf(1)))
		}
		for p.round <= t {
			tau, round := p.next, p.round
			asked, reachable := tau, round < t || !x.reach.down[j]
			if p.hung { // the end of a call to a slow API: answered now, or timed out
				p.hung, asked = false, p.sent
			} else if !reachable && hang > 0 && !x.fails(j, Freezes) {
				switch { // the poll hangs
				case x.fails(j, HangsUntilAnswered):
					p.hung, p.sent = true, tau
					p.at(tau + hang)
					continue
				case x.fails(j, Hangs):
					tau += hang
				}
			}
			if reachable {
				switch {
				case x.released && round == t && tau < first: // the record is empty
					best, first = j, tau
				case p.observed < 0:
					p.observed = tau
				case round == t && asked >= p.observed+x.pollLease(j, lease) && tau < first:
					best, first = j, tau
				}
			}
			p.at(tau + PollGap(&x.src, rp))
		}
		next = min(next, p.round)
	}
	x.nextPoll = next
	return best
}

// pollLease is the lease, in rounds as real numbers, as node j counts it
// while it polls with jitter.
func (x *state) pollLease(j int, lease float64) float64 {
	if !x.drifts(j) {
		return lease
	}
	return lease * 1000 / float64(1000+x.c.Drift)
}

// renew records a renewal of the record's leader in round t: its lease and
// its deadline count from here, and the followers' watch of the record
// ends. Only a renewal ends it: a leader back from an outage that has not
// renewed yet leaves the record as it was, the followers poll on, and one
// that did not observe the last renewal before the outage observes it
// only at a poll after it, as client-go's does (its observed record is
// kept across failed polls).
func (x *state) renew(t int) {
	x.renewed, x.frozen, x.watching, x.stamp = t, false, false, x.reach.ahead(x.leader)
}

// giveUp ends, in round t, the belief of the record's leader: it gave up
// or crashed, and its restarted process is a follower, polling from now on
// if the followers are already watching the record.
func (x *state) giveUp(t int) {
	x.gaveUp, x.gaveUpAt = true, t
	if x.observes { // its acquire calls begin
		x.quitAt[x.leader] = t
	}
	if x.c.BatchLen > 1 { // its process restarts, and its batches with it
		x.stopRuns(x.leader, -1)
	}
	if x.watching {
		x.polls[x.leader] = newPoll(float64(t))
	}
}

// crash ends, in round t, the belief of every believer that is down: it
// crashed, or stopped (Release), and comes back as a follower. The record's
// leader is then as one that gave up: the record names it until its lease
// runs out, and its restarted process polls like any follower; one that
// stopped cleanly emptied the record first, so the next poll takes over,
// and so does one that crashed under crashFrees.
func (x *state) crash(t int) {
	stops := func(n int) bool { return x.reach.down[n] && x.fails(n, Stops) }
	if stops(x.leader) && !x.gaveUp {
		x.giveUp(t)
		x.released = x.fails(x.leader, Releases) || x.c.Protocol.traits().crashFrees
	}
	if stops(x.leader) { // its session ends with its process: it cannot reconnect
		x.suspended = false
	}
	kept := x.believers[:0]
	for _, b := range x.believers {
		if !stops(b.node) {
			kept = append(kept, b)
		}
	}
	x.believers = kept
}

// expireBeliefs ends, in round t, the beliefs whose renew deadline has
// come: the record's leader's and the stale believers'.
func (x *state) expireBeliefs(t int) {
	if !x.gaveUp && t >= x.giveUpRound() {
		x.giveUp(t)
	}
	kept := x.believers[:0]
	for _, b := range x.believers {
		if t < b.giveUp {
			kept = append(kept, b)
		} else if x.c.BatchLen > 1 {
			x.stopRuns(b.node, -1)
		}
	}
	x.believers = kept
}

// roundUp is the first multiple of step at or after t. A step of 1, the
// default retry period, costs no division.
func roundUp(t, step int) int {
	if step == 1 {
		return t
	}
	return (t + step - 1) / step * step
}

// started is the outcome of a stretch's triggers when the leader alone
// believes it leads: none if no trigger fell in the stretch.
func started(triggers int) Outcome {
	if triggers == 0 {
		return NoTrigger
	}
	return TriggerStarted
}

// reread is step 6 of the stretch's last round, run when dropStale says
// it matters: the reachable stale believers re-read the record and drop
// out. Re-reads before the last round find none: the stretch ends at the
// first that does.
func (x *state) reread() {
	kept := x.believers[:0]
	for _, b := range x.believers {
		if x.reach.down[b.node] {
			kept = append(kept, b)
		}
	}
	x.believers = kept
}

// observed completes the view of the latest stretch, one round long, with
// the round, the record and who believes.
func (x *state) observed() *RoundView {
	v := &x.view
	v.Round, v.Leader, v.Token = x.t-1, x.leader, x.token
	v.Reread = x.c.RereadPeriod > 0 && v.Round%x.c.RereadPeriod == 0
	v.gaveUp = x.gaveUp
	v.reach, v.believers = &x.reach, x.believers
	return v
}

// stepsThrough counts the rounds next, next+step, next+2·step, … up to and
// including last, and returns the count and the first such round after
// last. Short counts are stepped, long ones divided: a 64-bit division
// costs more than a few additions.
func stepsThrough(next, last, step int) (n, after int) {
	if next > last {
		return 0, next
	}
	if last-next < 8*step {
		for next <= last {
			n++
			next += step
		}
		return n, next
	}
	n = (last-next)/step + 1
	return n, next + n*step
}

// handOver updates the stale believers when next takes over from the
// record's leader, old, which still believes: the old leader becomes
// stale and next, if it was a stale believer, now leads.
func handOver(bel []believer, old believer, next int) []believer {
	for i := range bel {
		if bel[i].node == next {
			bel[i] = old
			return bel
		}
	}
	return append(bel, old)
}

// dropBelief removes next from the stale believers, if it is one: it now
// leads.
func dropBelief(bel []believer, next int) []believer {
	for i := range bel {
		if bel[i].node == next {
			return append(bel[:i], bel[i+1:]...)
		}
	}
	return bel
}

// Outcome is what became of the trigger in one round.
type Outcome int

// The outcomes of a round's trigger.
const (
	NoTrigger      Outcome = iota // not a trigger round
	TriggerStarted                // at least one node's work was accepted
	TriggerQueued                 // no work accepted; queued by the persistent trigger
	TriggerMissed                 // no work accepted and nothing queued it
	TriggerSkipped                // missed: an earlier run still ran (OverlapSkip, OverlapBufferOne)
)

// RoundView is one round as Trace shows it, valid only during the call.
type RoundView struct {
	Round     int     // t
	Leader    int     // the record's leader after the handover step
	Token     int     // the record's fencing token
	Handover  bool    // a standby took over in this round
	Active    int     // reachable nodes that believe they lead
	Accepted  int     // active nodes whose work was accepted
	Trigger   Outcome // what became of this round's trigger
	Dequeued  int     // queued batches started in this round
	Expired   int     // queued batches missed in this round, past the catch-up window
	Collapsed int     // queued batches missed in this round, run once for the latest slot instead (CatchUpOnce)
	Skipped   int     // queued batches missed in this round: a run still ran, or started instead (Overlap)
	Cancelled int     // running batches stopped in this round by a new start (OverlapCancelOther)
	Cut       int     // started batches cut mid-run in this round: the first round a part of them went unwritten (Stats.PartialBatches)

	Deduplicating bool // the store refuses a second start of a slot (IdempotencyKey)
	Reread        bool // believers re-read the record at the end of this round

	reach     *Reachability
	believers []believer
	gaveUp    bool // the record's leader has given up
}

// Nodes is the number of nodes.
func (v *RoundView) Nodes() int { return v.reach.Nodes() }

// Reachable reports whether node could reach the record in this round.
func (v *RoundView) Reachable(node int) bool { return v.reach.Reachable(node) }

// Belief reports whether node believes it leads in this round, and the
// fencing token it holds if so.
func (v *RoundView) Belief(node int) (token int, believes bool) {
	if node == v.Leader && !v.gaveUp {
		return v.Token, true
	}
	for _, b := range v.believers {
		if b.node == node {
			return b.token, true
		}
	}
	return 0, false
}
