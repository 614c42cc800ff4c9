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
	reach     Reachability
	believers []believer  // stale believers
	outage    GroupOutage // the seed's schedule, kept here so it needs no allocation
}

// Run runs c with the seed's failure scenario, c.Schedule().
func Run(c Config) (Stats, error) {
	var r Runner
	return r.Run(c)
}

// Run runs c with the seed's failure scenario, c.Schedule().
func (r *Runner) Run(c Config) (Stats, error) {
	if err := c.Validate(); err != nil {
		return Stats{}, err
	}
	r.outage = *c.Schedule()
	return r.run(&c, &r.outage, nil), nil
}

// RunSchedule runs c with the failure schedule s instead of the seed's
// outage; c.Outage, c.Start and c.Down are then not used.
func (r *Runner) RunSchedule(c Config, s Schedule) (Stats, error) {
	if err := c.Validate(); err != nil {
		return Stats{}, err
	}
	return r.run(&c, s, nil), nil
}

// Trace runs c with schedule s like RunSchedule and calls observe after
// each round's trigger step, before the re-read, with a view of that round.
func (r *Runner) Trace(c Config, s Schedule, observe func(*RoundView)) (Stats, error) {
	if err := c.Validate(); err != nil {
		return Stats{}, err
	}
	return r.run(&c, s, observe), nil
}

// run is the round loop, run stretch by stretch. Within a stretch every
// round behaves like its first: reachability is fixed (the schedule is
// called only where it changes), no handover falls due, and no believer
// drops out before the stretch's last round. So the first round is run in
// full and the others are counted in bulk: a run costs per event, not per
// round, and a round costs the same whatever the node count, touching only
// the record's leader and the nodes that believe they lead. Observed runs
// use stretches of one round.
func (r *Runner) run(c *Config, s Schedule, observe func(*RoundView)) Stats {
	reach := &r.reach
	reach.reset(c.Nodes)
	change := s.Begin(reach)
	down := reach.down

	// The shared durable record. Node 0 leads and believes it; nobody else
	// believes yet.
	leader, renewed, token := 0, 0, 1
	bel := r.believers[:0]

	var st Stats
	queued, queuedSum := 0, 0 // batches waiting and the sum of their trigger rounds
	nextTrigger := c.Period

	for t := 1; t <= c.Rounds; {
		for t == change {
			change = s.Apply(t, reach)
		}

		// 1. Renew.
		if !down[leader] {
			renewed = t
		}

		// 2. Handover.
		handover := false
		if t-renewed >= c.Lease && (!c.Quorum || 2*reach.count > c.Nodes) {
			if next := reach.lowestReachableExcept(leader); next >= 0 { // C1
				st.HandoverRounds += t - renewed
				st.Handovers++
				bel = handOver(bel, leader, token, next)
				leader, renewed = next, t
				token++
				handover = true
			}
		}

		// 3. Count believers, 4. fence. The leader's work is accepted when
		// it is reachable; stale believers' tokens are older than the
		// record's, so fencing refuses theirs. Reachable stale believers
		// drop out at the next re-read.
		stale := 0
		for _, b := range bel {
			stale += b2i(!down[b.node])
		}
		leaderUp := b2i(!down[leader])
		active, accepted := leaderUp+stale, leaderUp
		if !c.Fencing {
			accepted += stale
		}

		// The stretch t … last.
		last := min(change-1, c.Rounds)
		if observe != nil {
			last = t
		}
		if down[leader] && renewed+c.Lease > t {
			last = min(last, renewed+c.Lease-1) // the lease expires after last
		}
		reread := 0 // the round whose re-read drops the stale believers
		if stale > 0 {
			reread = (t + c.Renewal - 1) / c.Renewal * c.Renewal
			last = min(last, reread)
		}
		n := last - t + 1
		if active > 1 {
			st.TwoLeaderRounds += n
		} else if active == 0 {
			st.LeaderlessRounds += n
		}
		st.Rejected += n * (active - accepted)
		if !down[leader] {
			renewed = last
		}

		// 5. Trigger, at every multiple of the period in the stretch (C7).
		first := nextTrigger
		outcome := NoTrigger
		if k, after := stepsThrough(nextTrigger, last, c.Period); k > 0 {
			nextTrigger = after
			switch {
			case accepted > 0:
				st.Started += k
				st.DoubleStarts += k * (accepted - 1)
				outcome = TriggerStarted
			case c.PersistentTrigger:
				queued += k
				queuedSum += k*first + c.Period*(k*(k-1)/2)
				outcome = TriggerQueued
			default:
				st.Missed += k
				outcome = TriggerMissed
			}
		}
		dequeued := 0
		if queued > 0 && accepted > 0 { // C2, C3, C4, C5: all start in round t
			st.Started += queued
			st.DoubleStarts += queued * (accepted - 1)
			st.DelayedRounds += queued*t - queuedSum
			dequeued, queued, queuedSum = queued, 0, 0
		}

		if observe != nil {
			observe(&RoundView{
				Round: t, Leader: leader, Token: token, Handover: handover,
				Active: active, Accepted: accepted, Trigger: outcome,
				Dequeued: dequeued, Reread: t%c.Renewal == 0,
				reach: reach, believers: bel,
			})
		}

		// 6. Re-read. Re-reads before the stretch's last round find no
		// reachable stale believer: the stretch ends at the first that does.
		if reread == last {
			kept := bel[:0]
			for _, b := range bel {
				if down[b.node] {
					kept = append(kept, b)
				}
			}
			bel = kept
		}
		t = last + 1
	}
	st.Unresolved = queued // C6
	r.believers = bel
	return st
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
