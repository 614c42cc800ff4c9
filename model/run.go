package model

// believer is a node that believes it leads but is no longer the record's
// leader, with the fencing token it was handed when it took over. The
// record's leader always believes and always holds the current token, so
// it is not listed.
type believer struct {
	node, token int
}

// Runner runs configurations of the round model. It keeps its scratch space
// between runs, so a run allocates nothing once the Runner has grown to the
// largest node count it has seen. A Runner is not safe for concurrent use;
// give each goroutine its own.
type Runner struct {
	state
	outage GroupOutage // the publication's schedule, kept here so it needs no allocation
}

// state is a run in progress: who can reach the shared record, what the
// record and the believers hold, the queue and the counts so far.
type state struct {
	c     Config
	reach Reachability
	t     int // the first round of the next stretch

	// The shared durable record, and the stale believers.
	leader, renewed, token int
	believers              []believer

	queued, queuedSum int // batches waiting and the sum of their trigger rounds
	nextTrigger       int // the next round in which the batch must start
	st                Stats

	dropStale bool // the re-read at the end of the latest stretch drops stale believers

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
	x.begin()
	change := s.Begin(&x.reach)
	for x.t <= c.Rounds {
		for x.t == change {
			change = s.Apply(x.t, &x.reach)
		}
		switch {
		case observe == nil || x.t > last:
			x.stretch(change-1, nil)
		case x.t < first:
			x.stretch(min(change, first)-1, nil)
		default:
			x.stretch(x.t, &x.view)
			observe(x.observed())
		}
		if x.dropStale {
			x.reread()
		}
	}
	x.st.Unresolved = x.queued // C6
}

// begin sets up a run of x.c: every node reachable, node 0 leading and
// believing it, nobody else believing yet, nothing queued.
func (x *state) begin() {
	c := &x.c
	x.reach.reset(c.Nodes)
	x.t, x.leader, x.renewed, x.token = 1, 0, 0, 1
	x.believers = x.believers[:0]
	x.queued, x.queuedSum, x.nextTrigger = 0, 0, c.Period
	x.st = Stats{}
}

// stretch runs steps 1 to 5 of the rounds t … last, where last is at most
// end: the first round in full, the others counted in bulk. It leaves t at
// the round after last and, if view is not nil, records there what each
// round of the stretch saw.
func (x *state) stretch(end int, view *RoundView) {
	c, down, t := &x.c, x.reach.down, x.t

	// A settled stretch, the usual one between failures: the leader is
	// reachable, nobody else believes it leads and nothing is queued. The
	// leader renews every round and starts every batch; nothing else
	// happens.
	if !down[x.leader] && len(x.believers) == 0 && x.queued == 0 {
		last := min(end, c.Rounds)
		k, after := stepsThrough(x.nextTrigger, last, c.Period)
		x.st.Started += k
		x.renewed, x.nextTrigger, x.t, x.dropStale = last, after, last+1, false
		if view != nil {
			*view = RoundView{Active: 1, Accepted: 1, Trigger: started(k)}
		}
		return
	}

	// 1. Renew, or 2. hand over once the lease has expired. A reachable
	// leader renews every round, so its lease never expires.
	handover := false
	if !down[x.leader] {
		x.renewed = t
	} else if t-x.renewed >= c.Lease && (!c.Quorum || 2*x.reach.count > c.Nodes) {
		if next := x.reach.lowestReachableExcept(x.leader); next >= 0 { // C1
			x.st.HandoverRounds += t - x.renewed
			x.st.Handovers++
			x.believers = handOver(x.believers, x.leader, x.token, next)
			x.leader, x.renewed = next, t
			x.token++
			handover = true
		}
	}

	// 3. Count believers, 4. fence. The leader's work is accepted when it
	// is reachable; stale believers' tokens are older than the record's,
	// so fencing refuses theirs. Reachable stale believers drop out at the
	// next re-read.
	stale := 0
	for _, b := range x.believers {
		stale += b2i(!down[b.node])
	}
	leaderUp := !down[x.leader]
	active, accepted := b2i(leaderUp)+stale, b2i(leaderUp)
	if !c.Fencing {
		accepted += stale
	}

	// The stretch ends before reachability changes, when the lease expires,
	// or with the re-read that drops the stale believers.
	last := min(end, c.Rounds)
	if !leaderUp && x.renewed+c.Lease > t {
		last = min(last, x.renewed+c.Lease-1)
	}
	x.dropStale = false
	if stale > 0 {
		if reread := (t + c.Renewal - 1) / c.Renewal * c.Renewal; reread <= last {
			last, x.dropStale = reread, true
		}
	}
	n := last - t + 1
	if active > 1 {
		x.st.TwoLeaderRounds += n
	} else if active == 0 {
		x.st.LeaderlessRounds += n
	}
	x.st.Rejected += n * (active - accepted)
	if leaderUp {
		x.renewed = last
	}

	// 5. Trigger, at every multiple of the period in the stretch (C7).
	first := x.nextTrigger
	trigger := NoTrigger
	if k, after := stepsThrough(first, last, c.Period); k > 0 {
		x.nextTrigger = after
		switch {
		case accepted > 0:
			x.st.Started += k
			x.st.DoubleStarts += k * (accepted - 1)
			trigger = TriggerStarted
		case c.PersistentTrigger:
			x.queued += k
			x.queuedSum += k*first + c.Period*(k*(k-1)/2)
			trigger = TriggerQueued
		default:
			x.st.Missed += k
			trigger = TriggerMissed
		}
	}
	dequeued := 0
	if x.queued > 0 && accepted > 0 { // C2, C3, C4, C5: all start in round t
		x.st.Started += x.queued
		x.st.DoubleStarts += x.queued * (accepted - 1)
		x.st.DelayedRounds += x.queued*t - x.queuedSum
		dequeued, x.queued, x.queuedSum = x.queued, 0, 0
	}
	x.t = last + 1
	if view != nil {
		*view = RoundView{Handover: handover, Active: active, Accepted: accepted, Trigger: trigger, Dequeued: dequeued}
	}
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
	v.Reread = v.Round%x.c.Renewal == 0
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

// handOver updates the stale believers when next takes over from leader,
// which held token: the old leader, still believing, becomes stale, and next,
// if it was a stale believer, now leads.
func handOver(bel []believer, leader, token, next int) []believer {
	for i := range bel {
		if bel[i].node == next {
			bel[i] = believer{node: leader, token: token}
			return bel
		}
	}
	return append(bel, believer{node: leader, token: token})
}

// Outcome is what became of the trigger in one round.
type Outcome int

// The outcomes of a round's trigger.
const (
	NoTrigger      Outcome = iota // not a trigger round
	TriggerStarted                // at least one node's work was accepted
	TriggerQueued                 // no work accepted; queued by the persistent trigger
	TriggerMissed                 // no work accepted and nothing queued it
)

// RoundView is one round as Trace shows it, valid only during the call.
type RoundView struct {
	Round    int     // t
	Leader   int     // the record's leader after the handover step
	Token    int     // the record's fencing token
	Handover bool    // a standby took over in this round
	Active   int     // reachable nodes that believe they lead
	Accepted int     // active nodes whose work was accepted
	Trigger  Outcome // what became of this round's trigger
	Dequeued int     // queued batches started in this round
	Reread   bool    // believers re-read the record at the end of this round

	reach     *Reachability
	believers []believer
}

// Nodes is the number of nodes.
func (v *RoundView) Nodes() int { return v.reach.Nodes() }

// Reachable reports whether node could reach the record in this round.
func (v *RoundView) Reachable(node int) bool { return v.reach.Reachable(node) }

// Belief reports whether node believes it leads in this round, and the
// fencing token it holds if so.
func (v *RoundView) Belief(node int) (token int, believes bool) {
	if node == v.Leader {
		return v.Token, true
	}
	for _, b := range v.believers {
		if b.node == node {
			return b.token, true
		}
	}
	return 0, false
}
