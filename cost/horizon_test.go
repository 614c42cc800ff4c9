package cost

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/soak"
	"github.com/leasesim/leasesim/model"
)

// randomEvent draws a small configuration of any lock protocol, failure
// kind and trigger policy, with a service failover near its outage at
// times, or reports false when the draw is not a valid configuration.
func randomEvent(r *rand.Rand) (model.Config, bool) {
	nodes := 1 + r.IntN(4)
	c := model.Config{
		Policy: model.Policy{
			Nodes: nodes, Lease: 1 + r.IntN(12), RereadPeriod: r.IntN(5), RetryPeriod: 1 + r.IntN(3),
			Period: 1 + r.IntN(10), Fencing: r.IntN(2) == 0, PersistentTrigger: r.IntN(2) == 0,
			CatchUpOnce: r.IntN(4) == 0, IdempotencyKey: r.IntN(4) == 0, Quorum: r.IntN(4) == 0,
			Jitter: r.IntN(3) == 0, Overlap: model.OverlapPolicy(r.IntN(len(model.Overlap.Names()))),
			Protocol: model.LockProtocol(r.IntN(model.NumProtocols)),
		},
		Scenario: model.Scenario{Outage: r.IntN(25), Down: 1 + r.IntN(nodes), DownFrom: r.IntN(2), Start: 1, Rounds: 1},
	}
	if c.Protocol == model.ProtocolClientGo {
		if r.IntN(2) == 0 || c.RereadPeriod == 0 {
			c.RenewDeadline = 1 + r.IntN(c.Lease)
		}
	} else { // a lock service tells its holder; no jitter, no re-read
		c.RereadPeriod, c.Jitter = 0, false
	}
	if c.Overlap != model.OverlapAllow && r.IntN(2) == 0 {
		c.PersistentTrigger = true
	}
	if r.IntN(3) == 0 {
		c.CatchUpWindow = 1 + r.IntN(8)
	}
	c.BatchLen = 1 + r.IntN(c.Period)
	switch c.Protocol {
	case model.ProtocolConsul:
		c.LockDelay = r.IntN(4)
	case model.ProtocolDynamoDB:
		c.AcquireWait = r.IntN(4)
	}
	switch r.IntN(7) { // a failure kind, or none (the outage cuts the nodes off)
	case 0:
		c.Pause = true
	case 1:
		c.Crash = true
	case 2:
		c.Release = true
	case 3:
		c.Partition = true
	case 4:
		c.BlackHole = true
	}
	if r.IntN(4) == 0 {
		c.Drift = []int{-400, -100, 150, 600}[r.IntN(4)]
	}
	if c.Protocol != model.ProtocolClientGo && c.Protocol != model.ProtocolDynamoDB && r.IntN(3) == 0 {
		c.Start = 40
		c.ServiceFailover = c.Start - 3 + r.IntN(c.Outage+c.Lease+6)
	}
	if c.Protocol == model.ProtocolShedLock || c.Protocol == model.ProtocolShedLockRedis { // no leader, queue, policy or fencing: its own two times instead
		c.Fencing, c.PersistentTrigger, c.CatchUpOnce, c.CatchUpWindow, c.IdempotencyKey, c.Quorum, c.Overlap = false, false, false, 0, false, false, model.OverlapAllow
		c.Drift, c.ServiceFailover = 0, 0
		c.LockAtLeastFor, c.FireSpread = r.IntN(c.Lease+1), r.IntN(c.Period)
	}
	return c, c.Validate() == nil
}

// TestPhaseHorizonSettles: the phase method's runs, SettleRounds past the
// event's first round, give every incident statistic that a run long
// after it gives, at every phase, for random configurations of every lock
// protocol, failure kind and trigger policy (the phase method against
// sweep --start over every phase with long runs). Each phase's runs draw
// the same jitter, so with jitter too the figures must be equal.
func TestPhaseHorizonSettles(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 1))
	tries := 20000 / soak.Every(1, 5)
	checked := map[model.LockProtocol]int{}
	for range tries {
		c, ok := randomEvent(r)
		if !ok || Phases(c) > 120 {
			continue
		}
		if c.Buffers() && c.BatchLen == c.Period { // late for good: Config.Warnings says so
			if !slices.ContainsFunc(c.Warnings(0), func(w string) bool { return strings.Contains(w, "for good") }) {
				t.Fatalf("%+v: no warning that the delays grow with the run", c)
			}
			continue
		}
		if !settles(c) || c.Protocol.PerFire() && c.FireSpread+max(c.BatchLen, c.LockAtLeastFor) > c.Period { // no event can be priced
			if !slices.ContainsFunc(c.Warnings(0), func(w string) bool { return strings.Contains(w, "outage or not") }) {
				t.Fatalf("%+v: its run without an outage goes on failing, and no warning says so", c)
			}
			continue
		}
		h := SettleRounds(c)
		first, _ := eventSpan(c)
		var short, long model.Runner
		for k := range Phases(c) {
			run, _ := atPhase(c, first, k, h)
			short.JitterSeed, long.JitterSeed = phaseSeed(7, k), phaseSeed(7, k)
			a, err := short.Run(run)
			if err != nil {
				t.Fatalf("%+v: %v", run, err)
			}
			if c.Protocol.PerFire() { // what the event costs beyond the same run without it, as the phase method counts
				a = beyond(a, calmRun(t, run))
			}
			run.Rounds += 6*h + 5*c.Period
			b, err := long.Run(run)
			if err != nil {
				t.Fatalf("%+v: %v", run, err)
			}
			if c.Protocol.PerFire() {
				b = beyond(b, calmRun(t, run))
			}
			if eventFigures(a) != eventFigures(b) {
				t.Fatalf("%+v, phase %d: a run of %d rounds from the event gives\n%+v, a longer one\n%+v", c, k, h, eventFigures(a), eventFigures(b))
			}
		}
		checked[c.Protocol]++
	}
	for p := range model.NumProtocols {
		if checked[model.LockProtocol(p)] < tries/40 {
			t.Errorf("protocol %d: %d configurations checked of %d tries", p, checked[model.LockProtocol(p)], tries)
		}
	}
}

// eventFigures is what of a run's statistics an event costs: all but the
// batches started (a longer run starts more) and the episodes.
func eventFigures(s model.Stats) model.Stats {
	s.Started = 0
	s.LeaderlessEpisodes, s.TwoLeaderEpisodes = model.Episodes{}, model.Episodes{}
	return s
}

// calmRun is c's run without its outage.
func calmRun(t *testing.T, c model.Config) model.Stats {
	t.Helper()
	c.Outage = 0
	var r model.Runner
	st, err := r.Run(c)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	return st
}

// settles reports whether c without its event is quiet: a long run with
// no outage and no failover has no handover and no leaderless round.
func settles(c model.Config) bool {
	c.Outage, c.ServiceFailover, c.Start, c.Rounds = 0, 0, 1, 500
	var r model.Runner
	st, err := r.Run(c)
	return err == nil && st.Handovers == 0 && st.LeaderlessRounds == 0
}

// TestPhasePlanByPhase: the plan's near phases, found as intervals, are
// those a trigger falls near phase by phase (triggerIn), every other phase
// is stood for by a quiet one of its residue, and the weights sum to the
// phases, for random plans without jitter.
func TestPhasePlanByPhase(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 2))
	for range 3000 / soak.Every(1, 5) {
		c := model.Default()
		c.Period, c.RetryPeriod, c.RereadPeriod = 1+r.IntN(40), 1+r.IntN(6), r.IntN(5)
		c.BatchLen = 1 + r.IntN(c.Period)
		phases, horizon := Phases(c), c.Period+r.IntN(30)
		cycle := renewCycle(c)
		if cycle > phases/4 {
			continue
		}
		plan, err := phasePlan(c, phases, horizon)
		if err != nil {
			t.Fatal(err)
		}
		reach := horizon - c.Period
		near := func(k int) bool {
			s := c.Period + 1 + k
			return triggerIn(c.Period, s-c.BatchLen-reach, s+2*reach) || triggerIn(c.Period, s+horizon-c.BatchLen-reach, s+horizon)
		}
		stands := make([]float64, cycle) // the quiet phases each residue's one stands for
		for k, w := range plan {
			if near(k) {
				if w != 1 {
					t.Fatalf("%+v, horizon %d: near phase %d weighs %g", c, horizon, k, w)
				}
				continue
			}
			stands[k%cycle] += w
		}
		want := make([]float64, cycle)
		for k := range phases {
			if !near(k) {
				want[k%cycle]++
			}
		}
		if !slices.Equal(stands, want) {
			t.Fatalf("%+v, horizon %d: quiet phases by residue %v, want %v", c, horizon, stands, want)
		}
	}
}

// triggerIn reports whether a trigger (a round k·period, k ≥ 1) falls in
// the rounds lo … hi: the near phases' definition, phase by phase.
func triggerIn(period, lo, hi int) bool {
	k := max(1, (lo+period-1)/period)
	if lo < 0 {
		k = 1
	}
	return k*period <= hi
}

// TestPhasePlanLongPeriod: a daily batch at Curator's millisecond tick,
// whose lcm(period, retry period) is over MaxPhases, is averaged over one
// period's starts and runs only the near ones and one quiet start of each
// residue of the retry cycle, not 86.4 million.
func TestPhasePlanLongPeriod(t *testing.T) {
	c := model.Default()
	c.Protocol, c.RereadPeriod, c.RenewDeadline = model.ProtocolCurator, 0, 0
	c.Period, c.Lease, c.RetryPeriod, c.Outage = 86_400_000, 40_000, 13_333, 5_000
	if !PhasesOnePeriod(c) || Phases(c) != c.Period {
		t.Fatalf("Phases = %d, one period %v: want the period's %d", Phases(c), PhasesOnePeriod(c), c.Period)
	}
	horizon := SettleRounds(c)
	plan, err := phasePlan(c, Phases(c), horizon)
	if err != nil {
		t.Fatal(err)
	}
	runs, weight := 0, 0.0
	for _, w := range plan {
		runs, weight = runs+1, weight+w
	}
	reach := horizon - c.Period
	// Near: the first period's trigger, batch_len + reach starts after
	// the first, and the second's, 2·reach + 1 before the last; quiet: one
	// of each residue of the retry cycle.
	if want := c.BatchLen + 3*reach + 1 + c.RetryPeriod; runs != want || weight != float64(c.Period) {
		t.Errorf("%d runs standing for %g phases, want %d standing for %d", runs, weight, want, c.Period)
	}
}

// TestFailoverIdle: a failover FailoverIdle says changes nothing changes
// no figure of the phase method, for random configurations of the lock
// services with a failover anywhere from well before the outage to well
// after it; and some failovers it does not call idle change a figure.
func TestFailoverIdle(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 3))
	idle, moved, tries := 0, 0, 16000/soak.Every(1, 5)
	for n := 0; n < tries; {
		c, ok := randomEvent(r)
		if c.Protocol.PerFire() || c.Protocol == model.ProtocolRedisson || c.Protocol == model.ProtocolPostgres || c.Protocol == model.ProtocolQuartz || c.Protocol == model.ProtocolDBScheduler { // no service failover (refused): not a try
			continue
		}
		n++
		if !ok || c.ServiceFailover == 0 || Phases(c) > 60 || !settles(c) || c.Buffers() && c.BatchLen == c.Period {
			continue
		}
		c.ServiceFailover = max(1, c.Start-20+r.IntN(c.Outage+3*c.Lease+40))
		with, err := PhaseMethod(t.Context(), c, 3, nil)
		if err != nil {
			continue // a failover a service protocol refuses where it falls
		}
		without := c
		without.ServiceFailover = 0
		w, err := PhaseMethod(t.Context(), without, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		same := sameEffect(with, w)
		switch {
		case FailoverIdle(c) && !same:
			t.Fatalf("%+v: called idle, but with it %+v, without %+v", c, with, w)
		case FailoverIdle(c):
			idle++
		case !same:
			moved++
		}
	}
	if idle < tries/80 || moved < tries/400 {
		t.Errorf("%d idle failovers, %d that changed a figure: too few to tell", idle, moved)
	}
}

// sameEffect reports whether a and b give the same figures, to the last
// bits a sum in another order may change.
func sameEffect(a, b EventEffect) bool {
	x := []float64{a.Missed, a.Unresolved, a.DoubleStarts, a.Partial, a.Unwritten, a.Rewritten, a.DelayedRounds, a.Rejected, a.LeaderlessRounds, a.TwoLeaderRounds, a.Handovers}
	y := []float64{b.Missed, b.Unresolved, b.DoubleStarts, b.Partial, b.Unwritten, b.Rewritten, b.DelayedRounds, b.Rejected, b.LeaderlessRounds, b.TwoLeaderRounds, b.Handovers}
	for i := range x {
		if math.Abs(x[i]-y[i]) > 1e-9*max(1, math.Abs(x[i])) {
			return false
		}
	}
	return a.Phases == b.Phases
}
