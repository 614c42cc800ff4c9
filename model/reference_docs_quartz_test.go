package model_test

// An independent reference of the round model under protocols quartz and
// db-scheduler, written from docs/model.md alone (The record and the
// round: runs, parts, cuts, on_cut and the idempotency key; How failing
// nodes fail; Lock protocols: the give-up rule, steps 1-2 and Quartz and
// db-scheduler) and the parameters' help, without reading the engine's
// code (issue 48). It covers batches of any length, on_cut none and rerun,
// runs_in leader and job, fencing, quorum, the persistent trigger (its
// catch-up window and one run) and the idempotency key, under the overlap
// policy allow, without drift. Where the docs leave a point open, or the
// engine reads them otherwise, the reference takes either reading
// (docsQReading): the comparisons take the engine's, and
// TestDocsQuartzReadings pins each such point with a minimal
// configuration.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// docsQReading says how the reference reads the points where docs/model.md
// is open to another reading than the engine's; the zero value is the
// docs' plain reading.
type docsQReading struct {
	// pastLeaseEnd: the record's leader back (or woken) in a round at or
	// after its lease's end gives up before it acts, whether or not
	// anyone took over (the service protocols' rule: "a believer that
	// reaches the service in a round at or after its lease's end, R +
	// lease, gives up in that round before it acts"), where the Quartz
	// and db-scheduler section says "back, or woken, at or after the
	// takeover it gives up": read so, a holder back with nobody taken
	// over, or back in the very round its lease ends, renews and leads
	// on.
	pastLeaseEnd bool
	// aheadFirst: of the nodes that may take the lock in a round, the
	// one whose clock is furthest ahead takes it (the lowest of those
	// that tie), as the one that found the check-in a lease old in the
	// earliest round, R + lease + the holder's lead − its own. The docs'
	// plain reading: "the first node to find it (the lowest of those that
	// tie)" is the lowest-numbered of those that find it in the round.
	aheadFirst bool
}

// docsQEngine is the reading the engine takes.
var docsQEngine = docsQReading{pastLeaseEnd: true, aheadFirst: true}

// docsQRun is one run of a batch on one node.
type docsQRun struct {
	node, token int
	next        int  // the next part it passes
	ended       bool // its process gone (crash, clean stop)
	fenced      bool // under fencing, a newer token is the record's: its parts refused for good
}

// docsQBatch is the batch of one started slot.
type docsQBatch struct {
	start   int   // the round it started
	written []int // how many runs wrote each part
	first   []int // the round each part was first written
	runs    []docsQRun
	done    bool // a run of it passed its length
}

// unwritten reports whether some part of b is not written.
func (b *docsQBatch) unwritten() bool {
	for _, w := range b.written {
		if w == 0 {
			return true
		}
	}
	return false
}

// docsQuartz runs c (protocol quartz or db-scheduler) under the windows
// ws as docs/model.md says, round by round.
func docsQuartz(c model.Config, ws model.Windows, rd docsQReading) model.Stats {
	n, rounds, L := c.Nodes, c.Rounds, c.BatchLen
	kind := make([][]docsKind, n)
	goesDown := make([][]bool, n)
	lead := make([][]int, n) // how many rounds each node's clock is ahead in each round (round 0: none)
	for i := range kind {
		kind[i] = make([]docsKind, rounds+2)
		goesDown[i] = make([]bool, rounds+2)
		lead[i] = make([]int, rounds+2)
	}
	for _, w := range ws {
		if w.Failure.Kind == model.Skewed {
			// A clock skew: the node stays up and works on, its clock
			// Value rounds ahead while the window lasts.
			for t := max(w.First, 1); t <= min(w.Last, rounds+1); t++ {
				lead[w.Node][t] = w.Failure.Value
			}
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
	frozen := func(i, t int) bool { return t >= 1 && kind[i][t] == docsFrozen }

	// Node 0 holds the lock first, renewed in round 0, with token 0. Its
	// check-in is written on its own clock: checkin is the time it reads,
	// renewed + its lead then.
	leader, renewed, token := 0, 0, 0
	checkin := 0
	believes := make([]bool, n)
	believes[0] = true
	tokenOf := make([]int, n)
	freed := false // the holder stopped cleanly: the lock is free until taken
	var queue []int
	var batches []*docsQBatch
	var st model.Stats
	var leaderless, twoLeader int
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
		// Give up, before step 1: a crash or a clean stop ends the node's
		// process (its runs end; a holder's unlock frees the lock); a
		// believer that reaches the database, or wakes, at or after its
		// lease's end (a stale one: at all) gives up, ending no run.
		for i := range n {
			if goesDown[i][t] && (kind[i][t] == docsCrashed || kind[i][t] == docsReleased) {
				if believes[i] && i == leader && kind[i][t] == docsReleased {
					freed = true
				}
				believes[i] = false
				for _, b := range batches {
					for k := range b.runs {
						if b.runs[k].node == i {
							b.runs[k].ended = true
						}
					}
				}
				continue
			}
			if !believes[i] || frozen(i, t) {
				continue
			}
			woken := frozen(i, t-1)
			if (reachable(i, t) || woken) && (i != leader || rd.pastLeaseEnd && t >= renewed+c.Lease) {
				believes[i] = false
			}
		}
		// 1. Renew.
		if believes[leader] && reachable(leader, t) && t-renewed >= c.RetryPeriod {
			renewed, checkin = t, t+lead[leader][t]
		}
		// 2. Handover: node i finds the holder failed once its check-in
		// is a lease old on i's clock, t + i's lead ≥ checkin + lease, or
		// the lock is free as its holder stops cleanly; the
		// lowest-numbered reachable node that finds so takes it (the old
		// holder once it gave up), with quorum only while a strict
		// majority is reachable, whether the holder is cut off or not: a
		// live holder taken over leaves off leading at once. Under fencing
		// every older run is fenced out.
		up := 0
		for i := range n {
			if reachable(i, t) {
				up++
			}
		}
		if !c.Quorum || 2*up > n {
			taker := -1
			for i := range n {
				if !reachable(i, t) || (i == leader && believes[i]) || !freed && t+lead[i][t] < checkin+c.Lease {
					continue
				}
				if taker < 0 || rd.aheadFirst && !freed && lead[i][t] > lead[taker][t] {
					taker = i
				}
			}
			if i := taker; i >= 0 {
				if reachable(leader, t) {
					believes[leader] = false
				}
				st.Handovers++
				st.HandoverRounds += t - renewed
				token++
				leader, renewed, checkin, freed = i, t, t+lead[i][t], false
				believes[i], tokenOf[i] = true, token
				for _, b := range batches {
					for k := range b.runs {
						b.runs[k].fenced = c.Fencing
					}
				}
			}
		}
		// 3. Count believers, 4. fence.
		var accepted []int
		active := 0
		leaderAccepted := false
		for i := range n {
			if believes[i] && !frozen(i, t) && reachesStore(i, t) {
				active++
				if !c.Fencing || tokenOf[i] == token {
					accepted = append(accepted, i)
					leaderAccepted = leaderAccepted || i == leader
				} else {
					st.Rejected++
				}
			}
		}
		// on_cut rerun: in every round the record's leader's work is
		// accepted, it recovers, and runs again whole, each batch not
		// done, none of whose runs holds its token, with a part unwritten
		// as it stands then: at a takeover its predecessor's, and a batch
		// a stale believer started after one (Lock protocols, Quartz and
		// db-scheduler).
		if leaderAccepted && c.OnCut == model.CutRerun {
			for _, b := range batches {
				held := false
				for _, r := range b.runs {
					held = held || r.token == token
				}
				if !b.done && !held && b.unwritten() {
					b.runs = append(b.runs, docsQRun{node: leader, token: token})
				}
			}
		}
		// 5. Trigger.
		due := t%c.Period == 0
		var start []int
		switch {
		case len(accepted) == 0 && due && c.PersistentTrigger:
			queue = append(queue, t)
		case len(accepted) == 0 && due:
			st.Missed++
		case len(accepted) > 0:
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
			queue = queue[:0]
		}
		for _, slot := range start {
			st.Started++
			st.DelayedRounds += t - slot
			b := &docsQBatch{start: t, written: make([]int, L), first: make([]int, L)}
			if c.IdempotencyKey {
				// The store keeps the record's leader's start if its
				// work is accepted, else the lowest-numbered accepted
				// node's.
				keep := accepted[0]
				if leaderAccepted {
					keep = leader
				}
				st.Deduplicated += len(accepted) - 1
				b.runs = append(b.runs, docsQRun{node: keep, token: tokenOf[keep]})
			} else {
				st.DoubleStarts += len(accepted) - 1
				for _, i := range accepted {
					b.runs = append(b.runs, docsQRun{node: i, token: tokenOf[i]})
				}
			}
			batches = append(batches, b)
		}
		// Every run whose process lives and whose node is not frozen
		// passes its next part, written if its node reaches the store and
		// it is not fenced out (the store refuses a part written before
		// under the idempotency key).
		for _, b := range batches {
			for k := range b.runs {
				r := &b.runs[k]
				if r.ended || r.next >= L || frozen(r.node, t) || r.fenced {
					continue
				}
				p := r.next
				r.next++
				b.done = b.done || r.next == L
				if !reachesStore(r.node, t) || r.fenced {
					continue
				}
				if c.IdempotencyKey && b.written[p] > 0 {
					continue
				}
				if b.written[p] == 0 {
					b.first[p] = t
				}
				b.written[p]++
			}
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
	// The parts: those due after the last round are not counted; a part
	// nobody wrote is missed unless a run still going will reach it; each
	// write of a part past its first is doubled; a batch whose last part
	// was first written after it was due is late.
	for _, b := range batches {
		partial := false
		for p := range L {
			if b.start+p > rounds {
				continue
			}
			if b.written[p] == 0 {
				reach := false
				for _, r := range b.runs {
					if !r.ended && !r.fenced && r.next <= p {
						reach = true
					}
				}
				if !reach {
					st.MissedParts++
					partial = true
				}
				continue
			}
			st.DoubledParts += b.written[p] - 1
		}
		if partial {
			st.PartialBatches++
		}
		if due := b.start + L - 1; b.written[L-1] > 0 && b.first[L-1] > due {
			st.LateBatches++
			st.LateRounds += b.first[L-1] - due
		}
	}
	return st
}

// docsQuartzCase draws one configuration: either protocol, 1-4 nodes, a
// lease above the retry period, every period and batch length it allows,
// the toggles at random and up to two windows a node, of any kind, back
// to back or apart; in half the schedules, clock skews up to a round past
// the lease ahead or behind among them, as steps (a window's) and fixed
// offsets (a window over the whole run); or, one time in four, the
// configuration's own group outage (schedule nil).
func docsQuartzCase(rng *rand.Rand) (model.Config, model.Windows, model.Schedule) {
	c := model.Default()
	c.RereadPeriod = 0
	c.Protocol = model.ProtocolQuartz
	if rng.IntN(2) == 0 {
		c.Protocol = model.ProtocolDBScheduler
	}
	c.Nodes = 1 + rng.IntN(4)
	c.RetryPeriod = 1 + rng.IntN(3)
	c.Lease = c.RetryPeriod + 1 + rng.IntN(6)
	c.Period = 1 + rng.IntN(6)
	c.BatchLen = 1 + rng.IntN(c.Period)
	c.Rounds = 1 + rng.IntN(40)
	c.Outage, c.Start = 0, 1
	c.Pause = rng.IntN(4) == 0
	c.Crash = rng.IntN(4) == 0
	c.Release = rng.IntN(5) == 0
	c.Partition = rng.IntN(3) == 0
	c.BlackHole = rng.IntN(4) == 0
	c.Fencing = rng.IntN(3) == 0
	c.Quorum = rng.IntN(4) == 0
	c.IdempotencyKey = rng.IntN(3) == 0
	if rng.IntN(2) == 0 {
		c.OnCut = model.CutRerun
	}
	if rng.IntN(4) == 0 {
		c.RunsIn = model.RunsInJob
	}
	if rng.IntN(2) == 0 {
		c.PersistentTrigger = true
		c.CatchUpOnce = rng.IntN(2) == 0
		c.CatchUpWindow = rng.IntN(3) * rng.IntN(10)
	}
	if rng.IntN(4) == 0 {
		c.DownFrom = rng.IntN(c.Nodes)
		c.Down = 1 + rng.IntN(c.Nodes-c.DownFrom)
		c.Start = 1 + rng.IntN(c.Rounds)
		c.Outage = rng.IntN(14)
		return c, docsGroupWindows(c), nil
	}
	var ws model.Windows
	skew := func() model.Failure { // a clock up to a round past the lease ahead or behind
		return model.Failure{Kind: model.Skewed, Value: rng.IntN(2*c.Lease+3) - (c.Lease + 1)}
	}
	skewed := rng.IntN(2) == 0 // half the schedules with clock skews
	for i := range c.Nodes {
		if skewed && rng.IntN(4) == 0 {
			// A fixed offset: the node's clock off over the whole run.
			ws = append(ws, model.Window{Node: i, First: 1, Last: c.Rounds + rng.IntN(3), Failure: skew()})
			continue
		}
		t := 1 + rng.IntN(c.Rounds+3)
		for w := rng.IntN(3); w > 0 && t <= c.Rounds; w-- {
			last := t + rng.IntN(12)
			f := model.Failure{Kind: docsKinds[rng.IntN(len(docsKinds))]}
			if skewed && rng.IntN(2) == 0 {
				f = skew() // a step of the clock, and back at the window's end
			}
			ws = append(ws, model.Window{Node: i, First: t, Last: last, Failure: f})
			t = last + 1 + rng.IntN(6) // back to back, or apart
		}
	}
	return c, ws, ws
}

// docsQuartzCompare runs c under s (nil: c's own group outage) on the
// Runner and the reference under the engine's reading, and describes how
// they differ, shrunk to a smallest such configuration, "" if they agree.
func docsQuartzCompare(r *model.Runner, c model.Config, ws model.Windows, s model.Schedule) string {
	if err := c.Validate(); err != nil {
		return fmt.Sprintf("%s: %v", docsQBrief(c, ws), err)
	}
	var got model.Stats
	var err error
	if s == nil {
		got, err = r.Run(c)
	} else {
		got, err = r.RunSchedule(c, s)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", docsQBrief(c, ws), err)
	}
	want := docsQuartz(c, ws, docsQEngine)
	if docsStatsDiff(got, want) == "" {
		return ""
	}
	c.Outage = 0 // the same outage, as windows
	c, ws = docsQShrink(r, c, ws, docsQEngine)
	got, _ = r.RunSchedule(c, ws)
	return fmt.Sprintf("%s: the Runner gives%s", docsQBrief(c, ws), docsStatsDiff(got, docsQuartz(c, ws, docsQEngine)))
}

// TestDocsQuartzRandom compares the Runner with the reference over random
// small configurations of both protocols.
func TestDocsQuartzRandom(t *testing.T) {
	cases := 30000
	if testing.Short() {
		cases = 3000
	}
	rng := rand.New(rand.NewPCG(48, 3))
	var r model.Runner
	fails, skewed := 0, 0
	for range cases {
		c, ws, s := docsQuartzCase(rng)
		for _, w := range ws {
			if w.Failure.Kind == model.Skewed && w.Failure.Value != 0 {
				skewed++
				break
			}
		}
		if d := docsQuartzCompare(&r, c, ws, s); d != "" {
			if fails++; fails <= 5 {
				t.Error(d)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d configurations differ", fails, cases)
	}
	t.Logf("%d configurations compared, %d with a clock skew", cases, skewed)
}

// docsQShrink makes a configuration on which the Runner and the reference
// differ smaller while they still differ.
func docsQShrink(r *model.Runner, c model.Config, ws model.Windows, rd docsQReading) (model.Config, model.Windows) {
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
		return err == nil && docsStatsDiff(got, docsQuartz(c, ws, rd)) != ""
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
				func(w *model.Window) { w.Failure = model.Failure{Kind: model.Isolated} },
				func(w *model.Window) { // a skew nearer none
					switch {
					case w.Failure.Kind != model.Skewed:
					case w.Failure.Value > 0:
						w.Failure.Value--
					case w.Failure.Value < 0:
						w.Failure.Value++
					}
				},
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
			func(c *model.Config) { c.BatchLen-- },
			func(c *model.Config) { c.Period-- },
			func(c *model.Config) { c.RetryPeriod-- },
			func(c *model.Config) { c.Pause = false },
			func(c *model.Config) { c.Crash = false },
			func(c *model.Config) { c.Release = false },
			func(c *model.Config) { c.Partition = false },
			func(c *model.Config) { c.BlackHole = false },
			func(c *model.Config) { c.Fencing = false },
			func(c *model.Config) { c.Quorum = false },
			func(c *model.Config) { c.IdempotencyKey = false },
			func(c *model.Config) { c.OnCut = model.CutNone },
			func(c *model.Config) { c.RunsIn = model.RunsInLeader },
			func(c *model.Config) { c.CatchUpOnce = false },
			func(c *model.Config) { c.CatchUpWindow = 0 },
			func(c *model.Config) { c.PersistentTrigger, c.CatchUpOnce, c.CatchUpWindow = false, false, 0 },
			func(c *model.Config) { c.Protocol = model.ProtocolQuartz },
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

// docsQBrief is c's settings and ws, briefly.
func docsQBrief(c model.Config, ws model.Windows) string {
	p := "quartz"
	if c.Protocol == model.ProtocolDBScheduler {
		p = "db-scheduler"
	}
	toggles := ""
	for _, x := range []struct {
		on   bool
		name string
	}{{c.Pause, "pause"}, {c.Crash, "crash"}, {c.Release, "release"}, {c.Partition, "partition"}, {c.BlackHole, "black_hole"},
		{c.Fencing, "fencing"}, {c.Quorum, "quorum"}, {c.IdempotencyKey, "idempotency_key"}, {c.OnCut == model.CutRerun, "on_cut=rerun"},
		{c.RunsIn == model.RunsInJob, "runs_in=job"}, {c.PersistentTrigger, "persistent_trigger"}, {c.CatchUpOnce, "catch_up_once"}} {
		if x.on {
			toggles += " " + x.name
		}
	}
	if c.CatchUpWindow > 0 {
		toggles += fmt.Sprintf(" catch_up_window=%d", c.CatchUpWindow)
	}
	return fmt.Sprintf("%s nodes=%d lease=%d retry_period=%d period=%d batch_len=%d rounds=%d%s windows=%v",
		p, c.Nodes, c.Lease, c.RetryPeriod, c.Period, c.BatchLen, c.Rounds, toggles, ws)
}

// docsQConfig is a quartz configuration with no outage of its own.
func docsQConfig(nodes, lease, retryPeriod, period, batchLen, rounds int) model.Config {
	c := model.Default()
	c.RereadPeriod = 0 // client-go's, refused under quartz
	c.Protocol = model.ProtocolQuartz
	c.Nodes, c.Lease, c.RetryPeriod = nodes, lease, retryPeriod
	c.Period, c.BatchLen, c.Rounds = period, batchLen, rounds
	c.Outage, c.Start = 0, 1
	return c
}

// TestDocsQuartzReadings pins each point where the docs' plain reading
// and the engine's differ, on a smallest configuration that shows it: the
// Runner gives the engine's reading, and the difference from the plain one
// is the one stated. A change to the engine or the docs that settles a
// point shows here.
func TestDocsQuartzReadings(t *testing.T) {
	isolate := model.Failure{Kind: model.Isolated}
	partition := model.Failure{Kind: model.Partitioned}
	rerun := func(c model.Config, fencing bool) model.Config {
		c.OnCut, c.Fencing = model.CutRerun, fencing
		return c
	}
	for _, tc := range []struct {
		name  string
		plain func(*docsQReading) // sets the point to the docs' plain reading
		c     model.Config
		ws    model.Windows
		diff  string // the Runner's stats against the plain reading's
	}{{
		// One node, cut off in rounds 2-5, is back in round 6, past its
		// lease's end (renewed in round 1, lease 2) with nobody taken
		// over (nobody else to). The engine has it give up and take the
		// lock again, a handover 5 rounds after the renewal; read as the
		// Quartz section says, it was not taken over, renews and leads
		// on.
		name:  "a holder back past its lease's end gives up, taken over or not",
		plain: func(rd *docsQReading) { rd.pastLeaseEnd = false },
		c:     docsQConfig(1, 2, 1, 4, 1, 6),
		ws:    model.Windows{{Node: 0, First: 2, Last: 5, Failure: isolate}},
		diff:  " handover_rounds 5, want 0; handovers 1, want 0;",
	}, {
		// Settled (issue 48): one node starts slot 4 (parts 4-7). Cut
		// off in round 5, it is back in 6 at its lease's end, gives up
		// and takes the lock again (token 1): its first run is fenced
		// out and the batch recovered, run again in rounds 6-9. The
		// fenced first run passes its parts 2-3 on, refused, in rounds
		// 6-7, but reports nothing: the batch is not done. Cut off again
		// in round 8, the node takes over again in 9 (token 2), the
		// rerun still going, part 2 unwritten: the batch is recovered
		// again (part 0 doubled, parts 2-3 to come), the engine's
		// reading as the docs' plain one (the engine had taken the
		// fenced run's length as the batch done: parts 2-3 missed).
		name:  "a fenced run passes its length but reports nothing",
		plain: func(*docsQReading) {},
		c:     rerun(docsQConfig(1, 2, 1, 4, 4, 9), true),
		ws:    model.Windows{{Node: 0, First: 5, Last: 5, Failure: isolate}, {Node: 0, First: 8, Last: 8, Failure: isolate}},
		diff:  "",
	}, {
		// Settled (issue 48): node 0, cut off from the database from
		// round 2 but reaching the store, is taken over by node 1 in
		// round 4 (lease 3). Node 1, cut off in round 6, accepts no work
		// there; node 0, a stale believer, starts slot 6 (parts 6-7). In
		// round 7 both are back: node 0 gives up (its run writes part
		// 1), node 1 leads on and its work is accepted, and recovers the
		// stale believer's batch, running it again (part 0 doubled): the
		// docs now say the record's leader recovers in every round its
		// work is accepted, not only at a takeover (the plain reading
		// had recovered nothing: doubled_parts 0).
		name:  "a stale believer's batch is run again without a takeover",
		plain: func(*docsQReading) {},
		c:     rerun(docsQConfig(2, 3, 1, 6, 2, 7), false),
		ws:    model.Windows{{Node: 0, First: 2, Last: 6, Failure: partition}, {Node: 1, First: 6, Last: 6, Failure: isolate}},
		diff:  "",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.c.Validate(); err != nil {
				t.Fatal(err)
			}
			var r model.Runner
			got, err := r.RunSchedule(tc.c, tc.ws)
			if err != nil {
				t.Fatal(err)
			}
			if d := docsStatsDiff(got, docsQuartz(tc.c, tc.ws, docsQEngine)); d != "" {
				t.Errorf("%s: the Runner gives%s under the engine's reading", docsQBrief(tc.c, tc.ws), d)
			}
			rd := docsQEngine
			tc.plain(&rd)
			if d := docsStatsDiff(got, docsQuartz(tc.c, tc.ws, rd)); d != tc.diff {
				t.Errorf("%s: the Runner gives%s under the plain reading, want%s", docsQBrief(tc.c, tc.ws), d, tc.diff)
			}
		})
	}
}

// docsQuartzCovers reports whether docsQuartz takes c: protocol quartz or
// db-scheduler, no drift, the overlap policy allow.
func docsQuartzCovers(c model.Config) bool {
	return (c.Protocol == model.ProtocolQuartz || c.Protocol == model.ProtocolDBScheduler) &&
		c.Drift == 0 && c.Overlap == model.OverlapAllow
}

// TestDocsQuartzScenarios: the reference gives the hand-computed results
// of model/testdata/scenarios/quartz.txt and db-scheduler.txt it covers.
func TestDocsQuartzScenarios(t *testing.T) {
	ref := func(c model.Config, ws model.Windows) model.Stats { return docsQuartz(c, ws, docsQEngine) }
	for file, want := range map[string]int{"quartz.txt": 16, "db-scheduler.txt": 9} {
		t.Run(file, func(t *testing.T) {
			covered := docsScenarios(t, file, docsQuartzCovers, ref)
			if covered < want {
				t.Fatalf("the reference covers only %d scenarios", covered)
			}
			t.Logf("%d scenarios", covered)
		})
	}
}

// TestDocsQuartzGrid compares the Runner with the reference under the
// configuration's own group outage over a grid of every setting small
// (both protocols, nodes 1-4, retry period 1-2, lease up to 3 over it,
// period 2-4 and every batch length it allows, on_cut none and rerun, the
// idempotency key, fencing, quorum, each kind of failure, three starts,
// four outages, every zone), every 61st point (-short: every 499th), a
// stride prime to every dimension's length. It checks the docs' claim on
// them too (claimRecovered): two leaders only where the failing nodes'
// work reaches the store while they are cut off (partition), and then a
// group outage of the holder's zone, with a node outside it to take over,
// makes every round from the lease's end, R + lease, to the outage's last
// a two-leader round, and no other.
func TestDocsQuartzGrid(t *testing.T) {
	every := 61
	if testing.Short() {
		every = 499
	}
	var r model.Runner
	point, compared, claims := 0, 0, 0
	for _, protocol := range []model.LockProtocol{model.ProtocolQuartz, model.ProtocolDBScheduler} {
		for nodes := 1; nodes <= 4; nodes++ {
			for retry := 1; retry <= 2; retry++ {
				for lease := retry + 1; lease <= retry+3; lease++ {
					for period := 2; period <= 4; period++ {
						for batchLen := 1; batchLen <= period; batchLen++ {
							for flags := range 16 { // rerun, key, fencing, quorum
								for kind := range 6 {
									for _, start := range []int{2, 5, 7} {
										for _, outage := range []int{1, 3, 6, 9} {
											for down := 1; down <= nodes; down++ {
												for from := range nodes - down + 1 {
													if point++; point%every != 0 {
														continue
													}
													c := docsQConfig(nodes, lease, retry, period, batchLen, 20)
													c.Protocol = protocol
													if flags&1 != 0 {
														c.OnCut = model.CutRerun
													}
													c.IdempotencyKey = flags&2 != 0
													c.Fencing = flags&4 != 0
													c.Quorum = flags&8 != 0
													c.Partition = kind == 1
													c.Pause = kind == 2
													c.Crash = kind == 3
													c.Release = kind == 4
													c.BlackHole = kind == 5
													c.Start, c.Outage, c.Down, c.DownFrom = start, outage, down, from
													ws := docsGroupWindows(c)
													if d := docsQuartzCompare(&r, c, ws, nil); d != "" {
														t.Fatal(d)
													}
													compared++
													got := docsQuartz(c, ws, docsQEngine)
													switch {
													case !c.Partition && got.TwoLeaderRounds != 0:
														t.Errorf("%s: %d two-leader rounds, no failing node's work reaching the store", docsQBrief(c, ws), got.TwoLeaderRounds)
													case c.Partition && from == 0 && down < nodes && !c.Quorum:
														claims++
														renewed := (start - 1) / retry * retry // the holder's last renewal before the outage
														if want := max(0, start+outage-(renewed+lease)); got.TwoLeaderRounds != want {
															t.Errorf("%s: %d two-leader rounds, want %d (rounds %d-%d)", docsQBrief(c, ws), got.TwoLeaderRounds, want, renewed+lease, start+outage-1)
														}
													}
												}
											}
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d of %d configurations compared, %d partitioned outages of the holder's zone checked", compared, point, claims)
}

// TestDocsQuartzSkewReadings pins the point of clock skew where the docs'
// plain reading and the engine's differ, as TestDocsQuartzReadings does:
// which node takes over where several find the holder's check-in a lease
// old in the same round.
func TestDocsQuartzSkewReadings(t *testing.T) {
	skew := func(v int) model.Failure { return model.Failure{Kind: model.Skewed, Value: v} }
	// Node 0 checks in in round 1 (lease 2, every round). Node 1's clock
	// is 2 ahead in rounds 1-2, node 2's 3 ahead in round 1: both find
	// that check-in a lease old in round 1 (node 1 "in round 1", node 2
	// "in round 0", R + lease + the holder's lead − its own). The engine
	// has node 2, the furthest ahead, take over; its check-in of round 2,
	// its clock back, reads 2, a lease old to node 1 at once: a second
	// handover. Read as the lowest of those that find it, node 1 takes
	// over, checks in 2 ahead, and keeps the lock.
	c := docsQConfig(3, 2, 1, 1, 1, 2)
	ws := model.Windows{{Node: 1, First: 1, Last: 2, Failure: skew(2)}, {Node: 2, First: 1, Last: 1, Failure: skew(3)}}
	var r model.Runner
	got, err := r.RunSchedule(c, ws)
	if err != nil {
		t.Fatal(err)
	}
	if d := docsStatsDiff(got, docsQuartz(c, ws, docsQEngine)); d != "" {
		t.Errorf("%s: the Runner gives%s under the engine's reading", docsQBrief(c, ws), d)
	}
	rd := docsQEngine
	rd.aheadFirst = false
	if d, want := docsStatsDiff(got, docsQuartz(c, ws, rd)), " handovers 2, want 1;"; d != want {
		t.Errorf("%s: the Runner gives%s under the plain reading, want%s", docsQBrief(c, ws), d, want)
	}
}

// TestDocsQuartzSkewStretch: a node takes a lock freed by a clean stop,
// and a node whose clock is ahead of the taker's by more than the margin
// (lease − retry period) finds the taker's check-in a lease old before
// its next and takes over, as the reference does, computed round by round
// and stretch by stretch alike (the stretch path once missed it, and its
// own Check found the two different). Node 0 stops cleanly in round 1 and
// node 1, its clock 2 behind, takes the lock; its check-in of round 2
// reads 0, a lease old to node 2 in round 2.
func TestDocsQuartzSkewStretch(t *testing.T) {
	c := docsQConfig(3, 2, 1, 1, 1, 2)
	ws := model.Windows{
		{Node: 0, First: 1, Last: 2, Failure: model.Failure{Kind: model.Released}},
		{Node: 1, First: 1, Last: 2, Failure: model.Failure{Kind: model.Skewed, Value: -2}},
	}
	var r model.Runner
	want := docsQuartz(c, ws, docsQEngine)
	if want.Handovers != 2 || want.HandoverRounds != 1 {
		t.Errorf("%s: the reference gives %d handovers, %d rounds, want 2, 1", docsQBrief(c, ws), want.Handovers, want.HandoverRounds)
	}
	var leaders []int
	rounds, err := r.Trace(c, ws, 1, c.Rounds, func(v *model.RoundView) { leaders = append(leaders, v.Leader) })
	if err != nil {
		t.Fatal(err)
	}
	if d := docsStatsDiff(rounds, want); d != "" || fmt.Sprint(leaders) != "[1 2]" {
		t.Errorf("%s: round by round the Runner gives leaders %v,%s", docsQBrief(c, ws), leaders, d)
	}
	got, err := r.RunSchedule(c, ws)
	if err != nil {
		t.Fatal(err)
	}
	if d := docsStatsDiff(got, want); d != "" {
		t.Errorf("%s: stretch by stretch the Runner gives%s", docsQBrief(c, ws), d)
	}
	if err := r.Check(c, ws); err != nil {
		t.Errorf("%s: %v", docsQBrief(c, ws), err)
	}
}
