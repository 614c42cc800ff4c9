package montecarlo_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/soak"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/sweep"
)

func lengths(t testing.TB, s string) model.Lengths {
	t.Helper()
	l, err := parse.Lengths(0, s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func study(t testing.TB, base model.Config, up, down string, replicas int) *montecarlo.MonteCarlo {
	return &montecarlo.MonteCarlo{Grid: sweep.NewGrid(base), Up: lengths(t, up), Down: lengths(t, down), Replicas: replicas, Seed: 7}
}

func summaries(t testing.TB, mc *montecarlo.MonteCarlo, workers int) []montecarlo.Summary {
	t.Helper()
	var out []montecarlo.Summary
	err := mc.Run(context.Background(), workers, func(s *montecarlo.Summary) error { out = append(out, *s); return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSingleNodeDownTenPercent: one node, up for 900 rounds on average and
// down for 100, spends about 10% of its rounds leaderless: with no standby,
// every round it is down is leaderless.
func TestSingleNodeDownTenPercent(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Rounds = 1, 100_000
	s := summaries(t, study(t, base, "geometric:900", "fixed:100", 200), 2)[0]
	share := s.Mean[model.LeaderlessRounds] / float64(base.Rounds)
	if math.Abs(share-0.1) > 0.005 {
		t.Errorf("leaderless share %.4f, want about 0.100", share)
	}
	if s.Mean[model.Handovers] != 0 {
		t.Errorf("%v handovers with a single node", s.Mean[model.Handovers])
	}
}

// TestFixedEqualsSchedule: with fixed up and down periods every node is up
// 7 rounds, then down 3, in step: the deterministic windows 8-10, 18-20, …
// for every node. Every replica is that run: means equal it, and an
// interval has no width, except that of a count of 0, which is Garwood's
// for no event in 5 replicas, [0, 0.738].
func TestFixedEqualsSchedule(t *testing.T) {
	for _, c := range []model.Config{
		{Policy: model.Policy{Nodes: 3, Lease: 2, RereadPeriod: 3, Period: 4}, Scenario: model.Scenario{Rounds: 60}},
		{Policy: model.Policy{Nodes: 4, Lease: 1, RereadPeriod: 5, Period: 6, Fencing: true, PersistentTrigger: true}, Scenario: model.Scenario{Rounds: 97}},
		{Policy: model.Policy{Nodes: 1, Lease: 5, RereadPeriod: 2, Period: 1, PersistentTrigger: true}, Scenario: model.Scenario{Rounds: 50}},
		{Policy: model.Policy{Nodes: 4, Lease: 3, RereadPeriod: 3, Period: 6}, Scenario: model.Scenario{Rounds: 1000}}, // 300 leaderless rounds
	} {
		c.Start, c.Down, c.RetryPeriod, c.BatchLen = 1, 1, 1, 1
		var windows model.Windows
		for n := range c.Nodes {
			for first := 8; first <= c.Rounds; first += 10 {
				windows = append(windows, model.Window{Node: n, First: first, Last: first + 2})
			}
		}
		var r model.Runner
		want, err := r.RunSchedule(c, windows)
		if err != nil {
			t.Fatal(err)
		}
		s := summaries(t, study(t, c, "fixed:7", "fixed:3", 5), 2)[0]
		for k, v := range want.Values() {
			wantCI := montecarlo.Interval{Lo: float64(v), Hi: float64(v)}
			if v == 0 {
				wantCI.Hi = 0.738
			}
			if ci := s.CI95[k]; s.Mean[k] != float64(v) || ci.Lo != wantCI.Lo || math.Abs(ci.Hi-wantCI.Hi) > 5e-4 {
				t.Errorf("%+v: %s mean %v in %v, want %d in %v", c, model.Stat(k).Name(), s.Mean[k], ci, v, wantCI)
			}
		}
	}
}

// TestIntervalsShrink: four times the replicas, half the interval.
func TestIntervalsShrink(t *testing.T) {
	base := model.Default()
	base.Rounds = 20_000
	ci := func(replicas int) float64 {
		return summaries(t, study(t, base, "geometric:300", "lognormal:1.5,0.5", replicas), 2)[0].CI95[model.LeaderlessRounds].HalfWidth()
	}
	small, large := ci(200), ci(800)
	if ratio := small / large; ratio < 1.7 || ratio > 2.3 {
		t.Errorf("CI95 %.3f at 200 replicas, %.3f at 800: ratio %.2f, want about 2", small, large, ratio)
	}
}

// TestMonteCarloDeterministic: the same seed gives byte-identical CSV for
// any worker count; another seed gives another result.
func TestMonteCarloDeterministic(t *testing.T) {
	csv := func(seed uint64, workers int) string {
		mc := study(t, model.Default(), "geometric:200", "lognormal:1.2,0.6", 37)
		mc.Seed, mc.RoundsPerYear, mc.LinesPerBatch = seed, 2190, 4000
		for p, s := range map[model.Param]string{model.Nodes: "1,2,5", model.Lease: "2,4", model.Quorum: "false,true", model.Rounds: "5000"} {
			mc.Grid.Values[p], _ = sweep.ParseValues(0, p, s)
		}
		b := mc.AppendHeader(nil)
		for _, s := range summaries(t, mc, workers) {
			b = mc.AppendRow(b, &s)
		}
		return string(b)
	}
	one := csv(1, 1)
	for _, w := range []int{2, 3, 8} {
		if csv(1, w) != one {
			t.Errorf("workers %d: output differs from workers 1", w)
		}
	}
	if csv(2, 2) == one {
		t.Error("seeds 1 and 2 give the same output")
	}
	if lines := strings.Count(one, "\n"); lines != 13 {
		t.Errorf("%d lines, want a header and 12 rows", lines)
	}
}

// TestCommonRandomNumbers: configurations that differ only in policy meet
// the same failures, so a policy that cannot matter changes nothing: quorum
// with a single node, fencing for every count but rejected and double starts.
func TestCommonRandomNumbers(t *testing.T) {
	base := model.Default()
	base.Rounds = 20_000
	mc := study(t, base, "geometric:300", "lognormal:1.5,0.5", 40)
	mc.Grid.Values[model.Nodes] = sweep.ListOf(1, 4)
	mc.Grid.Values[model.Fencing] = sweep.ListOf(0, 1)
	mc.Grid.Values[model.Quorum] = sweep.ListOf(0, 1)
	s := summaries(t, mc, 2) // nodes, fencing, quorum: innermost last
	if s[0].Mean != s[1].Mean {
		t.Errorf("one node: quorum changed the results: %v vs %v", s[0].Mean, s[1].Mean)
	}
	for _, k := range []model.Stat{model.TwoLeaderRounds, model.LeaderlessRounds, model.HandoverRounds, model.Handovers} {
		if a, b := s[4].Mean[k], s[6].Mean[k]; a != b {
			t.Errorf("four nodes: fencing changed %s: %v vs %v", k.Name(), a, b)
		}
	}
}

// TestNodeCountMatters: under independent failures a lone node has no one to
// hand over to, and with quorum two nodes cannot hand over when one fails
// (one of two is no majority) while three can.
func TestNodeCountMatters(t *testing.T) {
	base := model.Default()
	base.Rounds, base.Quorum = 20_000, true
	mc := study(t, base, "geometric:300", "lognormal:1.5,0.5", 50)
	mc.Grid.Values[model.Nodes] = sweep.ListOf(1, 2, 3)
	s := summaries(t, mc, 2)
	if s[0].Mean[model.Handovers] != 0 || s[1].Mean[model.Handovers] != 0 {
		t.Errorf("handovers with 1 and 2 nodes under quorum: %v, %v", s[0].Mean[model.Handovers], s[1].Mean[model.Handovers])
	}
	if s[2].Mean[model.Handovers] < 10 {
		t.Errorf("3 nodes under quorum hand over only %v times", s[2].Mean[model.Handovers])
	}
	if s[2].Mean[model.LeaderlessRounds] >= s[1].Mean[model.LeaderlessRounds] {
		t.Errorf("3 nodes are leaderless %v rounds, 2 nodes %v", s[2].Mean[model.LeaderlessRounds], s[1].Mean[model.LeaderlessRounds])
	}
}

// TestLengthMeans: each distribution has the mean it should: the one given
// for fixed and geometric, e^(mu+sigma²/2) for the lognormal.
func TestLengthMeans(t *testing.T) {
	var r model.Runner
	for _, tt := range []struct {
		dist string
		want float64 // mean of up periods, from the rounds a single node is up
	}{
		{"geometric:50", 50}, {"fixed:40", 40}, {"geometric:1", 1}, {"lognormal:3,0.5", math.Exp(3 + 0.5*0.5/2)},
	} {
		c := model.Config{
			Policy:   model.Policy{BatchLen: 1, Nodes: 1, Lease: 1, RereadPeriod: 1, RetryPeriod: 1, Period: 1_000_000},
			Scenario: model.Scenario{Start: 1, Rounds: 1_000_000, Down: 1},
		}
		a := &model.Alternating{Up: lengths(t, tt.dist), Down: lengths(t, "fixed:10"), Seed: [2]uint64{1, 2}}
		st, err := r.RunSchedule(c, a)
		if err != nil {
			t.Fatal(err)
		}
		// Cycles of (up, 10 down): up share = mean/(mean+10).
		share := 1 - float64(st.LeaderlessRounds)/float64(c.Rounds)
		if mean := 10 * share / (1 - share); math.Abs(mean-tt.want) > 0.03*tt.want {
			t.Errorf("%s: mean up period %.2f, want %.2f", tt.dist, mean, tt.want)
		}
	}
}

// BenchmarkMonteCarlo: 1,000 replicas of 100,000 rounds and 5 nodes,
// with the default distributions and under heavy churn, by worker count;
// ns/event is the wall time per failure event (a node going down or up),
// against the events expected from the distributions' means.
func BenchmarkMonteCarlo(b *testing.B) {
	base := model.Default()
	base.Rounds = 100_000
	for _, d := range []struct{ name, up, down string }{
		{"default", "geometric:2000", "lognormal:1.2,0.6"},
		{"churn", "geometric:20", "geometric:5"},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/1000x100k/workers=%d", d.name, workers), func(b *testing.B) {
				mc := study(b, base, d.up, d.down, 1000)
				var events float64
				for b.Loop() {
					events = 0
					for _, s := range summaries(b, mc, workers) {
						events += expectedEvents(mc, s.Config)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
			})
		}
	}
}

// expectedEvents is the failure events a study's replicas of c meet on
// average: every node changes twice a cycle of mean up plus mean down.
func expectedEvents(mc *montecarlo.MonteCarlo, c model.Config) float64 {
	return float64(mc.Replicas) * float64(c.Nodes) * 2 * float64(c.Rounds) / (mc.Up.Mean() + mc.Down.Mean())
}

// TestIntervalCoverage: over 200 seeds, the 95% interval of a statistic's
// mean per replica covers the true mean 90-99% of the time, where events
// are common and where they are rare coincidences among plentiful
// failures, for cases whose answer is known. Every node is a two-state
// chain, up at round 1, leaving an up round with chance 1/up and a down
// one with chance 1/down, so P(down at t) = π(1 − λ^(t−1)) with π =
// p/(p+q), λ = 1−p−q. One node is leaderless when it is down; n nodes with
// lease 1 when all are down (a reachable node takes over in the round the
// leader fails): for those cases the test computes the answer, and checks
// the missed batches a year averaged over the trigger's phase as well.
// Double starts and partial batches have no closed form: their answers
// are the means of 4,000,000 replicas of the same study with seed 2^40
// (replicas no test study draws), computed once with MonteCarlo.Run, and
// their standard errors, 0.00016 and 0.00017, are a fortieth of a study's
// half-width. In the rare cases every node fails 10 to 90 times a replica
// while the statistic counts something in one replica of ten or fewer.
func TestIntervalCoverage(t *testing.T) {
	for _, tt := range []struct {
		name                    string
		nodes                   int
		up, down                float64
		rounds, replicas, lease int
		config                  func(*model.Config) // the rest of the configuration, if any
		stat                    model.Stat
		reference               float64 // the true mean, if the test cannot compute it
		phase                   bool    // check the missed batches a year averaged over the phase too
	}{
		{"one node, churning", 1, 20, 5, 2000, 50, 3, nil, model.LeaderlessRounds, 0, true},
		{"one node, rarely down", 1, 500, 3, 2000, 20, 3, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, lease 1", 3, 20, 5, 2000, 50, 1, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, all down rarely", 3, 50, 2, 2000, 50, 1, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, all down in a tenth of the replicas", 3, 100, 5, 2000, 100, 1, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, all down in long outages", 3, 400, 20, 2000, 300, 1, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, all down in a few long outages", 3, 400, 20, 2000, 200, 1, nil, model.LeaderlessRounds, 0, true}, // about 6 a study, of 7 rounds on average
		{"four nodes, all down", 4, 40, 5, 2000, 45, 1, nil, model.LeaderlessRounds, 0, true},
		{"three nodes, all down about three times a study", 3, 200, 5, 2000, 200, 1, nil, model.LeaderlessRounds, 0, false}, // issue 34's: 6% of studies see none
		{"double starts without fencing", 3, 200, 5, 2000, 100, 3, func(c *model.Config) { c.Partition, c.Period = true, 480 }, model.DoubleStarts, 0.101629, false},
		{"partial batches", 3, 200, 5, 2000, 100, 3, func(c *model.Config) { c.Period, c.BatchLen = 240, 4 }, model.PartialBatches, 0.117163, false},
	} {
		base := model.Default()
		base.Nodes, base.Rounds, base.Lease = tt.nodes, tt.rounds, tt.lease
		if tt.config != nil {
			tt.config(&base)
		}
		p, q := 1/tt.up, 1/tt.down
		pi, lambda := p/(p+q), 1-p-q
		allDown := func(r int) float64 { return math.Pow(pi*(1-math.Pow(lambda, float64(r-1))), float64(tt.nodes)) }
		want := tt.reference
		if want == 0 {
			for r := 1; r <= tt.rounds; r++ {
				want += allDown(r)
			}
		}
		up, down := fmt.Sprintf("geometric:%g", tt.up), fmt.Sprintf("geometric:%g", tt.down)
		mc := study(t, base, up, down, tt.replicas)
		// Averaged over the trigger's phase, a trigger falls every
		// PhasePeriod rounds and counts as PhasePeriod/Period of a batch;
		// it is missed when no node is up. A year is a replica.
		wantMissed, step := 0.0, base.PhasePeriod()
		for r := step; r <= tt.rounds; r += step {
			wantMissed += allDown(r) * float64(step) / float64(base.Period)
		}
		phased := study(t, base, up, down, tt.replicas)
		phased.PhaseAverage, phased.RoundsPerYear, phased.LinesPerBatch = true, float64(tt.rounds), 1
		covered, coveredMissed, events := 0, 0, 0.0
		seeds := 200
		if soak.On() {
			seeds = 1000
		}
		lo, hi := seeds*90/100, seeds*99/100
		for seed := range uint64(seeds) {
			mc.Seed, phased.Seed = seed, seed
			s := summaries(t, mc, 2)[0]
			if ci := s.CI95[tt.stat]; ci.Lo <= want && want <= ci.Hi {
				covered++
			}
			events += s.Mean[tt.stat] * float64(tt.replicas) / float64(seeds)
			if tt.phase {
				if ci := summaries(t, phased, 2)[0].MissedPerYearCI95; ci.Lo <= wantMissed && wantMissed <= ci.Hi {
					coveredMissed++
				}
			}
		}
		t.Logf("%s: true mean %.4f %s a replica, about %.1f in a study; covered by %d of %d intervals", tt.name, want, tt.stat.Name(), events, covered, seeds)
		if covered < lo || covered > hi {
			t.Errorf("%s: the 95%% interval covered the true mean %.4f %s in %d of %d studies, want %d to %d", tt.name, want, tt.stat.Name(), covered, seeds, lo, hi)
		}
		if tt.phase {
			t.Logf("%s: %.4f missed batches a year averaged over the phase, covered by %d", tt.name, wantMissed, coveredMissed)
		}
		if tt.phase && (coveredMissed < lo || coveredMissed > hi) {
			t.Errorf("%s: averaged over the phase, the 95%% interval covered the true %.4f missed batches a year in %d of %d studies, want %d to %d", tt.name, wantMissed, coveredMissed, seeds, lo, hi)
		}
	}
}

// TestPrecision: asked for precision, a study runs replicas a batch at a
// time until every headline figure is precise, and its summary is the
// summary of a plain study of that many replicas, for any workers; asked
// for more than its ceiling allows, it stops there and says so; a study
// without randomness is precise after its first replicas.
func TestPrecision(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Rounds = 3, 20_000
	mc := study(t, base, "geometric:2000", "lognormal:1.2,0.6", 50)
	mc.Precision, mc.Floor, mc.MaxReplicas = 0.1, 1, 2000
	one, three := summaries(t, mc, 1)[0], summaries(t, mc, 3)[0]
	if one != three {
		t.Fatalf("workers 1 and 3 differ: %+v, %+v", one, three)
	}
	if !one.Precise || one.Replicas%50 != 0 || one.Replicas < 100 || one.Replicas >= 2000 {
		t.Fatalf("precise %t after %d replicas, want precise after a few batches of 50", one.Precise, one.Replicas)
	}
	for _, f := range mc.Headline(&one) {
		if f.CI95.HalfWidth() > 0.1*f.Value && f.CI95.HalfWidth() > 1 {
			t.Errorf("%s %.3f in %v: not within 10%% or 1", f.Name, f.Value, f.CI95)
		}
	}
	plain := study(t, base, "geometric:2000", "lognormal:1.2,0.6", one.Replicas)
	if p := summaries(t, plain, 2)[0]; p.Tallies != one.Tallies || p.Mean != one.Mean || p.CI95 != one.CI95 {
		t.Errorf("a plain study of %d replicas differs from the precise one", one.Replicas)
	}
	// It stopped at the first batch at which every figure, the rounds by
	// their episodes' interval, is precise.
	if ci, want := one.CI95[model.LeaderlessRounds], one.Episodes[0].Interval95(one.Tallies[model.LeaderlessRounds]); ci != want {
		t.Errorf("leaderless rounds in %v, their episodes' interval %v", ci, want)
	}
	plain.Replicas -= 50
	fewer := summaries(t, plain, 2)[0]
	precise := true
	for _, f := range mc.Headline(&fewer) {
		precise = precise && mc.Precise(f)
	}
	if precise {
		t.Errorf("%d replicas were precise already, but the study ran %d", plain.Replicas, one.Replicas)
	}
	mc.Precision, mc.Floor, mc.MaxReplicas = 0.001, 0, 200
	if s := summaries(t, mc, 2)[0]; s.Precise || s.Replicas != 200 {
		t.Errorf("asked for 0.1%% within 200 replicas: precise %t after %d", s.Precise, s.Replicas)
	}
	// Fixed up and down periods: every replica is the same run, whose
	// 300 leaderless rounds are known to the round after the first 5
	// replicas, and whose counts of 0 are within ±0.37 of it (Garwood's).
	base = model.Default()
	base.Nodes, base.Rounds = 4, 1000
	fixed := study(t, base, "fixed:7", "fixed:3", 5)
	fixed.Precision, fixed.Floor, fixed.MaxReplicas = 0.01, 1, 1000
	if s := summaries(t, fixed, 2)[0]; !s.Precise || s.Replicas != 5 || s.Mean[model.LeaderlessRounds] != 300 || s.CI95[model.LeaderlessRounds].HalfWidth() != 0 {
		t.Errorf("fixed periods, asked for 1%%: precise %t after %d replicas, leaderless %v in %v; want precise after 5, 300 with no width",
			s.Precise, s.Replicas, s.Mean[model.LeaderlessRounds], s.CI95[model.LeaderlessRounds])
	}
}

// TestPhaseAverage: a study that averages over the trigger's phase meets
// the same failures (common random numbers) and finds what the
// configuration's own triggers find, rarely: the missed (unreachable
// leaders) or double (partitioned leaders, who work on) batches a year
// inside their 95% interval, with its own interval at least three times
// narrower.
func TestPhaseAverage(t *testing.T) {
	for _, tt := range []struct {
		batchLen  int
		partition bool
	}{{1, false}, {4, false}, {1, true}, {4, true}} {
		base := model.Default()
		base.Nodes, base.Period, base.BatchLen, base.Rounds, base.Partition = 3, 1000, tt.batchLen, 20_000, tt.partition
		var got [2]montecarlo.Summary
		for i, phased := range []bool{false, true} {
			mc := study(t, base, "geometric:300", "geometric:30", 300)
			mc.RoundsPerYear, mc.LinesPerBatch, mc.PhaseAverage = 20_000, 1, phased
			got[i] = summaries(t, mc, 2)[0]
		}
		own, phased := got[0], got[1]
		f := struct {
			name       string
			own, phase float64
			ownCI, ci  montecarlo.Interval
		}{"missed", own.MissedPerYear, phased.MissedPerYear, own.MissedPerYearCI95, phased.MissedPerYearCI95}
		if tt.partition {
			f.name, f.own, f.phase, f.ownCI, f.ci = "double", own.DoublePerYear, phased.DoublePerYear, own.DoublePerYearCI95, phased.DoublePerYearCI95
		}
		if f.own == 0 || f.phase == 0 {
			t.Fatalf("%+v: %s batches a year %v and %v: the case shows nothing", tt, f.name, f.own, f.phase)
		}
		if f.phase < f.ownCI.Lo || f.phase > f.ownCI.Hi {
			t.Errorf("%+v: %s batches a year %.2f %v every period, %.2f %v averaged over the phase", tt, f.name, f.own, f.ownCI, f.phase, f.ci)
		}
		if 3*f.ci.HalfWidth() > f.ownCI.HalfWidth() {
			t.Errorf("%+v: %s batches a year ± %.3f averaged over the phase, ± %.3f every period: not three times narrower", tt, f.name, f.ci.HalfWidth(), f.ownCI.HalfWidth())
		}
	}
}

// TestPhaseAverageNeedsNoQueue: a queued batch depends on the triggers
// before it, so averaging over the phase refuses the persistent trigger;
// the CSV says how often the replicas triggered.
func TestPhaseAverageNeedsNoQueue(t *testing.T) {
	base := model.Default()
	base.Rounds = 1000
	mc := study(t, base, "geometric:300", "geometric:30", 10)
	mc.PhaseAverage = true
	mc.Grid.Values[model.PersistentTrigger] = sweep.ListOf(0, 1)
	err := mc.Run(context.Background(), 1, func(*montecarlo.Summary) error { return nil }, nil)
	if err == nil || !strings.Contains(err.Error(), "needs persistent_trigger false") {
		t.Errorf("phase average with the persistent trigger: %v", err)
	}
	mc.Grid.Values[model.PersistentTrigger] = sweep.ListOf(0)
	s := summaries(t, mc, 1)[0]
	header, row := strings.Split(string(mc.AppendHeader(nil)), ","), strings.Split(string(mc.AppendRow(nil, &s)), ",")
	if i := slices.Index(header, "trigger_every"); i < 0 || row[i] != "3" {
		t.Errorf("period 6, renewal 3: trigger_every column %d of %q, row %q; want 3", i, header, row)
	}
}
