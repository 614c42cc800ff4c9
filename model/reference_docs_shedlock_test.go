package model_test

// An independent reference of ShedLock's per-fire loop (protocols shedlock
// and shedlock-redis), written from docs/model.md (its ShedLock section,
// the protocols' table, How failing nodes fail) and the parameters' help
// alone, without reading the engine's code or the other ShedLock reference
// (issue 48). docsShedLock follows the docs' sentences one by one. Where
// the docs leave a point open, or the engine reads them otherwise, the
// reference takes either reading (docsReading): the comparisons take the
// engine's, and TestDocsShedLockReadings pins each such point with a
// minimal configuration on which the docs' plain reading gives otherwise.

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// docsKind is how a node is in a round, as the docs' references need it
// (this file's and reference_docs_redisson_test.go's).
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
// is open to another reading than the engine's; the zero value is the
// docs' plain reading.
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
					unlock(r, t-1) // lock_until max(t, …): free for this round's fires
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

// docsConfig is a ShedLock configuration with no outage of its own.
func docsConfig(redis bool, nodes, lease, lockAtLeastFor, fireSpread, period, batchLen, rounds int) model.Config {
	c := model.Default()
	c.RereadPeriod = 0 // client-go's, refused under shedlock
	c.Protocol = model.ProtocolShedLock
	if redis {
		c.Protocol = model.ProtocolShedLockRedis
	}
	c.Nodes, c.Lease, c.LockAtLeastFor, c.FireSpread = nodes, lease, lockAtLeastFor, fireSpread
	c.Period, c.BatchLen, c.Rounds = period, batchLen, rounds
	c.Outage, c.Start = 0, 1
	return c
}

// docsGroupWindows is c's own group outage as windows: nodes DownFrom …
// DownFrom+Down−1 down in rounds Start … Start+Outage−1, failing as the
// toggles say (docs/model.md, How failing nodes fail).
func docsGroupWindows(c model.Config) model.Windows {
	var ws model.Windows
	for i := c.DownFrom; c.Outage > 0 && i < min(c.DownFrom+c.Down, c.Nodes); i++ {
		ws = append(ws, model.Window{Node: i, First: c.Start, Last: c.Start + c.Outage - 1})
	}
	return ws
}

// docsKinds are the failures a window may name: its own kind, or none
// (the toggles').
var docsKinds = []model.Kind{
	model.AsConfigured, model.Isolated, model.BlackHoled, model.Slowed,
	model.Partitioned, model.Paused, model.Crashed, model.Released,
}

// docsCase draws one configuration: 1-4 nodes, both providers, every
// setting small, the toggles at random and up to two windows a node, of
// any kind, back to back or apart; or, one time in four, the
// configuration's own group outage (schedule nil).
func docsCase(rng *rand.Rand) (model.Config, model.Windows, model.Schedule) {
	period := 1 + rng.IntN(8)
	lease := 1 + rng.IntN(10)
	c := docsConfig(rng.IntN(2) == 1, 1+rng.IntN(4), lease, rng.IntN(lease+1),
		rng.IntN(period), period, 1+rng.IntN(period), 1+rng.IntN(40))
	c.Pause = rng.IntN(4) == 0
	c.Crash = rng.IntN(4) == 0
	c.Release = rng.IntN(5) == 0
	c.Partition = rng.IntN(3) == 0
	c.BlackHole = rng.IntN(4) == 0
	if rng.IntN(4) == 0 {
		c.DownFrom = rng.IntN(c.Nodes)
		c.Down = 1 + rng.IntN(c.Nodes-c.DownFrom)
		c.Start = 1 + rng.IntN(c.Rounds)
		c.Outage = rng.IntN(12)
		return c, docsGroupWindows(c), nil
	}
	var ws model.Windows
	for i := range c.Nodes {
		t := 1 + rng.IntN(c.Rounds+3)
		for w := rng.IntN(3); w > 0 && t <= c.Rounds; w-- {
			last := t + rng.IntN(8)
			ws = append(ws, model.Window{Node: i, First: t, Last: last,
				Failure: model.Failure{Kind: docsKinds[rng.IntN(len(docsKinds))]}})
			t = last + 1 + rng.IntN(6) // back to back, or apart
		}
	}
	return c, ws, ws
}

// docsEngineRef is the ShedLock reference under the engine's reading.
func docsEngineRef(c model.Config, ws model.Windows) model.Stats {
	return docsShedLock(c, ws, docsEngine)
}

// docsCompare runs c under s (nil: c's own group outage) on the Runner and
// the reference under the engine's reading, and describes how they differ,
// shrunk to a smallest such configuration, "" if they agree.
func docsCompare(r *model.Runner, c model.Config, ws model.Windows, s model.Schedule) string {
	if err := c.Validate(); err != nil {
		return fmt.Sprintf("%s: %v", docsBrief(c, ws), err)
	}
	var got model.Stats
	var err error
	if s == nil {
		got, err = r.Run(c)
	} else {
		got, err = r.RunSchedule(c, s)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", docsBrief(c, ws), err)
	}
	if docsStatsDiff(got, docsShedLock(c, ws, docsEngine)) == "" {
		return ""
	}
	c.Outage = 0 // the same outage, as windows
	c, ws = docsShrink(r, c, ws, docsEngineRef)
	got, _ = r.RunSchedule(c, ws)
	return fmt.Sprintf("%s: the Runner gives%s", docsBrief(c, ws), docsStatsDiff(got, docsShedLock(c, ws, docsEngine)))
}

// TestDocsShedLockRandom compares the Runner with the reference over random
// small configurations of both providers.
func TestDocsShedLockRandom(t *testing.T) {
	cases := 30000
	if testing.Short() {
		cases = 3000
	}
	rng := rand.New(rand.NewPCG(48, 1))
	var r model.Runner
	fails := 0
	for range cases {
		c, ws, s := docsCase(rng)
		if d := docsCompare(&r, c, ws, s); d != "" {
			if fails++; fails <= 5 {
				t.Error(d)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d configurations differ", fails, cases)
	}
	t.Logf("%d configurations compared", cases)
}

// docsGridKinds are the kinds of the grid's windows.
var docsGridKinds = []model.Kind{
	model.Isolated, model.BlackHoled, model.Partitioned, model.Paused, model.Crashed, model.Released,
}

// TestDocsShedLockGrid compares the Runner with the reference over a grid
// of every setting small (nodes 1-4, period 1-5, every batch length and
// fire spread the period allows, lease 1-4, every lock_at_least_for up to
// the lease, both providers) under no failure or one window of the first
// or the last node, 12 rounds; every 3rd point (-short: every 29th), a
// stride prime to every dimension's length, so each value of each is met.
// On the points without failure it checks the docs' claims too
// (docs/model.md, Invariants).
func TestDocsShedLockGrid(t *testing.T) {
	every := 3
	if testing.Short() {
		every = 29
	}
	type setting struct{ period, batchLen, fireSpread, lease, atLeast int }
	var settings []setting
	for p := 1; p <= 5; p++ {
		for b := 1; b <= p; b++ {
			for f := range p {
				for l := 1; l <= 4; l++ {
					for a := 0; a <= l; a++ {
						settings = append(settings, setting{p, b, f, l, a})
					}
				}
			}
		}
	}
	type window struct {
		last          bool
		first, length int
		kind          model.Kind
	}
	windows := []*window{nil}
	for _, last := range []bool{false, true} {
		for _, first := range []int{2, 3, 5} {
			for _, length := range []int{1, 3} {
				for _, k := range docsGridKinds {
					windows = append(windows, &window{last, first, length, k})
				}
			}
		}
	}
	var r model.Runner
	compared, claims, fails := 0, 0, 0
	total := 4 * len(settings) * 2 * len(windows)
	for i := 0; i < total; i += every {
		k := i
		nodes := 1 + k%4
		k /= 4
		st := settings[k%len(settings)]
		k /= len(settings)
		redis := k%2 == 1
		w := windows[k/2]
		c := docsConfig(redis, nodes, st.lease, st.atLeast, st.fireSpread, st.period, st.batchLen, 12)
		var ws model.Windows
		if w != nil {
			node := 0
			if w.last {
				node = nodes - 1
			}
			ws = model.Windows{{Node: node, First: w.first, Last: w.first + w.length - 1, Failure: model.Failure{Kind: w.kind}}}
		}
		compared++
		if d := docsCompare(&r, c, ws, ws); d != "" {
			if fails++; fails <= 5 {
				t.Error(d)
			}
			continue
		}
		ref := docsShedLock(c, ws, docsEngine)
		if ref.DoubleStarts > ref.Started*(nodes-1) {
			t.Errorf("%s: %d double starts of %d slots started by %d nodes: a node fires once a slot", docsBrief(c, ws), ref.DoubleStarts, ref.Started, nodes)
		}
		if w == nil {
			claims++
			if d := docsClaims(c, ref); d != "" {
				t.Errorf("%s: %s", docsBrief(c, ws), d)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d configurations differ", fails, compared)
	}
	t.Logf("%d configurations compared, %d without failure checked against the docs' claims", compared, claims)
}

// docsClaims checks the docs' claims for a run in which no node fails
// (docs/model.md, Invariants): no slot partial or late; none missed if
// fire_spread + max(batch_len, lock_at_least_for) ≤ period; no two runs at
// once if batch_len ≤ lease, and then none twice if max(batch_len,
// lock_at_least_for) > fire_spread. It names the first claim st breaks.
func docsClaims(c model.Config, st model.Stats) string {
	hold := max(c.BatchLen, c.LockAtLeastFor)
	switch {
	case st.PartialBatches != 0 || st.LateBatches != 0:
		return fmt.Sprintf("%d partial, %d late with no failure", st.PartialBatches, st.LateBatches)
	case c.FireSpread+hold <= c.Period && st.Missed != 0:
		return fmt.Sprintf("%d missed, fire_spread + max(batch_len, lock_at_least_for) ≤ period", st.Missed)
	case c.BatchLen <= c.Lease && st.TwoLeaderRounds != 0:
		return fmt.Sprintf("%d rounds with two runs, batch_len ≤ lease", st.TwoLeaderRounds)
	case c.BatchLen <= c.Lease && hold > c.FireSpread && st.DoubleStarts != 0:
		return fmt.Sprintf("%d double starts, batch_len ≤ lease and max(batch_len, lock_at_least_for) > fire_spread", st.DoubleStarts)
	}
	return ""
}

// TestDocsShedLockScenarios: the reference gives the hand-computed results
// of model/testdata/scenarios/shedlock.txt.
func TestDocsShedLockScenarios(t *testing.T) {
	covered := docsScenarios(t, "shedlock.txt", func(c model.Config) bool { return c.Protocol.PerFire() }, docsEngineRef)
	if covered < 8 {
		t.Fatalf("the reference covers only %d scenarios", covered)
	}
	t.Logf("%d scenarios", covered)
}

// docsScenarios runs ref on the valid configurations of the hand-computed
// scenarios in testdata/scenarios/file that covers takes, expecting their
// results, and returns how many it ran.
func docsScenarios(t *testing.T, file string, covers func(model.Config) bool, ref func(model.Config, model.Windows) model.Stats) int {
	covered := 0
	datadriven.RunTest(t, filepath.Join("testdata", "scenarios", file), func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "run" {
			return d.Expected
		}
		c := model.Default()
		var ws model.Windows
		hasWindows := false
		for _, arg := range d.CmdArgs {
			if arg.Key == "windows" {
				ws, hasWindows = parseWindows(t, arg.Vals), true
				continue
			}
			p, ok := model.ParamByName(arg.Key)
			if !ok {
				d.Fatalf(t, "%s: no such parameter", arg.Key)
			}
			v, err := parse.Value(0, p, arg.Vals[0])
			if err != nil {
				d.Fatalf(t, "%s: %v", arg, err)
			}
			c.Set(p, v)
		}
		if !hasWindows {
			ws = docsGroupWindows(c)
		}
		if c.Validate() != nil || !covers(c) {
			return d.Expected
		}
		covered++
		return formatStats(ref(c, ws))
	})
	return covered
}

// TestDocsShedLockReadings pins each point where the docs' plain reading
// and the engine's differ, on a smallest configuration that shows it: the
// Runner gives the engine's reading, and the difference from the plain one
// is the one stated. A change to the engine or the docs that settles a
// point shows here.
func TestDocsShedLockReadings(t *testing.T) {
	pause := model.Failure{Kind: model.Paused}
	release := model.Failure{Kind: model.Released}
	for _, tc := range []struct {
		name  string
		plain func(*docsReading) // sets the point to the docs' plain reading
		c     model.Config
		ws    model.Windows
		diff  string // the Runner's stats against the plain reading's
	}{{
		// Node 1 fires a round after each slot (2, 4). Frozen in round 3,
		// it wakes in 4 and makes its fire for slot 2 there, skipped: node
		// 0 took slot 4's lock in that round. Its own fire for slot 4, due
		// in round 5 (free: node 0's run ended in 4), the engine does not
		// make: the woken fire stood for every slot begun by then.
		name:  "woken fire stands for the slots begun",
		plain: func(rd *docsReading) { rd.wakeTakesBegun = false },
		c:     docsConfig(false, 2, 1, 0, 1, 2, 1, 5),
		ws:    model.Windows{{Node: 1, First: 3, Last: 3, Failure: pause}},
		diff:  " double_starts 0, want 1; doubled_parts 0, want 1;",
	}, {
		// Node 0 takes slot 2's lock until 6 and runs in rounds 2-3; it
		// stops cleanly in round 3, ending its run before part 1. The
		// engine frees the lock for round 3 (max(3, 2 + 0)), and node 1's
		// fire in round 3 runs the slot again; read as max(next round, …),
		// the lock is held until 4, node 1 skips and part 1 is missed.
		name:  "a clean stop frees the lock in its own round",
		plain: func(rd *docsReading) { rd.releaseFreesAtOnce = false },
		c:     docsConfig(false, 2, 4, 0, 1, 2, 2, 3),
		ws:    model.Windows{{Node: 0, First: 3, Last: 3, Failure: release}},
		diff:  " double_starts 1, want 0; partial_batches 0, want 1; missed_parts 0, want 1; doubled_parts 1, want 0;",
	}, {
		// Nodes fire in rounds 4, 5, 6 and each finds the lock free
		// (lease 1): runs of slot 4 in rounds 4-5, 5-6 and 6-(7). Part 0
		// is written three times, part 1 twice; the third run, still going
		// at the end, has yet to reach part 1, and the engine leaves part
		// 1 out of doubled_parts too.
		name:  "a part a run still going will reach is not doubled either",
		plain: func(rd *docsReading) { rd.aheadUncounted = false },
		c:     docsConfig(false, 3, 1, 0, 2, 4, 2, 6),
		diff:  " doubled_parts 2, want 3;",
	}, {
		// Node 3 (fire 4 rounds late) takes slot 6's lock in round 10 and
		// is frozen in rounds 11-18 in mid-run; its run ends in round 19,
		// the round node 0's run of slot 18 (taken in 18) ends. Under
		// Redis both unlock: node 3's to max(20, 10 + 3) = 20, node 0's to
		// max(20, 18 + 3) = 21. The engine applies them in the order the
		// runs started, so 21 stands and node 2's fire in round 20 skips;
		// node by node, 20 stands and node 2 runs slot 18 again.
		name:  "runs that end together unlock in the order they started",
		plain: func(rd *docsReading) { rd.runsInStartOrder = false },
		c:     docsConfig(true, 4, 3, 3, 4, 6, 2, 20),
		ws:    model.Windows{{Node: 3, First: 11, Last: 18, Failure: pause}},
		diff:  " double_starts 1, want 2; doubled_parts 2, want 3;",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var r model.Runner
			got, err := r.RunSchedule(tc.c, tc.ws)
			if err != nil {
				t.Fatal(err)
			}
			if d := docsStatsDiff(got, docsShedLock(tc.c, tc.ws, docsEngine)); d != "" {
				t.Errorf("%s: the Runner gives%s under the engine's reading", docsBrief(tc.c, tc.ws), d)
			}
			rd := docsEngine
			tc.plain(&rd)
			if d := docsStatsDiff(got, docsShedLock(tc.c, tc.ws, rd)); d != tc.diff {
				t.Errorf("%s: the Runner gives%s under the plain reading, want%s", docsBrief(tc.c, tc.ws), d, tc.diff)
			}
		})
	}
}

// docsShrink makes a configuration on which the Runner and the reference
// ref differ smaller while they still differ: fewer windows, rounds and
// nodes, shorter windows, smaller settings, fewer toggles.
func docsShrink(r *model.Runner, c model.Config, ws model.Windows, ref func(model.Config, model.Windows) model.Stats) (model.Config, model.Windows) {
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
		return err == nil && docsStatsDiff(got, ref(c, ws)) != ""
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
			func(c *model.Config) { c.RetryPeriod-- },
			func(c *model.Config) {
				if c.Protocol == model.ProtocolShedLockRedis {
					c.Protocol = model.ProtocolShedLock
				}
			},
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
	switch c.Protocol {
	case model.ProtocolShedLockRedis:
		p = "shedlock-redis"
	case model.ProtocolRedisson:
		p = fmt.Sprintf("redisson retry_period=%d", c.RetryPeriod)
	}
	toggles := ""
	for _, x := range []struct {
		on   bool
		name string
	}{{c.Pause, "pause"}, {c.Crash, "crash"}, {c.Release, "release"}, {c.Partition, "partition"}, {c.BlackHole, "black_hole"}} {
		if x.on {
			toggles += " " + x.name
		}
	}
	return fmt.Sprintf("%s nodes=%d lease=%d lock_at_least_for=%d fire_spread=%d period=%d batch_len=%d rounds=%d%s windows=%v",
		p, c.Nodes, c.Lease, c.LockAtLeastFor, c.FireSpread, c.Period, c.BatchLen, c.Rounds, toggles, ws)
}
