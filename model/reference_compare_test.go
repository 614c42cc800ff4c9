package model_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/internal/soak"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"pgregory.net/rapid"
)

// refDiff names the statistics in which got and want differ, "" if none.
func refDiff(got, want model.Stats) string {
	var b strings.Builder
	g, w := got.Values(), want.Values()
	for s := range model.NumStats {
		if g[s] != w[s] {
			fmt.Fprintf(&b, " %s %d, want %d;", model.Stat(s).Name(), g[s], w[s])
		}
	}
	if got.LeaderlessEpisodes != want.LeaderlessEpisodes {
		fmt.Fprintf(&b, " leaderless episodes %+v, want %+v;", got.LeaderlessEpisodes, want.LeaderlessEpisodes)
	}
	if got.TwoLeaderEpisodes != want.TwoLeaderEpisodes {
		fmt.Fprintf(&b, " two-leader episodes %+v, want %+v;", got.TwoLeaderEpisodes, want.TwoLeaderEpisodes)
	}
	return b.String()
}

// TestReferenceScenarios: the reference gives the hand-computed results of
// every scenario it covers.
func TestReferenceScenarios(t *testing.T) {
	covered := 0
	datadriven.Walk(t, filepath.Join("testdata", "scenarios"), func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
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
				p, _ := model.ParamByName(arg.Key)
				v, err := parse.Value(0, p, arg.Vals[0])
				if err != nil {
					d.Fatalf(t, "%s: %v", arg, err)
				}
				c.Set(p, v)
			}
			if !hasWindows {
				ws = refWindows(c)
			}
			if c.Validate() != nil || c.ValidateSchedule(ws) != nil || !refCovers(c) { // a refusal is the model's, not a run to compare
				return d.Expected
			}
			covered++
			return formatStats(reference(c, ws))
		})
	})
	if covered < 100 {
		t.Fatalf("the reference covers only %d scenarios", covered)
	}
	t.Logf("%d scenarios", covered)
}

// refKinds are the failure kinds the reference covers, as toggles.
var refKinds = []func(*model.Config){
	func(*model.Config) {},
	func(c *model.Config) { c.Partition = true },
	func(c *model.Config) { c.Pause = true },
	func(c *model.Config) { c.Crash = true },
	func(c *model.Config) { c.Release = true },
	func(c *model.Config) { c.BlackHole = true },
}

// grid walks every combination of the dimensions' lengths, each every-th
// (a stride prime to each length meets every value of every dimension),
// calling visit with one index per dimension.
func grid(lengths []int, every int, visit func(ix []int)) {
	total := 1
	for _, l := range lengths {
		total *= l
	}
	ix := make([]int, len(lengths))
	for i := 0; i < total; i += every {
		k := i
		for d, l := range lengths {
			ix[d], k = k%l, k/l
		}
		visit(ix)
	}
}

// refCompare runs c under schedule s (ws, its windows, for the
// reference) on the Runner and the reference and describes how they
// differ, "" if they agree.
func refCompare(r *model.Runner, c model.Config, s model.Schedule, ws model.Windows) string {
	got, err := r.RunSchedule(c, s)
	if err != nil {
		return err.Error()
	}
	d := refDiff(got, reference(c, ws))
	if d == "" {
		return ""
	}
	return fmt.Sprintf("%+v, windows %v: the Runner gives%s", c, ws, d)
}

// refCase is a configuration to compare, its schedule and the same as
// windows, for the reference.
type refCase struct {
	c  model.Config
	s  model.Schedule
	ws model.Windows
}

// outageCase is c under its group outage.
func outageCase(c model.Config) refCase { return refCase{c, c.Schedule(), refWindows(c)} }

// compareOn runs the cases a grid's indices give (those that are cases,
// ok, and that Validate accepts) on the Runner and the reference, reports
// those that differ (the first ten or so) and returns how many it
// compared.
func compareOn(t *testing.T, lengths []int, every int, at func(ix []int) (rc refCase, ok bool)) int {
	t.Helper()
	var r model.Runner
	n, bad := 0, 0
	grid(lengths, every, func(ix []int) {
		rc, ok := at(ix)
		if !ok || rc.c.Validate() != nil || bad > 10 {
			return
		}
		if d := refCompare(&r, rc.c, rc.s, rc.ws); d != "" {
			t.Error(d)
			bad++
		}
		n++
	})
	return n
}

// TestReferenceElection compares the Runner with the reference over a
// small grid of who leads: node counts, leases, re-reads, retry periods,
// renew deadlines, outages of zones of the leader or of standbys, every
// kind of failure the reference covers, clock drift, quorum, fencing and
// the persistent trigger, with instant batches.
func TestReferenceElection(t *testing.T) {
	nodes, leases, rereads, retries, deadlines := []int{1, 2, 3}, []int{1, 2, 4, 7}, []int{0, 1, 3}, []int{1, 2, 3}, []int{0, 1, 2, 3, 6}
	outages, starts, drifts := []int{0, 2, 5, 11}, []int{1, 2, 6}, []int{0, -500, 1000}
	n := compareOn(t, []int{3, 4, 3, 3, 5, 4, 3, 2, 2, len(refKinds), 3, 2, 2, 2}, soak.Every(37, 101), func(ix []int) (refCase, bool) {
		c := model.Config{
			Policy: model.Policy{Nodes: nodes[ix[0]], Lease: leases[ix[1]], RereadPeriod: rereads[ix[2]], RetryPeriod: retries[ix[3]], RenewDeadline: deadlines[ix[4]],
				Period: 2, BatchLen: 1, Fencing: ix[11] == 1, Quorum: ix[12] == 1, PersistentTrigger: ix[13] == 1},
			Scenario: model.Scenario{Outage: outages[ix[5]], Start: starts[ix[6]], Rounds: 30, Down: 1 + ix[7], DownFrom: ix[8], Drift: drifts[ix[10]]},
		}
		refKinds[ix[9]](&c)
		return outageCase(c), true
	})
	t.Logf("%d configurations", n)
}

// refServiceKinds are the failure kinds of TestReferenceProtocols, as
// toggles: every kind of refKinds and calls that hang while the store is
// reached (black holes with partition).
var refServiceKinds = append(refKinds[:len(refKinds):len(refKinds)], func(c *model.Config) { c.Partition, c.BlackHole = true, true })

// TestReferenceProtocols compares the Runner with the reference under
// every lock protocol but client-go's (etcd, Consul, Curator and its
// session policy, DynamoDB, Redisson: lockProtocols) over a small grid of who leads: node counts,
// leases just above and well above the retry period, Consul's lock-delay
// DynamoDB's acquire wait and the ZooKeeper client's disconnect delay, outages of zones of the leader
// or of standbys, every kind of failure as toggles, clock drift, quorum,
// fencing and the persistent trigger, with instant batches, and the lock
// service failing over in round 7 or not at all.
func TestReferenceProtocols(t *testing.T) {
	protocols := lockProtocols()
	timings := [][2]int{{2, 1}, {3, 2}, {4, 3}, {5, 1}, {7, 2}, {9, 3}} // lease, retry period; 9 and 3 leave a leader back between heartbeats with its lease ending at the next
	nodes, delays, outages, starts, drifts := []int{1, 2, 3}, []int{0, 1, 3}, []int{0, 2, 5, 11}, []int{1, 2, 6}, []int{0, -500, 1000}
	failovers := []int{0, 7}
	n := compareOn(t, []int{len(protocols), 3, len(timings), 3, 4, 3, 2, 2, len(refServiceKinds), 3, 2, 2, 2, len(failovers)}, soak.Every(37, 101), func(ix []int) (refCase, bool) {
		c := model.Config{
			Policy: model.Policy{Nodes: nodes[ix[1]], Lease: timings[ix[2]][0], RetryPeriod: timings[ix[2]][1], Protocol: protocols[ix[0]], LockDelay: delays[ix[3]],
				Period: 2, BatchLen: 1, Fencing: ix[10] == 1, Quorum: ix[11] == 1, PersistentTrigger: ix[12] == 1},
			Scenario: model.Scenario{Outage: outages[ix[4]], Start: starts[ix[5]], Rounds: 30, Down: 1 + ix[6], DownFrom: ix[7], Drift: drifts[ix[9]], ServiceFailover: failovers[ix[13]]},
		}
		switch c.Protocol {
		case model.ProtocolDynamoDB: // the delays as its acquire wait; no service to fail over
			c.LockDelay, c.AcquireWait, c.ServiceFailover = 0, c.LockDelay, 0
			fitRelations(&c)
		case model.ProtocolCurator, model.ProtocolCuratorSession: // the delays as the client's disconnect delay
			c.LockDelay, c.DisconnectDelay = 0, c.LockDelay
		case model.ProtocolRedisson: // no lock-delay; a Redis failover restarts no lease
			c.LockDelay, c.ServiceFailover = 0, 0
		}
		refServiceKinds[ix[8]](&c)
		return outageCase(c), true
	})
	t.Logf("%d configurations", n)
}

// lockProtocols is every protocol but client-go's and the per-fire ones
// (ShedLock's, compared on draws of their own: drawShedLockConfig), in
// the model's order, so that a protocol the model adds is compared with
// the reference.
func lockProtocols() []model.LockProtocol {
	var ps []model.LockProtocol
	for p := model.ProtocolClientGo + 1; int(p) < model.NumProtocols; p++ {
		if p.PerFire() {
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// refSchedule is one failure scenario of TestReferenceTriggers: the
// group outage (ws nil) with a kind as toggles, or windows, each of its
// own kind.
type refSchedule struct {
	kind                int // into refKinds, for the group outage
	down, start, outage int
	ws                  model.Windows
}

// refSchedules are the group outages of one or two nodes, short and long,
// early and late, of each kind; two nodes failing in overlapping windows,
// each its own kind; and node 0 failing one way and then, back to back,
// another.
func refSchedules() []refSchedule {
	var ss []refSchedule
	for kind := range refKinds {
		for _, down := range []int{1, 2} {
			for _, start := range []int{2, 5} {
				for _, outage := range []int{3, 8} {
					ss = append(ss, refSchedule{kind: kind, down: down, start: start, outage: outage})
				}
			}
		}
	}
	kinds := ownKinds()
	for _, a := range kinds {
		for _, b := range kinds {
			ss = append(ss,
				refSchedule{ws: model.Windows{{Node: 0, First: 4, Last: 15, Failure: model.Failure{Kind: a}}, {Node: 1, First: 7, Last: 10, Failure: model.Failure{Kind: b}}}},
				refSchedule{ws: model.Windows{{Node: 0, First: 3, Last: 6, Failure: model.Failure{Kind: a}}, {Node: 1, First: 9, Last: 20, Failure: model.Failure{Kind: b}}}},
				refSchedule{ws: model.Windows{{Node: 0, First: 4, Last: 7, Failure: model.Failure{Kind: a}}, {Node: 0, First: 8, Last: 13, Failure: model.Failure{Kind: b}}}})
		}
	}
	return ss
}

// TestReferenceTriggers compares the Runner with the reference over a
// small grid of what becomes of the batch: periods, batch lengths, the
// persistent trigger, catch-up windows, one run for the queued slots,
// idempotency keys, every overlap policy, fencing, every cut policy and
// where batches run, under the
// publication's timing and client-go's, crossed with refSchedules; and
// the same, more sparsely, under each lock service's timing.
func TestReferenceTriggers(t *testing.T) {
	clientGo := []func(*model.Config){
		func(c *model.Config) { c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline = 3, 3, 1, 0 },
		func(c *model.Config) { c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline = 6, 0, 2, 3 },
		func(c *model.Config) { c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline = 2, 1, 1, 0 },
	}
	services := []func(*model.Config){
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolEtcd, 3, 0, 1
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod, c.LockDelay = model.ProtocolConsul, 4, 0, 2, 2
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolCurator, 6, 0, 2
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolCuratorSession, 5, 0, 3
		},
		func(c *model.Config) { // the ZooKeeper client's disconnect delay
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod, c.DisconnectDelay = model.ProtocolCurator, 6, 0, 2, 2
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod, c.DisconnectDelay = model.ProtocolCuratorSession, 5, 0, 3, 1
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod, c.AcquireWait = model.ProtocolDynamoDB, 4, 0, 1, 1
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolRedisson, 3, 0, 1
		},
		func(c *model.Config) { // the new holder recovers the batch its predecessor runs on
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolQuartz, 3, 0, 1
		},
		func(c *model.Config) {
			c.Protocol, c.Lease, c.RereadPeriod, c.RetryPeriod = model.ProtocolDBScheduler, 5, 0, 2
		},
	}
	schedules := refSchedules()
	periods, lengths, windows := []int{1, 2, 3, 5}, []int{1, 2, 3, 5}, []int{0, 1, 3}
	n := 0
	walk := func(timings []func(*model.Config), every int) {
		n += compareOn(t, []int{2, len(timings), len(schedules), 4, 4, 2, 3, 2, 2, model.NumOverlapPolicies, 2, model.NumCutPolicies, model.NumRunPlaces}, every, func(ix []int) (refCase, bool) {
			c := model.Config{
				Policy: model.Policy{Nodes: 2 + ix[0], Period: periods[ix[3]], BatchLen: lengths[ix[4]], PersistentTrigger: ix[5] == 1,
					CatchUpWindow: windows[ix[6]], CatchUpOnce: ix[7] == 1, IdempotencyKey: ix[8] == 1, Overlap: model.OverlapPolicy(ix[9]), Fencing: ix[10] == 1,
					OnCut: model.CutPolicy(ix[11]), RunsIn: model.RunPlace(ix[12])},
				Scenario: model.Scenario{Rounds: 40, Start: 1},
			}
			timings[ix[1]](&c)
			sc := schedules[ix[2]]
			var s model.Schedule = sc.ws
			ws := sc.ws
			if ws == nil {
				c.Down, c.Start, c.Outage = sc.down, sc.start, sc.outage
				refKinds[sc.kind](&c)
				s, ws = c.Schedule(), refWindows(c)
			}
			return refCase{c, s, ws}, true
		})
	}
	walk(clientGo, soak.Every(211, 809))
	walk(services, soak.Every(701, 2003))
	t.Logf("%d configurations", n)
}

// drawRefConfig draws a configuration as drawConfig does, without jitter
// and with at most 1,000 rounds and 20 nodes, so that the reference stays
// quick, under drawConfig's protocol or, half the time, a lock service's:
// then without a renew deadline or re-reads, with a lease longer than the
// retry period (often just so) and, under Consul, a lock-delay now and
// then, under DynamoDB an acquire wait, under Curator a disconnect delay.
func drawRefConfig(t *rapid.T) model.Config {
	c := drawConfig(t)
	c.Jitter = false
	c.Rounds, c.Nodes = min(c.Rounds, 1000), min(c.Nodes, 20)
	c.Down, c.DownFrom = min(c.Down, c.Nodes+1), min(c.DownFrom, c.Nodes)
	if rapid.Bool().Draw(t, "lock service") {
		c.Protocol = rapid.SampledFrom(lockProtocols()).Draw(t, "protocol")
		c.RereadPeriod, c.RenewDeadline = 0, 0
		if c.Lease <= c.RetryPeriod {
			c.Lease = c.RetryPeriod + rapid.OneOf(rapid.Just(1), rapid.IntRange(1, 3*c.RetryPeriod)).Draw(t, "lease past the retry period")
		}
		c.LockDelay, c.AcquireWait, c.DisconnectDelay = 0, 0, 0
		switch c.Protocol {
		case model.ProtocolConsul:
			c.LockDelay = rapid.OneOf(rapid.Just(0), rapid.IntRange(1, 5), rapid.IntRange(6, 200)).Draw(t, "lock_delay")
		case model.ProtocolDynamoDB:
			c.AcquireWait = rapid.OneOf(rapid.Just(0), rapid.IntRange(1, 5), rapid.IntRange(6, 100)).Draw(t, "acquire_wait")
		case model.ProtocolCurator, model.ProtocolCuratorSession:
			c.DisconnectDelay = rapid.OneOf(rapid.Just(0), rapid.IntRange(1, 5), rapid.IntRange(6, 100)).Draw(t, "disconnect_delay")
		}
	}
	fitRelations(&c)
	return c
}

// TestPropertyReference: the Runner and the reference agree on random
// valid configurations (drawRefConfig's) under the group outage or random
// windows (drawWindows', each failing as configured or its own way).
func TestPropertyReference(t *testing.T) {
	var r model.Runner
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		c := drawRefConfig(t)
		var s model.Schedule = c.Schedule()
		ws := refWindows(c)
		if rapid.Bool().Draw(t, "windows") {
			ws = drawWindows(t, c)
			s = ws
		}
		if d := refCompare(&r, c, s, ws); d != "" {
			t.Fatal(d)
		}
		n++
	})
	t.Logf("%d configurations", n)
}

// TestPropertyReferenceRandom: the Runner and the reference agree under
// random up and down periods (Alternating, without processes of their
// own kind), the schedule the Runner's settled stretches skip through.
// The reference takes the schedule as windows, read off a round-by-round
// trace of which nodes were reachable.
func TestPropertyReferenceRandom(t *testing.T) {
	var r model.Runner
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		c := drawRefConfig(t)
		dist := rapid.SampledFrom([]string{"fixed:3", "fixed:40", "geometric:5", "geometric:300", "lognormal:1,0.8", "lognormal:4,1"})
		up, _ := parse.Lengths(0, dist.Draw(t, "uptime"))
		down, _ := parse.Lengths(0, dist.Draw(t, "downtime"))
		seed := [2]uint64{rapid.Uint64().Draw(t, "seed"), 1}
		var ws model.Windows
		from := make([]int, c.Nodes) // the first round of each node's current window, 0 while up
		if _, err := r.Trace(c, &model.Alternating{Up: up, Down: down, Seed: seed}, 1, c.Rounds, func(v *model.RoundView) {
			for i := range from {
				switch reachable := v.Reachable(i); {
				case !reachable && from[i] == 0:
					from[i] = v.Round
				case reachable && from[i] > 0:
					ws = append(ws, model.Window{Node: i, First: from[i], Last: v.Round - 1})
					from[i] = 0
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
		for i, f := range from {
			if f > 0 {
				ws = append(ws, model.Window{Node: i, First: f, Last: c.Rounds})
			}
		}
		if d := refCompare(&r, c, &model.Alternating{Up: up, Down: down, Seed: seed}, ws); d != "" {
			t.Fatal(d)
		}
		n++
	})
	t.Logf("%d configurations", n)
}

// refTurnTiming is one timing of TestReferenceTurns: the lease settings,
// the lock protocol, its lock-delay and the leader's clock drift.
type refTurnTiming struct {
	lease, deadline, retry, reread int
	protocol                       model.LockProtocol
	lockDelay, drift               int
}

// TestReferenceTurns compares the Runner with the reference where the
// leader's failure turns, back to back, from one kind into another, two
// or three times, calls hanging in some of them: client-go's timings with
// a renew deadline (the leader's calls followed call by call), hanging
// calls shorter and longer than the retry period, windows of 1 to 4
// rounds from rounds 1 and 3, and a standby failing as the toggles say or
// not at all; and the same under each lock service's timing, Consul's
// with lock-delays, the leader's clock running true, at half speed or at
// double speed.
func TestReferenceTurns(t *testing.T) {
	clientGo := []refTurnTiming{{6, 5, 1, 0, 0, 0, 0}, {7, 6, 2, 0, 0, 0, 0}, {4, 3, 1, 2, 0, 0, 0}, {9, 5, 3, 0, 0, 0, 0}, {10, 8, 2, 3, 0, 0, 0}}
	var services []refTurnTiming
	for _, s := range []refTurnTiming{
		{lease: 4, retry: 1, protocol: model.ProtocolEtcd}, {lease: 5, retry: 2, protocol: model.ProtocolConsul},
		{lease: 3, retry: 2, protocol: model.ProtocolCurator}, {lease: 6, retry: 1, protocol: model.ProtocolCuratorSession},
	} {
		for _, s.drift = range []int{0, -500, 1000} {
			for _, s.lockDelay = range []int{0, 1, 3} {
				if s.lockDelay == 0 || s.protocol == model.ProtocolConsul {
					services = append(services, s)
				}
			}
		}
	}
	kinds := []model.Kind{model.Isolated, model.BlackHoled, model.Slowed, model.Partitioned, model.Paused, model.AsConfigured}
	lengths, starts := []int{1, 2, 3, 4}, []int{1, 3}
	n := 0
	walk := func(timings []refTurnTiming, every int) {
		n += compareOn(t, []int{len(timings), 2, len(starts), len(kinds), len(lengths), len(kinds), len(lengths), len(kinds) + 1, len(lengths), 2}, every, func(ix []int) (refCase, bool) {
			tm := timings[ix[0]]
			c := model.Config{
				Policy: model.Policy{Nodes: 1 + ix[1], Lease: tm.lease, RenewDeadline: tm.deadline, RetryPeriod: tm.retry, RereadPeriod: tm.reread,
					Protocol: tm.protocol, LockDelay: tm.lockDelay, Period: 2, BatchLen: 1},
				Scenario: model.Scenario{Rounds: 30, Start: 1, Outage: 1, Down: 1, BlackHole: ix[9] == 1, Drift: tm.drift},
			}
			first := starts[ix[2]]
			ws := model.Windows{{Node: 0, First: first, Last: first + lengths[ix[4]] - 1, Failure: model.Failure{Kind: kinds[ix[3]]}}}
			ws = append(ws, model.Window{Node: 0, First: ws[0].Last + 1, Last: ws[0].Last + lengths[ix[6]], Failure: model.Failure{Kind: kinds[ix[5]]}})
			if ix[7] < len(kinds) {
				ws = append(ws, model.Window{Node: 0, First: ws[1].Last + 1, Last: ws[1].Last + lengths[ix[8]], Failure: model.Failure{Kind: kinds[ix[7]]}})
			} else if ix[8] > 0 {
				return refCase{}, false
			}
			if c.Nodes > 1 {
				ws = append(ws, model.Window{Node: 1, First: first + 1, Last: first + 2})
			}
			return refCase{c, ws, ws}, true
		})
	}
	walk(clientGo, soak.Every(11, 101))
	walk(services, soak.Every(31, 307))
	t.Logf("%d configurations", n)
}
