package model

// A batch that takes time (BatchLen rounds) writes a part of its lines in
// each round of its length, in order, on the node that started it. The
// runs started in one round form a group: they run the same batches (the
// round's own slot and the queued ones it started), so a part of each
// batch is written once for every run that writes it. A run passes one
// part a round while its process lives (its node has not crashed, stopped
// or, running in the leader's process, given up at its renew deadline
// since the start), writing it if it reaches the store (it is up, or cut
// off from the record only) and, under fencing, its token is still the
// record's, else losing it; a frozen run (Pause) passes none: it writes
// its remaining parts in order when it wakes, later. Belief does not
// matter once a run started: a process that lost its lease writes on
// until something stops it.
//
// A group keeps the parts of its batches written so far as spans, and
// counts as missed the parts below its settled frontier, which no run
// still to write them will reach, that nobody wrote. A batch whose runs
// all ended before their length (their process gone, or a newer token
// fencing them out) with parts unwritten is cut: OnCut says whether the
// next leader runs it again (rerun) or writes only what nobody wrote
// (resume).

// CutPolicy is a value of Config.OnCut: what becomes of a batch cut
// mid-run.
type CutPolicy int

// The cut policies, in the order of their Param values.
const (
	CutNone        CutPolicy = iota // its unwritten parts are missed
	CutRerun                        // the next leader runs the whole batch again
	CutResume                       // the next leader writes only the parts nobody wrote
	NumCutPolicies int       = iota // how many policies there are
)

// cutPolicyNames returns the cut policies' names, indexed by CutPolicy
// (OnCut.Names).
func cutPolicyNames() []string { return []string{"none", "rerun", "resume"} }

// RunPlace is a value of Config.RunsIn: where a started batch runs.
type RunPlace int

// Where batches run, in the order of their Param values.
const (
	RunsInLeader RunPlace = iota // in the leader's process: cut when it gives up, crashes or stops
	RunsInJob                    // in a process of its own the leader starts: cut only when its node crashes or stops
	NumRunPlaces int      = iota // how many places there are
)

// runPlaceNames returns the places' names, indexed by RunPlace
// (RunsIn.Names).
func runPlaceNames() []string { return []string{"leader", "job"} }

// batchGroup is the runs started in one round, and what they wrote.
type batchGroup struct {
	start, slots int        // the round they started in, and how many batches each runs
	runs         int        // how many: x.runs holds them in group order
	written      int        // the parts written at least once, of those due by the last round
	settled      int        // the parts below this no run still to write them will reach
	missing      int        // the parts below settled nobody wrote
	lastAt       int        // the round the batch's last part was first written in, 0 before
	spans        []partSpan // the parts written, sorted, apart
}

// partSpan is the parts from, from+1, … to−1 of a group's batches.
type partSpan struct{ from, to int }

// runKind is what a run writes: the batch, the batch again (a rerun), or
// only the parts nobody wrote (a resume).
type runKind uint8

// The kinds of run.
const (
	runFirst  runKind = iota // started at the batch's start
	runRerun                 // CutRerun: the whole batch again
	runResume                // CutResume: the parts nobody wrote
)

// batchRun is one node's run of a group's batches.
type batchRun struct {
	node, token int
	length      int // the parts it passes: the batch's, or a resume's the parts nobody wrote when it began
	pos         int // the parts it passed so far
	cursor      int // a resume's: the part from which it looks for parts nobody wrote
	kind        runKind
	dead        bool // its process is gone: it writes no more
	fenced      bool // it passed a part fencing refused: it never reports the batch done
}

// writes reports whether run r writes in the rounds of the stretch now
// being run.
func (x *state) writes(r batchRun) bool {
	reaches := !x.reach.down[r.node] || x.fails(r.node, ReachesStore)
	return !r.dead && reaches && (!x.c.Fencing || r.token == x.token)
}

// paused reports whether run r's node is frozen (Pause) in the stretch
// being run: it passes no part.
func (x *state) paused(r batchRun) bool {
	return x.reach.down[r.node] && x.fails(r.node, Freezes)
}

// ended reports whether run r will pass no more parts: its process is
// gone, fencing refuses its token for good (tokens only grow), or it
// passed its length.
func (x *state) ended(r batchRun) bool {
	return !x.lives(r) || x.c.Fencing && r.token != x.token || r.pos >= r.length
}

// stopRuns ends the runs of node's process (with token, or any if token
// < 0): it crashed, stopped or gave up. A Job's runs (RunsInJob) are not
// its process's: they end only when their node crashes or stops
// (writeRuns); nor are any under a protocol that recovers, whose holder
// is never stopped: its job runs to its end.
func (x *state) stopRuns(node, token int) {
	if x.c.RunsIn == RunsInJob || x.recovers {
		return
	}
	for i := range x.runs {
		if r := &x.runs[i]; r.node == node && (token < 0 || r.token == token) {
			r.dead = true
		}
	}
}

// counted is how many parts of g's batches fall due by the last round:
// those after it are not counted, nor written.
func (x *state) counted(g *batchGroup) int { return min(x.c.BatchLen, x.c.Rounds-g.start+1) }

// writeRuns counts what the groups started before round t write in the
// stretch t … last, and drops those that end in it. leaderWorks says the
// record's leader's work is accepted: it reruns or resumes the cut
// batches (restartCut).
func (x *state) writeRuns(t, last int, leaderWorks bool) {
	if x.c.OnCut != CutNone && leaderWorks {
		x.restartCut(t)
	}
	n, i, keptGroups, keptRuns := last-t+1, 0, 0, 0
	for gi := range x.groups {
		g := &x.groups[gi]
		runs := x.runs[i : i+g.runs]
		i += g.runs
		open := false // a run may pass parts after last
		for j := range runs {
			open = x.passParts(g, &runs[j], t, n) || open
		}
		x.settle(g, runs)
		if open || x.c.OnCut != CutNone && x.isCut(g, runs) {
			x.keepGroup(keptGroups, gi)
			keptRuns += copy(x.runs[keptRuns:], runs)
			keptGroups++
		}
	}
	x.groups, x.runs = x.groups[:keptGroups], x.runs[:keptRuns]
}

// keepGroup moves group from to place to, keeping the spans' space of the
// group it replaces for reuse.
func (x *state) keepGroup(to, from int) {
	if to != from {
		x.groups[to], x.groups[from] = x.groups[from], x.groups[to]
	}
}

// passParts passes run r of group g through the n rounds from t: it
// writes or loses one part a round up to its length, none while frozen or
// once ended. It reports whether the run may pass parts after them.
func (x *state) passParts(g *batchGroup, r *batchRun, t, n int) (open bool) {
	if x.reach.down[r.node] && x.fails(r.node, Stops) {
		r.dead = true // its process is gone, and stays gone when the node is back
	}
	switch {
	case !x.lives(*r) || r.pos >= r.length:
		return false
	case x.paused(*r):
		return true
	}
	m := min(n, r.length-r.pos)
	r.fenced = r.fenced || x.c.Fencing && r.token != x.token
	if x.writes(*r) {
		x.writeParts(g, r, t, m)
	} else if r.kind == runResume {
		r.cursor, _, _ = g.gaps(r.cursor, m, x.counted(g), false)
	}
	r.pos += m
	return r.pos < r.length
}

// writeParts counts the m parts run r writes in the rounds from t: a part
// written again is doubled (a rerun's, or a recovered run's after its
// rerun: not with an idempotency key, which refuses it), and the round the batch's last part is first written makes
// it late by that round less the one it was due in.
func (x *state) writeParts(g *batchGroup, r *batchRun, t, m int) {
	counted, L := x.counted(g), x.c.BatchLen
	if r.kind == runResume {
		var last, k int
		r.cursor, last, k = g.gaps(r.cursor, m, counted, true)
		if last == L-1 {
			x.late(g, t+k-1)
		}
		return
	}
	from, to := r.pos, min(r.pos+m, counted)
	if from >= to {
		return
	}
	added := g.add(from, to)
	if !x.c.IdempotencyKey { // the key refuses a part written before: a rerun's, or a recovered run's after its rerun wrote it
		x.st.DoubledParts += g.slots * (to - from - added)
	}
	if to == L {
		x.late(g, t+L-1-from)
	}
}

// late records that g's batches' last part was written in round w, if
// no run wrote it before. Within a stretch the runs of a group are passed
// one after another, so a run passed later may have written the last
// part in an earlier round than the one passed first: the earliest
// counts, as round by round.
func (x *state) late(g *batchGroup, w int) {
	if g.lastAt != 0 && g.lastAt <= w {
		return
	}
	due := g.start + x.c.BatchLen - 1
	if d := g.lastAt - due; g.lastAt != 0 && d > 0 { // counted for a later round: take it back
		x.st.LateBatches -= g.slots
		x.st.LateRounds -= g.slots * d
	}
	g.lastAt = w
	if d := w - due; d > 0 {
		x.st.LateBatches += g.slots
		x.st.LateRounds += g.slots * d
	}
}

// settle moves g's settled frontier to the least part a run still to
// pass parts will reach (a resume's cursor), or to its counted parts if
// none will, and counts the parts below it nobody wrote as missed; a
// rerun can move it back, and what it then writes is missed no more.
func (x *state) settle(g *batchGroup, runs []batchRun) {
	f := x.counted(g)
	for _, r := range runs {
		switch {
		case x.ended(r):
		case r.kind == runResume:
			f = min(f, r.cursor)
		default:
			f = min(f, r.pos)
		}
	}
	missing := f - g.writtenBelow(f)
	x.st.MissedParts += g.slots * (missing - g.missing)
	switch {
	case g.missing == 0 && missing > 0:
		x.st.PartialBatches += g.slots
		x.cuts += g.slots
	case g.missing > 0 && missing == 0:
		x.st.PartialBatches -= g.slots
	}
	g.settled, g.missing = f, missing
}

// isCut reports whether g is a cut batch waiting for the next leader:
// every run of it ended before its length (none will pass another part,
// and none finished: a run that did reported the batch done; a fenced
// one passes its length, each part refused, but reports nothing), or, under a
// protocol that recovers, lives on unfinished with a token older than the
// record's (the lock was taken over from it: recovered), and a part of it
// is unwritten.
func (x *state) isCut(g *batchGroup, runs []batchRun) bool {
	for _, r := range runs {
		if !(x.ended(r) || x.recovers && r.token < x.token) || r.pos >= r.length && !r.fenced {
			return false
		}
	}
	return len(runs) > 0 && g.written < x.counted(g)
}

// restartCut starts, in round t, a run of every cut batch on the record's
// leader, whose work is accepted: the whole batch again (CutRerun) or the
// parts nobody wrote (CutResume). It joins the batch's group, after the
// runs that ended, and takes the place of those whose process is gone
// (dead), which pass, write and decide nothing any more: a batch cut
// again and again, as when no node stays up for a batch's length, would
// otherwise keep a run for every restart, and each round would pass them
// all.
func (x *state) restartCut(t int) {
	end := 0
	for gi := range x.groups {
		g := &x.groups[gi]
		end += g.runs
		if !x.isCut(g, x.runs[end-g.runs:end]) {
			continue
		}
		kept := x.runs[:end-g.runs]
		for _, r := range x.runs[end-g.runs : end] {
			if !r.dead {
				kept = append(kept, r)
			}
		}
		if dropped := end - len(kept); dropped > 0 {
			x.runs = append(kept, x.runs[end:]...)
			g.runs -= dropped
			end -= dropped
		}
		r := batchRun{node: x.leader, token: x.token, length: x.c.BatchLen, kind: runRerun}
		if x.c.OnCut == CutResume {
			r.length, r.kind = x.counted(g)-g.written, runResume
		}
		x.runs = append(x.runs, batchRun{})
		copy(x.runs[end+1:], x.runs[end:])
		x.runs[end] = r
		g.runs++
		end++
	}
}

// add records the parts from … to−1 as written, and returns how many of
// them were not yet.
func (g *batchGroup) add(from, to int) (added int) {
	s := g.spans
	i := 0
	for i < len(s) && s[i].to < from { // the spans wholly before, not touching
		i++
	}
	j := i
	for j < len(s) && s[j].from <= to { // the spans it overlaps or touches, merged into it
		added -= s[j].to - s[j].from
		from, to = min(from, s[j].from), max(to, s[j].to)
		j++
	}
	added += to - from
	switch {
	case j == i: // a span of its own
		g.spans = append(g.spans, partSpan{})
		copy(g.spans[i+1:], g.spans[i:])
		g.spans[i] = partSpan{from, to}
	default: // merged into s[i]
		g.spans[i] = partSpan{from, to}
		g.spans = append(g.spans[:i+1], g.spans[j:]...)
	}
	g.written += added
	return added
}

// writtenBelow is how many parts below f are written.
func (g *batchGroup) writtenBelow(f int) (n int) {
	for _, sp := range g.spans {
		if sp.from >= f {
			break
		}
		n += min(sp.to, f) - sp.from
	}
	return n
}

// gaps passes the first m parts nobody wrote from part from on, below
// limit, writing them if write: it returns the part after the last one
// passed, that part (−1 if none) and how many it passed.
func (g *batchGroup) gaps(from, m, limit int, write bool) (next, last, k int) {
	last = -1
	for m > 0 && from < limit {
		end := limit // the gap from from ends at the next span's start
		for _, sp := range g.spans {
			if sp.to <= from {
				continue
			}
			if sp.from <= from { // from is written: the gap starts after this span
				from = sp.to
				continue
			}
			end = min(end, sp.from)
			break
		}
		if from >= limit {
			break
		}
		d := min(m, end-from)
		if write {
			g.add(from, from+d)
		}
		from, last, m, k = from+d, from+d-1, m-d, k+d
	}
	return from, last, k
}

// startRuns starts, in round r of the stretch that ends in last, slots
// batches on each of the stretch's accepted nodes, and counts what they
// write up to last: in the stretch every accepted node writes. With an
// idempotency key the store keeps one start and refuses the others: the
// record's leader's if its work is accepted, else the lowest-numbered
// accepted node's.
func (x *state) startRuns(r, last, slots int, leaderWorks bool) (runs int) {
	n := len(x.groups)
	if n < cap(x.groups) {
		x.groups = x.groups[:n+1]
	} else {
		x.groups = append(x.groups, batchGroup{})
	}
	g := &x.groups[n]
	*g = batchGroup{start: r, slots: slots, spans: g.spans[:0]}
	add := func(node, token int) {
		x.runs = append(x.runs, batchRun{node: node, token: token, length: x.c.BatchLen})
		g.runs++
	}
	if leaderWorks {
		add(x.leader, x.token)
	}
	if !x.c.Fencing && !(x.c.IdempotencyKey && leaderWorks) {
		kept := -1 // with a key, the lowest-numbered accepted believer
		for i, b := range x.believers {
			switch {
			case x.reach.down[b.node] && !x.fails(b.node, ReachesStore): // its work does not reach the store
			case !x.c.IdempotencyKey:
				add(b.node, b.token)
			case kept < 0 || b.node < x.believers[kept].node:
				kept = i
			}
		}
		if kept >= 0 {
			add(x.believers[kept].node, x.believers[kept].token)
		}
	}
	runs = g.runs
	m := min(r+x.c.BatchLen-1, last) - r + 1
	open := false
	for j := range x.runs[len(x.runs)-runs:] {
		open = x.passParts(g, &x.runs[len(x.runs)-runs+j], r, m) || open
	}
	x.settle(g, x.runs[len(x.runs)-runs:])
	if !open && !(x.c.OnCut != CutNone && x.isCut(g, x.runs[len(x.runs)-runs:])) {
		x.runs = x.runs[:len(x.runs)-runs]
		x.groups = x.groups[:n]
	}
	return runs
}

// batches counts, with BatchLen, what the stretch x.t … last writes: the
// runs started before it, then those of the queued batches started in
// x.t and of the k batches due at first, first+period, …, on the
// stretch's accepted nodes. A batch takes at most its period, so all but
// the last of those k end within the stretch, each written as often as
// the last is in its first rounds.
func (x *state) batches(last, first, k, dequeued int, leaderWorks bool) {
	x.writeRuns(x.t, last, leaderWorks)
	if dequeued > 0 {
		x.startRuns(x.t, last, dequeued, leaderWorks)
	}
	if k > 0 {
		runs := x.startRuns(first+(k-1)*x.c.Period, last, 1, leaderWorks)
		x.st.DoubledParts += (k - 1) * x.c.BatchLen * (runs - 1)
	}
}
