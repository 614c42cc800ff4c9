package model

// A slot can fall due while an earlier run of the batch still runs: with
// BatchLen over 1, after a late start from the queue, or beside queued
// slots starting together. Config.Overlap says what the scheduler then
// does; OverlapAllow is the model without a policy, every run beside the
// others. Under any other policy every decision falls on the first round
// of a stretch (overlapCut ends stretches so), where overlapStarts makes
// it:
//
//   - a run still runs in round s if it started before s, s is within its
//     BatchLen rounds, and its process lives (a crashed, stopped or
//     given-up node's run does not), whether or not its writes reach the
//     store;
//   - skip: a slot due while a run still runs is missed (skipped); of
//     queued slots starting together the earliest runs and the others are
//     skipped, all of them if a run still runs;
//   - buffer-one, buffer-all: the slot waits in the persistent trigger's
//     queue until the run ends, and queued slots start one at a time, the
//     earliest first, each when the one before ends; buffer-one keeps one
//     slot waiting at most and skips the others;
//   - cancel-other: a new start stops every running run in its round (its
//     remaining parts are missed); of queued slots starting together only
//     the latest runs, the others skipped, and all of them if a slot falls
//     due in the same round.
//
// A slot is due a period after the one before and a run lasts at most a
// period unless a pause made it longer; each slot a running run meets
// begins a stretch.

// OverlapPolicy is a value of Config.Overlap: what the scheduler does with
// a slot that falls due while an earlier run of the batch still runs.
type OverlapPolicy int

// The overlap policies, in the order of their Param values; each is a row
// of overlapTable.
const (
	OverlapAllow       OverlapPolicy = iota // start it beside the running one
	OverlapSkip                             // skip it: the slot is missed
	OverlapBufferOne                        // queue it to start when the run ends, one at most; the others are skipped
	OverlapBufferAll                        // queue every such slot, to start one after another
	OverlapCancelOther                      // stop the running one, and start it
	NumOverlapPolicies int           = iota // how many policies there are
)

// overlapRow is a policy's row of overlapTable: its name and its traits.
type overlapRow struct {
	name string // its Param value name
	overlapTraits
}

// overlapTraits is what an overlap policy does. A policy that neither
// buffers nor cancels skips; one with no traits at all (allow) starts
// every slot beside the running runs.
type overlapTraits struct {
	buffers bool // a slot due while a run still runs waits in the persistent trigger's queue
	limit   int  // with buffers, how many slots wait at most, the others skipped; 0: no limit
	skips   bool // a slot can be missed because a run still runs or another starts instead (Stats.Skipped)
	cancels bool // a new start stops every running run
}

// overlapTable is the policies' rows, indexed by OverlapPolicy. It is a
// function so that the package keeps no mutable globals.
func overlapTable() [NumOverlapPolicies]overlapRow {
	return [...]overlapRow{
		OverlapAllow:       {"allow", overlapTraits{}},
		OverlapSkip:        {"skip", overlapTraits{skips: true}},
		OverlapBufferOne:   {"buffer-one", overlapTraits{buffers: true, limit: 1, skips: true}},
		OverlapBufferAll:   {"buffer-all", overlapTraits{buffers: true}},
		OverlapCancelOther: {"cancel-other", overlapTraits{skips: true, cancels: true}},
	}
}

// overlapPolicyNames returns the policies' names, indexed by
// OverlapPolicy (Overlap.Names).
func overlapPolicyNames() []string {
	names := make([]string, NumOverlapPolicies)
	for p, o := range overlapTable() {
		names[p] = o.name
	}
	return names
}

// traits returns p's traits, from its row of overlapTable.
func (p OverlapPolicy) traits() overlapTraits { return overlapTable()[p].overlapTraits }

// decides reports whether the policy has anything to decide: a policy
// with no traits (allow) starts every slot whatever runs.
func (o *overlapTraits) decides() bool { return o.buffers || o.skips || o.cancels }

// overlap returns the traits c's run follows: its overlap policy's
// or, with instant batches, which never meet a running run, none.
func (c *Config) overlap() overlapTraits {
	if c.BatchLen == 1 {
		return overlapTraits{}
	}
	return c.Overlap.traits()
}

// Buffers reports whether a slot of c can wait in the persistent
// trigger's queue for a running run to end: its batches take time and its
// overlap policy buffers.
func (c *Config) Buffers() bool { return c.overlap().buffers }

// lives reports whether run r's process lives in the stretch being run.
func (x *state) lives(r batchRun) bool {
	return !r.dead && !(x.reach.down[r.node] && x.fails(r.node, Stops))
}

// runningEnd is the last round of the runs that still run in round t
// (through the stretch's last round, Rounds at most, for a frozen one,
// which passes no part while frozen), or 0 if none does.
func (x *state) runningEnd(t int) int {
	end := 0
	for _, r := range x.runs {
		switch {
		case !x.lives(r) || r.pos >= r.length:
		case x.paused(r):
			end = max(end, x.c.Rounds)
		default:
			end = max(end, t+r.length-r.pos-1)
		}
	}
	return end
}

// cutEnd is, under a cut policy, the last round of the runs the record's
// leader starts in round t to rerun or resume the cut batches, if its
// work is accepted (restartCut), or 0 if it starts none.
func (x *state) cutEnd(t int) int {
	if x.gaveUp || x.reach.down[x.leader] && !x.fails(x.leader, ReachesStore) {
		return 0
	}
	end, i := 0, 0
	for gi := range x.groups {
		g := &x.groups[gi]
		if x.isCut(g, x.runs[i:i+g.runs]) {
			n := x.c.BatchLen
			if x.c.OnCut == CutResume {
				n = x.counted(g) - g.written
			}
			end = max(end, t+n-1)
		}
		i += g.runs
	}
	return end
}

// overlapCut returns the last round of the stretch from t, at most last,
// such that every overlap decision falls on a stretch's first round: a
// buffered slot starts the round after the run before it ends, and a slot
// cancels a run in the round it falls due. accepting says whether a node
// can start batches in the stretch.
func (x *state) overlapCut(t, last int, accepting bool) int {
	run := x.runningEnd(t)
	if accepting && x.c.OnCut != CutNone { // a cut batch reruns or resumes from round t
		run = max(run, x.cutEnd(t))
	}
	if accepting && x.queued > 0 && !(x.overlap.buffers && run >= t) { // a queued slot starts in round t
		run = max(run, t+x.c.BatchLen-1)
	}
	if x.overlap.buffers && run >= t {
		last = min(last, run)
	}
	if next := x.nextTrigger + b2i(x.nextTrigger == t)*x.c.Period; next <= run { // the next slot the runs meet begins a stretch
		last = min(last, next-1)
	}
	return last
}

// overlapStarts is the trigger, in round t, where queued slots wait or
// the overlap policy decides, when a node can start batches (accepted of
// them): it starts, queues or skips the queued slots (startQueued), then
// decides the first of the k slots due from first on, if a run still
// runs then (meetRun). It records in v what became of them and returns
// how many of the k slots start.
func (x *state) overlapStarts(t, first, k, accepted int, v *triggerView) (started int) {
	run := x.startQueued(t, accepted, k > 0 && first == t, v)
	if k > 0 && run >= first {
		return k - x.meetRun(t, first, v)
	}
	return k
}

// startQueued starts, in round t, the queued slots that may start then,
// as the overlap policy has it (step 5, C2 to C5, and the policies
// above): a node can start them (accepted of them), and slotNow says a
// slot falls due in t. The catch-up window and the one run for the
// queued slots drop theirs first (catchUp). It records in v what became
// of them and returns the last round of the runs running in t once they
// started (0 if none, or where no policy decides).
func (x *state) startQueued(t, accepted int, slotNow bool, v *triggerView) (run int) {
	o := &x.overlap
	if x.decides {
		run = x.runningEnd(t)
	}
	switch {
	case x.queued == 0:
		return run
	case o.buffers && run >= t: // they wait for the run to end; a backlog keeps limit slots waiting
		if o.limit > 0 {
			v.expired, v.collapsed = x.catchUp(t, slotNow)
			x.keepQueued(o.limit, v)
		}
		return run
	}
	v.expired, v.collapsed = x.catchUp(t, slotNow)
	switch n := x.queued; {
	case n == 0: // every queued slot was past the catch-up window
	case o.buffers: // the earliest starts, the next waits
		v.dequeued = x.dequeue(t, 1, accepted)
		x.keepQueued(o.limit, v)
	case !o.skips: // every one starts, beside the others
		v.dequeued = x.dequeue(t, n, accepted)
	case !o.cancels: // the earliest starts, unless a run still runs; the others are skipped
		if run < t {
			v.dequeued = x.dequeue(t, 1, accepted)
		}
		v.skipped = x.queued
		x.skip(v.skipped)
		x.queued = 0
	default: // the latest starts and stops the running runs, unless a slot falls due now
		v.skipped = n - 1 + b2i(slotNow)
		x.skip(v.skipped)
		x.dropQueued(v.skipped)
		if !slotNow {
			v.cancelled = x.cancelRuns(t)
			v.dequeued = x.dequeue(t, 1, accepted)
		}
		x.queued = 0
	}
	if v.dequeued > 0 {
		run = max(run, t+x.c.BatchLen-1)
	}
	return run
}

// keepQueued skips all but the limit earliest queued slots (none with
// limit 0, no limit), and records in v how many it skipped.
func (x *state) keepQueued(limit int, v *triggerView) {
	if limit > 0 && x.queued > limit {
		v.skipped = x.queued - limit
		x.skip(v.skipped)
		x.queued = limit
	}
}

// meetRun is what becomes, in round t, of the slot due at first while a
// run still runs, as the overlap policy has it: it stops the running runs,
// waits in the queue, is skipped, or (with no traits) starts beside them.
// It records in v what became of it and returns 1 if it did not start
// then, else 0.
func (x *state) meetRun(t, first int, v *triggerView) int {
	o := &x.overlap
	switch {
	case o.cancels:
		v.cancelled += x.cancelRuns(t)
	case o.buffers && (o.limit == 0 || x.queued < o.limit):
		x.enqueue(first, 1)
		v.trigger = TriggerQueued
		return 1
	case o.skips:
		x.skip(1)
		v.trigger = TriggerSkipped
		return 1
	}
	return 0
}

// catchUp drops from the queue, in round t, the slots a node starting
// then may no longer run (step 5 of docs/model.md, C3 and C4): those past
// the catch-up window and, with catch_up_once, all but the latest (every
// one, if a slot falls due now, slotNow: that slot is the latest). Each is
// missed. It returns how many expired and how many it collapsed.
func (x *state) catchUp(t int, slotNow bool) (expired, collapsed int) {
	expired = x.expired(t)
	x.st.Missed += expired
	x.dropQueued(expired)
	if n := x.queued - 1 + b2i(slotNow); x.c.CatchUpOnce && n > 0 {
		x.st.Missed += n
		x.dropQueued(n)
		collapsed = n
	}
	return expired, collapsed
}

// dequeue starts, in round t, the n earliest queued slots on each of the
// accepted nodes (step 5, C2 and C5): each is late by t less its slot. It
// returns n.
func (x *state) dequeue(t, n, accepted int) int {
	x.st.Started += n
	x.st.DelayedRounds += n*t - x.queuedSum(n)
	x.extraStarts(n * (accepted - 1))
	x.dropQueued(n)
	return n
}

// skip counts n slots missed because a run still ran or started instead.
func (x *state) skip(n int) {
	x.st.Missed += n
	x.st.Skipped += n
}

// cancelRuns stops, in round t, every run still going: their parts from
// t up to the run's last round are missed (those due after it are not
// counted, as with any run), and their batches are not rerun or resumed;
// a cut batch that no run runs still waits for its rerun. It returns how
// many running batches it stopped.
func (x *state) cancelRuns(t int) (cancelled int) {
	i, keptGroups, keptRuns := 0, 0, 0
	for gi := range x.groups {
		g := &x.groups[gi]
		runs := x.runs[i : i+g.runs]
		i += g.runs
		running := false
		for _, r := range runs {
			running = running || x.lives(r) && r.pos < r.length
		}
		if !running {
			x.keepGroup(keptGroups, gi)
			keptRuns += copy(x.runs[keptRuns:], runs)
			keptGroups++
			continue
		}
		cancelled += g.slots
		for j := range runs {
			runs[j].dead = true
		}
		x.settle(g, runs)
	}
	x.groups, x.runs = x.groups[:keptGroups], x.runs[:keptRuns]
	return cancelled
}
