package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"pgregory.net/rapid"
)

// drawConfig draws a valid configuration, often small, sometimes with a
// long horizon or many nodes, a third of them under a service protocol.
func drawConfig(t *rapid.T) model.Config {
	nodes := rapid.OneOf(rapid.IntRange(1, 8), rapid.IntRange(9, 2000)).Draw(t, "nodes")
	lease := rapid.OneOf(rapid.IntRange(1, 10), rapid.IntRange(11, 500)).Draw(t, "lease")
	retry := rapid.OneOf(rapid.Just(1), rapid.IntRange(1, lease)).Draw(t, "retry_period")
	deadline, reread := 0, rapid.OneOf(rapid.IntRange(1, 10), rapid.IntRange(11, 500)).Draw(t, "renewal")
	if lo := 6*retry/5 + 1; lo < lease && rapid.Bool().Draw(t, "client-go") { // lease > deadline > 1.2 × retry
		deadline = rapid.IntRange(lo, lease-1).Draw(t, "renew_deadline")
		reread = rapid.OneOf(rapid.Just(0), rapid.Just(reread)).Draw(t, "renewal 0")
	}
	protocol, lockDelay, acquireWait := model.ProtocolClientGo, 0, 0
	if lease > 1 && rapid.IntRange(0, 2).Draw(t, "service") == 0 { // a service protocol: client-go's deadline, re-read and jitter are 0
		protocol = rapid.SampledFrom(lockProtocols()).Draw(t, "protocol") // ShedLock's own draws: drawShedLockConfig
		retry = min(retry, lease-1)
		deadline, reread = 0, 0
		switch protocol {
		case model.ProtocolConsul:
			lockDelay = rapid.OneOf(rapid.Just(0), rapid.IntRange(0, 20)).Draw(t, "lock_delay")
		case model.ProtocolDynamoDB:
			acquireWait = rapid.OneOf(rapid.Just(0), rapid.IntRange(0, 30)).Draw(t, "acquire_wait")
		}
	}
	period := rapid.OneOf(rapid.IntRange(1, 12), rapid.IntRange(13, 1000)).Draw(t, "period")
	persistent := rapid.Bool().Draw(t, "persistent_trigger")
	policies := []model.OverlapPolicy{model.OverlapAllow, model.OverlapSkip, model.OverlapCancelOther}
	if persistent { // the buffers are its queue
		policies = append(policies, model.OverlapBufferOne, model.OverlapBufferAll)
	}
	c := model.Config{
		Policy: model.Policy{
			Nodes:             nodes,
			Lease:             lease,
			RereadPeriod:      reread,
			RetryPeriod:       retry,
			RenewDeadline:     deadline,
			Period:            period,
			BatchLen:          rapid.OneOf(rapid.Just(1), rapid.IntRange(1, period)).Draw(t, "batch_len"),
			Fencing:           rapid.Bool().Draw(t, "fencing"),
			PersistentTrigger: persistent,
			Overlap:           rapid.SampledFrom(policies).Draw(t, "overlap"),
			Quorum:            rapid.Bool().Draw(t, "quorum"),
			Jitter:            protocol == model.ProtocolClientGo && rapid.Bool().Draw(t, "jitter"),
			Protocol:          protocol,
			LockDelay:         lockDelay,
			AcquireWait:       acquireWait,
			CatchUpWindow:     rapid.OneOf(rapid.Just(0), rapid.IntRange(0, 30)).Draw(t, "catch_up_window"),
			CatchUpOnce:       rapid.Bool().Draw(t, "catch_up_once"),
			IdempotencyKey:    rapid.Bool().Draw(t, "idempotency_key"),
			OnCut:             model.CutPolicy(rapid.IntRange(0, model.NumCutPolicies-1).Draw(t, "on_cut")),
			RunsIn:            model.RunPlace(rapid.IntRange(0, model.NumRunPlaces-1).Draw(t, "runs_in")),
		},
		Scenario: model.Scenario{
			Outage:    rapid.OneOf(rapid.IntRange(0, 20), rapid.IntRange(21, 5000)).Draw(t, "outage"),
			Start:     rapid.IntRange(1, 2000).Draw(t, "start"),
			Rounds:    rapid.OneOf(rapid.IntRange(1, 100), rapid.IntRange(101, 100_000)).Draw(t, "rounds"),
			Down:      rapid.IntRange(0, nodes+1).Draw(t, "down"),
			DownFrom:  rapid.OneOf(rapid.Just(0), rapid.IntRange(0, nodes)).Draw(t, "down_from"),
			BlackHole: rapid.Bool().Draw(t, "black_hole"),
			Partition: rapid.Bool().Draw(t, "partition"),
			Crash:     rapid.Bool().Draw(t, "crash"),
			Pause:     rapid.Bool().Draw(t, "pause"),
			Release:   rapid.Bool().Draw(t, "release"),
			Drift:     rapid.OneOf(rapid.Just(0), rapid.IntRange(-500, 1000)).Draw(t, "drift"),
		},
	}
	fitRelations(&c)
	return c
}

// fitRelations turns off a drift that Validate refuses under dynamodb: one
// so fast that a waiter would take a lock renewed on time; and turns
// on_cut resume, which quartz and db-scheduler refuse, into rerun.
func fitRelations(c *model.Config) {
	if c.Protocol == model.ProtocolDynamoDB && c.Drift > 0 && ceilScaled(c.Lease, c.Drift) <= c.RetryPeriod {
		c.Drift = 0
	}
	if (c.Protocol == model.ProtocolQuartz || c.Protocol == model.ProtocolDBScheduler) && c.OnCut == model.CutResume {
		c.OnCut = model.CutRerun
	}
}

// ownKinds are the kinds a node may have of its own, from the table.
func ownKinds() []model.Kind {
	var fs []model.Kind
	for _, b := range model.Kinds() {
		if b.Does&model.Skews == 0 { // refused but under the per-fire protocols, quartz and db-scheduler; skew.txt, TestSkew* and TestReferenceSkewedDetectors have it
			fs = append(fs, b.Kind)
		}
	}
	return fs
}

// failureKinds draws a kind of failure, AsConfigured included.
func failureKinds() *rapid.Generator[model.Kind] {
	return rapid.SampledFrom(append([]model.Kind{model.AsConfigured}, ownKinds()...))
}

// drawWindows draws several failures of each of c's first nodes, in time
// order node by node, each failing as configured or its own way, some
// beginning the round after the one before ends.
func drawWindows(t *rapid.T, c model.Config) model.Windows {
	return drawSomeWindows(t, c, 0, 5)
}

// drawSomeWindows draws lo to hi failures of each of c's first nodes, as
// drawWindows does.
func drawSomeWindows(t *rapid.T, c model.Config, lo, hi int) model.Windows {
	var ws model.Windows
	for node := range min(c.Nodes, 6) {
		first := 1
		for range rapid.IntRange(lo, hi).Draw(t, "windows") {
			first += rapid.OneOf(rapid.Just(0), rapid.IntRange(0, 200)).Draw(t, "gap")
			last := first + rapid.IntRange(0, 200).Draw(t, "length")
			ws = append(ws, model.Window{Node: node, First: first, Last: last, Failure: model.Failure{Kind: failureKinds().Draw(t, "kind")}})
			first = last + 1
		}
	}
	return ws
}

// drawSchedule draws a failure schedule for c: the seed's (a zone), random
// per-node windows, each failing as configured or its own way, or
// independent random up and down periods, with another process of its own
// kind (a node's or a zone's) beside them now and then.
func drawSchedule(t *rapid.T, c model.Config) model.Schedule {
	kind := failureKinds()
	switch rapid.IntRange(0, 2).Draw(t, "schedule") {
	case 1:
		return rapid.Permutation(drawWindows(t, c)).Draw(t, "order")
	case 2:
		dist := rapid.SampledFrom([]string{"fixed:3", "fixed:40", "geometric:5", "geometric:300", "lognormal:1,0.8", "lognormal:4,1"})
		up, _ := parse.Lengths(0, dist.Draw(t, "uptime"))
		down, _ := parse.Lengths(0, dist.Draw(t, "downtime"))
		a := &model.Alternating{Up: up, Down: down, Seed: [2]uint64{rapid.Uint64().Draw(t, "seed"), 1}}
		for range rapid.IntRange(0, 2).Draw(t, "also") {
			up, _ := parse.Lengths(0, dist.Draw(t, "also_uptime"))
			down, _ := parse.Lengths(0, dist.Draw(t, "also_downtime"))
			p := model.Process{Up: up, Down: down, Failure: model.Failure{Kind: kind.Filter(func(f model.Kind) bool { return f != model.AsConfigured }).Draw(t, "also_kind")}}
			if rapid.Bool().Draw(t, "zone") {
				p.Zone = []int{0, rapid.IntRange(1, 3).Draw(t, "zone_node")}
			}
			a.Also = append(a.Also, p)
		}
		return a
	}
	return c.Schedule()
}

// TestPropertyInvariants: the invariants (CheckInvariants), fencing's invariance and the
// agreement of stretch-by-stretch and round-by-round runs hold for random
// valid configurations under every kind of schedule.
func TestPropertyInvariants(t *testing.T) {
	var r model.Runner
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		// Check runs each configuration round by round and under every
		// other overlap and cut policy: its runs are kept to 5,000
		// rounds, so that a draw of 100,000 does not cost the suite
		// minutes; the other property tests run the long ones.
		c.Rounds = min(c.Rounds, 5_000)
		if err := r.Check(c, drawSchedule(t, c)); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	})
}

// TestPropertyWindowOrder: the order in which a schedule lists its windows
// changes nothing, back-to-back failures of one node included.
func TestPropertyWindowOrder(t *testing.T) {
	var r model.Runner
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		ws := drawWindows(t, c)
		want, err := r.RunSchedule(c, ws)
		if err != nil {
			t.Fatal(err)
		}
		shuffled := rapid.Permutation(ws).Draw(t, "order")
		if got, _ := r.RunSchedule(c, shuffled); got != want {
			t.Fatalf("%+v: windows %v give %+v, in time order %+v", c, shuffled, got, want)
		}
	})
}

// plainWindows hides a Windows schedule's type, so that a Runner passes
// over its windows at each change instead of indexing them.
type plainWindows struct{ model.Windows }

// TestPropertyWindowIndex: a schedule of many windows, which a Runner
// indexes, runs as the same windows passed over at each change do.
func TestPropertyWindowIndex(t *testing.T) {
	var r model.Runner
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.Nodes = max(c.Nodes, 3)
		ws := rapid.Permutation(drawSomeWindows(t, c, 6, 12)).Draw(t, "order")
		want, err := r.RunSchedule(c, plainWindows{ws})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.RunSchedule(c, ws); got != want {
			t.Fatalf("%+v: %d windows indexed give %+v, passed over %+v", c, len(ws), got, want)
		}
		if err := r.Check(c, ws); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	})
}

// TestPropertyExtraNodesIdle: under the publication's schedule, nodes beyond the
// zone and the first standby never matter: adding nodes changes nothing
// unless quorum counts them, or jitter, with which every follower polls
// and the first to find the lease run out takes over.
func TestPropertyExtraNodesIdle(t *testing.T) {
	var r model.Runner
	rapid.Check(t, func(t *rapid.T) {
		c := drawConfig(t)
		c.Quorum, c.Jitter = false, false
		c.Nodes = max(c.Nodes, c.DownFrom+c.Down+1)
		more := c
		more.Nodes += rapid.IntRange(1, 100).Draw(t, "extra")
		a, _ := r.Run(c)
		b, _ := r.Run(more)
		if a != b {
			t.Fatalf("%+v: %d nodes give %+v, %d give %+v", c, c.Nodes, a, more.Nodes, b)
		}
	})
}

// TestPropertyRunnerReuse: a Runner that has run anything before, with any
// node count and schedule and nodes still down at its end, gives what a
// fresh Runner gives.
func TestPropertyRunnerReuse(t *testing.T) {
	var used model.Runner
	rapid.Check(t, func(t *rapid.T) {
		before := drawConfig(t)
		if _, err := used.RunSchedule(before, drawSchedule(t, before)); err != nil {
			t.Fatal(err)
		}
		c := drawConfig(t)
		s := drawSchedule(t, c)
		var fresh model.Runner
		want, err := fresh.RunSchedule(c, s)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := used.RunSchedule(c, s); got != want {
			t.Fatalf("after %+v, %+v gives %+v; a fresh Runner gives %+v", before, c, got, want)
		}
	})
}
