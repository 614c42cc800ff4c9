package model

import "fmt"

// ShedLock (protocols shedlock and shedlock-redis) elects no leader: each
// node's own scheduler fires the batch, node i fireOffset(i) rounds after
// each slot by its own clock, and the first to take the lock runs it, the
// others skipping that fire (docs/model.md, Lock protocols). The lock
// lasts a lease (lockAtMostFor) from its taking, whatever the run does; at
// the run's end it lasts until lock_at_least_for after its taking, if
// later. Under shedlock without using_db_time those times are the taker's
// clock's, compared with each node's own (a failure of kind skew puts a
// node's clock ahead or behind). So it has its own small run loop here,
// fed the same schedules, counting the same Stats; the engine's leader,
// believers and handovers play no part.

// shedRun is a run of a slot's batch by one node.
type shedRun struct {
	node, slot int // slot: the index of its slot in shedState.slots
	start      int // the round it took the lock in
	lockedAt   int // the same on the lock's clock (shedState.clock): ShedLock's locked_at
	done       int // the parts it has gone through, written or not
}

// shedSlot is a slot whose fires or runs are not over: its round, the
// fires still due, the runs still running, the runs started and, by
// part, how many runs wrote it (writers, a part of shedState.pool) and
// the round its last part was first written in (0: not yet).
type shedSlot struct {
	at, fires, running, runs, firstStart, lastWritten int
	writers                                           []int32
}

// shedNode is a node's fire to come: the round (Never: none) and its
// slot's index in shedState.slots.
type shedNode struct{ fireAt, slot int }

// shedState is a ShedLock run's scratch, kept by the Runner between runs
// so that a run allocates nothing once grown.
type shedState struct {
	nodes []shedNode
	runs  []shedRun
	slots []shedSlot
	pool  []int32 // the slots' writers, batch_len a slot, slot i's at i·batch_len
	// The lock: the round from which a node may take it, on the lock's
	// clock (clock), and its holder (the last to take it; −1: none yet).
	until, owner int
	// lead is the most rounds a node's clock is ahead in the run's
	// schedule (skewBounds): each slot opens that many rounds before its
	// round, so that a fire due earlier by a clock ahead finds it open;
	// skews says the schedule has failures of kind skew at all, so that
	// the fires to come are timed again at each of its changes.
	lead  int
	skews bool
}

// clock is round t on node's clock as the lock reads it: the node's own
// (t + its skew) where lock_until is written and compared on the nodes'
// clocks (shedlock without using_db_time), else the database's (or
// Redis's), the rounds themselves.
func (r *Runner) clock(node, t int) int {
	if r.c.Protocol.traits().nodeClocks && !r.c.UsingDbTime {
		return t + r.state.reach.ahead(node)
	}
	return t
}

// fireRound is the round in which node's scheduler fires slot sl by its
// clock, the slot's round + fireOffset on it, but not before round t.
func (r *Runner) fireRound(node int, sl *shedSlot, t int) int {
	return max(t, sl.at+r.c.fireOffset(node)-r.state.reach.ahead(node))
}

// fireOffset is the rounds after each slot at which node fires:
// node·FireSpread/(Nodes−1), rounded down.
func (c *Config) fireOffset(node int) int {
	if c.Nodes < 2 {
		return 0
	}
	return int(int64(node) * int64(c.FireSpread) / int64(c.Nodes-1))
}

// perFireRelation is checkRelations for a per-fire lock, and for the
// parameters only a per-fire lock takes: lock_at_least_for and
// fire_spread need one, using_db_time shedlock's JDBC provider; under
// one, lock_at_least_for is at most the lease (ShedLock's
// LockConfiguration refuses more), a slot's fires come before the next
// slot, and what the model's leader, scheduler and store do is refused,
// as ShedLock has none of it.
func (c *Config) perFireRelation(lock protocolTraits) error {
	if !lock.perFire {
		switch {
		case c.LockAtLeastFor > 0:
			return &RelationError{"%[1]s %[3]s needs %[2]s shedlock or shedlock-redis: only ShedLock holds a lock after a run's end (%[2]s is %[4]s)", []Param{LockAtLeastFor, Protocol}, []int{c.LockAtLeastFor, int(c.Protocol)}}
		case c.FireSpread > 0:
			return &RelationError{"%[1]s %[3]s needs %[2]s shedlock or shedlock-redis: only under ShedLock does each node fire the batch itself (%[2]s is %[4]s)", []Param{FireSpread, Protocol}, []int{c.FireSpread, int(c.Protocol)}}
		}
	}
	if c.UsingDbTime && !lock.nodeClocks {
		return &RelationError{"%[1]s needs %[2]s shedlock: only ShedLock's JDBC provider compares lock_until on a clock the option chooses (%[2]s is %[4]s)", []Param{UsingDbTime, Protocol}, []int{1, int(c.Protocol)}}
	}
	if !lock.perFire {
		return nil
	}
	switch {
	case c.LockAtLeastFor > c.Lease:
		return &RelationError{"%[1]s %[3]s must be at most %[2]s %[4]s, as ShedLock requires (lockAtLeastFor is longer than lockAtMostFor)", []Param{LockAtLeastFor, Lease}, []int{c.LockAtLeastFor, c.Lease}}
	case c.FireSpread >= c.Period:
		return &RelationError{"%[1]s %[3]s must be shorter than %[2]s %[4]s: a node's fire of a slot comes before the next slot", []Param{FireSpread, Period}, []int{c.FireSpread, c.Period}}
	}
	for _, p := range []Param{Fencing, PersistentTrigger, IdempotencyKey, Overlap, OnCut, RunsIn, Quorum, Drift} {
		if v := c.Get(p); v != 0 {
			return &RelationError{"%[1]s %[3]s is refused under %[2]s %[4]s: ShedLock's nodes fire the batch themselves, with no leader, queue, overlap policy, fencing or drifting lease count the model would follow (give the default)", []Param{p, Protocol}, []int{v, int(c.Protocol)}}
		}
	}
	return nil
}

// runShedLock runs r.c, a per-fire protocol, with schedule s, round by
// round where a run or a fire is due and from change to change between,
// and leaves the statistics in r.st.
func (r *Runner) runShedLock(s Schedule) {
	x, c, z := &r.state, &r.c, &r.shed
	x.begin()
	if !r.kindsKnown {
		r.kinds, r.kindsKnown = readKinds(), true
	}
	x.reach.failAs(&r.kinds, c.toggles())
	if cap(z.nodes) < c.Nodes {
		z.nodes = make([]shedNode, c.Nodes)
	}
	z.nodes = z.nodes[:c.Nodes]
	for i := range z.nodes {
		z.nodes[i] = shedNode{Never, -1}
	}
	z.runs, z.slots, z.until, z.owner = z.runs[:0], z.slots[:0], 0, -1
	z.lead, _, z.skews = skewBounds(s, &r.kinds)
	x.change = s.Begin(&x.reach)
	nextSlot := c.Period - z.lead // slots open lead rounds early: lead < period (validateSchedule)
	for t := 1; t <= c.Rounds; {
		for t == x.change {
			x.reach.at = t
			x.change = s.ChangeAt(t, &x.reach)
			if z.skews {
				r.retimeFires(t)
			}
		}
		if t == nextSlot {
			nextSlot += c.Period
			if at := t + z.lead; at <= c.Rounds { // a slot after the run's last round is not fired, even by a clock ahead
				r.shedSlotDue(t, at)
			} else {
				nextSlot = Never
			}
		}
		r.shedRound(t)
		next := min(x.change, nextSlot)
		if len(z.runs) > 0 {
			next = t + 1
		}
		for _, n := range z.nodes {
			if n.fireAt != Never {
				next = min(next, max(n.fireAt, t+1))
			}
		}
		t = next
	}
	for i := range z.slots { // parts due after the last round, or that a run still going has not reached, are not counted
		sl := &z.slots[i]
		if sl.writers == nil {
			continue
		}
		f := c.BatchLen
		for _, run := range z.runs {
			if run.slot == i {
				f = min(f, run.done)
			}
		}
		sl.writers = sl.writers[:max(f, 0)]
		r.closeSlot(sl)
	}
}

// shedSlotDue opens, in round t, the slot of round at: every node's fire
// of it is due fireOffset rounds after it by the node's clock
// (fireRound), but a node's whose earlier fire is still to come (it is
// frozen: a skew is bounded so that no other fire is, validateSchedule),
// which fires once, for the earlier slot.
func (r *Runner) shedSlotDue(t, at int) {
	c, z := &r.c, &r.shed
	b := c.BatchLen
	r.dropClosed()
	i := len(z.slots)
	if len(z.pool) < (i+1)*b {
		z.pool = append(z.pool, make([]int32, (i+1)*b-len(z.pool))...)
		for j := range z.slots { // the open slots' writers move with the pool: a write to the old array would be lost
			if z.slots[j].writers != nil {
				z.slots[j].writers = z.pool[j*b : (j+1)*b]
			}
		}
	}
	w := z.pool[i*b : (i+1)*b]
	clear(w)
	z.slots = append(z.slots, shedSlot{at: at, writers: w})
	sl := &z.slots[i]
	for n := range z.nodes {
		if z.nodes[n].fireAt == Never {
			z.nodes[n] = shedNode{r.fireRound(n, sl, t), i}
			sl.fires++
		}
	}
}

// retimeFires times again, in round t, every fire still to come by its
// node's clock as the schedule's changes left it: a clock stepped forward
// fires sooner (at once if it passed the fire), one stepped back later.
func (r *Runner) retimeFires(t int) {
	z := &r.shed
	for n := range z.nodes {
		if f := &z.nodes[n]; f.fireAt != Never && f.fireAt >= t {
			f.fireAt = r.fireRound(n, &z.slots[f.slot], t)
		}
	}
}

// shedRound is round t: the runs of nodes that stop end; the fires due
// are made, node by node, the first reachable one finding the lock free
// taking it; every run not frozen goes through its next part, written if
// its node reaches the store, and ends after its last, freeing the lock
// as the protocol says; rounds with two runs going count as two-leader
// rounds.
func (r *Runner) shedRound(t int) {
	x, c, z := &r.state, &r.c, &r.shed
	for i := 0; i < len(z.runs); {
		if n := z.runs[i].node; x.reach.down[n] && x.fails(n, Stops) {
			if x.fails(n, Releases) { // a clean stop runs the unlock of its finally
				r.shedUnlock(&z.runs[i], t)
			}
			r.endRun(i)
			continue
		}
		i++
	}
	for n := range z.nodes {
		f := &z.nodes[n]
		if f.fireAt > t {
			continue
		}
		down := x.reach.down[n] && !x.fails(n, Skews)          // a skewed node is up, its clock off
		if down && x.fails(n, Freezes) && !x.fails(n, Stops) { // it fires as it wakes
			continue
		}
		sl := &z.slots[f.slot]
		sl.fires--
		if now := r.clock(n, t); !down && z.until <= now && !r.shedRunning(n) {
			z.until, z.owner = now+c.Lease, n
			if sl.runs == 0 {
				sl.firstStart = t
			}
			sl.runs++
			sl.running++
			z.runs = append(z.runs, shedRun{node: n, slot: f.slot, start: t, lockedAt: now})
		}
		f.fireAt = Never
		r.maybeClose(sl)
	}
	going := 0
	for i := 0; i < len(z.runs); {
		run := &z.runs[i]
		n := run.node
		down := x.reach.down[n] && !x.fails(n, Skews)
		if down && x.fails(n, Freezes) {
			i++
			continue
		}
		going++
		sl := &z.slots[run.slot]
		if !down || x.fails(n, ReachesStore) {
			sl.writers[run.done]++
			if run.done == c.BatchLen-1 && sl.lastWritten == 0 {
				sl.lastWritten = t
			}
		}
		run.done++
		if run.done == c.BatchLen {
			if !down {
				r.shedUnlock(run, t+1)
			}
			r.endRun(i)
			continue
		}
		i++
	}
	if going > 1 {
		x.st.TwoLeaderRounds++
		x.twoLeader.count(&x.st.TwoLeaderEpisodes, t, 1)
	}
}

// shedRunning reports whether node runs the batch now: its scheduler
// does not fire it beside its own run.
func (r *Runner) shedRunning(node int) bool {
	for _, run := range r.shed.runs {
		if run.node == node {
			return true
		}
	}
	return false
}

// shedUnlock is run's unlock in round now: lock_until becomes
// max(now, locked_at + lock_at_least_for), on the lock's clock, if the
// lock is still its node's (JDBC's locked_by), or whoever holds it
// (releasesAny).
func (r *Runner) shedUnlock(run *shedRun, now int) {
	z := &r.shed
	if z.owner == run.node || r.c.Protocol.traits().releasesAny {
		z.until = max(r.clock(run.node, now), run.lockedAt+r.c.LockAtLeastFor)
	}
}

// endRun removes the i-th run, and closes its slot if that was the last
// thing it waited for.
func (r *Runner) endRun(i int) {
	z := &r.shed
	sl := &z.slots[z.runs[i].slot]
	sl.running--
	z.runs = append(z.runs[:i], z.runs[i+1:]...)
	r.maybeClose(sl)
}

// maybeClose closes sl once no fire or run of it is left.
func (r *Runner) maybeClose(sl *shedSlot) {
	if sl.fires == 0 && sl.running == 0 && sl.writers != nil {
		r.closeSlot(sl)
	}
}

// closeSlot counts a slot into the statistics, once: started or missed,
// its extra runs, its parts (those its writers count) written by none or
// by more than one run, and
// its lateness, its last part first written after its first run's start
// + batch_len − 1 (a pause held it).
func (r *Runner) closeSlot(sl *shedSlot) {
	if sl.writers == nil {
		return
	}
	st, c := &r.st, &r.c
	if sl.runs == 0 {
		st.Missed++
	} else {
		st.Started++
		st.DoubleStarts += sl.runs - 1
		missed := 0
		for _, w := range sl.writers[:min(len(sl.writers), c.Rounds-sl.firstStart+1)] { // parts due after the last round are not counted
			switch {
			case w == 0:
				missed++
			case w > 1:
				st.DoubledParts += int(w) - 1
			}
		}
		st.MissedParts += missed
		st.PartialBatches += b2i(missed > 0)
		if due := sl.firstStart + c.BatchLen - 1; sl.lastWritten > due {
			st.LateBatches++
			st.LateRounds += sl.lastWritten - due
		}
	}
	sl.writers = nil
}

// dropClosed drops the closed slots before the first open one, moving
// the open ones, their writers and the indices that name them to the
// front, so that a run keeps as many slots as are open at once.
func (r *Runner) dropClosed() {
	z, b := &r.shed, r.c.BatchLen
	k := 0
	for k < len(z.slots) && z.slots[k].writers == nil {
		k++
	}
	if k == 0 {
		return
	}
	n := copy(z.slots, z.slots[k:])
	z.slots = z.slots[:n]
	for j := range z.slots {
		if z.slots[j].writers != nil {
			copy(z.pool[j*b:(j+1)*b], z.pool[(j+k)*b:(j+k+1)*b])
			z.slots[j].writers = z.pool[j*b : (j+1)*b]
		}
	}
	for i := range z.runs {
		z.runs[i].slot -= k
	}
	for i := range z.nodes {
		if z.nodes[i].fireAt != Never {
			z.nodes[i].slot -= k
		}
	}
}

// calmHeld is how long after a run's start a per-fire lock is free again
// with no failure: max(batch_len, lock_at_least_for), or the lease if the
// batch outlasts it.
func (c *Config) calmHeld() int {
	if c.BatchLen > c.Lease {
		return c.Lease
	}
	return max(c.BatchLen, c.LockAtLeastFor)
}

// calmRuns is how many times a slot runs under a per-fire lock with no
// failure, from a free lock: each fire at or after the lock's end runs it
// again (0 under the other protocols).
func (c *Config) calmRuns() int {
	if !c.Protocol.traits().perFire {
		return 0
	}
	runs, free := 1, c.calmHeld()
	for n := 1; n < c.Nodes; n++ {
		if at := c.fireOffset(n); at >= free {
			runs, free = runs+1, at+c.calmHeld()
		}
	}
	return runs
}

// PerFire reports whether p elects no leader, each node firing the batch
// itself (shedlock, shedlock-redis): a slot can run more than once, or be
// missed, with no failure at all, so what an outage costs is what its run
// costs beyond the same run without it.
func (p LockProtocol) PerFire() bool { return p.traits().perFire }

// CalmRuns is how many times each slot runs under a per-fire lock with no
// failure (Warnings says so when more than once); 0 under the other
// protocols.
func (c *Config) CalmRuns() int { return c.calmRuns() }

// eachFailure calls see with every failure s's windows or processes
// give (a schedule of another type gives none).
func eachFailure(s Schedule, see func(Failure)) {
	switch s := s.(type) {
	case Windows:
		for _, w := range s {
			see(w.Failure)
		}
	case *Alternating:
		for _, p := range s.Also {
			see(p.Failure)
		}
	}
}

// skewBounds is the most rounds a failure of kind skew in s puts a node's
// clock ahead (lead) and behind (lag), at most MaxRounds, 0 if none does,
// and whether any
// failure of s skews at all, as k reads the table of kinds.
func skewBounds(s Schedule, k *kindsRead) (lead, lag int, skews bool) {
	eachFailure(s, func(f Failure) {
		if k.does[f.Kind]&Skews != 0 {
			v := max(-MaxRounds, min(MaxRounds, f.Value)) // so that no sum below overflows
			lead, lag, skews = max(lead, v), max(lag, -v), true
		}
	})
	return lead, lag, skews
}

// SkewError is a schedule with failures of kind skew that a run of c
// cannot hold: under a protocol none of whose mechanisms compares one
// node's clock with another's (Period 0), or with the fire spread plus
// the most a clock is ahead (Lead) and the most one is behind (Lag) not
// less than the period, so that a node's fire of a slot could come after
// the next slot opens.
type SkewError struct {
	Failure                       Failure // the first failure of kind skew
	Protocol                      LockProtocol
	FireSpread, Lead, Lag, Period int
}

func (e *SkewError) Error() string {
	if e.Period == 0 {
		return fmt.Sprintf("failure %s needs protocol shedlock, shedlock-redis, quartz or db-scheduler: under protocol %s no mechanism compares one node's clock with another's (docs/model.md, Clock skew)", e.Failure, Protocol.AppendValue(nil, int(e.Protocol)))
	}
	return fmt.Sprintf("failure %s: fire_spread %d + the most a clock is ahead, %d, + the most one is behind, %d, must be less than period %d, so that a node fires each slot before the next one opens", e.Failure, e.FireSpread, e.Lead, e.Lag, e.Period)
}

// ValidateSchedule returns an error for a schedule no run of c can hold:
// a *WindowError for a window with a negative node or an unknown kind, a
// *SkewError for failures of kind skew under a protocol that reads no
// node's clock against another's, or too far apart for the period; else
// nil.
func (c *Config) ValidateSchedule(s Schedule) error {
	k := readKinds()
	return c.validateSchedule(s, &k)
}

// validateSchedule is ValidateSchedule with the table of kinds read.
func (c *Config) validateSchedule(s Schedule, k *kindsRead) error {
	if ws, ok := s.(Windows); ok {
		if err := ws.valid(); err != nil {
			return err
		}
	}
	lead, lag, skews := skewBounds(s, k)
	if !skews {
		return nil
	}
	var first Failure
	eachFailure(s, func(f Failure) {
		if k.does[f.Kind]&Skews != 0 && first.Kind == AsConfigured {
			first = f
		}
	})
	switch {
	case c.Protocol.traits().detectsOnOwnClock:
	case !c.Protocol.traits().perFire:
		return &SkewError{Failure: first, Protocol: c.Protocol}
	case c.FireSpread+lead+lag >= c.Period: // each at most MaxRounds: no overflow
		return &SkewError{Failure: first, Protocol: c.Protocol, FireSpread: c.FireSpread, Lead: lead, Lag: lag, Period: c.Period}
	}
	return nil
}
