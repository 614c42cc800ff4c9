package model_test

// An independent reference of ShedLock's per-fire loop (protocols shedlock
// and shedlock-redis), written from docs/model.md's ShedLock section and the
// parameters' descriptions alone, without reading the engine's code or the
// other ShedLock reference (issue 48). docsShedLock below follows the docs'
// sentences one by one; TestDocsShedLock compares it with the Runner.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// docsKind is how a node is in a round, as the ShedLock section needs it.
type docsKind int

const (
	docsUp          docsKind = iota
	docsIsolated             // reaches neither the lock nor the store (isolate, black-hole, slow)
	docsPartitioned          // reaches the store only
	docsFrozen               // pause
	docsCrashed              // crash: down, its run ended as it goes down
	docsReleased             // release: down, its run ended and unlocked as it stops
)

// docsResolve is the kind a window's failure gives under c's toggles:
// "release wins, then crash, then pause"; black_hole with partition hangs
// the calls of nodes that still reach the store, so they are partitioned.
func docsResolve(c model.Config, f model.Failure) docsKind {
	switch f.Kind {
	case model.Isolated, model.BlackHoled, model.Slowed:
		return docsIsolated
	case model.Partitioned:
		return docsPartitioned
	case model.Paused:
		return docsFrozen
	case model.Crashed:
		return docsCrashed
	case model.Released:
		return docsReleased
	}
	switch {
	case c.Release:
		return docsReleased
	case c.Crash:
		return docsCrashed
	case c.Pause:
		return docsFrozen
	case c.Partition:
		return docsPartitioned
	}
	return docsIsolated
}

// docsReading says how the reference reads the points where docs/model.md
// leaves the engine's reading open or states another (the report of issue
// 48 lists them; docsDisagreements pins each with a minimal case).
type docsReading struct {
	// wakeTakesBegun: a node woken from a pause makes no fire for a slot
	// that began by the round it wakes in, its woken fire standing for
	// them too (the docs: "makes its fire as it wakes, once, for the slot
	// it was due for", and each node fires slot + its spread).
	wakeTakesBegun bool
	// releaseFreesAtOnce: a clean stop frees the lock in its own round,
	// lock_until = max(that round, taking + lock_at_least_for) (the docs:
	// "a clean stop unlocks as below", below being max(next round, …)).
	releaseFreesAtOnce bool
	// aheadUncounted: a part that a run still going at the end has yet to
	// reach is not counted doubled either (the docs: "a part is missed if
	// no run wrote it, parts due after the last round (or not yet reached
	// by a run still going then) not counted").
	aheadUncounted bool
	// runsInStartOrder: runs that end in the same round unlock in the
	// order they started, so that under shedlock-redis the latest run's
	// lock_at_least_for stands (the docs give no order: "then every run
	// whose node is not frozen passes its next part").
	runsInStartOrder bool
}

// docsEngine is the reading the engine takes.
var docsEngine = docsReading{wakeTakesBegun: true, releaseFreesAtOnce: true, aheadUncounted: true, runsInStartOrder: true}

// docsRun is one run of a slot's batch on one node.
type docsRun struct {
	node, slot int
	take       int // the round its node took the lock (and started it)
	next       int // the next part to pass
	live       bool
}

// docsShedLock runs c (protocol shedlock or shedlock-redis) under the
// windows ws as docs/model.md's ShedLock section says, round by round.
func docsShedLock(c model.Config, ws model.Windows, rd docsReading) model.Stats {
	n, rounds := c.Nodes, c.Rounds
	// kind[i][t], goesDown[i][t]: node i's state in round t, and whether a
	// window of it begins in t.
	kind := make([][]docsKind, n)
	goesDown := make([][]bool, n)
	for i := range kind {
		kind[i] = make([]docsKind, rounds+2)
		goesDown[i] = make([]bool, rounds+2)
	}
	for _, w := range ws {
		k := docsResolve(c, w.Failure)
		for t := max(w.First, 1); t <= min(w.Last, rounds+1); t++ {
			kind[w.Node][t] = k
		}
		if w.First >= 1 && w.First <= rounds+1 {
			goesDown[w.Node][w.First] = true
		}
	}
	reachable := func(i, t int) bool { return kind[i][t] == docsUp }
	reachesStore := func(i, t int) bool { return kind[i][t] == docsUp || kind[i][t] == docsPartitioned }
	frozen := func(i, t int) bool { return kind[i][t] == docsFrozen }

	// Node i fires fire_spread·i/(nodes−1) rounds after each slot, rounded
	// down; node 0 in the slot's round.
	offset := make([]int, n)
	for i := 1; i < n; i++ {
		offset[i] = c.FireSpread * i / (n - 1)
	}
	slots := rounds / c.Period
	// written[s][k]: the runs that wrote part k of slot s (slot s+1 is round
	// (s+1)·period); first[s][k] the round it was first written.
	written := make([][]int, slots)
	first := make([][]int, slots)
	runsOf := make([]int, slots)
	firstStart := make([]int, slots)
	for s := range written {
		written[s] = make([]int, c.BatchLen)
		first[s] = make([]int, c.BatchLen)
	}
	var runs, order []*docsRun
	running := make([]*docsRun, n) // the node's run that still goes on
	pending := make([]int, n)      // a frozen node's fire, slot+1; 0: none
	woke := make([]int, n)         // with rd.wakeTakesBegun, the slots before this one are fired
	lockUntil, lockedBy := 0, -1
	unlock := func(r *docsRun, t int) {
		if c.Protocol == model.ProtocolShedLock && lockedBy != r.node {
			return
		}
		lockUntil = max(t+1, r.take+c.LockAtLeastFor)
	}
	var st model.Stats
	twoLeader, episode := false, 0
	endEpisode := func() {
		if episode > 0 {
			st.TwoLeaderEpisodes.Count++
			if episode > 1 {
				st.TwoLeaderEpisodes.Long++
			}
			st.TwoLeaderEpisodes.ExtraSq += (episode - 1) * (episode - 1)
		}
		episode = 0
	}
	fire := func(i, slot, t int) {
		if !reachable(i, t) || running[i] != nil || lockUntil > t {
			return // skipped, not kept
		}
		lockUntil, lockedBy = t+c.Lease, i
		r := &docsRun{node: i, slot: slot, take: t, live: true}
		runs = append(runs, r)
		running[i] = r
		if runsOf[slot] == 0 {
			firstStart[slot] = t
		}
		runsOf[slot]++
	}
	for t := 1; t <= rounds; t++ {
		// A node that crashes or stops ends its run; a clean stop unlocks.
		for i := range n {
			r := running[i]
			if !goesDown[i][t] || r == nil {
				continue
			}
			switch kind[i][t] {
			case docsCrashed:
				r.live, running[i] = false, nil
			case docsReleased:
				r.live, running[i] = false, nil
				if rd.releaseFreesAtOnce {
					unlock(r, t-1)
				} else {
					unlock(r, t)
				}
			}
		}
		// The fires due, node by node, lowest first.
		for i := range n {
			slot := -1
			if t >= offset[i] && (t-offset[i])%c.Period == 0 && t-offset[i] >= c.Period {
				slot = (t-offset[i])/c.Period - 1
			}
			if frozen(i, t) {
				if slot >= woke[i] && pending[i] == 0 {
					pending[i] = slot + 1
				}
				continue
			}
			if pending[i] > 0 {
				// a frozen node makes its fire as it wakes, once, for the
				// slot it was due for
				fire(i, pending[i]-1, t)
				pending[i] = 0
				if rd.wakeTakesBegun {
					woke[i] = t / c.Period
				}
			}
			if slot >= woke[i] {
				fire(i, slot, t)
			}
		}
		// Every run whose node is not frozen passes its next part, node by
		// node, or with rd.runsInStartOrder in the order the runs started.
		order = order[:0]
		if rd.runsInStartOrder {
			for _, r := range runs {
				if r.live {
					order = append(order, r)
				}
			}
		} else {
			for _, r := range running {
				if r != nil {
					order = append(order, r)
				}
			}
		}
		going := 0
		for _, r := range order {
			i := r.node
			if frozen(i, t) {
				continue
			}
			going++
			if reachesStore(i, t) {
				if written[r.slot][r.next] == 0 {
					first[r.slot][r.next] = t
				}
				written[r.slot][r.next]++
			}
			r.next++
			if r.next == c.BatchLen {
				r.live, running[i] = false, nil
				if reachable(i, t) {
					unlock(r, t)
				}
			}
		}
		twoLeader = going >= 2
		if twoLeader {
			st.TwoLeaderRounds++
			episode++
		} else {
			endEpisode()
		}
	}
	endEpisode()
	for s := range slots {
		if runsOf[s] == 0 {
			st.Missed++
			continue
		}
		st.Started++
		st.DoubleStarts += runsOf[s] - 1
		partial := false
		for k := range c.BatchLen {
			ahead := false // a run still going at the end has yet to reach it
			for _, r := range runs {
				if r.live && r.slot == s && r.next <= k {
					ahead = true
				}
			}
			if w := written[s][k]; w > 1 && !(ahead && rd.aheadUncounted) {
				st.DoubledParts += w - 1
			}
			if written[s][k] == 0 && firstStart[s]+k <= rounds && !ahead {
				st.MissedParts++
				partial = true
			}
		}
		if partial {
			st.PartialBatches++
		}
		last := c.BatchLen - 1
		if due := firstStart[s] + last; written[s][last] > 0 && first[s][last] > due {
			st.LateBatches++
			st.LateRounds += first[s][last] - due
		}
	}
	return st
}

// docsStatsDiff names the statistics in which got and want differ.
func docsStatsDiff(got, want model.Stats) string {
	d := ""
	g, w := got.Values(), want.Values()
	for s := range model.NumStats {
		if g[s] != w[s] {
			d += fmt.Sprintf(" %s %d, want %d;", model.Stat(s).Name(), g[s], w[s])
		}
	}
	if got.TwoLeaderEpisodes != want.TwoLeaderEpisodes {
		d += fmt.Sprintf(" two-leader episodes %+v, want %+v;", got.TwoLeaderEpisodes, want.TwoLeaderEpisodes)
	}
	if got.LeaderlessEpisodes != want.LeaderlessEpisodes {
		d += fmt.Sprintf(" leaderless episodes %+v, want %+v;", got.LeaderlessEpisodes, want.LeaderlessEpisodes)
	}
	return d
}

// docsKinds are the failures a window may name.
var docsKinds = []model.Kind{
	model.AsConfigured, model.Isolated, model.BlackHoled, model.Slowed,
	model.Partitioned, model.Paused, model.Crashed, model.Released,
}

// docsCase draws one configuration and schedule.
func docsCase(rng *rand.Rand) (model.Config, model.Windows) {
	c := model.Default()
	c.RereadPeriod = 0
	c.Protocol = model.ProtocolShedLock
	if rng.IntN(2) == 1 {
		c.Protocol = model.ProtocolShedLockRedis
	}
	c.Nodes = 1 + rng.IntN(4)
	c.Period = 1 + rng.IntN(6)
	c.BatchLen = 1 + rng.IntN(c.Period)
	c.Lease = 1 + rng.IntN(8)
	c.LockAtLeastFor = rng.IntN(c.Lease + 1)
	c.FireSpread = rng.IntN(c.Period)
	c.Rounds = 1 + rng.IntN(30)
	c.Outage, c.Start = 0, 1
	c.Pause = rng.IntN(4) == 0
	c.Crash = rng.IntN(4) == 0
	c.Release = rng.IntN(5) == 0
	c.Partition = rng.IntN(3) == 0
	c.BlackHole = rng.IntN(4) == 0
	var ws model.Windows
	for i := range c.Nodes {
		t := 1 + rng.IntN(c.Rounds+3)
		for w := rng.IntN(3); w > 0 && t <= c.Rounds; w-- {
			last := t + rng.IntN(8)
			ws = append(ws, model.Window{Node: i, First: t, Last: last,
				Failure: model.Failure{Kind: docsKinds[rng.IntN(len(docsKinds))]}})
			t = last + 2 + rng.IntN(6)
		}
	}
	return c, ws
}

// TestDocsShedLock compares the Runner with the docs' reference over
// random small configurations of both providers.
func TestDocsShedLock(t *testing.T) {
	cases := 20000
	if testing.Short() {
		cases = 2000
	}
	rng := rand.New(rand.NewPCG(48, 1))
	var r model.Runner
	compared, fails := 0, 0
	for range cases {
		c, ws := docsCase(rng)
		if err := c.Validate(); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		got, err := r.RunSchedule(c, ws)
		if err != nil {
			t.Fatalf("%+v, windows %v: %v", c, ws, err)
		}
		compared++
		if d := docsStatsDiff(got, docsShedLock(c, ws, docsEngine)); d != "" {
			fails++
			if fails <= 10 {
				c, ws = docsShrink(&r, c, ws, docsEngine)
				got, _ := r.RunSchedule(c, ws)
				t.Errorf("%s: the Runner gives%s", docsBrief(c, ws), docsStatsDiff(got, docsShedLock(c, ws, docsEngine)))
			}
		}
	}
	t.Logf("%d configurations compared, %d differ", compared, fails)
}

// docsShrink makes a configuration on which the Runner and the reference
// under rd differ smaller while they still differ: fewer windows, rounds
// and nodes, shorter windows, smaller settings, fewer toggles.
func docsShrink(r *model.Runner, c model.Config, ws model.Windows, rd docsReading) (model.Config, model.Windows) {
	differs := func(c model.Config, ws model.Windows) bool {
		if c.Validate() != nil {
			return false
		}
		for _, w := range ws {
			if w.Node >= c.Nodes || w.First > w.Last || w.First < 1 {
				return false
			}
		}
		got, err := r.RunSchedule(c, ws)
		return err == nil && docsStatsDiff(got, docsShedLock(c, ws, rd)) != ""
	}
	for again := true; again; {
		again = false
		try := func(c2 model.Config, ws2 model.Windows) {
			if !again && differs(c2, ws2) {
				c, ws, again = c2, ws2, true
			}
		}
		for i := 0; i < len(ws) && !again; i++ {
			try(c, append(append(model.Windows{}, ws[:i]...), ws[i+1:]...))
			for _, f := range []func(*model.Window){
				func(w *model.Window) { w.Last-- },
				func(w *model.Window) { w.First++ },
				func(w *model.Window) { w.Failure.Kind = model.Isolated },
			} {
				if again {
					break
				}
				w2 := append(model.Windows{}, ws...)
				f(&w2[i])
				if w2[i] != ws[i] {
					try(c, w2)
				}
			}
		}
		for _, f := range []func(*model.Config){
			func(c *model.Config) { c.Rounds-- },
			func(c *model.Config) { c.Nodes-- },
			func(c *model.Config) { c.Lease-- },
			func(c *model.Config) { c.LockAtLeastFor-- },
			func(c *model.Config) { c.FireSpread-- },
			func(c *model.Config) { c.BatchLen-- },
			func(c *model.Config) { c.Period-- },
			func(c *model.Config) { c.Pause = false },
			func(c *model.Config) { c.Crash = false },
			func(c *model.Config) { c.Release = false },
			func(c *model.Config) { c.Partition = false },
			func(c *model.Config) { c.BlackHole = false },
			func(c *model.Config) { c.Protocol = model.ProtocolShedLock },
		} {
			c2 := c
			f(&c2)
			if c2 != c {
				try(c2, ws)
			}
		}
	}
	return c, ws
}

// docsBrief is c's ShedLock settings and ws, briefly.
func docsBrief(c model.Config, ws model.Windows) string {
	p := "shedlock"
	if c.Protocol == model.ProtocolShedLockRedis {
		p = "shedlock-redis"
	}
	tog := ""
	for _, x := range []struct {
		on   bool
		name string
	}{{c.Pause, "pause"}, {c.Crash, "crash"}, {c.Release, "release"}, {c.Partition, "partition"}, {c.BlackHole, "black_hole"}} {
		if x.on {
			tog += " " + x.name
		}
	}
	return fmt.Sprintf("%s nodes=%d lease=%d lock_at_least_for=%d fire_spread=%d period=%d batch_len=%d rounds=%d%s windows=%v",
		p, c.Nodes, c.Lease, c.LockAtLeastFor, c.FireSpread, c.Period, c.BatchLen, c.Rounds, tog, ws)
}
