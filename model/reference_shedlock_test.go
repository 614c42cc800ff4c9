package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
	"pgregory.net/rapid"
)

// refShedLock is the reference for protocols shedlock and shedlock-redis,
// written from docs/model.md's paragraph alone (Lock protocols, ShedLock,
// and its Whose clock): round by round, every node and every slot kept
// whole, with no skipping between events, each node's fire checked
// against its clock in every round. reference calls it for those
// protocols.
func refShedLock(c model.Config, ws model.Windows) model.Stats {
	var st model.Stats
	var twoLeader refEpisodes
	n, b := c.Nodes, c.BatchLen
	kind := make([][]refKind, c.Rounds+2) // -1 while up, else how the node fails
	for t := range kind {
		kind[t] = make([]refKind, n)
		for i := range kind[t] {
			kind[t][i] = -1
		}
	}
	skew := make([][]int, c.Rounds+2) // by round and node, how far its clock is ahead
	lead := 0                         // the most a clock is ahead in the schedule: slots open that early
	for t := range skew {
		skew[t] = make([]int, n)
	}
	for _, w := range ws {
		if w.Failure.Kind == model.Skewed {
			lead = max(lead, w.Failure.Value)
		}
		for t := max(w.First, 1); t <= min(w.Last, c.Rounds) && w.Node < n; t++ {
			if w.Failure.Kind == model.Skewed { // up, its clock off
				skew[t][w.Node] = w.Failure.Value
				continue
			}
			kind[t][w.Node] = refKindOf(c, w.Failure)
		}
	}
	clock := func(i, t int) int { // the lock's clock: the node's own under shedlock without using_db_time
		if c.Protocol == model.ProtocolShedLock && !c.UsingDbTime {
			return t + skew[t][i]
		}
		return t
	}
	offset := func(i int) int { // node i fires i·fire_spread/(nodes−1) after a slot
		if n < 2 {
			return 0
		}
		return i * c.FireSpread / (n - 1)
	}
	type slot struct {
		at, runs, firstStart, lastFirst int
		writes                          []int // by part, the runs that wrote it
	}
	type run struct{ node, slot, start, lockedAt, done int }
	var slots []*slot
	var runs []run
	pending, fireSlot := make([]bool, n), make([]int, n) // a fire to come, of slot fireSlot
	lockUntil, holder := 0, -1
	unlock := func(r run, now int) { // lock_until ← max(now on the lock's clock, locked_at + lock_at_least_for)
		if holder == r.node || c.Protocol == model.ProtocolShedLockRedis {
			lockUntil = max(now, r.lockedAt+c.LockAtLeastFor)
		}
	}
	for t := 1; t <= c.Rounds; t++ {
		k := kind[t]
		stops := func(i int) bool { return k[i] == refCrash || k[i] == refRelease }
		if at := t + lead; at%c.Period == 0 && at <= c.Rounds { // the slot of round at opens lead rounds early
			slots = append(slots, &slot{at: at, writes: make([]int, b)})
			for i := range n {
				if !pending[i] { // a frozen node's earlier fire is still to come: it fires once
					pending[i], fireSlot[i] = true, len(slots)-1
				}
			}
		}
		// A node that crashes or stops ends its run; a clean stop unlocks.
		var kept []run
		for _, r := range runs {
			if k[r.node] >= 0 && stops(r.node) {
				if k[r.node] == refRelease {
					unlock(r, clock(r.node, t))
				}
				continue
			}
			kept = append(kept, r)
		}
		runs = kept
		// The fires due, node by node: a frozen node fires as it wakes.
		for i := range n {
			if !pending[i] || t+skew[t][i] < slots[fireSlot[i]].at+offset(i) || k[i] == refPause { // not yet due by its clock
				continue
			}
			running := false
			for _, r := range runs {
				running = running || r.node == i
			}
			if now := clock(i, t); k[i] < 0 && lockUntil <= now && !running {
				lockUntil, holder = now+c.Lease, i
				s := slots[fireSlot[i]]
				if s.runs == 0 {
					s.firstStart = t
				}
				s.runs++
				runs = append(runs, run{node: i, slot: fireSlot[i], start: t, lockedAt: now})
			}
			pending[i] = false
		}
		// Every run not frozen passes a part, written where it reaches the store.
		going := 0
		kept = nil
		for _, r := range runs {
			if k[r.node] == refPause {
				kept = append(kept, r)
				continue
			}
			going++
			s := slots[r.slot]
			if k[r.node] < 0 || k[r.node] == refPartition || k[r.node] == refPartitionBlackHole {
				s.writes[r.done]++
				if r.done == b-1 && s.lastFirst == 0 {
					s.lastFirst = t
				}
			}
			r.done++
			if r.done < b {
				kept = append(kept, r)
			} else if k[r.node] < 0 {
				unlock(r, clock(r.node, t)+1)
			}
		}
		runs = kept
		if going > 1 {
			st.TwoLeaderRounds++
			twoLeader.add(t)
		}
	}
	for i, s := range slots {
		if s.runs == 0 {
			st.Missed++
			continue
		}
		counted := min(b, c.Rounds-s.firstStart+1) // parts due by the last round and reached by every run still going
		for _, r := range runs {
			if r.slot == i {
				counted = min(counted, r.done)
			}
		}
		s.writes = s.writes[:counted]
		st.Started++
		st.DoubleStarts += s.runs - 1
		missed := 0
		for _, w := range s.writes {
			if w == 0 {
				missed++
			} else {
				st.DoubledParts += w - 1
			}
		}
		st.MissedParts += missed
		if missed > 0 {
			st.PartialBatches++
		}
		if due := s.firstStart + b - 1; s.lastFirst > due {
			st.LateBatches++
			st.LateRounds += s.lastFirst - due
		}
	}
	st.TwoLeaderEpisodes = twoLeader.episodes()
	return st
}

// drawShedLockConfig draws a configuration under shedlock or
// shedlock-redis: a few nodes, a lease, lock_at_least_for up to it, a
// fire spread short of the period, a batch of up to the period, and a
// group outage failing as the toggles say.
func drawShedLockConfig(t *rapid.T) model.Config {
	period := rapid.IntRange(1, 40).Draw(t, "period")
	lease := rapid.IntRange(1, 30).Draw(t, "lease")
	c := model.Default()
	c.Protocol = rapid.SampledFrom([]model.LockProtocol{model.ProtocolShedLock, model.ProtocolShedLockRedis}).Draw(t, "protocol")
	c.RereadPeriod = 0
	c.Nodes = rapid.IntRange(1, 6).Draw(t, "nodes")
	c.Period, c.Lease = period, lease
	c.LockAtLeastFor = rapid.IntRange(0, lease).Draw(t, "lock_at_least_for")
	c.FireSpread = rapid.IntRange(0, period-1).Draw(t, "fire_spread")
	c.BatchLen = rapid.IntRange(1, period).Draw(t, "batch_len")
	c.Rounds = rapid.IntRange(1, 300).Draw(t, "rounds")
	c.Start = rapid.IntRange(1, 300).Draw(t, "start")
	c.Outage = rapid.IntRange(0, 60).Draw(t, "outage")
	c.Down = rapid.IntRange(0, c.Nodes).Draw(t, "down")
	c.DownFrom = rapid.IntRange(0, c.Nodes-1).Draw(t, "down_from")
	c.Pause = rapid.Bool().Draw(t, "pause")
	c.Crash = rapid.Bool().Draw(t, "crash")
	c.Release = rapid.Bool().Draw(t, "release")
	c.Partition = rapid.Bool().Draw(t, "partition")
	return c
}

// TestPropertyShedLockReference: the Runner and the reference agree under
// ShedLock's protocols, under the group outage or random windows of every
// kind, clock skews among them (on the nodes' clocks or the database's),
// and the runs keep the invariants.
func TestPropertyShedLockReference(t *testing.T) {
	var r model.Runner
	rapid.Check(t, func(t *rapid.T) {
		c := drawShedLockConfig(t)
		if err := c.Validate(); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		var s model.Schedule = c.Schedule()
		ws := refWindows(c)
		if rapid.Bool().Draw(t, "windows") {
			ws = drawWindows(t, c)
			if rapid.Bool().Draw(t, "skews") { // some windows clock skews instead, as far apart as the period holds
				budget := c.Period - 1 - c.FireSpread
				lead := rapid.IntRange(0, budget).Draw(t, "lead")
				lag := rapid.IntRange(0, budget-lead).Draw(t, "lag")
				c.UsingDbTime = c.Protocol == model.ProtocolShedLock && rapid.Bool().Draw(t, "using_db_time")
				for i := range ws {
					if rapid.Bool().Draw(t, "skewed") {
						ws[i].Failure = model.Failure{Kind: model.Skewed, Value: rapid.IntRange(-lag, lead).Draw(t, "skew")}
					}
				}
			}
			s = ws
		}
		if d := refCompare(&r, c, s, ws); d != "" {
			t.Fatal(d)
		}
		if err := r.Check(c, s); err != nil {
			t.Fatalf("%+v, windows %v: %v", c, ws, err)
		}
	})
}

// TestShedLockAllocatesNothing: once a Runner has grown, a ShedLock run
// allocates nothing, its runs, slots and parts kept between runs, with
// double runs, pauses, crashes and a year of nightly slots.
func TestShedLockAllocatesNothing(t *testing.T) {
	for _, kind := range []func(*model.Config){func(*model.Config) {}, func(c *model.Config) { c.Pause = true }, func(c *model.Config) { c.Crash = true }} {
		var r model.Runner
		c := model.Default()
		c.Protocol, c.RereadPeriod, c.Nodes, c.Lease, c.BatchLen, c.FireSpread, c.Period, c.Rounds = model.ProtocolShedLockRedis, 0, 3, 2, 5, 4, 10, 3650
		c.Start, c.Outage = 101, 7
		kind(&c)
		if _, err := r.Run(c); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { r.Run(c) }); n != 0 {
			t.Errorf("%+v: Run allocates %v times per run, want 0", c, n)
		}
	}
}

// TestShedLockSkewAllocatesNothing: a ShedLock run with clock skews (a
// fixed offset and steps), once its Runner has grown, allocates nothing,
// the schedule's checks included.
func TestShedLockSkewAllocatesNothing(t *testing.T) {
	var r model.Runner
	c := model.Default()
	c.Protocol, c.RereadPeriod, c.Nodes, c.Lease, c.BatchLen, c.FireSpread, c.Period, c.Rounds = model.ProtocolShedLock, 0, 3, 10, 9, 3, 20, 3650
	ws := model.Windows{
		{Node: 0, First: 1, Last: 3650, Failure: model.Failure{Kind: model.Skewed, Value: -2}},
		{Node: 1, First: 100, Last: 900, Failure: model.Failure{Kind: model.Skewed, Value: 9}},
		{Node: 2, First: 500, Last: 510, Failure: model.Failure{Kind: model.Paused}},
	}
	var s model.Schedule = ws // boxed once, as a caller holds it
	if _, err := r.RunSchedule(c, s); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() { r.RunSchedule(c, s) }); n != 0 {
		t.Errorf("RunSchedule allocates %v times per run, want 0", n)
	}
}
