package study_test

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// TestRecommendationAndSensitivity: the recommendation ranks the
// candidates with the current lease added, in order; the sensitivity's
// rate and lines rows are the recommendation's figures scaled, and its
// outage-length rows are the recommendation measured again over the mix
// with every outage halved or doubled.
func TestRecommendationAndSensitivity(t *testing.T) {
	base := model.Default()
	base.Lease, base.PersistentTrigger = 5, true
	opt := study.DefaultReviewOptions(base)
	opt.Replicas = 2
	opt.CandidateLeases = []int{2, 8, 3}
	opt.Mix = []cost.MixEntry{{Outage: 2, Weight: 0.5}, {Outage: 7, Weight: 0.5}}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	var leases []int
	for _, r := range rv.Recommendation {
		leases = append(leases, r.Lease)
	}
	if want := []int{2, 3, 5, 8}; !slices.Equal(leases, want) {
		t.Fatalf("candidates %v, want %v", leases, want)
	}
	if got := rv.Current(); got.Lease != 5 {
		t.Errorf("current %+v", got)
	}
	if len(rv.Sensitivity) != 6 {
		t.Fatalf("%d variants", len(rv.Sensitivity))
	}
	rate := rv.Sensitivity[1]  // outage events a year ×2
	lines := rv.Sensitivity[2] // invoice lines a batch ×½
	for i, r := range rv.Recommendation {
		if d := rate.Ranks[i]; rate.Assumption != "outage events a year" || rate.Factor != 2 ||
			d.MissedLines != 2*r.MissedLines || d.DoubleLines != 2*r.DoubleLines || d.DelayedRounds != 2*r.DelayedRounds || d.Handovers != 2*r.Handovers || d.WindowRounds != r.WindowRounds {
			t.Errorf("rate ×2, lease %d: %+v against %+v", r.Lease, d, r)
		}
		if h := lines.Ranks[i]; lines.Assumption != "invoice lines a batch" || lines.Factor != 0.5 ||
			h.MissedLines != r.MissedLines/2 || h.DoubleLines != r.DoubleLines/2 || h.DelayedRounds != r.DelayedRounds || h.Handovers != r.Handovers {
			t.Errorf("lines ×½, lease %d: %+v against %+v", r.Lease, h, r)
		}
	}
	for i, mix := range [][]cost.MixEntry{{{Outage: 1, Weight: 0.5}, {Outage: 4, Weight: 0.5}}, {{Outage: 4, Weight: 0.5}, {Outage: 14, Weight: 0.5}}} {
		want, err := cost.Recommend(context.Background(), base, opt.Seed, cost.LeaseCandidates(base, leases), mix, opt.EventsPerYear[0], float64(opt.LinesPerBatch))
		if err != nil {
			t.Fatal(err)
		}
		if v := rv.Sensitivity[4+i]; v.Assumption != "outage lengths" || !slices.Equal(v.Ranks, want) {
			t.Errorf("outage lengths ×%v: %+v, want %+v", v.Factor, v.Ranks, want)
		}
	}
}

// TestStudiesScaleToTheDeployment: the zone study fails the base's own
// zone (at least 2 nodes) and, like the node-count study, goes up to two
// nodes more than the base has (at least the publication's 7).
func TestStudiesScaleToTheDeployment(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Down, base.DownFrom = 9, 3, 1
	opt := study.DefaultReviewOptions(base)
	opt.Replicas = 2
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	first, last := rv.Zone[0].Config, rv.Zone[len(rv.Zone)-1].Config
	if first.Nodes != 3 || last.Nodes != 11 || first.Down != 3 || first.DownFrom != 1 {
		t.Errorf("zone study from %+v to %+v, want a zone of 3 from node 1 at 3 … 11 nodes", first, last)
	}
	if n := rv.Nodes[len(rv.Nodes)-1].Config.Nodes; n != 11 {
		t.Errorf("node-count study up to %d nodes, want 11", n)
	}
	for _, tt := range []struct{ nodes, down, zone, most int }{{5, 1, 2, 7}, {3, 0, 2, 7}, {6, 4, 4, 8}} {
		c := model.Default()
		c.Nodes, c.Down = tt.nodes, tt.down
		if z, m := study.ZoneDown(c), study.MostNodes(c); z != tt.zone || m != tt.most {
			t.Errorf("%d nodes, %d down: zone %d, most %d; want %d and %d", tt.nodes, tt.down, z, m, tt.zone, tt.most)
		}
	}
}

// TestSensitivityToBatchLength: a batch that takes time adds its length,
// halved and doubled (at most the period), to what moves the answer; an
// instant batch does not.
func TestSensitivityToBatchLength(t *testing.T) {
	base := model.Default()
	base.BatchLen = 3
	opt := study.DefaultReviewOptions(base)
	opt.Replicas, opt.CandidateLeases = 2, []int{2, 4}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Sensitivity) != 8 {
		t.Fatalf("%d variants, want 8", len(rv.Sensitivity))
	}
	for i, batchLen := range []int{2, 6} { // 1.5 rounds to 2; 6, the period
		c := base
		c.BatchLen = batchLen
		want, err := cost.Recommend(context.Background(), c, opt.Seed, cost.LeaseCandidates(c, []int{2, 3, 4}), []cost.MixEntry{{Outage: base.Outage, Weight: 1}}, opt.EventsPerYear[0], float64(opt.LinesPerBatch))
		if err != nil {
			t.Fatal(err)
		}
		if v := rv.Sensitivity[6+i]; v.Assumption != "batch length" || !slices.Equal(v.Ranks, want) {
			t.Errorf("batch length %d: %+v, want %+v", batchLen, v, want)
		}
	}
	base.BatchLen = 1
	if rv, _ := study.NewReview(context.Background(), base, opt); len(rv.Sensitivity) != 6 {
		t.Errorf("an instant batch: %d variants, want 6", len(rv.Sensitivity))
	}
}

// TestDeploymentFailures: every node fails as often as the first rate
// says outages reach the leader, for the mix's lengths in proportion;
// with a failure mix, as often and as long as its events that do not take
// every node (all of them, if all do).
func TestDeploymentFailures(t *testing.T) {
	base := model.Default()
	base.Outage = 30
	opt := study.DefaultReviewOptions(base)
	opt.RoundsPerYear = 800
	entry := func(scope cost.Scope, perYear float64, lengths ...cost.MixEntry) cost.FailureEntry {
		return cost.FailureEntry{Kind: model.Isolated, Scope: scope, Lengths: lengths, PerYear: perYear}
	}
	tests := []struct {
		name     string
		mix      []cost.MixEntry
		failures []cost.FailureEntry
		upMean   float64
		down     model.Lengths
		counted  map[int]int // with a mix: how often each length is a sample
	}{
		{"no mix: the outage", nil, nil, 100, model.Lengths{Kind: model.Fixed, A: 30}, nil},
		{"tenths", []cost.MixEntry{{Outage: 5, Weight: 0.6}, {Outage: 30, Weight: 0.3}, {Outage: 120, Weight: 0.1}}, nil, 100, model.Lengths{}, map[int]int{5: 6, 30: 3, 120: 1}},
		{"thirds", []cost.MixEntry{{Outage: 2, Weight: 1.0 / 3}, {Outage: 9, Weight: 2.0 / 3}}, nil, 100, model.Lengths{}, map[int]int{2: 333, 9: 667}},
		// 8 a year: 2 of one node (5 rounds), 6 of every node (7 rounds in
		// 1 of 3, 9 in 2): a node fails on its own 2 times a year, for 5.
		{"a failure mix: the events of every node left out", nil, []cost.FailureEntry{entry(cost.ScopeOneNode, 2, cost.MixEntry{Outage: 5, Weight: 1}),
			entry(cost.ScopeEveryNode, 6, cost.MixEntry{Outage: 7, Weight: 1.0 / 3}, cost.MixEntry{Outage: 9, Weight: 2.0 / 3})}, 400, model.Lengths{}, map[int]int{5: 1}},
		// and the leader 2 a year for 3: 4 a year, half of each length.
		{"a failure mix: the others' lengths in proportion", nil, []cost.FailureEntry{entry(cost.ScopeOneNode, 2, cost.MixEntry{Outage: 5, Weight: 1}), entry(cost.ScopeLeader, 2, cost.MixEntry{Outage: 3, Weight: 1}),
			entry(cost.ScopeEveryNode, 4, cost.MixEntry{Outage: 7, Weight: 1})}, 200, model.Lengths{}, map[int]int{3: 1, 5: 1}},
		{"a failure mix of every node's alone: all of it", nil, []cost.FailureEntry{entry(cost.ScopeEveryNode, 8, cost.MixEntry{Outage: 7, Weight: 0.25}, cost.MixEntry{Outage: 9, Weight: 0.75})}, 100, model.Lengths{}, map[int]int{7: 1, 9: 3}},
	}
	for _, tt := range tests {
		opt.Mix, opt.Failures, opt.EventsPerYear = tt.mix, tt.failures, []float64{8, 12}
		if tt.failures != nil {
			opt.Mix, opt.EventsPerYear[0] = cost.FlattenFailures(tt.failures, 2)
		}
		up, down := study.DeploymentFailures(base, opt)
		if want := (model.Lengths{Kind: model.Geometric, A: tt.upMean}); up.Kind != want.Kind || math.Abs(up.A-want.A) > 1e-9 {
			t.Errorf("%s: up %v, want %v: 800 rounds a year over the events that fail a node alone", tt.name, up, want)
		}
		if tt.counted == nil {
			if down.Kind != tt.down.Kind || down.A != tt.down.A {
				t.Errorf("%s: down %v, want %v", tt.name, down, tt.down)
			}
			continue
		}
		got := map[int]int{}
		for _, n := range down.Samples {
			got[n]++
		}
		if down.Kind != model.Empirical || !maps.Equal(got, tt.counted) {
			t.Errorf("%s: down %v with samples counted %v, want empirical with %v", tt.name, down, got, tt.counted)
		}
	}
}

// TestArrangementsWithoutAQueue: an arrangement without the persistent
// trigger cannot buffer a slot, so a buffering policy skips there (a
// valid configuration, where keeping it would not be), and the review
// warns of it; other policies, and instant batches, are kept as given.
func TestArrangementsWithoutAQueue(t *testing.T) {
	for _, tt := range []struct {
		batchLen       int
		overlap, plain model.OverlapPolicy
		warned         bool
	}{
		{3, model.OverlapBufferAll, model.OverlapSkip, true},
		{3, model.OverlapBufferOne, model.OverlapSkip, true},
		{3, model.OverlapCancelOther, model.OverlapCancelOther, false},
		{1, model.OverlapBufferAll, model.OverlapBufferAll, false},
	} {
		base := model.Default()
		base.BatchLen, base.Overlap, base.PersistentTrigger = tt.batchLen, tt.overlap, true
		for _, a := range study.Arrangements() {
			c := a.Apply(base)
			want := tt.overlap
			if !a.PersistentTrigger {
				want = tt.plain
			}
			if c.Overlap != want || c.Validate() != nil {
				t.Errorf("batch_len %d, overlap %d, %s: overlap %d (want %d), Validate %v", tt.batchLen, tt.overlap, a.Name, c.Overlap, want, c.Validate())
			}
		}
		opt := study.DefaultReviewOptions(base)
		opt.Replicas = 2
		rv, err := study.NewReview(context.Background(), base, opt)
		if err != nil {
			t.Fatal(err)
		}
		if warned := len(rv.Warnings()) > 0; warned != tt.warned {
			t.Errorf("batch_len %d, overlap %d: warnings %q, want some: %t", tt.batchLen, tt.overlap, rv.Warnings(), tt.warned)
		}
	}
}

// TestIncidentReview: with an incident as the outage event, the
// recommendation is the phase method over the incident, not over the
// group outage of its span, its "outage lengths" rows stretch each failure
// from its start, and the arrangements and the timeline replay it.
func TestIncidentReview(t *testing.T) {
	ctx := context.Background()
	base := model.Default()
	base.Nodes, base.Lease, base.Start, base.Outage = 3, 4, 6, 5 // the outage fields: the incident's span
	incident := model.Windows{
		{Node: 0, First: 6, Last: 10, Failure: model.Failure{Kind: model.Partitioned}},
		{Node: 1, First: 7, Last: 9, Failure: model.Failure{Kind: model.Crashed}},
	}
	opt := study.DefaultReviewOptions(base)
	opt.Replicas = 2
	opt.Incident, opt.IncidentFile = incident, "partition.txt"
	rv, err := study.NewReview(ctx, base, opt)
	if err != nil {
		t.Fatal(err)
	}
	group := opt
	group.Incident = nil
	plainRv, err := study.NewReview(ctx, base, group)
	if err != nil {
		t.Fatal(err)
	}
	rate, lines := opt.EventsPerYear[0], float64(opt.LinesPerBatch)
	differs := false
	for i, r := range rv.Recommendation {
		c := base
		c.Lease = r.Lease
		e, err := cost.PhaseMethod(ctx, c, opt.Seed, incident)
		if err != nil {
			t.Fatal(err)
		}
		p := cost.Project(cost.Phase, e.PerEvent(), rate, lines)
		if r.MissedLines != p.MissedLines() || r.DoubleLines != p.DoubleLines() || r.Handovers != rate*e.Handovers {
			t.Errorf("lease %d: %+v, want the phase method's %+v over the incident", r.Lease, r, p)
		}
		differs = differs || r != plainRv.Recommendation[i]
	}
	if !differs {
		t.Error("the incident's recommendation is the group outage's")
	}
	stretched := model.Windows{
		{Node: 0, First: 6, Last: 15, Failure: model.Failure{Kind: model.Partitioned}},
		{Node: 1, First: 7, Last: 12, Failure: model.Failure{Kind: model.Crashed}},
	}
	long := base
	long.Outage = 10
	var leases []int
	for _, r := range rv.Recommendation {
		leases = append(leases, r.Lease)
	}
	want, err := cost.Recommend(ctx, long, opt.Seed, cost.LeaseCandidates(long, leases), []cost.MixEntry{{Outage: 10, Weight: 1, Incident: stretched}}, rate, lines)
	if err != nil {
		t.Fatal(err)
	}
	if v := rv.Sensitivity[5]; v.Assumption != "outage lengths" || v.Factor != 2 || !slices.Equal(v.Ranks, want) {
		t.Errorf("outage lengths ×2: %+v, want %+v", v, want)
	}
	var r model.Runner
	r.JitterSeed = model.JitterSeed(opt.Seed)
	if st, _ := r.RunSchedule(rv.Arrangements[0].Config, incident); st != rv.Arrangements[0].Stats {
		t.Errorf("the plain arrangement %+v, want the incident's run %+v", rv.Arrangements[0].Stats, st)
	}
	for _, tr := range rv.Timeline {
		if down := tr.Round >= 7 && tr.Round <= 9; tr.Reachable[1] == down {
			t.Errorf("round %d: node 1 reachable %t in the timeline", tr.Round, tr.Reachable[1])
		}
	}
}

// TestCandidates: the grid of leases, renew deadlines and retry periods
// keeps the combinations client-go accepts with jitter (a renew deadline
// shorter than the lease and longer than 1.2 retry periods), counts the
// rest, and adds the current settings and the candidates listed; without
// a renew deadline only the lease varies.
func TestCandidates(t *testing.T) {
	deadline := model.Default()
	deadline.RereadPeriod, deadline.Jitter, deadline.Lease, deadline.RenewDeadline, deadline.RetryPeriod = 0, true, 7, 3, 1
	round := model.Default()
	round.Lease = 4
	k := func(lease, d, retry int) cost.Candidate { return cost.CandidateOf(deadline).WithLease(lease, d, retry) }
	r := func(lease int) cost.Candidate { return cost.CandidateOf(round).WithLease(lease, 0, round.RetryPeriod) }
	two, fenced := k(6, 3, 1), k(4, 3, 1) // listed: 2 nodes; fencing and no persistent trigger
	two.Nodes, fenced.Fencing, fenced.PersistentTrigger = 2, true, !fenced.PersistentTrigger
	tests := []struct {
		name                   string
		base                   model.Config
		leases, deadlines, rps []int
		listed                 []cost.Candidate
		want                   []cost.Candidate
		skipped                int
	}{
		{"triples", deadline, []int{6, 3, 4}, []int{2, 3, 5}, []int{1, 2}, nil, []cost.Candidate{
			k(3, 2, 1),
			k(4, 2, 1), k(4, 3, 1), k(4, 3, 2),
			k(6, 2, 1), k(6, 3, 1), k(6, 3, 2), k(6, 5, 1), k(6, 5, 2),
			k(7, 3, 1), // the current settings
		}, 9},
		{"current in the grid", deadline, []int{7}, []int{3}, []int{1, 3}, nil, []cost.Candidate{k(7, 3, 1)}, 1},
		{"round model", round, []int{2, 8}, []int{2, 3}, []int{1, 2}, nil, []cost.Candidate{r(2), r(4), r(8)}, 0},
		// Listed ones join the grid, in order, each once (the current
		// settings and a grid's candidate listed again).
		{"listed", deadline, []int{4, 6}, []int{3}, []int{1}, []cost.Candidate{two, k(7, 3, 1), fenced, k(6, 3, 1)},
			[]cost.Candidate{k(4, 3, 1), fenced, two, k(6, 3, 1), k(7, 3, 1)}, 0},
	}
	for _, tt := range tests {
		got, skipped := study.Candidates(tt.base, tt.leases, tt.deadlines, tt.rps, tt.listed...)
		if !slices.Equal(got, tt.want) || skipped != tt.skipped {
			t.Errorf("%s: %v, %d skipped; want %v, %d", tt.name, got, skipped, tt.want, tt.skipped)
		}
	}
	if got, want := study.DefaultRenewDeadlines(deadline), []int{3, 6, 9, 12}; !slices.Equal(got, want) {
		t.Errorf("DefaultRenewDeadlines = %v, want %v", got, want)
	}
	if got, want := study.DefaultRetryPeriods(deadline), []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("DefaultRetryPeriods = %v, want %v", got, want)
	}
}

// TestEverySectionIsTheDeployment: a deployment with the persistent
// trigger and a batch that takes time is what every section runs, its
// trigger policy, fencing and batch length kept (the arrangements table
// varies them, the deployment beside them); its study outage is the
// mix's most common, from halfway through the first batch, where none was
// given.
func TestEverySectionIsTheDeployment(t *testing.T) {
	base := model.Default()
	base.PersistentTrigger, base.BatchLen, base.Rounds = true, 4, 36
	opt := study.DefaultReviewOptions(base)
	opt.Replicas, opt.CandidateLeases = 2, []int{2, 4}
	opt.Mix = []cost.MixEntry{{Outage: 2, Weight: 0.3}, {Outage: 4, Weight: 0.7}}
	study.StudyOutage(&base, &opt, false, false, false)
	if base.Outage != 4 || base.Start != base.Period+2 || !opt.OutageFromMix || !opt.MidBatch {
		t.Fatalf("study outage %d from round %d (from mix %t, mid-batch %t), want 4 from %d", base.Outage, base.Start, opt.OutageFromMix, opt.MidBatch, base.Period+2)
	}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	same := func(c model.Config) bool {
		return c.PersistentTrigger == base.PersistentTrigger && c.Fencing == base.Fencing && c.BatchLen == base.BatchLen && c.Overlap == base.Overlap
	}
	sections := map[string][]model.Config{"deployed": {rv.Deployed.Config}, "cost": {rv.Cost[0].Result.Config}}
	for name, rs := range map[string][]study.Result{"lease sweep": rv.LeaseSweep, "heat map": rv.Heat, "zone": rv.Zone} {
		for _, r := range rs {
			sections[name] = append(sections[name], r.Config)
		}
	}
	for _, s := range rv.Nodes {
		sections["nodes"] = append(sections["nodes"], s.Config)
	}
	for name, cs := range sections {
		if len(cs) == 0 {
			t.Errorf("%s: no runs", name)
		}
		for _, c := range cs {
			if !same(c) {
				t.Errorf("%s runs trigger %t, fencing %t, batch %d, want the deployment's %t, %t, %d", name, c.PersistentTrigger, c.Fencing, c.BatchLen, base.PersistentTrigger, base.Fencing, base.BatchLen)
				break
			}
		}
	}
	if rv.Deployed.Config != base || rv.DeployedAs() != -1 {
		t.Errorf("deployed %+v (as arrangement %d), want the base, beside the three arrangements", rv.Deployed.Config, rv.DeployedAs())
	}
	if rv.Deployed.Stats.PartialBatches == 0 {
		t.Errorf("the study outage mid-batch cuts no batch: %+v", rv.Deployed.Stats)
	}
	base.Fencing = true
	if rv, err = study.NewReview(context.Background(), base, opt); err != nil || rv.DeployedAs() != 2 {
		t.Errorf("fencing and the persistent trigger deployed: as arrangement %d (%v), want 2", rv.DeployedAs(), err)
	}
	given := model.Default()
	opt.OutageFromMix, opt.MidBatch = false, false
	study.StudyOutage(&given, &opt, true, true, true)
	if given != model.Default() || opt.OutageFromMix || opt.MidBatch {
		t.Errorf("a given outage and start changed: %+v", given)
	}
}

// TestSpreadsMeetEachEntry: the spread of a year's cost (how sure)
// meets each failure-mix entry by its kind and scope, as the ranking
// does. A Consul lock whose leader stops cleanly 12 times a year hands
// over at once and misses no line: the ranking's 6.0 a year is its
// handovers alone, and no drawn year misses or doubles a line. The same
// 30 s as the configuration's own outage (calls failing, the holder
// cut off) misses 3,280 lines a year, and most years miss some.
func TestSpreadsMeetEachEntry(t *testing.T) {
	for _, tt := range []struct {
		name   string
		entry  cost.MixEntry
		yearly float64 // the ranking's cost a year of the current settings
		quiet  bool    // every drawn year misses and doubles no line
	}{
		{"leader released", cost.MixEntry{Outage: 30, Weight: 1, Kind: model.Released, Scope: cost.ScopeLeader}, 6, true},
		{"leader cut off", cost.MixEntry{Outage: 30, Weight: 1}, 3286, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rv := fencedLockReview(t, "consul", tt.entry.Outage, func(o *study.ReviewOptions, c *model.Config) {
				c.Fencing = false
				o.Mix = []cost.MixEntry{tt.entry}
			})
			current := rv.Current()
			if got := current.Cost(rv.Weights); math.Abs(got-tt.yearly) > 0.05 {
				t.Fatalf("the ranking's cost a year is %.2f, want %.1f", got, tt.yearly)
			}
			sp, ok := rv.Spreads[current.Candidate]
			if !ok {
				t.Fatal("no spread for the current settings")
			}
			if quiet := sp.Quiet == 1 && sp.Missed[1] == 0 && sp.Double[1] == 0; quiet != tt.quiet {
				t.Errorf("spread: missed %v, double %v, quiet years %v; want every year quiet %v", sp.Missed, sp.Double, sp.Quiet, tt.quiet)
			}
		})
	}
}
