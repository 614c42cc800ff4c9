package cost

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// MixEntry is one outage length of an outage mix and its share of events.
type MixEntry struct {
	Outage int
	Weight float64 // normalised: the weights of a mix sum to 1

	// Incident, if set, is the event instead of a group outage of Outage
	// rounds: a post-mortem's failures, Outage their span (PhaseMethod).
	Incident model.Windows

	// Kind and Scope are how the event's nodes fail and which fail (a
	// failure mix's: FlattenFailures), a zone Zone nodes; AsConfigured
	// and ScopeAsConfigured, an outage mix's, are the configuration's
	// own group outage.
	Kind  model.Kind
	Scope Scope
	Zone  int
}

// ParseMix parses an outage mix "2:0.9,5:0.1": outage length : weight,
// comma-separated, the lengths in rounds, or with a tick durations
// ("40s:0.9,5m:0.1"). Weights must be positive numbers; they are
// normalised to sum to 1. Outage lengths must be valid and distinct.
func ParseMix(t model.Tick, s string) ([]MixEntry, error) {
	var mix []MixEntry
	total := 0.0
	items := strings.Split(s, ",")
	for _, item := range items {
		length, weight, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("%q is not outage:weight, e.g. 2:0.9,5:0.1", item)
		}
		o, err := parse.Value(t, model.Outage, length)
		if err != nil {
			return nil, fmt.Errorf("outage %q in %q: %v", length, item, err)
		}
		w, err := strconv.ParseFloat(weight, 64)
		if err != nil || !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("weight %q in %q: want a positive number", weight, item)
		}
		for _, e := range mix {
			if e.Outage == o {
				return nil, fmt.Errorf("outage %s appears twice", length)
			}
		}
		mix = append(mix, MixEntry{Outage: o, Weight: w})
		total += w
	}
	if math.IsInf(total, 0) {
		return nil, fmt.Errorf("the weights of %q add up past the largest number: scale them down", s)
	}
	for i := range mix {
		if mix[i].Weight /= total; mix[i].Weight == 0 {
			return nil, fmt.Errorf("weight in %q: a share of the total too small for a number to hold (under 1e-308): drop it or raise it", strings.TrimSpace(items[i]))
		}
	}
	return mix, nil
}

// MaxMixLengths is the most distinct outage lengths a mix may have: each is
// measured by the phase method for every candidate lease.
const MaxMixLengths = 50

// MixOf is the outage mix of observed outage lengths, in rounds: each
// distinct length, shortest first, weighted by the share of the
// observations it makes. It refuses more than MaxMixLengths distinct
// lengths.
func MixOf(lengths []int) ([]MixEntry, error) {
	counts := map[int]int{}
	for _, n := range lengths {
		counts[n]++
	}
	if len(counts) > MaxMixLengths {
		return nil, fmt.Errorf("%d distinct outage lengths: want at most %d (round them, to the minute say)", len(counts), MaxMixLengths)
	}
	var mix []MixEntry
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		mix = append(mix, MixEntry{Outage: n, Weight: float64(counts[n]) / float64(len(lengths))})
	}
	return mix, nil
}

// Candidate is one choice of the settings a review decides among: a
// lease, a renew deadline and a retry period, in rounds, and the
// deployment's node count, fencing, trigger policy (with what becomes of
// a cut batch and where a batch runs) and lock (its
// protocol, lock-delay, the followers' jitter and DynamoDB's acquire
// wait), which a candidate
// listed by hand may change. Without a renew deadline (the publication's
// round model, RenewDeadline 0) a grid chooses only the lease.
type Candidate struct {
	Lease, RenewDeadline, RetryPeriod int

	Nodes             int
	Fencing           bool
	PersistentTrigger bool
	CatchUpWindow     int
	CatchUpOnce       bool
	IdempotencyKey    bool
	Overlap           model.OverlapPolicy
	OnCut             model.CutPolicy
	RunsIn            model.RunPlace
	Protocol          model.LockProtocol
	LockDelay         int
	Jitter            bool
	AcquireWait       int
	DisconnectDelay   int
	// LockAtLeastFor is ShedLock's lockAtLeastFor, in rounds: a per-fire
	// lock's hold after a run's early end (0 under the other protocols).
	LockAtLeastFor int
}

// CandidateOf is c's own settings as a candidate.
func CandidateOf(c model.Config) Candidate {
	return Candidate{Lease: c.Lease, RenewDeadline: c.RenewDeadline, RetryPeriod: c.RetryPeriod,
		Nodes: c.Nodes, Fencing: c.Fencing, PersistentTrigger: c.PersistentTrigger, CatchUpWindow: c.CatchUpWindow,
		CatchUpOnce: c.CatchUpOnce, IdempotencyKey: c.IdempotencyKey, Overlap: c.Overlap,
		OnCut: c.OnCut, RunsIn: c.RunsIn, Protocol: c.Protocol, LockDelay: c.LockDelay, Jitter: c.Jitter, AcquireWait: c.AcquireWait, DisconnectDelay: c.DisconnectDelay,
		LockAtLeastFor: c.LockAtLeastFor}
}

// Apply returns c with k's settings.
func (k Candidate) Apply(c model.Config) model.Config {
	c.Lease, c.RenewDeadline, c.RetryPeriod = k.Lease, k.RenewDeadline, k.RetryPeriod
	c.Nodes, c.Fencing, c.PersistentTrigger, c.CatchUpWindow = k.Nodes, k.Fencing, k.PersistentTrigger, k.CatchUpWindow
	c.CatchUpOnce, c.IdempotencyKey, c.Overlap = k.CatchUpOnce, k.IdempotencyKey, k.Overlap
	c.OnCut, c.RunsIn = k.OnCut, k.RunsIn
	c.Protocol, c.LockDelay, c.Jitter, c.AcquireWait, c.DisconnectDelay = k.Protocol, k.LockDelay, k.Jitter, k.AcquireWait, k.DisconnectDelay
	c.LockAtLeastFor = k.LockAtLeastFor
	return c
}

// WithLease is k with a lease, a renew deadline and a retry period, its
// other settings kept: a grid's candidate around the deployment's.
func (k Candidate) WithLease(lease, renewDeadline, retryPeriod int) Candidate {
	k.Lease, k.RenewDeadline, k.RetryPeriod = lease, renewDeadline, retryPeriod
	return k
}

// Compare orders candidates by lease, renew deadline and retry period,
// then by node count and the rest of the policy in Candidate's order,
// false before true.
func Compare(a, b Candidate) int {
	return cmp.Or(cmp.Compare(a.Lease, b.Lease), cmp.Compare(a.RenewDeadline, b.RenewDeadline), cmp.Compare(a.RetryPeriod, b.RetryPeriod),
		cmp.Compare(a.Nodes, b.Nodes), compareBool(a.Fencing, b.Fencing), compareBool(a.PersistentTrigger, b.PersistentTrigger),
		cmp.Compare(a.CatchUpWindow, b.CatchUpWindow), compareBool(a.CatchUpOnce, b.CatchUpOnce),
		compareBool(a.IdempotencyKey, b.IdempotencyKey), cmp.Compare(a.Overlap, b.Overlap),
		cmp.Compare(a.OnCut, b.OnCut), cmp.Compare(a.RunsIn, b.RunsIn),
		cmp.Compare(a.Protocol, b.Protocol), cmp.Compare(a.LockDelay, b.LockDelay), compareBool(a.Jitter, b.Jitter),
		cmp.Compare(a.AcquireWait, b.AcquireWait), cmp.Compare(a.DisconnectDelay, b.DisconnectDelay), cmp.Compare(a.LockAtLeastFor, b.LockAtLeastFor))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// SamePolicy reports whether k and o have the same node count, fencing,
// trigger policy and lock, differing at most in their lease, renew deadline
// and retry period, as a grid's candidates do.
func (k Candidate) SamePolicy(o Candidate) bool {
	return k.WithLease(0, 0, 0) == o.WithLease(0, 0, 0)
}

// Rank is the expected cost of one candidate over an outage mix, by the
// phase method.
type Rank struct {
	Candidate
	WindowRounds float64 // leaderless plus two-leader rounds per event
	MissedLines  float64 // per year
	DoubleLines  float64 // per year
	// The part of MissedLines from batches cut mid-run (started, and
	// some part of them never written), and how many such partial
	// batches a year.
	PartialLines, PartialBatches float64
	DelayedRounds                float64 // per year: the rounds queued batches waited, summed
	// LateRounds is per year the rounds by which started batches' last
	// parts came after they were due (a paused or cut batch finishing
	// late), summed: a batch's lateness beside its start's delay.
	LateRounds float64
	Handovers  float64 // per year: a short lease hands over for outages a longer one rides out

	// Margin is the candidate's two-leader margin
	// (model.Config.TwoLeaderMargin), if HasMargin: it has one only with
	// a renew deadline.
	Margin    int
	HasMargin bool
	// NoMargin says that a follower can take over before the leader gives
	// up (a margin not above zero) and that nothing fences the stale
	// leader's work: such a candidate is shown, marked, and never
	// recommended (Cheapest, Pareto). Recommend sets it by the renew
	// deadline's margin (model.Config.NoMargin); a review, by each lock's
	// own (Safety).
	NoMargin bool
	// Safety is the candidate's safety figures, if a review gave them.
	Safety Safety
}

// Lines is the missed plus double invoice lines per year.
func (r Rank) Lines() float64 { return r.MissedLines + r.DoubleLines }

// Weights price a year of a candidate in one currency: a missed and a double
// invoice line, a round a batch waits (to start, or to finish: its lateness), and a handover (a restart, a
// warm-up, a page). Without the last two, a lease so short that it hands
// over at every blip and delays every batch it saves looks free.
type Weights struct {
	MissedLine, DoubleLine, DelayedRound, Handover float64
}

// Cost is r's yearly cost priced by w.
func (r Rank) Cost(w Weights) float64 {
	return w.MissedLine*r.MissedLines + w.DoubleLine*r.DoubleLines + w.DelayedRound*r.Delay() + w.Handover*r.Handovers
}

// Delay is the rounds a year batches wait, to start (DelayedRounds) and
// then to finish (LateRounds): how much later than due their last parts
// are written, the delay Cost prices and Pareto compares.
func (r Rank) Delay() float64 { return r.DelayedRounds + r.LateRounds }

// Recommend ranks candidates for configuration c over an outage mix: for
// each candidate, each outage of the mix is measured by the phase method
// and the results are weighted. Events per year and lines per batch turn
// the batches into invoice lines per year; the followers' jitter, if any,
// is drawn from seed (PhaseMethod). The pairs of candidate and outage are
// measured on every core, each on its own; the ranking does not depend on
// how many. Each candidate must be valid with c's other settings
// (model.Config.Validate). It stops with ctx.Err() when ctx is cancelled.
func Recommend(ctx context.Context, c model.Config, seed uint64, candidates []Candidate, mix []MixEntry, eventsPerYear, linesPerBatch float64) ([]Rank, error) {
	ranks, err := RecommendEach(ctx, c, seed, candidates, [][]MixEntry{mix}, eventsPerYear, linesPerBatch)
	if err != nil {
		return nil, err
	}
	return ranks[0], nil
}

// RecommendEach is Recommend over each of several mixes, measuring each
// pair of candidate and outage event once however many mixes share it: a
// sensitivity that halves and doubles every outage of a mix meets some
// lengths twice.
func RecommendEach(ctx context.Context, c model.Config, seed uint64, candidates []Candidate, mixes [][]MixEntry, eventsPerYear, linesPerBatch float64) ([][]Rank, error) {
	all, errs := RecommendAll(ctx, seed, []Ranking{{c, candidates, mixes}}, eventsPerYear, linesPerBatch)
	if errs[0] != nil {
		return nil, errs[0]
	}
	return all[0], nil
}

// Ranking is one ranking of RecommendAll: Candidates for configuration
// Config over each of Mixes, as RecommendEach ranks them.
type Ranking struct {
	Config     model.Config
	Candidates []Candidate
	Mixes      [][]MixEntry
}

// RecommendAll is RecommendEach for each of several rankings, with their
// pairs of candidate and outage event measured together on every core,
// each distinct run of a candidate and an event once however many
// rankings share it, the longest first: so no ranking waits for the last
// pairs of the one before, as a review's recommendation, levers and
// sensitivity would one after the other. errs[i] is ranking i's first
// error in the order RecommendEach would meet it, and all[i] is nil then.
// The rankings do not depend on how many cores or rankings there are.
func RecommendAll(ctx context.Context, seed uint64, rankings []Ranking, eventsPerYear, linesPerBatch float64) (all [][][]Rank, errs []error) {
	type pair struct { // a run of a candidate against an event
		c     model.Config // the ranking's configuration
		k     Candidate
		event int // in events
	}
	var events []MixEntry // the distinct outage events of every mix
	var pairs []pair
	index := map[pair]int{}                  // a pair's place in pairs
	local := make([][]int, len(rankings))    // local[g][l]: ranking g's l-th distinct event's index in events
	at := make([][][]int, len(rankings))     // at[g][m][j]: ranking g's mixes[m][j]'s index in local[g]
	pairOf := make([][][]int, len(rankings)) // pairOf[g][i][l]: the pair of ranking g's candidate i and event local[g][l]
	for g, rk := range rankings {
		at[g] = make([][]int, len(rk.Mixes))
		for m, mix := range rk.Mixes {
			for _, e := range mix {
				k := slices.IndexFunc(events, func(f MixEntry) bool { return sameEvent(e, f) })
				if k < 0 {
					k, events = len(events), append(events, e)
				}
				l := slices.Index(local[g], k)
				if l < 0 {
					l, local[g] = len(local[g]), append(local[g], k)
				}
				at[g][m] = append(at[g][m], l)
			}
		}
		pairOf[g] = make([][]int, len(rk.Candidates))
		for i, k := range rk.Candidates {
			for _, e := range local[g] {
				p := pair{rk.Config, k, e}
				n, ok := index[p]
				if !ok {
					n, index[p] = len(pairs), len(pairs)
					pairs = append(pairs, p)
				}
				pairOf[g][i] = append(pairOf[g][i], n)
			}
		}
	}
	// The longest runs first, so that the last to end are short ones.
	order := make([]int, len(pairs))
	for i := range order {
		order[i] = i
	}
	work := func(p pair) int { return pairWork(p.k.Apply(p.c), events[p.event]) }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(work(pairs[b]), work(pairs[a])) })
	effects := make([]EventEffect, len(pairs))
	pairErrs := make([]error, len(pairs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pairs)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(order); i = int(next.Add(1) - 1) {
				p := pairs[order[i]]
				run := p.k.Apply(p.c)
				e := events[p.event]
				run.Outage = e.Outage
				effects[order[i]], pairErrs[order[i]] = e.effect(ctx, run, seed)
			}
		})
	}
	wg.Wait()
	all, errs = make([][][]Rank, len(rankings)), make([]error, len(rankings))
	for g, rk := range rankings {
		errs[g] = firstError(pairOf[g], pairErrs)
		if errs[g] != nil {
			continue
		}
		for m, mix := range rk.Mixes {
			ranks := make([]Rank, 0, len(rk.Candidates))
			for i, k := range rk.Candidates {
				run := k.Apply(rk.Config)
				r := Rank{Candidate: k}
				r.Margin, r.HasMargin = run.TwoLeaderMargin()
				r.NoMargin = run.NoMargin()
				for j, e := range mix {
					in := effects[pairOf[g][i][at[g][m][j]]]
					p := Project(Phase, in.PerEvent(), eventsPerYear, linesPerBatch)
					r.WindowRounds += e.Weight * in.WindowRounds()
					r.MissedLines += e.Weight * p.MissedLines()
					r.DoubleLines += e.Weight * p.DoubleLines()
					r.PartialLines += e.Weight * eventsPerYear * in.Unwritten * linesPerBatch
					r.PartialBatches += e.Weight * eventsPerYear * in.Partial
					r.DelayedRounds += e.Weight * eventsPerYear * in.DelayedRounds
					r.LateRounds += e.Weight * eventsPerYear * in.LateRounds
					r.Handovers += e.Weight * eventsPerYear * in.Handovers
				}
				ranks = append(ranks, r)
			}
			all[g] = append(all[g], ranks)
		}
	}
	return all, errs
}

// firstError is the first error of a ranking's pairs (pairOf[i][l], its
// candidate i and its l-th event), candidate by candidate, as a ranking
// candidate by candidate would meet it.
func firstError(pairOf [][]int, errs []error) error {
	for _, byEvent := range pairOf {
		for _, n := range byEvent {
			if errs[n] != nil {
				return errs[n]
			}
		}
	}
	return nil
}

// pairWork is a rough measure of what the phase method's runs of c against
// e cost, to start the longest first: its near phases grow with the batch
// and the outage, and each run's polls with the outage.
func pairWork(c model.Config, e MixEntry) int {
	return (2*c.BatchLen + 4*e.Outage + MaxQuietSample) * (e.Outage + c.Lease)
}

// Best returns the rank with the smallest measure; ties go to the first,
// that is the shortest lease when candidates are listed in ascending order.
func Best(ranks []Rank, measure func(Rank) float64) Rank {
	best := ranks[0]
	for _, r := range ranks[1:] {
		if measure(r) < measure(best)-1e-9 {
			best = r
		}
	}
	return best
}

// Cheapest returns every rank whose cost under w is within `within` of
// the least: a tie is reported as one, not settled by the order of the
// list. Give half the unit the costs are shown in, so that candidates shown
// at the same cost are named together. They are ordered safest first
// (Safer), in ranks' order where as safe. A rank with NoMargin is never
// among them: it is nil when every rank has.
func Cheapest(ranks []Rank, w Weights, within float64) []Rank {
	least := math.Inf(1)
	for _, r := range ranks {
		if !r.NoMargin {
			least = min(least, r.Cost(w))
		}
	}
	var tied []Rank
	for _, r := range ranks {
		if !r.NoMargin && r.Cost(w) <= least+within {
			tied = append(tied, r)
		}
	}
	slices.SortStableFunc(tied, Safer)
	return tied
}

// Pareto reports for each rank whether it is on the Pareto front of
// missed lines, double lines, delay and handovers: whether no other rank
// is as good in all four and better in one. Without weights, these are
// the candidates a reviewer chooses among; every other one loses to one of
// them whatever the weights. Ranks with NoMargin are neither on the front
// nor keep another off it: they are not to be chosen.
func Pareto(ranks []Rank) []bool {
	var eligible []Rank
	var at []int // eligible[k] is ranks[at[k]]
	for i, r := range ranks {
		if !r.NoMargin {
			eligible, at = append(eligible, r), append(at, i)
		}
	}
	front := make([]bool, len(ranks))
	for k, on := range pareto(eligible) {
		front[at[k]] = on
	}
	return front
}

// pareto is Pareto over ranks that may all be chosen, through a k-d tree
// of their measures.
func pareto(ranks []Rank) []bool {
	front := make([]bool, len(ranks))
	if len(ranks) == 0 {
		return front
	}
	m := make([]measures, len(ranks))
	for i, r := range ranks {
		m[i] = measuresOf(r)
		for _, v := range m[i] {
			if math.IsNaN(v) { // no box holds a NaN: compare every pair
				return paretoPairwise(ranks)
			}
		}
	}
	t := newKDTree(m)
	for i := range ranks {
		front[i] = !t.dominated(0, i, ranks)
	}
	return front
}

// paretoPairwise is Pareto by comparing every pair of ranks.
func paretoPairwise(ranks []Rank) []bool {
	front := make([]bool, len(ranks))
	for i, r := range ranks {
		front[i] = !slices.ContainsFunc(ranks, func(o Rank) bool { return dominates(o, r) })
	}
	return front
}

// dominates reports whether a is at least as good as b in every yearly
// measure and better in one.
func dominates(a, b Rank) bool {
	x := [4]float64{a.MissedLines, a.DoubleLines, a.Delay(), a.Handovers}
	y := [4]float64{b.MissedLines, b.DoubleLines, b.Delay(), b.Handovers}
	better := false
	for i := range x {
		switch {
		case x[i] > y[i]+1e-9:
			return false
		case x[i] < y[i]-1e-9:
			better = true
		}
	}
	return better
}

// LeaseCandidates is a candidate for each of leases, with c's renew
// deadline and retry period.
func LeaseCandidates(c model.Config, leases []int) []Candidate {
	ks := make([]Candidate, len(leases))
	for i, lease := range leases {
		ks[i] = CandidateOf(c).WithLease(lease, c.RenewDeadline, c.RetryPeriod)
	}
	return ks
}
