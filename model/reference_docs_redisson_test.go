package model_test

// An independent reference of the round model under protocol redisson,
// written from docs/model.md alone (The record and the round, How failing
// nodes fail, Lock protocols: the give-up rule, steps 1-2, Redisson and
// Woken holders) without reading the engine's code (issue 48). It covers
// an instant batch, with or without fencing, quorum, the persistent
// trigger (its catch-up window and one run) and the idempotency key,
// without drift or failover.

import (
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// docsRedisson runs c (protocol redisson, batch_len 1) under the windows
// ws as docs/model.md says, round by round.
func docsRedisson(c model.Config, ws model.Windows) model.Stats {
	n, rounds := c.Nodes, c.Rounds
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
	frozen := func(i, t int) bool { return t >= 1 && kind[i][t] == docsFrozen }

	// Node 0 leads first, its lease renewed in round 0.
	leader, renewed := 0, 0
	believes := make([]bool, n)
	believes[0] = true
	giveUpAwake := make([]bool, n) // woken to act once: gives up in its next round not frozen
	freed := false                 // the holder stopped cleanly: the lock is free until taken
	var queue []int                // the persistent trigger's queued slots
	var st model.Stats
	var leaderless, twoLeader int // the current episodes' lengths
	endEpisode := func(e *model.Episodes, length *int) {
		if *length > 0 {
			e.Count++
			if *length > 1 {
				e.Long++
			}
			e.ExtraSq += (*length - 1) * (*length - 1)
		}
		*length = 0
	}
	for t := 1; t <= rounds; t++ {
		// Give up, before step 1.
		acting := make([]bool, n) // woken this round, acting once
		for i := range n {
			if goesDown[i][t] && (kind[i][t] == docsCrashed || kind[i][t] == docsReleased) {
				// A crash or a clean stop gives up as it goes down; a
				// holder's unlock frees the lock for the next at once.
				if believes[i] && i == leader && kind[i][t] == docsReleased {
					freed = true
				}
				believes[i], giveUpAwake[i] = false, false
				continue
			}
			if !believes[i] || frozen(i, t) {
				continue
			}
			if giveUpAwake[i] {
				believes[i], giveUpAwake[i] = false, false
				continue
			}
			if frozen(i, t-1) && (i != leader || t >= renewed+c.Lease) {
				// Woken from a pause, a stale believer, or the record's
				// leader past its lease's end, acts in this round and gives
				// up in its next round not frozen.
				acting[i], giveUpAwake[i] = true, true
				continue
			}
			if reachable(i, t) && (i != leader || t >= renewed+c.Lease) {
				believes[i] = false // reaches Redis and finds the lock gone
			}
		}
		// 1. Renew.
		if believes[leader] && !acting[leader] && reachable(leader, t) && t-renewed >= c.RetryPeriod {
			renewed = t
		}
		// 2. Handover: Redis frees the lock at renewed + lease, or as its
		// holder unlocks; the lowest-numbered reachable node takes it, the
		// old holder only once it gave up (a stale believer woken in this
		// round too: it reaches Redis, and its lock() is granted); with
		// quorum, only while a strict majority of all nodes is reachable.
		up := 0
		for i := range n {
			if reachable(i, t) {
				up++
			}
		}
		if (freed || t >= renewed+c.Lease) && (!c.Quorum || 2*up > n) {
			for i := range n {
				if reachable(i, t) && (i != leader || !believes[i]) {
					st.Handovers++
					st.HandoverRounds += t - renewed
					leader, renewed, freed = i, t, false
					believes[i], giveUpAwake[i] = true, false
					break
				}
			}
		}
		// 3. Count believers: the reachable ones (their work reaching the
		// store) are active; 4. fence: with fencing, only the record's
		// leader's token is current; 5. trigger: each accepted active
		// believer starts the batch.
		active, accepted := 0, 0
		for i := range n {
			if believes[i] && !frozen(i, t) && reachesStore(i, t) {
				active++
				if !c.Fencing || i == leader {
					accepted++
				} else {
					st.Rejected++
				}
			}
		}
		due := t%c.Period == 0
		switch {
		case accepted == 0 && due && c.PersistentTrigger:
			queue = append(queue, t)
		case accepted == 0 && due:
			st.Missed++
		case accepted > 0:
			// The queued slots more than the catch-up window before this
			// round are missed; with one run for the queued slots, only
			// the latest left starts (the one due now, if any), the
			// others missed.
			start := queue[:0]
			for _, slot := range queue {
				if c.CatchUpWindow > 0 && t-slot > c.CatchUpWindow {
					st.Missed++
				} else {
					start = append(start, slot)
				}
			}
			if due {
				start = append(start, t)
			}
			if c.CatchUpOnce && len(start) > 1 {
				st.Missed += len(start) - 1
				start = start[len(start)-1:]
			}
			for _, slot := range start {
				st.Started++
				st.DelayedRounds += t - slot
				if c.IdempotencyKey {
					st.Deduplicated += accepted - 1
				} else {
					st.DoubleStarts += accepted - 1
					st.DoubledParts += accepted - 1
				}
			}
			queue = queue[:0]
		}
		if active == 0 {
			st.LeaderlessRounds++
			leaderless++
		} else {
			endEpisode(&st.LeaderlessEpisodes, &leaderless)
		}
		if active >= 2 {
			st.TwoLeaderRounds++
			twoLeader++
		} else {
			endEpisode(&st.TwoLeaderEpisodes, &twoLeader)
		}
	}
	endEpisode(&st.LeaderlessEpisodes, &leaderless)
	endEpisode(&st.TwoLeaderEpisodes, &twoLeader)
	// At the end, as in the round after the last: the window first, then
	// the one run.
	left := 0
	for _, slot := range queue {
		if c.CatchUpWindow > 0 && rounds+1-slot > c.CatchUpWindow {
			st.Missed++
		} else {
			left++
		}
	}
	if c.CatchUpOnce && left > 1 {
		st.Missed += left - 1
		left = 1
	}
	st.Unresolved = left
	return st
}

// TestDocsRedissonScenarios: the reference gives the hand-computed results
// of model/testdata/scenarios/redisson.txt it covers.
func TestDocsRedissonScenarios(t *testing.T) {
	covered := docsScenarios(t, "redisson.txt", docsRedissonCovers, docsRedisson)
	if covered < 9 {
		t.Fatalf("the reference covers only %d scenarios", covered)
	}
	t.Logf("%d scenarios", covered)
}

// docsRedissonCovers reports whether docsRedisson takes c: protocol
// redisson, an instant batch, no drift or jitter.
func docsRedissonCovers(c model.Config) bool {
	return c.Protocol == model.ProtocolRedisson && c.BatchLen == 1 && c.Drift == 0 && !c.Jitter
}

// docsRedissonCase draws one configuration: 1-4 nodes, a lease above the
// retry period, every period, the toggles at random and up to two windows
// a node of any kind, back to back or apart.
func docsRedissonCase(rng *rand.Rand) (model.Config, model.Windows) {
	c := model.Default()
	c.RereadPeriod = 0
	c.Protocol = model.ProtocolRedisson
	c.Nodes = 1 + rng.IntN(4)
	c.RetryPeriod = 1 + rng.IntN(3)
	c.Lease = c.RetryPeriod + 1 + rng.IntN(6)
	c.Period = 1 + rng.IntN(6)
	c.BatchLen = 1
	c.Rounds = 1 + rng.IntN(40)
	c.Outage, c.Start = 0, 1
	c.Pause = rng.IntN(4) == 0
	c.Crash = rng.IntN(4) == 0
	c.Release = rng.IntN(5) == 0
	c.Partition = rng.IntN(3) == 0
	c.BlackHole = rng.IntN(4) == 0
	c.Fencing = rng.IntN(3) == 0
	c.Quorum = rng.IntN(4) == 0
	c.IdempotencyKey = rng.IntN(4) == 0
	if rng.IntN(2) == 0 {
		c.PersistentTrigger = true
		c.CatchUpOnce = rng.IntN(2) == 0
		c.CatchUpWindow = rng.IntN(3) * rng.IntN(10)
	}
	var ws model.Windows
	for i := range c.Nodes {
		t := 1 + rng.IntN(c.Rounds+3)
		for w := rng.IntN(3); w > 0 && t <= c.Rounds; w-- {
			last := t + rng.IntN(12)
			ws = append(ws, model.Window{Node: i, First: t, Last: last,
				Failure: model.Failure{Kind: docsKinds[rng.IntN(len(docsKinds))]}})
			t = last + 1 + rng.IntN(6) // back to back, or apart
		}
	}
	return c, ws
}

// TestDocsRedisson compares the Runner with the docs' Redisson reference
// over random small configurations, and checks the docs' claim on the
// reference: without drift no two-leader round unless some failing node
// pauses or its work reaches the store while it is cut off (partition).
func TestDocsRedisson(t *testing.T) {
	cases := 30000
	if testing.Short() {
		cases = 3000
	}
	rng := rand.New(rand.NewPCG(48, 2))
	var r model.Runner
	fails := 0
	for range cases {
		c, ws := docsRedissonCase(rng)
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", docsBrief(c, ws), err)
		}
		got, err := r.RunSchedule(c, ws)
		if err != nil {
			t.Fatalf("%s: %v", docsBrief(c, ws), err)
		}
		ref := docsRedisson(c, ws)
		if d := docsStatsDiff(got, ref); d != "" {
			if fails++; fails <= 5 {
				c, ws = docsShrink(&r, c, ws, docsRedisson)
				got, _ := r.RunSchedule(c, ws)
				t.Errorf("%s: the Runner gives%s", docsBrief(c, ws), docsStatsDiff(got, docsRedisson(c, ws)))
			}
		}
		pausesOrWorks := false
		for _, w := range ws {
			if k := docsResolve(c, w.Failure); k == docsFrozen || k == docsPartitioned {
				pausesOrWorks = true
			}
		}
		if !pausesOrWorks && ref.TwoLeaderRounds != 0 {
			t.Errorf("%s: %d two-leader rounds, with no failing node paused or partitioned", docsBrief(c, ws), ref.TwoLeaderRounds)
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d configurations differ", fails, cases)
	}
	t.Logf("%d configurations compared", cases)
}

// TestDocsRedissonGroupOutage compares the Runner with the reference under
// the configuration's own group outage, over a grid, and checks the docs'
// claim on both: a group outage of the holder's zone (from node 0, some
// node outside it), partitioned, that outlasts the lease makes every round
// from the lease's end, R + lease, to the outage's last a two-leader round,
// and no other.
func TestDocsRedissonGroupOutage(t *testing.T) {
	var r model.Runner
	compared, claims := 0, 0
	for nodes := 1; nodes <= 4; nodes++ {
		for retry := 1; retry <= 3; retry++ {
			for lease := retry + 1; lease <= retry+4; lease++ {
				for start := 1; start <= 7; start += 2 {
					for outage := 1; outage <= 12; outage += 2 {
						for down := 1; down <= nodes; down++ {
							for from := range nodes - down + 1 {
								for kind := range 4 {
									c := model.Default()
									c.RereadPeriod = 0
									c.Protocol = model.ProtocolRedisson
									c.Nodes, c.RetryPeriod, c.Lease = nodes, retry, lease
									c.Period, c.Rounds = 2, 24
									c.Start, c.Outage, c.Down, c.DownFrom = start, outage, down, from
									c.Partition = kind == 1
									c.Pause = kind == 2
									c.Crash = kind == 3
									ws := docsGroupWindows(c)
									got, err := r.Run(c)
									if err != nil {
										t.Fatalf("%s: %v", docsBrief(c, ws), err)
									}
									compared++
									ref := docsRedisson(c, ws)
									if d := docsStatsDiff(got, ref); d != "" {
										t.Fatalf("%s: the Runner gives%s", docsBrief(c, ws), d)
									}
									if !c.Partition || from != 0 || down == nodes {
										continue
									}
									claims++
									renewed := (start - 1) / retry * retry // the holder's last renewal before the outage
									want := max(0, start+outage-(renewed+lease))
									if got.TwoLeaderRounds != want {
										t.Errorf("%s: %d two-leader rounds, want %d (rounds %d-%d)", docsBrief(c, ws), got.TwoLeaderRounds, want, renewed+lease, start+outage-1)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d configurations compared, %d partitioned outages of the holder's zone checked", compared, claims)
}
