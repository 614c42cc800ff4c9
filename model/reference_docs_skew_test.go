package model_test

// An independent reference of ShedLock's per-fire loop under clock skew
// (the kind skew:V), written from docs/model.md alone (How failing nodes
// fail: Clock skew; ShedLock: Whose clock) without reading the engine's
// code (issue 48). It covers protocols shedlock (on the nodes' clocks, or
// with using_db_time on the database's) and shedlock-redis, with windows
// of kind skew beside every other kind of failure.

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// docsSkew runs c (protocol shedlock or shedlock-redis) under the windows
// ws, of which those of kind skew set clocks, as docs/model.md says,
// round by round, under the engine's reading.
func docsSkew(c model.Config, ws model.Windows) model.Stats {
	return docsSkewRead(c, ws, true)
}

// docsSkewRead is docsSkew, a woken node's fire standing for the slots
// opened by the round it wakes in if opened, else for those whose round
// is at or before it (TestDocsSkewReadings).
func docsSkewRead(c model.Config, ws model.Windows, opened bool) model.Stats {
	n, rounds, L := c.Nodes, c.Rounds, c.BatchLen
	kind := make([][]docsKind, n)
	goesDown := make([][]bool, n)
	skew := make([][]int, n)
	for i := range kind {
		kind[i] = make([]docsKind, rounds+2)
		goesDown[i] = make([]bool, rounds+2)
		skew[i] = make([]int, rounds+2)
	}
	ahead := 0 // the most a clock is ahead anywhere in the schedule
	for _, w := range ws {
		if w.Failure.Kind == model.Skewed {
			for t := max(w.First, 1); t <= min(w.Last, rounds+1); t++ {
				skew[w.Node][t] = w.Failure.Value
			}
			ahead = max(ahead, w.Failure.Value)
			continue
		}
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
	clock := func(i, t int) int { return t + skew[i][t] }
	// lockTime is the time the lock's times are written and compared in:
	// the node's clock under shedlock without using_db_time, else the
	// rounds themselves (the database's or Redis's clock).
	lockTime := func(i, t int) int {
		if c.Protocol == model.ProtocolShedLock && !c.UsingDbTime {
			return clock(i, t)
		}
		return t
	}
	offset := make([]int, n)
	for i := 1; i < n; i++ {
		offset[i] = c.FireSpread * i / (n - 1)
	}
	slots := rounds / c.Period
	written := make([][]int, slots)
	first := make([][]int, slots)
	runsOf := make([]int, slots)
	firstStart := make([]int, slots)
	for s := range written {
		written[s] = make([]int, L)
		first[s] = make([]int, L)
	}
	fired := make([]int, n)   // the slots each node fired, in order: the next to fire
	pending := make([]int, n) // a frozen node's fire, slot+1; 0: none
	var runs []*docsRun
	running := make([]*docsRun, n)
	lockUntil, lockedBy := 0, -1
	taken := make(map[*docsRun]int) // a run's taking, in the lock's time
	unlock := func(r *docsRun, until int) {
		if c.Protocol == model.ProtocolShedLock && lockedBy != r.node {
			return
		}
		lockUntil = max(until, taken[r]+c.LockAtLeastFor)
	}
	var st model.Stats
	episode := 0
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
	for t := 1; t <= rounds; t++ {
		// A node that crashes or stops ends its run; a clean stop unlocks
		// at its clock in the round it stops.
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
				unlock(r, lockTime(i, t))
			}
		}
		// The fires due, node by node, lowest first: slot s (round
		// (s+1)·period) opens ahead rounds before its round, and node i's
		// fire of it is due once its clock reads the slot's round + its
		// offset; each node fires each slot once. A reachable node that
		// runs nothing and finds the lock free (lock_until at or before
		// its time) takes it and runs the slot; any other fire is skipped.
		fire := func(i, s, t int) {
			now := lockTime(i, t)
			if !reachable(i, t) || running[i] != nil || lockUntil > now {
				return
			}
			lockUntil, lockedBy = now+c.Lease, i
			r := &docsRun{node: i, slot: s, take: t, live: true}
			taken[r] = now
			runs = append(runs, r)
			running[i] = r
			if runsOf[s] == 0 {
				firstStart[s] = t
			}
			runsOf[s]++
		}
		for i := range n {
			if !frozen(i, t) && pending[i] > 0 {
				// A frozen node makes its fire as it wakes, once, for the
				// slot it was due for; it stands for every slot opened by
				// then ("a node whose fire of an earlier slot is still to
				// come as a slot opens, being frozen, fires once, for the
				// earlier slot"; a slot opened in the round it wakes in
				// too, the engine's reading, TestDocsShedLockReadings).
				fire(i, pending[i]-1, t)
				pending[i] = 0
				if opened {
					fired[i] = max(fired[i], min(slots, (t+ahead)/c.Period))
				} else {
					fired[i] = max(fired[i], min(slots, t/c.Period))
				}
			}
			for fired[i] < slots {
				s := fired[i]
				round := (s + 1) * c.Period
				if t < round-ahead || clock(i, t) < round+offset[i] {
					break
				}
				fired[i]++
				if frozen(i, t) {
					if pending[i] == 0 {
						pending[i] = s + 1
					}
					continue
				}
				fire(i, s, t)
			}
		}
		// Every run passes its next part, in the order the runs started;
		// after its last, if its node is reachable, it unlocks: lock_until
		// max(1 + its time, its taking + lock_at_least_for).
		going := 0
		for _, r := range runs {
			if !r.live {
				continue
			}
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
			if r.next == L {
				r.live, running[i] = false, nil
				if reachable(i, t) {
					unlock(r, 1+lockTime(i, t))
				}
			}
		}
		if going >= 2 {
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
		for k := range L {
			ahead := false // a run still going at the end has yet to reach it
			for _, r := range runs {
				if r.live && r.slot == s && r.next <= k {
					ahead = true
				}
			}
			if w := written[s][k]; w > 1 && !ahead {
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
		if due := firstStart[s] + L - 1; written[s][L-1] > 0 && first[s][L-1] > due {
			st.LateBatches++
			st.LateRounds += first[s][L-1] - due
		}
	}
	return st
}

// docsSkewKinds are the kinds beside skew a window of docsSkewCase may
// name.
var docsSkewKinds = []model.Kind{
	model.Paused, model.Isolated, model.BlackHoled, model.Partitioned, model.Crashed, model.Released,
}

// docsSkewCase draws one configuration: both protocols (shedlock with or
// without using_db_time), 1-4 nodes, every setting small, and per node up
// to two windows, a skew (a fixed offset, from round 1, or a step) or
// another kind, back to back or apart; a draw the schedule check refuses
// (fire_spread + most ahead + most behind not under the period) is drawn
// again.
func docsSkewCase(rng *rand.Rand) (model.Config, model.Windows) {
	for {
		period := 2 + rng.IntN(8)
		lease := 1 + rng.IntN(10)
		c := docsConfig(rng.IntN(2) == 1, 1+rng.IntN(4), lease, rng.IntN(lease+1),
			rng.IntN(period), period, 1+rng.IntN(period), 1+rng.IntN(40))
		if c.Protocol == model.ProtocolShedLock {
			c.UsingDbTime = rng.IntN(2) == 0
		}
		c.Pause = rng.IntN(4) == 0
		c.Crash = rng.IntN(4) == 0
		c.Partition = rng.IntN(3) == 0
		var ws model.Windows
		for i := range c.Nodes {
			t := 1
			if rng.IntN(2) == 0 {
				t += rng.IntN(c.Rounds + 3)
			}
			for w := rng.IntN(3); w > 0 && t <= c.Rounds; w-- {
				last := t + rng.IntN(12)
				if t == 1 && rng.IntN(2) == 0 {
					last = c.Rounds // a fixed offset
				}
				f := model.Failure{Kind: model.Skewed, Value: rng.IntN(2*period-1) - (period - 1)}
				if rng.IntN(3) == 0 {
					f = model.Failure{Kind: docsSkewKinds[rng.IntN(len(docsSkewKinds))]}
				}
				ws = append(ws, model.Window{Node: i, First: t, Last: last, Failure: f})
				t = last + 1 + rng.IntN(6)
			}
		}
		if c.Validate() == nil && c.ValidateSchedule(ws) == nil {
			return c, ws
		}
	}
}

// TestDocsSkew compares the Runner with the docs' skew reference over
// random small configurations.
func TestDocsSkew(t *testing.T) {
	cases := 20000
	if testing.Short() {
		cases = 2000
	}
	rng := rand.New(rand.NewPCG(48, 4))
	var r model.Runner
	fails, skewed := 0, 0
	for range cases {
		c, ws := docsSkewCase(rng)
		for _, w := range ws {
			if w.Failure.Kind == model.Skewed && w.Failure.Value != 0 {
				skewed++
				break
			}
		}
		got, err := r.RunSchedule(c, ws)
		if err != nil {
			t.Fatalf("%s: %v", docsSkewBrief(c, ws), err)
		}
		if d := docsStatsDiff(got, docsSkew(c, ws)); d != "" {
			if fails++; fails <= 5 {
				t.Errorf("%s: the Runner gives%s", docsSkewBrief(c, ws), d)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d configurations differ", fails, cases)
	}
	t.Logf("%d configurations compared, %d with a clock skewed", cases, skewed)
}

// docsSkewBrief is c's settings and ws, briefly.
func docsSkewBrief(c model.Config, ws model.Windows) string {
	return fmt.Sprintf("%s using_db_time=%v", docsBrief(c, ws), c.UsingDbTime)
}

// TestDocsSkewScenarios: the reference gives the hand-computed results of
// model/testdata/scenarios/skew.txt that run (the schedule check passes).
func TestDocsSkewScenarios(t *testing.T) {
	covered := 0
	datadriven.RunTest(t, filepath.Join("testdata", "scenarios", "skew.txt"), func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "run" {
			return d.Expected
		}
		c := model.Default()
		var ws model.Windows
		for _, arg := range d.CmdArgs {
			if arg.Key == "windows" {
				ws = parseWindows(t, arg.Vals)
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
		if ws == nil {
			ws = docsGroupWindows(c)
		}
		if !c.Protocol.PerFire() || c.Validate() != nil || c.ValidateSchedule(ws) != nil {
			return d.Expected
		}
		covered++
		return formatStats(docsSkew(c, ws))
	})
	if covered < 8 {
		t.Fatalf("the reference covers only %d scenarios", covered)
	}
	t.Logf("%d scenarios", covered)
}

// TestDocsSkewReadings pins the point where a reading of the docs other
// than the engine's gives otherwise: node 1's clock is 2 rounds ahead in
// rounds 20-21, so every slot opens 2 rounds before its round. Node 0,
// frozen in rounds 1-5, wakes in round 6 and makes its fire for slot 4
// there; slot 8 opened in round 6 too, and the engine has the woken fire
// stand for it (the docs: "a node whose fire of an earlier slot is still
// to come as a slot opens, being frozen, fires once, for the earlier
// slot"), so node 1 alone runs it, in round 9. Read as "the slots whose
// round is at or before the wake", node 0 runs slot 8 in round 8 and node
// 1, finding the lock freed for round 9, runs it again: one double start
// more than the engine's three (the other slots' runs by both nodes, a
// round apart with lock_at_least_for 1).
func TestDocsSkewReadings(t *testing.T) {
	c := docsConfig(true, 2, 2, 1, 1, 4, 1, 22)
	ws := model.Windows{
		{Node: 0, First: 1, Last: 5, Failure: model.Failure{Kind: model.Paused}},
		{Node: 1, First: 20, Last: 21, Failure: model.Failure{Kind: model.Skewed, Value: 2}},
	}
	if err := c.ValidateSchedule(ws); err != nil {
		t.Fatal(err)
	}
	var r model.Runner
	got, err := r.RunSchedule(c, ws)
	if err != nil {
		t.Fatal(err)
	}
	if d := docsStatsDiff(got, docsSkew(c, ws)); d != "" {
		t.Errorf("%s: the Runner gives%s", docsSkewBrief(c, ws), d)
	}
	want := " double_starts 3, want 4; doubled_parts 3, want 4;"
	if d := docsStatsDiff(got, docsSkewRead(c, ws, false)); d != want {
		t.Errorf("%s: the Runner gives%s under the other reading, want%s", docsSkewBrief(c, ws), d, want)
	}
}
