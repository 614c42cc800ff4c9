package model

// A batch that takes time (BatchLen rounds) writes a part of its lines in
// each round of its length, on the node that started it. The runs started
// in one round form a group: they run the same batches (the round's own
// slot and the queued ones it started), so in each round a part of each
// batch is written once for every run that writes then. A run writes in a
// round while its process lives (its node has not crashed, stopped or
// given up at its renew deadline since the start), it reaches the store
// (it is up, or cut off from the record only) and, under fencing, its
// token is still the record's. Belief does not matter once a run started:
// a process that lost its lease writes on until something stops it.

// batchGroup is the runs started in one round.
type batchGroup struct {
	start, slots int  // the round they started in, and how many batches each runs
	runs         int  // how many: x.runs holds them in group order
	partial      bool // a part of its batches went unwritten, counted once
}

// batchRun is one node's run of a group's batches.
type batchRun struct {
	node, token int
	dead        bool // its process is gone: it writes no more
}

// writes reports whether run r writes in the rounds of the stretch now
// being run.
func (x *state) writes(r batchRun) bool {
	reaches := !x.reach.down[r.node] || x.fails(r.node, ReachesStore)
	return !r.dead && reaches && (!x.c.Fencing || r.token == x.token)
}

// stopRuns ends the runs of node (with token, or any if token < 0): its
// process crashed, stopped or gave up.
func (x *state) stopRuns(node, token int) {
	for i := range x.runs {
		if r := &x.runs[i]; r.node == node && (token < 0 || r.token == token) {
			r.dead = true
		}
	}
}

// writeRuns counts what the groups started before round t write in the
// stretch t … last, and drops those that end in it.
func (x *state) writeRuns(t, last int) {
	L, i, keptGroups, keptRuns := x.c.BatchLen, 0, 0, 0
	for _, g := range x.groups {
		end := g.start + L - 1
		writers := 0
		for j := i; j < i+g.runs; j++ {
			r := &x.runs[j]
			if x.reach.down[r.node] && x.fails(r.node, Stops) {
				r.dead = true // its process is gone, and stays gone when the node is back
			}
			writers += b2i(x.writes(*r))
		}
		x.countParts(&g, min(end, last)-t+1, writers)
		if end > last {
			x.groups[keptGroups] = g
			keptRuns += copy(x.runs[keptRuns:], x.runs[i:i+g.runs])
			keptGroups++
		}
		i += g.runs
	}
	x.groups, x.runs = x.groups[:keptGroups], x.runs[:keptRuns]
}

// countParts counts n rounds of group g with writers runs writing: a part
// of each batch missed in each round nobody writes, written again for each
// writer past the first.
func (x *state) countParts(g *batchGroup, n, writers int) {
	switch {
	case n <= 0:
	case writers == 0:
		x.st.MissedParts += g.slots * n
		if !g.partial {
			g.partial = true
			x.st.PartialBatches += g.slots
		}
	default:
		x.st.DoubledParts += g.slots * n * (writers - 1)
	}
}

// startRuns starts, in round r of the stretch that ends in last, slots
// batches on each of the stretch's accepted nodes, and counts what they
// write up to last: in the stretch every accepted node writes. With an
// idempotency key the store keeps one start and refuses the others: the
// record's leader's if its work is accepted, else the lowest-numbered
// accepted node's.
func (x *state) startRuns(r, last, slots int, leaderWorks bool) (runs int) {
	g := batchGroup{start: r, slots: slots}
	add := func(node, token int) {
		x.runs = append(x.runs, batchRun{node: node, token: token})
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
	end := r + x.c.BatchLen - 1
	x.countParts(&g, min(end, last)-r+1, g.runs)
	if end > last {
		x.groups = append(x.groups, g)
	} else {
		x.runs = x.runs[:len(x.runs)-g.runs]
	}
	return g.runs
}

// batches counts, with BatchLen, what the stretch x.t … last writes: the
// runs started before it, then those of the queued batches started in
// x.t and of the k batches due at first, first+period, …, on the
// stretch's accepted nodes. A batch takes at most its period, so all but
// the last of those k end within the stretch, each written as often as
// the last is in its first rounds.
func (x *state) batches(last, first, k, dequeued int, leaderWorks bool) {
	x.writeRuns(x.t, last)
	if dequeued > 0 {
		x.startRuns(x.t, last, dequeued, leaderWorks)
	}
	if k > 0 {
		runs := x.startRuns(first+(k-1)*x.c.Period, last, 1, leaderWorks)
		x.st.DoubledParts += (k - 1) * x.c.BatchLen * (runs - 1)
	}
}
