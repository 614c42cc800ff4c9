package cost

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	_ "github.com/leasesim/leasesim/internal/golden" // defines -update, which rewrites the goldens
	"github.com/leasesim/leasesim/model"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestMethodsByHand checks both methods against values computed by hand.
func TestMethodsByHand(t *testing.T) {
	seed := model.Default()
	fenced := seed
	fenced.Fencing, fenced.PersistentTrigger = true, true
	longLease := seed
	longLease.Lease = 8
	everyRound := model.Config{
		Policy:   model.Policy{BatchLen: 1, Nodes: 3, Lease: 2, RereadPeriod: 1, RetryPeriod: 1, Period: 1},
		Scenario: model.Scenario{Outage: 3, Start: 6, Rounds: 24, Down: 1},
	}

	tests := []struct {
		name   string
		c      model.Config
		window PerEvent // leaderless and two-leader rounds of the run / its rounds
		phase  EventEffect
	}{
		{
			// The publication's run: leaderless rounds 6-7, two-leader rounds
			// 11-12, of 24. Phase method, lcm(6, 3) = 6 outage starts:
			//   start  outage  handover  leaderless  two-leader      missed  double
			//      7    7-11        9     7-8        12 (re-read)      -      12
			//      8    8-12       10     8-9        13-15             -      -
			//      9    9-13       11     9-10       14-15             -      -
			//     10   10-14       12    10-11       15                -      -
			//     11   11-15       13    11-12       16-18            12      18
			//     12   12-16       14    12-13       17-18            12      18
			// means: missed 2/6, double 3/6, leaderless 2, two-leader 12/6.
			"seed", seed,
			PerEvent{Missed: 2.0 / 24, Double: 2.0 / 24},
			EventEffect{Phases: 6, Missed: 2.0 / 6, DoubleStarts: 3.0 / 6, LeaderlessRounds: 2, TwoLeaderRounds: 2},
		},
		{
			// Fencing and the persistent trigger: the same rounds, so the
			// window method, which reads only rounds, projects the same
			// missed and double batches. Per phase nothing is missed (the
			// trigger of round 12 is queued at starts 11 and 12 and starts
			// at the handover, 1 and 2 rounds late) and nothing doubled; the
			// stale node's work is refused in each two-leader round.
			"fencing+trigger", fenced,
			PerEvent{Missed: 2.0 / 24, Double: 2.0 / 24},
			EventEffect{Phases: 6, DelayedRounds: 3.0 / 6, Rejected: 12.0 / 6, LeaderlessRounds: 2, TwoLeaderRounds: 2},
		},
		{
			// Lease 8 outlasts the 5-round outage: no handover, 5 leaderless
			// rounds. Window: 5/24. Phase: the outages 7-11, 8-12, 9-13,
			// 10-14, 11-15, 12-16 hold a trigger (a multiple of 6) in 5 of 6
			// phases: missed 5/6.
			"lease 8", longLease,
			PerEvent{Missed: 5.0 / 24, Double: 0},
			EventEffect{Phases: 6, Missed: 5.0 / 6, LeaderlessRounds: 5},
		},
		{
			// A batch every round, re-read every round, lease 2, outage 3.
			// Window (outage 6-8): handover at 7, leaderless round 6, node 0
			// back in round 9 and re-reading at once: two-leader round 9:
			// 1/24 each. Phase: lcm(1, 1) = 1, one start, round 2: outage
			// 2-4, handover at 3; round 2 leaderless and its batch missed;
			// round 5 two-leader and its batch doubled.
			"every round", everyRound,
			PerEvent{Missed: 1.0 / 24, Double: 1.0 / 24},
			EventEffect{Phases: 1, Missed: 1, DoubleStarts: 1, LeaderlessRounds: 1, TwoLeaderRounds: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := WindowMethod(tt.c, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := w.PerEvent(); !near(got.Missed, tt.window.Missed) || !near(got.Double, tt.window.Double) {
				t.Errorf("window per event = %+v, want %+v", got, tt.window)
			}
			in, err := PhaseMethod(context.Background(), tt.c, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			in.Horizon = 0
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"missed", in.Missed, tt.phase.Missed}, {"unresolved", in.Unresolved, tt.phase.Unresolved},
				{"double", in.DoubleStarts, tt.phase.DoubleStarts}, {"delayed", in.DelayedRounds, tt.phase.DelayedRounds},
				{"rejected", in.Rejected, tt.phase.Rejected}, {"leaderless", in.LeaderlessRounds, tt.phase.LeaderlessRounds},
				{"two-leader", in.TwoLeaderRounds, tt.phase.TwoLeaderRounds}, {"phases", float64(in.Phases), float64(tt.phase.Phases)},
			} {
				if !near(f.got, f.want) {
					t.Errorf("phase %s = %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

// TestProjectByHand: the publication's 6 and 12 handovers a year, 4,000 lines.
func TestProjectByHand(t *testing.T) {
	publicationWindow := PerEvent{Missed: 2.0 / 24, Double: 2.0 / 24}
	seedPhase := PerEvent{Missed: 1.0 / 3, Double: 0.5}
	tests := []struct {
		m                                  Method
		e                                  PerEvent
		rate                               float64
		missed, missedLines, double, lines float64
	}{
		{Window, publicationWindow, 6, 0.5, 2000, 0.5, 2000}, // the publication's row
		{Window, publicationWindow, 12, 1, 4000, 1, 4000},    // and its sensitivity row
		{Phase, seedPhase, 6, 2, 8000, 3, 12000},
		{Phase, seedPhase, 12, 4, 16000, 6, 24000},
	}
	for _, tt := range tests {
		p := Project(tt.m, tt.e, tt.rate, 4000)
		if !near(p.MissedBatches, tt.missed) || !near(p.MissedLines(), tt.missedLines) ||
			!near(p.DoubleBatches, tt.double) || !near(p.DoubleLines(), tt.lines) {
			t.Errorf("%s at %v/yr = %+v (%v, %v lines)", tt.m, tt.rate, p, p.MissedLines(), p.DoubleLines())
		}
	}
}

// TestPhaseHorizonLongEnough: running each phase well past SettleRounds
// changes no incident statistic, over a grid of configurations.
func TestPhaseHorizonLongEnough(t *testing.T) {
	n := 0
	timings := []struct{ retry, deadline int }{{1, 0}, {2, 0}, {1, 2}, {2, 3}, {3, 4}} // retry period, renew deadline
	for nodes := 1; nodes <= 4; nodes++ {
		for lease := 1; lease <= 9; lease += 2 {
			for reread := 0; reread <= 5; reread++ {
				for outage := 0; outage <= 12; outage += 3 {
					for period := 1; period <= 7; period += 2 {
						for toggles := range 16 * len(timings) {
							tm := timings[toggles/16]
							c := model.Config{
								Policy:   model.Policy{BatchLen: 1, Nodes: nodes, Lease: lease, RereadPeriod: reread, RetryPeriod: tm.retry, RenewDeadline: tm.deadline, Period: period, Fencing: toggles&1 != 0, PersistentTrigger: toggles&2 != 0, Quorum: toggles&4 != 0},
								Scenario: model.Scenario{Outage: outage, Start: 1, Rounds: 1, Down: 1 + toggles>>3&1},
							}
							if c.Validate() != nil {
								continue // settings client-go refuses
							}
							short, err := PhaseMethod(context.Background(), c, 0, nil)
							if err != nil {
								t.Fatal(err)
							}
							long, err := phaseMethod(context.Background(), c, 3*SettleRounds(c)+17, 0, nil)
							if err != nil {
								t.Fatal(err)
							}
							short.Horizon, long.Horizon = 0, 0
							if short != long {
								t.Fatalf("%+v: horizon %d gives %+v, a longer one %+v", c, SettleRounds(c), short, long)
							}
							if short.Unresolved != 0 {
								t.Fatalf("%+v: batches still queued after the horizon", c)
							}
							n++
						}
					}
				}
			}
		}
	}
	if n < 15000 {
		t.Fatalf("checked %d configurations", n)
	}
}

// TestPhasePeriodLosesAlike: without the persistent trigger, triggers
// every PhasePeriod rounds lose per outage event, over the event's phases,
// Period/PhasePeriod times what c's own triggers lose: the identity behind
// a Monte Carlo study that averages over the trigger's phase
// (montecarlo.MonteCarlo.PhaseAverage). Over a grid of configurations with
// every failure kind, batches that take time and the overlap policies
// that need no queue; jitter draws its own per phase, so it is left out.
func TestPhasePeriodLosesAlike(t *testing.T) {
	kinds := []func(*model.Config){
		func(*model.Config) {},
		func(c *model.Config) { c.Crash = true },
		func(c *model.Config) { c.Release = true },
		func(c *model.Config) { c.Pause = true },
		func(c *model.Config) { c.Partition = true },
		func(c *model.Config) { c.BlackHole = true },
		func(c *model.Config) { c.Drift = 400 },
	}
	timings := []struct{ retry, deadline int }{{1, 0}, {2, 0}, {1, 2}, {2, 3}, {3, 4}}
	checked, denser := 0, 0
	const combinations, stride = 5 * 3 * 3 * 4 * 4 * 3 * 3 * 2 * 2 * 2 * 4 * 2 * 2 * 7, 1_000_003 // a prime: every 30,000th combination or so, spread over all
	for i := range 30_000 {
		k := i * stride % combinations
		pick := func(n int) int { v := k % n; k /= n; return v }
		tm := timings[pick(len(timings))]
		c := model.Config{
			Policy: model.Policy{Nodes: 1 + pick(3), Lease: 1 + 2*pick(3), RereadPeriod: pick(4), RetryPeriod: tm.retry, RenewDeadline: tm.deadline,
				Period: []int{4, 6, 9, 12}[pick(4)], BatchLen: 1 + pick(3), Overlap: []model.OverlapPolicy{model.OverlapAllow, model.OverlapSkip, model.OverlapCancelOther}[pick(3)],
				Fencing: pick(2) == 1, Quorum: pick(2) == 1, IdempotencyKey: pick(2) == 1},
			Scenario: model.Scenario{Outage: []int{0, 2, 5, 9}[pick(4)], Start: 1, Rounds: 1, Down: 1 + pick(2), DownFrom: pick(2)},
		}
		kinds[pick(len(kinds))](&c)
		if c.Validate() != nil {
			continue // settings client-go refuses
		}
		dense := c
		dense.Period = c.PhasePeriod()
		own, err := PhaseMethod(context.Background(), c, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		phased, err := PhaseMethod(context.Background(), dense, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, q := float64(c.Period), float64(dense.Period)
		for _, v := range []struct {
			name      string
			own, dens float64
		}{{"missed", own.Missed, phased.Missed}, {"double starts", own.DoubleStarts, phased.DoubleStarts},
			{"unwritten", own.Unwritten, phased.Unwritten}, {"rewritten", own.Rewritten, phased.Rewritten}} {
			if math.Abs(v.own*p-v.dens*q) > 1e-9*max(1, v.own*p) {
				t.Fatalf("%+v: %s %v an event every %d rounds, %v every %d: not %d/%d as many", c, v.name, v.own, c.Period, v.dens, dense.Period, c.Period, dense.Period)
			}
		}
		checked++
		if dense.Period < c.Period {
			denser++
		}
	}
	if checked < 10_000 || denser < checked/2 {
		t.Fatalf("checked %d configurations, %d with a denser phase period", checked, denser)
	}
}

func TestPhaseTooLarge(t *testing.T) {
	c := model.Default()
	c.Period, c.RereadPeriod = 999_999_937, 999_999_929
	if _, err := PhaseMethod(context.Background(), c, 0, nil); err == nil || !strings.Contains(err.Error(), "its 999999937 outage starts (the re-read and retry cycle of 999999929 rounds is over a quarter of them), more than 10000000") {
		t.Errorf("PhaseMethod with coprime huge periods: %v", err)
	}
	c = model.Default()
	c.Outage = model.MaxRounds
	if _, err := PhaseMethod(context.Background(), c, 0, nil); err == nil || !strings.Contains(err.Error(), "more than the model's 1000000000") {
		t.Errorf("PhaseMethod with a huge outage: %v", err)
	}
	c.Outage = model.MaxRounds - 100 // event by event, a long run is cheap
	if in, err := PhaseMethod(context.Background(), c, 0, nil); err != nil || in.LeaderlessRounds != 2 {
		t.Errorf("PhaseMethod with a long outage: %+v, %v", in, err)
	}
}

func TestParseMix(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"2:0.9,5:0.1", "[{2 0.9} {5 0.1}]", ""},
		{"2:9,5:1", "[{2 0.9} {5 0.1}]", ""},
		{"3:1", "[{3 1}]", ""},
		{"2:0", "", `weight "0" in "2:0": want a positive number`},
		{"2:-1", "", "want a positive number"},
		{"2:abc", "", "want a positive number"},
		{"2:NaN", "", "want a positive number"},
		{"2", "", `"2" is not outage:weight`},
		{"x:1", "", `outage "x" in "x:1"`},
		{"-1:1", "", "want a whole number from 0 to 1000000000"},
		{"2:1,2:1", "", "outage 2 appears twice"},
		{"", "", "is not outage:weight"},
		{"0:1e308,1:1e308", "", "add up past the largest number"},
		{"0:1e-17,1:1e307", "", `weight in "0:1e-17": a share of the total too small for a number to hold`},
		{"5:1e-320", "[{5 1}]", ""},
	}
	for _, tt := range tests {
		mix, err := ParseMix(0, tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseMix(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		var entries []string
		for _, e := range mix {
			entries = append(entries, fmt.Sprintf("{%d %g}", e.Outage, e.Weight))
		}
		if got := "[" + strings.Join(entries, " ") + "]"; err != nil || got != tt.want {
			t.Errorf("ParseMix(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

// TestRecommendByHand: over a mix of 2-round outages only, for the publication's
// configuration, lease 2 hands over needlessly (two-leader rounds), lease 3
// rides the outage out: the lease-3 row is the phase method's short-outage
// incident, weighted 1.
func TestRecommendByHand(t *testing.T) {
	mix := []MixEntry{{Outage: 2, Weight: 1}}
	ranks, err := Recommend(context.Background(), model.Default(), 0, LeaseCandidates(model.Default(), []int{2, 3}), mix, 6, 4000)
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	c.Outage, c.Lease = 2, 3
	in, _ := PhaseMethod(context.Background(), c, 0, nil)
	// Lease 3 against a 2-round outage: no handover, 2 leaderless rounds in
	// every phase; a trigger falls in the outage in 2 of 6 phases.
	if !near(in.LeaderlessRounds, 2) || !near(in.Missed, 2.0/6) || in.TwoLeaderRounds != 0 {
		t.Fatalf("lease 3, outage 2: %+v", in)
	}
	if r := ranks[1]; r.Lease != 3 || !near(r.WindowRounds, 2) || !near(r.MissedLines, 6*(2.0/6)*4000) || r.DoubleLines != 0 {
		t.Errorf("lease 3 row %+v", r)
	}
	if best := Best(ranks, func(r Rank) float64 { return r.WindowRounds }); best.Lease != 3 {
		t.Errorf("best by window rounds: lease %d (%+v)", best.Lease, ranks)
	}
	// Lease 2 hands over in every phase, 6 times a year; lease 3 never.
	if ranks[0].Handovers != 6 || ranks[1].Handovers != 0 {
		t.Errorf("handovers a year: lease 2 %v, lease 3 %v; want 6 and 0", ranks[0].Handovers, ranks[1].Handovers)
	}
}

// TestRecommendEach: ranking over several mixes that share outages gives
// each mix what Recommend gives it alone, so measuring a shared outage
// once changes no figure.
func TestRecommendEach(t *testing.T) {
	c := model.Default()
	mixes := [][]MixEntry{
		{{Outage: 2, Weight: 0.5}, {Outage: 6, Weight: 0.5}},
		{{Outage: 6, Weight: 0.25}, {Outage: 9, Weight: 0.75}},
		{{Outage: 5, Weight: 1, Incident: model.Windows{{Node: 0, First: 6, Last: 10}, {Node: 1, First: 7, Last: 8}}}},
	}
	each, err := RecommendEach(context.Background(), c, 3, LeaseCandidates(c, []int{2, 3, 5}), mixes, 6, 4000)
	if err != nil {
		t.Fatal(err)
	}
	for i, mix := range mixes {
		alone, err := Recommend(context.Background(), c, 3, LeaseCandidates(c, []int{2, 3, 5}), mix, 6, 4000)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(each[i], alone) {
			t.Errorf("mix %d: %+v together, %+v alone", i, each[i], alone)
		}
	}
}

// TestRecommendAll: rankings measured together in one pool, some sharing
// configurations, candidates and outages, give each what RecommendEach
// gives it alone, and a ranking that cannot be measured has its own error
// and leaves the others theirs.
func TestRecommendAll(t *testing.T) {
	c := model.Default()
	jittered := c
	jittered.Jitter, jittered.Nodes, jittered.Period, jittered.BatchLen, jittered.PersistentTrigger = true, 3, 12, 3, true
	jittered.Lease, jittered.RenewDeadline, jittered.RetryPeriod, jittered.RereadPeriod = 6, 3, 2, 0
	longer := jittered
	longer.BatchLen = 6
	mixes := [][]MixEntry{{{Outage: 2, Weight: 0.5}, {Outage: 6, Weight: 0.5}}, {{Outage: 6, Weight: 1}}}
	tooLong := c
	tooLong.Period = model.MaxRounds // its runs would be longer than the model's
	rankings := []Ranking{
		{c, LeaseCandidates(c, []int{2, 3, 5}), mixes},
		{c, LeaseCandidates(c, []int{3, 8}), mixes[1:]},
		{tooLong, LeaseCandidates(tooLong, []int{3}), mixes[1:]},
		{jittered, []Candidate{CandidateOf(jittered), CandidateOf(jittered).WithLease(8, 3, 2)}, mixes},
		{longer, []Candidate{CandidateOf(longer)}, mixes},
	}
	all, errs := RecommendAll(context.Background(), 3, rankings, 6, 4000)
	for g, rk := range rankings {
		alone, err := RecommendEach(context.Background(), rk.Config, 3, rk.Candidates, rk.Mixes, 6, 4000)
		if (err == nil) != (errs[g] == nil) || err != nil && err.Error() != errs[g].Error() {
			t.Fatalf("ranking %d: error %v together, %v alone", g, errs[g], err)
		}
		if err != nil {
			continue
		}
		if len(all[g]) != len(alone) {
			t.Fatalf("ranking %d: %d mixes together, %d alone", g, len(all[g]), len(alone))
		}
		for m := range alone {
			if !slices.Equal(all[g][m], alone[m]) {
				t.Errorf("ranking %d, mix %d: %+v together, %+v alone", g, m, all[g][m], alone[m])
			}
		}
	}
	if errs[2] == nil {
		t.Errorf("ranking 2 (a period of %d rounds): no error", tooLong.Period)
	}
}

// TestRecommendBruteForce: the cheapest candidate is the one a brute-force
// search finds, running the model at every phase of every outage of the
// mix for every candidate and pricing the yearly sums, with the persistent
// trigger (delays) and candidates that ride out some of the outages
// (handovers that differ by candidate): leases alone in the publication's
// round model, leases, renew deadlines and retry periods together, every
// valid combination, with a renew deadline, and a list by hand that also
// changes the node count, fencing and the trigger policy.
func TestRecommendBruteForce(t *testing.T) {
	round := model.Default()
	round.Nodes, round.Period, round.PersistentTrigger = 3, 5, true
	deadline := round
	deadline.Period, deadline.BatchLen, deadline.RereadPeriod, deadline.Lease, deadline.RenewDeadline, deadline.RetryPeriod = 12, 3, 0, 6, 3, 2
	var triples []Candidate
	for _, lease := range []int{3, 4, 6, 8, 11} {
		for _, renewDeadline := range []int{2, 3, 5, 7} {
			for _, retry := range []int{1, 2, 3} {
				k := CandidateOf(deadline).WithLease(lease, renewDeadline, retry)
				if run := k.Apply(deadline); run.Validate() == nil {
					triples = append(triples, k)
				}
			}
		}
	}
	// A list by hand: the node count, fencing and the trigger policy
	// changed one at a time, and leases without a two-leader margin, one
	// fenced (which may be chosen) and one not (never).
	with := func(edit func(*Candidate)) Candidate {
		k := CandidateOf(deadline)
		edit(&k)
		return k
	}
	listed := []Candidate{
		CandidateOf(deadline),
		with(func(k *Candidate) { k.Nodes = 1 }),
		with(func(k *Candidate) { k.Nodes = 5 }),
		with(func(k *Candidate) { k.PersistentTrigger = false }),
		with(func(k *Candidate) { k.CatchUpWindow = 4 }),
		with(func(k *Candidate) { k.CatchUpOnce = true }),
		with(func(k *Candidate) { k.IdempotencyKey = true }),
		with(func(k *Candidate) { k.Overlap = model.OverlapSkip }),
		with(func(k *Candidate) { k.Lease, k.Fencing = 4, true }),
		with(func(k *Candidate) { k.Lease = 4 }),
		with(func(k *Candidate) {
			k.Lease, k.RenewDeadline, k.Nodes, k.Fencing, k.PersistentTrigger = 11, 7, 2, true, false
		}),
	}
	for _, k := range listed {
		if run := k.Apply(deadline); run.Validate() != nil {
			err := run.Validate()
			t.Fatalf("listed %+v: %v", k, err)
		}
	}
	tests := []struct {
		name       string
		c          model.Config
		candidates []Candidate
		mix        []MixEntry
	}{
		{"leases", round, LeaseCandidates(round, []int{1, 2, 3, 4, 5, 6, 8, 10}), []MixEntry{{Outage: 2, Weight: 0.5}, {Outage: 4, Weight: 0.3}, {Outage: 9, Weight: 0.2}}},
		{"triples", deadline, triples, []MixEntry{{Outage: 2, Weight: 0.5}, {Outage: 5, Weight: 0.3}, {Outage: 9, Weight: 0.2}}},
		{"listed", deadline, listed, []MixEntry{{Outage: 2, Weight: 0.5}, {Outage: 5, Weight: 0.3}, {Outage: 9, Weight: 0.2}}},
	}
	const perYear, lines = 12, 1000
	weights := []Weights{
		{MissedLine: 1, DoubleLine: 1},
		{MissedLine: 1, DoubleLine: 1, DelayedRound: 30, Handover: 100},
		{DoubleLine: 2, Handover: 1},
		{DelayedRound: 1},
		{DelayedRound: 1, Handover: 3},
		{DelayedRound: 1, Handover: 10},
		{DoubleLine: 0.001, DelayedRound: 1, Handover: 1},
	}
	for _, tt := range tests {
		if tt.name == "triples" && len(tt.candidates) < 20 {
			t.Fatalf("only %d valid triples", len(tt.candidates))
		}
		ranks, err := Recommend(context.Background(), tt.c, 0, tt.candidates, tt.mix, perYear, lines)
		if err != nil {
			t.Fatal(err)
		}
		var r model.Runner
		distinct := map[string]bool{}
		for _, w := range weights {
			best, bestOnes := math.Inf(1), []Candidate(nil)
			for _, k := range tt.candidates {
				yearly := 0.0
				for _, e := range tt.mix {
					run := k.Apply(tt.c)
					run.Outage = e.Outage
					phases, sum := Phases(run), 0.0
					for p := range phases {
						run.Start = tt.c.Period + 1 + p
						run.Rounds = run.Start + SettleRounds(run)
						st, err := r.Run(run)
						if err != nil {
							t.Fatal(err)
						}
						sum += w.MissedLine*lines*(float64(st.Missed+st.Unresolved)+float64(st.MissedParts)/float64(run.BatchLen)) +
							w.DoubleLine*lines*float64(st.DoubledParts)/float64(run.BatchLen) +
							w.DelayedRound*float64(st.DelayedRounds+st.LateRounds) + w.Handover*float64(st.Handovers)
					}
					yearly += e.Weight * perYear * sum / float64(phases)
				}
				cfg := k.Apply(tt.c)
				if m, ok := cfg.TwoLeaderMargin(); ok && m <= 0 && !cfg.Fencing {
					continue // never recommended
				}
				switch {
				case yearly < best-1e-6:
					best, bestOnes = yearly, []Candidate{k}
				case yearly <= best+1e-6:
					bestOnes = append(bestOnes, k)
				}
			}
			var got []Candidate
			for _, r := range Cheapest(ranks, w, 1e-6) {
				got = append(got, r.Candidate)
			}
			if !slices.Equal(got, bestOnes) {
				t.Errorf("%s, weights %+v: Cheapest %v, brute force %v at %.3f a year", tt.name, w, got, bestOnes, best)
			}
			distinct[fmt.Sprint(bestOnes)] = true
		}
		if len(distinct) < 2 {
			t.Errorf("%s: every weighting chose %v: the test does not tell candidates apart", tt.name, distinct)
		}
	}
}

// TestPhaseMethodSeed: with jitter the phase method's figures follow its
// seed, each phase drawing its own jitter: the same seed repeats them, and
// another seed moves them. Without jitter the seed changes nothing.
func TestPhaseMethodSeed(t *testing.T) {
	c := model.Default()
	c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline, c.Outage, c.Period, c.Jitter = 15, 0, 2, 10, 40, 120, true
	at := func(c model.Config, seed uint64) EventEffect {
		in, err := PhaseMethod(context.Background(), c, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	if a, b := at(c, 3), at(c, 3); a != b {
		t.Errorf("seed 3 twice: %+v and %+v", a, b)
	}
	if a, b := at(c, 0), at(c, 7); a.LeaderlessRounds == b.LeaderlessRounds {
		t.Errorf("seeds 0 and 7 give the same leaderless rounds, %v: the phases do not draw their own jitter", a.LeaderlessRounds)
	}
	c.Jitter = false
	if a, b := at(c, 0), at(c, 7); a != b {
		t.Errorf("without jitter, seeds 0 and 7 give %+v and %+v", a, b)
	}
}

// TestIncidentEvent: an incident that is the group outage written as a
// window (node 0 cut off for the outage) costs what the group outage does,
// by both methods; moved across the phases with the outage, not left where
// it was written.
func TestIncidentEvent(t *testing.T) {
	c := model.Default()
	c.Lease, c.Outage = 4, 7
	ws := model.Windows{{Node: 0, First: c.Start, Last: c.Start + c.Outage - 1, Failure: model.Failure{Kind: model.Isolated}}}
	wantW, _ := WindowMethod(c, 0, nil)
	gotW, err := WindowMethod(c, 0, ws)
	if err != nil || gotW != wantW {
		t.Errorf("window method: %+v (%v), the group outage's %+v", gotW, err, wantW)
	}
	wantP, _ := PhaseMethod(context.Background(), c, 0, nil)
	gotP, err := PhaseMethod(context.Background(), c, 0, ws)
	if err != nil || gotP != wantP {
		t.Errorf("phase method: %+v (%v), the group outage's %+v", gotP, err, wantP)
	}
}

// TestPareto: by hand, over four leases: 2 is cheapest in delay, 4 in
// handovers, 3 loses to 4 in everything, 5 ties 4 and so is on the front
// too (nothing is better than it in one measure and as good in the rest).
func TestPareto(t *testing.T) {
	ranks := []Rank{
		{Candidate: Candidate{Lease: 2}, MissedLines: 0, DelayedRounds: 1, Handovers: 3},
		{Candidate: Candidate{Lease: 3}, MissedLines: 10, DelayedRounds: 2, Handovers: 3},
		{Candidate: Candidate{Lease: 4}, MissedLines: 10, DelayedRounds: 2, Handovers: 1},
		{Candidate: Candidate{Lease: 5}, MissedLines: 10, DelayedRounds: 2, Handovers: 1},
	}
	if got, want := Pareto(ranks), []bool{true, false, true, true}; !slices.Equal(got, want) {
		t.Errorf("Pareto = %v, want %v", got, want)
	}
	tests := []struct {
		w    Weights
		want []int
	}{
		{Weights{Handover: 1}, []int{4, 5}},                   // a tie is named as one
		{Weights{DelayedRound: 1}, []int{2}},                  // 1 against 2
		{Weights{MissedLine: 1, Handover: 4}, []int{2}},       // 0 + 12 against 10 + 4
		{Weights{MissedLine: 1, Handover: 5}, []int{2, 4, 5}}, // 15 against 15: a tie across the front
		{Weights{MissedLine: 1, Handover: 6}, []int{4, 5}},    // 18 against 16
		{Weights{MissedLine: 0.1, Handover: 1}, []int{4, 5}},  // 3 against 2
		{Weights{DoubleLine: 1}, []int{2, 3, 4, 5}},           // no double line anywhere: all tie at 0
	}
	for _, tt := range tests {
		var got []int
		for _, r := range Cheapest(ranks, tt.w, 1e-9) {
			got = append(got, r.Lease)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Cheapest(%+v) = %v, want %v", tt.w, got, tt.want)
		}
	}
}

// TestPhaseMethodQuietPhases: over a long period, where most outage
// starts meet no batch, the phase method's figures are those of running
// every phase, exactly without jitter (the quiet phases stand in by the
// retry and re-read cycle) and within a few per cent with it (the quiet
// phases are a sample of the followers' jitter), for the round model, a
// renew deadline, long batches with the persistent trigger, fencing, a
// batch cut by the run's end, and an incident.
func TestPhaseMethodQuietPhases(t *testing.T) {
	round := model.Default()
	round.Nodes, round.Period, round.RereadPeriod, round.Lease, round.Outage = 3, 900, 3, 4, 5
	deadline := round
	deadline.RereadPeriod, deadline.Lease, deadline.RenewDeadline, deadline.RetryPeriod, deadline.Outage = 0, 9, 6, 2, 8
	long := deadline
	long.BatchLen, long.PersistentTrigger, long.Fencing = 40, true, true
	short := deadline
	short.Outage = 3
	jitter := deadline
	jitter.Jitter, jitter.Period = true, 20000
	jitterLong := long
	jitterLong.Jitter, jitterLong.Period = true, 20000
	incident := model.Windows{{Node: 0, First: 1, Last: 8, Failure: model.Failure{Kind: model.Partitioned}}, {Node: 1, First: 3, Last: 5, Failure: model.Failure{Kind: model.Crashed}}}
	tests := []struct {
		name     string
		c        model.Config
		incident model.Windows
		within   float64 // relative; 0: exactly
	}{
		{"round model", round, nil, 0},
		{"renew deadline", deadline, nil, 0},
		{"long batch, persistent trigger, fencing", long, nil, 0},
		{"outage shorter than the deadline", short, nil, 0},
		{"incident", deadline, incident, 0},
		{"jitter", jitter, nil, 0.03},
		{"jitter, long batch", jitterLong, nil, 0.03},
	}
	for _, tt := range tests {
		c := tt.c
		if tt.incident != nil {
			c.Start, c.Outage = 1, 8
		}
		got, err := PhaseMethod(context.Background(), c, 7, tt.incident)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := phasePlan(c, Phases(c), SettleRounds(c))
		if err != nil {
			t.Fatal(err)
		}
		run, weight := 0, 0.0
		for _, w := range plan {
			run, weight = run+1, weight+w
		}
		if run > Phases(c)/2 || math.Abs(weight-float64(Phases(c))) > 1e-6 {
			t.Errorf("%s: %d of %d phases run, standing for %g: the shortcut is not tried, or its weights are off", tt.name, run, Phases(c), weight)
		}
		var want EventEffect
		var r model.Runner
		var moved model.Windows
		phases := Phases(c)
		for k := range phases {
			run := c
			run.Start = c.Period + 1 + k
			run.Rounds = run.Start + SettleRounds(c)
			if c.Jitter {
				r.JitterSeed = phaseSeed(7, k)
			}
			moved = moved[:0]
			for _, w := range tt.incident {
				w.First, w.Last = w.First+run.Start-c.Start, w.Last+run.Start-c.Start
				moved = append(moved, w)
			}
			var st model.Stats
			if tt.incident != nil {
				st, err = r.RunSchedule(run, moved)
			} else {
				st, err = r.Run(run)
			}
			if err != nil {
				t.Fatal(err)
			}
			n := float64(phases)
			want.Missed += float64(st.Missed) / n
			want.Unwritten += float64(st.MissedParts) / float64(c.BatchLen) / n
			want.Rewritten += float64(st.DoubledParts) / float64(c.BatchLen) / n
			want.DelayedRounds += float64(st.DelayedRounds) / n
			want.LeaderlessRounds += float64(st.LeaderlessRounds) / n
			want.TwoLeaderRounds += float64(st.TwoLeaderRounds) / n
			want.Handovers += float64(st.Handovers) / n
		}
		for _, f := range []struct {
			what      string
			got, want float64
		}{
			{"missed", got.Missed, want.Missed}, {"unwritten", got.Unwritten, want.Unwritten}, {"rewritten", got.Rewritten, want.Rewritten},
			{"delayed rounds", got.DelayedRounds, want.DelayedRounds}, {"leaderless rounds", got.LeaderlessRounds, want.LeaderlessRounds},
			{"two-leader rounds", got.TwoLeaderRounds, want.TwoLeaderRounds}, {"handovers", got.Handovers, want.Handovers},
		} {
			if math.Abs(f.got-f.want) > 1e-9+tt.within*math.Abs(f.want) {
				t.Errorf("%s: %s %g, every phase gives %g", tt.name, f.what, f.got, f.want)
			}
		}
		if want.LeaderlessRounds == 0 {
			t.Errorf("%s: no leaderless round: %+v", tt.name, want)
		}
	}
}

// TestLatenessPriced: a pause that holds a running batch makes it late,
// not partial; the phase method averages its late rounds, a candidate's
// rank counts them a year beside the start's delay, and the delay's price
// and the Pareto front take both. The mean is checked against the phases
// run one by one.
func TestLatenessPriced(t *testing.T) {
	c := model.Default()
	c.Lease, c.Period, c.BatchLen, c.Pause, c.Outage = 20, 6, 4, true, 3
	in, err := PhaseMethod(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r model.Runner
	sum := 0
	for p := range Phases(c) {
		run := c
		run.Start = c.Period + 1 + p
		run.Rounds = run.Start + SettleRounds(run)
		st, err := r.Run(run)
		if err != nil {
			t.Fatal(err)
		}
		sum += st.LateRounds
	}
	want := float64(sum) / float64(Phases(c))
	if want == 0 || !near(in.LateRounds, want) || in.Unwritten != 0 {
		t.Fatalf("phase method: late rounds %v, unwritten %v; want %v (> 0) and none unwritten", in.LateRounds, in.Unwritten, want)
	}
	ranks, err := Recommend(context.Background(), c, 0, []Candidate{CandidateOf(c)}, []MixEntry{{Outage: 3, Weight: 1}}, 12, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if got := ranks[0]; !near(got.LateRounds, 12*want) || !near(got.Cost(Weights{DelayedRound: 2}), 2*(got.DelayedRounds+12*want)) {
		t.Errorf("rank: late rounds %v a year, cost %v; want %v and 2 × (delayed %v + late)", got.LateRounds, got.Cost(Weights{DelayedRound: 2}), 12*want, got.DelayedRounds)
	}
	// Lateness is delay: 2 starts a round late, 3 finishes five late, so 2
	// is better in delay and as good in the rest.
	front := Pareto([]Rank{
		{Candidate: Candidate{Lease: 2}, DelayedRounds: 1, Handovers: 1},
		{Candidate: Candidate{Lease: 3}, LateRounds: 5, Handovers: 1},
	})
	if !slices.Equal(front, []bool{true, false}) {
		t.Errorf("Pareto = %v, want [true false]: lateness counts as delay", front)
	}
}
