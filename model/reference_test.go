package model_test

import (
	"github.com/leasesim/leasesim/model"
)

// This file is the round model's executable spec: a plain reference
// implementation written from docs/model.md alone, round by round and node
// by node, without the engine's stretches, settled paths or believer
// lists. The tests in reference_compare_test.go run it beside
// model.Runner and compare every statistic, allowing no difference: where
// the two disagreed, the engine was brought to the docs' rule (a lease
// running out within a retry period of a renewal, a failure turning from
// or into one whose calls hang, a leader woken still cut off, a lock
// service's give-up timer due as its holder stops cleanly), or, where
// the docs left a choice, the docs were made to say which (the lock
// services' give-ups: docs/model.md, Lock protocols, Give up).
//
// It takes every parameter but jitter: every failure kind (isolate, black
// hole, slow, partition, pause, crash, release, as toggles and as a
// window's own kind), clock drift, quorum, fencing, retry periods, renew
// deadlines (the deadline race included) and re-read period 0, the persistent
// trigger, the catch-up window, one run for the queued slots, the
// idempotency key, batches that take time and every overlap policy,
// under any schedule given as windows, and every lock protocol (etcd,
// Consul with its lock-delay, Curator and its session policy, and
// DynamoDB's waiters with their acquire calls, each node's call and the
// version it saw kept round by round, beside client-go's). docs/model.md gives jitter's distribution, not the order
// of its draws from the seed, so the reference cannot repeat a jittered
// run (refCovers).

// refKind is how a down node fails, in the words of docs/model.md.
type refKind int

const (
	refIsolate            refKind = iota // reaches neither the record nor the store
	refPartition                         // reaches the store but not the record
	refPause                             // frozen: no timer fires, works nowhere
	refCrash                             // forgets that it led; its runs die
	refRelease                           // stops cleanly; a leader empties the record
	refBlackHole                         // isolated, its calls hanging until they time out
	refSlow                              // isolated, its calls hanging until it is back, or they time out
	refPartitionBlackHole                // reaches the store but not the record, its calls hanging until they time out
)

// refKindOf is how a node whose window names kind f fails: its own kind,
// or as the configuration's toggles say. Of several toggles, a clean stop
// wins (it is a crash that also empties the record), then a crash ("a
// crash still wins"), then a pause (a frozen node works nowhere, partition
// or not, and makes no call); black holes say how the calls of the others
// fail, partitioned or not.
func refKindOf(c model.Config, f model.Failure) refKind {
	switch f.Kind {
	case model.Isolated:
		return refIsolate
	case model.Partitioned:
		return refPartition
	case model.Paused:
		return refPause
	case model.Crashed:
		return refCrash
	case model.Released:
		return refRelease
	case model.BlackHoled:
		return refBlackHole
	case model.Slowed:
		return refSlow
	}
	switch {
	case c.Release:
		return refRelease
	case c.Crash:
		return refCrash
	case c.Pause:
		return refPause
	case c.Partition && c.BlackHole:
		return refPartitionBlackHole
	case c.Partition:
		return refPartition
	case c.BlackHole:
		return refBlackHole
	}
	return refIsolate
}

// refWindows is the scenario's group outage as windows: nodes DownFrom …
// DownFrom+Down-1 down in rounds Start … Start+Outage-1, failing as
// configured.
func refWindows(c model.Config) model.Windows {
	var ws model.Windows
	if c.Outage == 0 {
		return nil
	}
	for n := c.DownFrom; n < min(c.DownFrom+c.Down, c.Nodes); n++ {
		ws = append(ws, model.Window{Node: n, First: c.Start, Last: c.Start + c.Outage - 1})
	}
	return ws
}

// refCovers reports whether the reference takes c: it does not take
// jitter.
func refCovers(c model.Config) bool { return !c.Jitter }

// refRun is one node's writing of one started batch.
type refRun struct {
	batch, node, token, start int
	length                    int  // the parts it passes: the batch's, or a resume's the parts nobody wrote when it began
	next                      int  // the parts it passed
	cursor                    int  // a resume's: the part from which it looks for one nobody wrote
	rerun, resume             bool // it runs a cut batch again, or writes only what nobody wrote
	alive                     bool // its process lives and no cancel-other stopped it
	fenced                    bool // it passed a part fencing refused: it never reports the batch done
}

// refNode is what one node knows.
type refNode struct {
	believes bool
	token    int // the fencing token it took over with, while it believes
	renewed  int // its own last renewal
	wokeBy   int // a believer woken from a pause gives up in this round; 0: as its renewal says
	lost     int // under curator-session, the round it was disconnected, since when it has not been back (it gives up a lease later); 0: connected
	// with a disconnect delay, the round it was disconnected in since its
	// last renewal (0: none), reported DisconnectDelay rounds later, and
	// whether it was so as it woke past its session's end (late)
	cut  int
	late bool
	// under curator, the round it stopped leading as it was disconnected
	// (SUSPENDED), its process living since: back while its session
	// lives, it leads again; 0: none
	suspended int
	// under dynamodb, its heartbeats failed at once in its latest round
	// down: back, it heartbeats a multiple of the retry period after its
	// last renewal
	heartbeatWaits bool
	// under dynamodb, a stale believer (or the leader, past its lease's
	// end) woke from a pause and acted in that round (its lease checked
	// before the pause): it gives up in the next round it is not frozen,
	// acting no more
	woken bool
}

// refFailsAtOnce reports whether a node down as k fails its calls at
// once: it keeps running, neither frozen nor hanging.
func refFailsAtOnce(k refKind) bool { return k == refIsolate || k == refPartition }

// ceilScaled is ⌈x·1000/(1000+drift)⌉: x rounds of a clock that runs
// drift thousandths fast, in the rounds' time.
func ceilScaled(x, drift int) int {
	return (x*1000 + 1000 + drift - 1) / (1000 + drift)
}

// reference runs c under windows ws (nil: no node fails) round by round,
// as docs/model.md describes it.
func reference(c model.Config, ws model.Windows) model.Stats {
	if c.Protocol == model.ProtocolShedLock || c.Protocol == model.ProtocolShedLockRedis {
		return refShedLock(c, ws)
	}
	var st model.Stats
	var leaderless, twoLeader refEpisodes
	n := c.Nodes
	service := c.Protocol != model.ProtocolClientGo // the lock service ends the lease and waiters watch
	drifts := func(i int) bool { return c.Drift != 0 && i >= c.DownFrom && i < c.DownFrom+c.Down }
	leaseOf := func(i int) int { // rounds after the last renewal at which node i finds the lease run out
		if drifts(i) {
			return ceilScaled(c.Lease, c.Drift)
		}
		return c.Lease
	}
	scaled := func(i, x int) int { // x rounds of node i's clock
		if drifts(i) {
			return ceilScaled(x, c.Drift)
		}
		return x
	}
	// Each node's state, round by round: failing[t][i] is -1 while up,
	// else its kind.
	failing := make([][]refKind, c.Rounds+1)
	for t := range failing {
		failing[t] = make([]refKind, n)
		for i := range n {
			failing[t][i] = -1
		}
	}
	// ahead[t][i]: how many rounds node i's clock is ahead in round t (a
	// window of kind skew: the node stays up).
	ahead := make([][]int, c.Rounds+1)
	for t := range ahead {
		ahead[t] = make([]int, n)
	}
	for _, w := range ws {
		for t := max(w.First, 1); t <= min(w.Last, c.Rounds) && w.Node < n; t++ {
			if w.Failure.Kind == model.Skewed {
				ahead[t][w.Node] = w.Failure.Value
				continue
			}
			failing[t][w.Node] = refKindOf(c, w.Failure)
		}
	}

	nodes := make([]refNode, n)
	nodes[0] = refNode{believes: true, token: 1}
	leader, renewed, token := 0, 0, 1 // the record; leader -1: emptied by a release
	// The record's leader's renew loop: the attempt that began in round
	// attemptAt, its next call (or the end of the one in flight) in round
	// callAt, whether that call is the attempt's read, and whether a call
	// hangs, to a slow API.
	attemptAt, callAt, reading, inFlight, slowCall := c.RetryPeriod, c.RetryPeriod, false, false, false
	// Under dynamodb: the record's version, which each renewal and
	// takeover writes anew, and each node's acquire call: the round it
	// began in (-1: none), the version its reads remember and the round
	// that version was first seen in this call.
	version := 0
	callFrom, seenVersion, seenAt := make([]int, n), make([]int, n), make([]int, n)
	for i := range callFrom {
		callFrom[i] = -1
	}
	counted := 0 // the round from which the lock service counts the lease: the last renewal, or its failover since
	stamp := 0   // under quartz and db-scheduler, the holder's clock's lead as it wrote its last check-in
	renew := func(t int) {
		renewed, counted = t, t
		stamp = ahead[t][leader]
		version++
		nodes[leader].renewed, nodes[leader].wokeBy, nodes[leader].heartbeatWaits = t, 0, false
		nodes[leader].cut, nodes[leader].late = 0, false
		attemptAt, callAt, reading, inFlight = t+c.RetryPeriod, t+c.RetryPeriod, false, false
	}
	frozeBefore := make([]bool, n) // frozen in the round before
	wasDown := make([]bool, n)
	wasKind := make([]refKind, n)
	down := make([]bool, n)
	kind := make([]refKind, n)
	var runs []refRun
	var batchStarts []int                                                                     // each started batch's round
	var writes [][]int                                                                        // each started batch's writes per part
	var queue []int                                                                           // queued slots, earliest first
	var lastAt []int                                                                          // each started batch's round its last part was first written in; 0: not yet
	var cancelled []bool                                                                      // each started batch's runs were stopped by cancel-other: never rerun
	recovers := c.Protocol == model.ProtocolQuartz || c.Protocol == model.ProtocolDBScheduler // the new holder recovers a batch its predecessor runs on; nothing stops a holder's job
	kill := func(i int, stops bool) {                                                         // node i's process ends (its node stops: stops): its runs write no more, a Job's only if its node stops, and under quartz and db-scheduler, where nothing stops the job, the same
		if (c.RunsIn == model.RunsInJob || recovers) && !stops {
			return
		}
		for k := range runs {
			if runs[k].node == i {
				runs[k].alive = false
			}
		}
	}
	deadline := func(i int) int { // the round in which believer i gives up
		if nodes[i].wokeBy > 0 {
			return nodes[i].wokeBy
		}
		return nodes[i].renewed + scaled(i, c.RetryPeriod+c.RenewDeadline)
	}

	for t := 1; t <= c.Rounds; t++ {
		if t == c.ServiceFailover && t < counted+c.Lease { // the service's new leader grants the lease afresh
			counted = t
		}
		up := 0
		for i := range n {
			down[i], kind[i] = failing[t][i] >= 0, failing[t][i]
			if !down[i] {
				up++
			}
		}
		// Give up at the renew deadline, reachable or not, before a failure
		// that begins in this round; the timer of a node frozen since the
		// round before does not fire.
		if c.RenewDeadline > 0 {
			for i := range n {
				if nodes[i].believes && !frozeBefore[i] && t >= deadline(i) {
					nodes[i].believes = false
					nodes[i].wokeBy = 0
					kill(i, false)
				}
			}
		}

		if service {
			serviceGiveUp(c, t, nodes, leader, renewed, counted, down, kind, frozeBefore, scaled, func(i int) { kill(i, false) })
			// A leader that stopped leading as it was disconnected and is
			// back before the service frees the lock, and no later than
			// Curator's LOST a lease after the disconnect on its own clock
			// (as a curator-session holder back then is connected), reconnects
			// with its session and leads again, its lease counted from now;
			// later, its session is gone.
			// Suspended at a delayed report while back, it reconnects in
			// the next round.
			if l := leader; l >= 0 && nodes[l].suspended > 0 && nodes[l].suspended < t && !down[l] {
				at := nodes[l].suspended
				nodes[l].suspended = 0
				if t < counted+c.Lease+c.LockDelay && t <= at+scaled(l, c.Lease) {
					nodes[l].believes = true
					renew(t)
				}
			}
		}

		// Failures that begin and pauses that end.
		for i := range n {
			if down[i] && (!wasDown[i] || kind[i] != wasKind[i]) {
				switch kind[i] {
				case refCrash:
					if leader == i && nodes[i].believes && c.Protocol == model.ProtocolPostgres { // its kernel closes the socket: the server ends the session at once
						leader = -1
					}
					nodes[i].believes, nodes[i].suspended = false, 0
					kill(i, true)
				case refRelease: // a leader that has not given up empties the record
					if leader == i && nodes[i].believes {
						leader = -1
					}
					nodes[i].believes, nodes[i].suspended = false, 0
					kill(i, true)
				}
			}
			if wasDown[i] && wasKind[i] == refPause && (!down[i] || kind[i] != refPause) && nodes[i].believes {
				// With a deadline, its renew loop begins a cycle at once.
				switch {
				case c.RenewDeadline == 0:
				case leader == i && !down[i]: // the record is still its own: it renews
					renew(t)
				case leader == i: // still cut off: it tries every retry period from now, to a deadline from now
					nodes[i].wokeBy = t + scaled(i, c.RenewDeadline)
					attemptAt, callAt, inFlight, reading = t, t, false, false
				default: // the record taken: it tries in vain, and gives up a deadline after waking
					nodes[i].wokeBy = t + scaled(i, c.RenewDeadline)
				}
			}
			wasDown[i], wasKind[i] = down[i], kind[i]
		}
		frozen := func(i int) bool { return down[i] && kind[i] == refPause }
		reachesStore := func(i int) bool { return !down[i] || kind[i] == refPartition || kind[i] == refPartitionBlackHole }

		// 1. Renew: at a retry period after the last renewal and every
		// retry period after that, before the deadline.
		// Each attempt is a call to the record, an update and then a read:
		// a call that starts while the leader is back renews; one that
		// starts while it is cut off fails at once, or, when its calls hang
		// (a black hole or a slow API, with a deadline), hangs for half the
		// deadline, rounded up, a slow API answering as soon as the leader
		// is back. The next attempt starts a retry period after the last
		// began, or when it ends if later.
		if service {
			// Every round at least a retry period after the last renewal,
			// while it is up: at once when it is back, but under dynamodb
			// after heartbeats that failed at once, at its next heartbeat.
			if leader >= 0 && nodes[leader].believes {
				l := &nodes[leader]
				kernelAnswers := c.Protocol == model.ProtocolPostgres && frozen(leader) // a paused holder's kernel answers the keepalive probes
				if down[leader] && !kernelAnswers {
					l.heartbeatWaits = c.Protocol == model.ProtocolDynamoDB && refFailsAtOnce(kind[leader])
				} else if d := t - renewed; d >= c.RetryPeriod && (!l.heartbeatWaits || d%c.RetryPeriod == 0) && l.cut == 0 && !l.woken { // not while its disconnect's report is to come, nor as it acts woken past its lease
					renew(t)
				}
			}
		} else if leader >= 0 && nodes[leader].believes && !frozen(leader) {
			l := leader
			for !inFlight && callAt < t { // attempts while frozen, without a deadline, are not made
				attemptAt += c.RetryPeriod
				callAt, reading = attemptAt, false
			}
			for done := false; !done; {
				switch {
				case inFlight && t < callAt:
					if !down[l] && slowCall { // the answer comes as it is back
						renew(t)
					}
					done = true
				case inFlight: // the call timed out: the read starts, or the attempt ends
					inFlight = false
					if reading {
						attemptAt = max(attemptAt+c.RetryPeriod, t)
						callAt, reading = attemptAt, false
					} else {
						reading = true
					}
				case t == callAt:
					switch {
					case !down[l]:
						renew(t)
					case (kind[l] == refBlackHole || kind[l] == refSlow || kind[l] == refPartitionBlackHole) && c.RenewDeadline > 0:
						inFlight, slowCall = true, kind[l] == refSlow
						callAt = t + (c.RenewDeadline+1)/2
					default: // it fails at once, and so does an attempt that would start in this round
						if attemptAt += c.RetryPeriod; attemptAt <= t {
							attemptAt = t + c.RetryPeriod
						}
						callAt, reading = attemptAt, false
					}
					done = true
				default:
					done = true
				}
			}
		}

		// Under dynamodb, the reads of the acquire calls: a node that
		// believes it leads or is down makes none, and its call ends; one
		// whose call read its last round begins the next; each read
		// remembers a version it has not seen in this call.
		if c.Protocol == model.ProtocolDynamoDB {
			for i := range n {
				switch {
				case down[i] || nodes[i].believes:
					callFrom[i] = -1
					continue
				case callFrom[i] < 0 || t > callFrom[i]+scaled(i, c.Lease+c.AcquireWait):
					callFrom[i] = t
				case seenVersion[i] == version:
					continue
				}
				seenVersion[i], seenAt[i] = version, t
			}
		}

		// 2. Handover: under a lock service in every round from the one it
		// frees the lock (a lease after the last renewal, plus Consul's
		// lock-delay, or at a release); under client-go in a retry round.
		// The lowest reachable node that may take over does, with the next
		// token: the record's believing leader never, and under client-go
		// only one whose own clock says the lease ran out.
		takeOver := func(leaseRanOut func(i int) bool) {
			for i := range n {
				if down[i] || (i == leader && nodes[i].believes) || !leaseRanOut(i) {
					continue
				}
				st.Handovers++
				st.HandoverRounds += t - renewed
				token++
				leader = i
				nodes[i] = refNode{believes: true, token: token}
				renew(t)
				break
			}
		}
		switch {
		case c.Quorum && 2*up <= n: // no majority reachable: nobody takes over
		case c.Protocol == model.ProtocolDynamoDB: // who has seen the version for a lease in one call; anyone after a release
			takeOver(func(i int) bool { return leader < 0 || callFrom[i] >= 0 && t >= seenAt[i]+leaseOf(i) })
		case recovers && leader >= 0:
			// Each up node reads the holder's last check-in, stamped on
			// the holder's clock, against its own clock: it finds it a
			// lease old in round counted + lease + stamp − its lead, and
			// the first to find it takes over (the lowest of those that
			// tie), the holder checking in or not.
			found, taker := 0, -1
			for i := range n {
				at := counted + c.Lease + stamp - ahead[t][i]
				if !down[i] && !(i == leader && nodes[i].believes) && at <= t && (taker < 0 || at < found) {
					found, taker = at, i
				}
			}
			if taker >= 0 {
				if !down[leader] { // up, its next acquisition finds the firing taken: it stops leading, its job running on
					nodes[leader].believes = false
				}
				takeOver(func(i int) bool { return i == taker })
			}
		case service:
			if leader < 0 || t >= counted+c.Lease+c.LockDelay {
				takeOver(func(int) bool { return true })
			}
		case t%c.RetryPeriod == 0:
			takeOver(func(i int) bool { return leader < 0 || t-renewed >= leaseOf(i) })
		}

		// A takeover writes the record anew: its round's reads read that
		// version (docs/model.md: The version).
		if c.Protocol == model.ProtocolDynamoDB && renewed == t {
			for i := range n {
				if callFrom[i] >= 0 && seenVersion[i] != version {
					seenVersion[i], seenAt[i] = version, t
				}
			}
		}

		// 3. Count believers; 4. fence.
		active := 0
		var accepted []int
		for i := range n {
			if !nodes[i].believes || frozen(i) || !reachesStore(i) {
				continue
			}
			active++
			if !c.Fencing || nodes[i].token == token {
				accepted = append(accepted, i)
			}
		}
		switch {
		case active == 0:
			st.LeaderlessRounds++
			leaderless.add(t)
		case active > 1:
			st.TwoLeaderRounds++
			twoLeader.add(t)
		}
		st.Rejected += active - len(accepted)

		// 5. Trigger.
		due := t%c.Period == 0
		if len(accepted) == 0 {
			switch {
			case due && c.PersistentTrigger:
				queue = append(queue, t)
			case due:
				st.Missed++
			}
		} else {
			var slots []int
			for _, q := range queue {
				if c.CatchUpWindow > 0 && t-q > c.CatchUpWindow {
					st.Missed++
					continue
				}
				slots = append(slots, q)
			}
			queue = nil
			if due {
				slots = append(slots, t)
			}
			if c.CatchUpOnce && len(slots) > 1 {
				st.Missed += len(slots) - 1
				slots = slots[len(slots)-1:]
			}
			skip := func(s []int) {
				st.Missed += len(s)
				st.Skipped += len(s)
			}
			var start []int
			if c.BatchLen == 1 || c.Overlap == model.OverlapAllow {
				start = slots
			} else if len(slots) > 0 {
				running := false
				for _, r := range runs {
					if r.alive && r.start < t && r.next < r.length {
						running = true
					}
				}
				switch c.Overlap {
				case model.OverlapSkip:
					if running {
						skip(slots)
					} else {
						start = slots[:1]
						skip(slots[1:])
					}
				case model.OverlapBufferAll:
					if running {
						queue = slots
					} else {
						start, queue = slots[:1], slots[1:]
					}
				case model.OverlapBufferOne:
					wait := slots
					if !running {
						start, wait = slots[:1], slots[1:]
					}
					if len(wait) > 1 {
						skip(wait[1:])
						wait = wait[:1]
					}
					queue = wait
				case model.OverlapCancelOther:
					for k := range runs {
						if runs[k].alive && runs[k].start < t && runs[k].next < runs[k].length {
							runs[k].alive = false
							cancelled[runs[k].batch] = true // and it is not run again
						}
					}
					start = slots[len(slots)-1:]
					skip(slots[:len(slots)-1])
				}
			}
			for _, s := range start {
				st.Started++
				st.DelayedRounds += t - s
				b := len(batchStarts)
				batchStarts = append(batchStarts, t)
				writes = append(writes, make([]int, c.BatchLen))
				lastAt = append(lastAt, 0)
				cancelled = append(cancelled, false)
				starters := accepted
				if c.IdempotencyKey {
					st.Deduplicated += len(accepted) - 1
					starters = accepted[:1]
					for _, i := range accepted {
						if i == leader {
							starters = []int{i}
						}
					}
				} else {
					st.DoubleStarts += len(accepted) - 1
				}
				for _, i := range starters {
					runs = append(runs, refRun{batch: b, node: i, token: nodes[i].token, start: t, length: c.BatchLen, alive: true})
				}
			}
		}

		// A cut batch is run again, or resumed, by the record's leader if
		// its work is accepted.
		if c.OnCut != model.CutNone && leader >= 0 && nodes[leader].believes && reachesStore(leader) {
			for b := range batchStarts {
				if cancelled[b] {
					continue
				}
				cut, any := true, false // every run ended before its length
				for _, r := range runs {
					if r.batch != b {
						continue
					}
					any = true
					fencedOut := c.Fencing && r.token != token
					recovered := recovers && r.token < token                                    // the lock was taken over from it: the new holder recovers the batch
					if r.alive && !fencedOut && !recovered || r.next >= r.length && !r.fenced { // a fenced run passes its length but reports nothing
						cut = false
					}
				}
				gaps := 0
				for part, w := range writes[b] {
					if batchStarts[b]+part <= c.Rounds && w == 0 {
						gaps++
					}
				}
				if any && cut && gaps > 0 {
					r := refRun{batch: b, node: leader, token: token, start: t, length: c.BatchLen, rerun: true, alive: true}
					if c.OnCut == model.CutResume {
						r.length, r.rerun, r.resume = gaps, false, true
					}
					runs = append(runs, r)
				}
			}
		}

		// The runs pass their parts of this round, one each, in order: a
		// frozen one none.
		for k := range runs {
			r := &runs[k]
			if !r.alive || r.next >= r.length || frozen(r.node) {
				continue
			}
			s := batchStarts[r.batch]
			write := reachesStore(r.node) && (!c.Fencing || r.token == token)
			r.fenced = r.fenced || c.Fencing && r.token != token
			part := r.next
			if r.resume {
				part = -1
				for j := r.cursor; j < c.BatchLen && s+j <= c.Rounds; j++ {
					if writes[r.batch][j] == 0 {
						part = j
						break
					}
				}
				if part >= 0 {
					r.cursor = part + 1
				}
			}
			r.next++
			if part < 0 || s+part > c.Rounds || !write {
				continue
			}
			if c.IdempotencyKey && writes[r.batch][part] > 0 {
				continue // the key refuses the part written before (a rerun's, or a recovered run's after its rerun)
			}
			writes[r.batch][part]++
			if part == c.BatchLen-1 && lastAt[r.batch] == 0 {
				lastAt[r.batch] = t
			}
		}

		for i := range n {
			frozeBefore[i] = frozen(i)
		}

		// 6. Re-read.
		if c.RereadPeriod > 0 && t%c.RereadPeriod == 0 {
			for i := range n {
				if nodes[i].believes && i != leader && !down[i] {
					nodes[i].believes = false
					nodes[i].wokeBy = 0
				}
			}
		}
	}

	// After the run, as if in round Rounds+1: the window first, then the
	// one run.
	for _, q := range queue {
		if c.CatchUpWindow > 0 && c.Rounds+1-q > c.CatchUpWindow {
			st.Missed++
		} else {
			st.Unresolved++
		}
	}
	if c.CatchUpOnce && st.Unresolved > 1 {
		st.Missed += st.Unresolved - 1
		st.Unresolved = 1
	}
	for b, s := range batchStarts {
		missed := 0
		for part, w := range writes[b] {
			if s+part > c.Rounds {
				break
			}
			owed := false // a run still to pass parts will reach it
			for _, r := range runs {
				if r.batch == b && r.alive && !(c.Fencing && r.token != token) && r.next < r.length &&
					(r.resume && r.cursor <= part || !r.resume && r.next <= part) {
					owed = true
				}
			}
			if w == 0 && !owed {
				missed++
			}
			if w > 1 {
				st.DoubledParts += w - 1
			}
		}
		st.MissedParts += missed
		if missed > 0 {
			st.PartialBatches++
		}
		if due := s + c.BatchLen - 1; lastAt[b] > due {
			st.LateBatches++
			st.LateRounds += lastAt[b] - due
		}
	}
	st.LeaderlessEpisodes, st.TwoLeaderEpisodes = leaderless.episodes(), twoLeader.episodes()
	return st
}

// refEpisodes are the lengths of a count's maximal runs of consecutive
// rounds, and the round it last counted.
type refEpisodes struct {
	lengths []int
	last    int
}

// add counts round t: one more round of the latest episode if it ended
// in round t−1, else a new episode of one round.
func (e *refEpisodes) add(t int) {
	if len(e.lengths) > 0 && e.last == t-1 {
		e.lengths[len(e.lengths)-1]++
	} else {
		e.lengths = append(e.lengths, 1)
	}
	e.last = t
}

// episodes is model.Episodes by its definition: how many episodes, how
// many of more than one round, and Σ (length − 1)².
func (e *refEpisodes) episodes() model.Episodes {
	var ep model.Episodes
	for _, l := range e.lengths {
		ep.Count++
		if l > 1 {
			ep.Long++
		}
		ep.ExtraSq += (l - 1) * (l - 1)
	}
	return ep
}

// serviceGiveUp is the give-up step of round t under a lock service
// (docs/model.md, Lock protocols), before step 1 and before the failures
// that begin in round t, so that a holder whose timer is due as it stops
// cleanly frees nothing: every believer that gives up stops believing and
// its runs write no more, as at client-go's renew deadline (kill). A
// believer that reaches the service (or wakes) at or after its lease's
// end (under curator's rules its session's, which the service's failover
// moves) gives up, and so does a stale one as it reaches the service or
// wakes, but under dynamodb and redisson, woken, it acts in that round and
// gives up in the next it is not frozen; one that is down gives up by its
// row's rule (under redisson never), whose timers do not fire while it
// stays frozen; one that is back is connected again.
// leader and renewed are the record's, counted the round from which the
// service counts the lease (a failover's); scaled(i, x) is x rounds of
// node i's clock.
func serviceGiveUp(c model.Config, t int, nodes []refNode, leader, renewed, counted int, down []bool, kind []refKind, frozeBefore []bool, scaled func(i, x int) int, kill func(i int)) {
	for i := range nodes {
		nd := &nodes[i]
		if !nd.believes {
			nd.woken = false // a crash or a stop ended its belief
			continue
		}
		frozen := down[i] && kind[i] == refPause
		woke := frozeBefore[i] && !frozen
		stands := frozeBefore[i] && frozen // a frozen node's timers stand still
		failsAtOnce := down[i] && refFailsAtOnce(kind[i])
		hangs := down[i] && (kind[i] == refBlackHole || kind[i] == refSlow || kind[i] == refPartitionBlackHole)
		if !down[i] {
			nd.lost = 0 // back: connected again
		}
		// Reaching the service (or waking) at or after its lease's end,
		// or, stale, at all.
		ends := renewed + c.Lease // the lease's end; a ZooKeeper session's, as the service counts it
		if c.Protocol == model.ProtocolCurator || c.Protocol == model.ProtocolCuratorSession {
			ends = counted + c.Lease
		}
		giveUp := (!down[i] || woke) && (i != leader || t >= ends)
		// actsOnce: no call tells the application it lost: a stale
		// believer woken, or the leader woken past its lease's end, acts in
		// that round, once, renewing nothing; it gives up in the next round
		// it is not frozen, its next check (or call) finding the lock gone.
		// Woken into a crash or a clean stop, it gives up first, as any
		// timer due then fires (a clean stop then frees nothing).
		actsOnce := func() {
			switch {
			case woke && !nd.woken && (i != leader || t >= ends) && !(down[i] && (kind[i] == refCrash || kind[i] == refRelease)):
				nd.woken, giveUp = true, false
			case nd.woken:
				giveUp = !frozen
			}
		}
		switch c.Protocol {
		case model.ProtocolEtcd, model.ProtocolDynamoDB:
			giveUp = giveUp || down[i] && !stands && t >= nd.renewed+scaled(i, c.Lease)
			if c.Protocol == model.ProtocolDynamoDB { // the application checks its lease on its own clock before it acts
				actsOnce()
			}
		case model.ProtocolPostgres:
			// The server ends the session and tells nobody: cut off, the
			// holder believes on; it gives up as it reaches the server
			// (above). Paused, its kernel kept the session: woken, it leads on.
		case model.ProtocolQuartz, model.ProtocolDBScheduler:
			// The other nodes declare it failed and tell nobody: cut off,
			// the holder believes on; it gives up as it reaches the
			// database or wakes (above), its job running on.
		case model.ProtocolRedisson:
			// Redisson's watchdog only logs a failed renewal: cut off, for
			// however long, by failing or hanging calls, nothing ends the
			// holder's belief; it gives up as it reaches Redis (above) and,
			// woken, acts once first.
			actsOnce()
		case model.ProtocolConsul:
			giveUp = giveUp || failsAtOnce
		case model.ProtocolCurator, model.ProtocolCuratorSession:
			timeout := nd.renewed + scaled(i, (2*c.Lease+2)/3)
			disconnected := failsAtOnce || hangs && t >= timeout
			if d := c.DisconnectDelay; d > 0 {
				// With a disconnect delay: disconnected (failing at once, at
				// the read timeout, or woken past it) once since its last
				// renewal, the client reports it d rounds later, and until
				// then the node believes on, reachable or not. At the report
				// the standard policy gives up (the leader suspended, to
				// reconnect in a later round), and so does a node woken past
				// its session's end under either; under the session policy a
				// node back is connected again, and one cut off gives up at
				// LOST, a lease after the report.
				if nd.cut == 0 && (disconnected || woke && (i != leader || t >= timeout)) {
					nd.cut, nd.late = t, woke && (i != leader || t >= ends)
				}
				switch {
				case nd.cut == 0:
				case t < nd.cut+d || stands:
					giveUp = false
				case c.Protocol == model.ProtocolCurator || nd.late:
					if i == leader && c.Protocol == model.ProtocolCurator {
						nd.suspended = t
					}
					giveUp = true
				case !down[i]:
					nd.cut = 0
				default:
					giveUp = giveUp || t >= nd.cut+d+scaled(i, c.Lease)
				}
				break
			}
			if c.Protocol == model.ProtocolCurator {
				if i == leader && disconnected {
					nd.suspended = t
				}
				giveUp = giveUp || disconnected
				break
			}
			if disconnected && nd.lost == 0 {
				nd.lost = t
			}
			giveUp = giveUp || nd.lost > 0 && !stands && t >= nd.lost+scaled(i, c.Lease)
		}
		if giveUp {
			nd.believes, nd.lost, nd.cut, nd.late, nd.woken = false, 0, 0, false, false
			kill(i)
		}
	}
}
