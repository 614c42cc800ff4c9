package study_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// perFireBase is issue 48's ShedLock job in small: 2 nodes whose fires
// of a slot are a round (2 s) apart, a lock of a round (lockAtMostFor
// 2s, lockAtLeastFor 0s) under a 60-round task, an hourly slot.
func perFireBase(t *testing.T) (model.Config, study.ReviewOptions) {
	t.Helper()
	c := model.Default()
	c.Protocol, c.Nodes, c.Lease, c.RetryPeriod, c.RereadPeriod, c.RenewDeadline = model.ProtocolShedLock, 2, 1, 1, 0, 0
	c.FireSpread, c.BatchLen, c.Period, c.Rounds = 1, 60, 1800, 4*1800
	c.Fencing, c.PersistentTrigger = false, false
	c.Outage, c.Start = 30, 1800+10
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	tick := model.Tick(2 * time.Second)
	opt := study.DefaultReviewOptions(c)
	opt.Tick, opt.RoundsPerYear, opt.LinesPerBatch = tick, tick.RoundsPerYear(), 100
	opt.Weights = cost.Weights{MissedLine: 1, DoubleLine: 5}
	opt.Mix = []cost.MixEntry{{Outage: 30, Weight: 1, Kind: model.Crashed, Scope: cost.ScopeOneNode}}
	return c, opt
}

// TestPerFireReview: a review of a per-fire lock ranks ShedLock's own
// options. The current settings run every slot twice with no failure,
// so their year holds a slot's batch doubled in every slot (the calm
// slot: 8,766 hourly slots of 100 lines), their double runs a year as
// many; every candidate whose task outlasts lockAtMostFor is marked
// NoMargin, and the one recommended outlasts the task, runs each slot
// once and doubles no line with no failure. lockAtLeastFor is varied
// too, never above lockAtMostFor.
func TestPerFireReview(t *testing.T) {
	t.Parallel()
	base, opt := perFireBase(t)
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	pf := rv.PerFire
	if pf == nil {
		t.Fatal("no per-fire review")
	}
	current := rv.Current()
	slots := opt.RoundsPerYear / float64(base.Period)
	if calm := pf.Calm[current.Candidate]; calm.Runs != 2 || calm.Double != 1 || calm.Missed != 0 {
		t.Errorf("the current settings' calm slot is %+v, want 2 runs, 1 batch doubled, none missed", calm)
	}
	if got := current.DoubleLines; math.Abs(got-slots*100) > 0.01*slots*100 {
		t.Errorf("the current settings double %.1f lines a year, want about %.1f (every slot's batch once more)", got, slots*100)
	}
	if got := pf.DoubleRuns[current.Candidate]; math.Abs(got-slots) > 0.01*slots {
		t.Errorf("the current settings run %.1f double runs a year, want about %.1f", got, slots)
	}
	least := false
	for _, r := range rv.Recommendation {
		if r.NoMargin != (r.Lease <= base.BatchLen) {
			t.Errorf("%s: NoMargin %t with lockAtMostFor %d and a task of %d rounds", rv.Setting(r.Candidate), r.NoMargin, r.Lease, base.BatchLen)
		}
		if r.LockAtLeastFor > r.Lease {
			t.Errorf("%s: lockAtLeastFor above lockAtMostFor", rv.Setting(r.Candidate))
		}
		least = least || r.LockAtLeastFor > 0
	}
	if !least {
		t.Error("no candidate has a lockAtLeastFor")
	}
	d, ok := rv.Decide(rv.Recommendation)
	if !ok || d.Keep {
		t.Fatalf("decision %+v, %t: want other settings", d, ok)
	}
	if top := d.Top; top.Lease <= base.BatchLen || pf.Calm[top.Candidate].Runs != 1 || pf.DoubleRuns[top.Candidate] != 0 {
		t.Errorf("recommended %s: lockAtMostFor %d rounds, calm %+v, %.2f double runs a year; want one longer than the task, a slot run once, none doubled",
			rv.Setting(top.Candidate), top.Lease, pf.Calm[top.Candidate], pf.DoubleRuns[top.Candidate])
	}
	if g := rv.Gate(); g.Rule != study.GateMargin {
		t.Errorf("gate rule %v, want GateMargin: the task outlasts lockAtMostFor", g.Rule)
	}
}

// TestPerFireRefused: a per-fire review takes no candidates of a
// leader's lease or listed by hand, and no incident; it needs a tick, its
// candidates being ShedLock's durations. Each is one line naming the
// flag.
func TestPerFireRefused(t *testing.T) {
	t.Parallel()
	base, opt := perFireBase(t)
	for _, tt := range []struct {
		tick  model.Tick
		given string
		want  string
	}{
		{0, "", "--protocol shedlock: the review's candidates are ShedLock's lockAtMostFor and lockAtLeastFor, durations: want --tick (--preset shedlock's rounds are 1s)"},
		{opt.Tick, "candidates", "--candidates goes only with a leader's lock: under --protocol shedlock the candidates are ShedLock's own options' grid (lock_at_most_for, lock_at_least_for) and the events the outage mix's"},
		{opt.Tick, "candidate-list", "--candidate-list goes only with a leader's lock"},
	} {
		in := study.ReviewInputs{Base: base, Options: study.DefaultReviewOptions(base), Tick: tt.tick, Given: func(flag string) bool { return flag == tt.given }}
		_, _, err := in.Prepare()
		if err == nil || len(err.Error()) < len(tt.want) || err.Error()[:len(tt.want)] != tt.want {
			t.Errorf("tick %v, %q given: %v, want %q", tt.tick, tt.given, err, tt.want)
		}
	}
}

// TestPerFireLockAtLeastFor: a task shorter than the fire spread (a
// round, the fires 2 rounds apart) ends before the second fire, which
// finds the lock free and runs the slot again, however long
// lockAtMostFor; the recommended settings hold the lock past the spread
// with lockAtLeastFor, and run each slot once.
func TestPerFireLockAtLeastFor(t *testing.T) {
	t.Parallel()
	base, opt := perFireBase(t)
	base.Lease, base.RetryPeriod, base.BatchLen, base.FireSpread = 30, 30, 1, 2
	if err := base.Validate(); err != nil {
		t.Fatal(err)
	}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	if runs := rv.PerFire.Calm[rv.Current().Candidate].Runs; runs != 2 {
		t.Fatalf("the current settings run a slot %d times with no failure, want 2", runs)
	}
	d, ok := rv.Decide(rv.Recommendation)
	if !ok || d.Keep {
		t.Fatalf("decision %+v, %t: want other settings", d, ok)
	}
	if top := d.Top; top.LockAtLeastFor < base.FireSpread || rv.PerFire.Calm[top.Candidate].Runs != 1 {
		t.Errorf("recommended %s: lockAtLeastFor %d rounds, %d runs a slot; want at least the spread's %d, one run",
			rv.Setting(top.Candidate), top.LockAtLeastFor, rv.PerFire.Calm[top.Candidate].Runs, base.FireSpread)
	}
}
