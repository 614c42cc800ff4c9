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
// period, so only the first slot of a stretch can meet a running run.

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

// overlapTraits is what an overlap policy does, a row of overlapTable.
// A policy that neither buffers nor cancels skips; one with no traits at
// all (allow) starts every slot beside the running runs.
type overlapTraits struct {
	name    string // its Param value name
	buffers bool   // a slot due while a run still runs waits in the persistent trigger's queue
	limit   int    // with buffers, how many slots wait at most, the others skipped; 0: no limit
	skips   bool   // a slot can be missed because a run still runs or another starts instead (Stats.Skipped)
	cancels bool   // a new start stops every running run
}

// overlapTable is the policies' traits, indexed by OverlapPolicy. It is a
// function so that the package keeps no mutable globals.
func overlapTable() [NumOverlapPolicies]overlapTraits {
	return [...]overlapTraits{
		OverlapAllow:       {name: "allow"},
		OverlapSkip:        {name: "skip", skips: true},
		OverlapBufferOne:   {name: "buffer-one", buffers: true, limit: 1, skips: true},
		OverlapBufferAll:   {name: "buffer-all", buffers: true},
		OverlapCancelOther: {name: "cancel-other", skips: true, cancels: true},
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

// traits returns p's row of overlapTable.
func (p OverlapPolicy) traits() overlapTraits { return overlapTable()[p] }

// Buffers reports whether a slot of c can wait in the persistent
// trigger's queue for a running run to end: its batches take time and its
// overlap policy buffers.
func (c *Config) Buffers() bool { return c.BatchLen > 1 && c.Overlap.traits().buffers }

// lives reports whether run r's process lives in the stretch being run.
func (x *state) lives(r batchRun) bool {
	return !r.dead && !(x.reach.down[r.node] && x.fails(r.node, Stops))
}

// runningEnd is the last round of the runs that still run in round t, or 0
// if none does.
func (x *state) runningEnd(t int) int {
	end, i := 0, 0
	for _, g := range x.groups {
		for _, r := range x.runs[i : i+g.runs] {
			if x.lives(r) && g.start+x.c.BatchLen-1 >= t {
				end = max(end, g.start+x.c.BatchLen-1)
				break
			}
		}
		i += g.runs
	}
	return end
}

// buffers reports whether the overlap policy waits for a running run.
func (x *state) buffers() bool { return x.c.Buffers() }

// overlapCut returns the last round of the stretch from t, at most last,
// such that every overlap decision falls on a stretch's first round: a
// buffered slot starts the round after the run before it ends, and a slot
// cancels a run in the round it falls due. accepting says whether a node
// can start batches in the stretch.
func (x *state) overlapCut(t, last int, accepting bool) int {
	run := x.runningEnd(t)
	if accepting && x.queued > 0 && !(x.buffers() && run >= t) { // a queued slot starts in round t
		run = max(run, t+x.c.BatchLen-1)
	}
	switch {
	case x.buffers() && run >= t:
		return min(last, run)
	case x.c.Overlap.traits().cancels && x.nextTrigger > t && x.nextTrigger <= run:
		return min(last, x.nextTrigger-1)
	}
	return last
}

// overlapStarts is step 5 of a stretch under an overlap policy, when a node
// can start batches (accepted > 0): it starts, queues or skips the queued
// slots and those due in the stretch, counts what the runs write, and
// returns the view's trigger fields.
func (x *state) overlapStarts(t, last, accepted int, working bool) RoundView {
	c, o := &x.c, x.c.Overlap.traits()
	var v RoundView
	run := x.runningEnd(t)
	first := x.nextTrigger
	k, after := stepsThrough(first, last, c.Period)
	slotNow := k > 0 && first == t
	dequeued := 0
	if x.queued > 0 && !(x.buffers() && run >= t) {
		v.Expired, v.Collapsed = x.catchUp(t, slotNow)
		n := x.queued
		switch {
		case n == 0: // every queued slot was past the catch-up window
		case o.buffers:
			dequeued = x.dequeue(t, 1, accepted)
			if o.limit > 0 && x.queued > o.limit { // the next wait; the others are skipped
				v.Skipped = x.queued - o.limit
				x.skip(v.Skipped)
				x.queued = o.limit
			}
		case !o.cancels: // skip: the earliest runs, unless a run still runs
			if run < t {
				dequeued = x.dequeue(t, 1, accepted)
			}
			v.Skipped = x.queued
			x.skip(v.Skipped)
			x.queued = 0
		default: // cancel: the latest runs, unless a slot falls due now
			v.Skipped = n - 1 + b2i(slotNow)
			x.skip(v.Skipped)
			x.dropQueued(v.Skipped)
			if !slotNow {
				v.Cancelled = x.cancelRuns(t)
				dequeued = x.dequeue(t, 1, accepted)
			}
			x.queued = 0
		}
		if dequeued > 0 {
			run = max(run, t+c.BatchLen-1)
		}
		v.Dequeued = dequeued
	} else if x.queued > 0 && o.limit > 0 { // a run still runs: a backlog keeps limit slots waiting
		v.Expired, v.Collapsed = x.catchUp(t, slotNow)
		if x.queued > o.limit { // the earliest wait; the others are skipped
			v.Skipped = x.queued - o.limit
			x.skip(v.Skipped)
			x.queued = o.limit
		}
	}
	started := k
	if k > 0 {
		x.nextTrigger = after
		v.Trigger = TriggerStarted
		if run >= first { // a run still runs: the first slot waits, is skipped, or stops it
			switch {
			case o.cancels:
				v.Cancelled += x.cancelRuns(t)
			case !o.buffers || o.limit > 0 && x.queued >= o.limit:
				x.skip(1)
				started--
				v.Trigger = TriggerSkipped
			default: // buffered, in the queue
				x.enqueue(first, 1)
				started--
				v.Trigger = TriggerQueued
			}
		}
		x.st.Started += started
		x.extraStarts(started * (accepted - 1))
	}
	x.batches(last, first+(k-started)*c.Period, started, dequeued, working)
	return v
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

// cancelRuns stops, in round t, every run still going: their parts from t
// up to the run's last round are missed (those due after it are not
// counted, as with any run). It returns how many running batches it
// stopped.
func (x *state) cancelRuns(t int) (cancelled int) {
	i := 0
	for _, g := range x.groups {
		for _, r := range x.runs[i : i+g.runs] {
			if x.lives(r) {
				cancelled += g.slots
				break
			}
		}
		x.countParts(&g, min(g.start+x.c.BatchLen-1, x.c.Rounds)-t+1, 0)
		i += g.runs
	}
	x.groups, x.runs = x.groups[:0], x.runs[:0]
	return cancelled
}
