package study

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// HungCallCandidates is the most candidates the review prices again with
// hung calls (HungCalls): the current settings, the recommended ones and
// those nearest the recommended in cost, so that the second pricing costs
// a few candidates' runs, not the whole grid's.
const HungCallCandidates = 6

// HungCalls is the review's decision again with the failing nodes' calls
// hanging until they time out (black_hole) instead of failing at once,
// over the same failure mix, among a few of its candidates.
type HungCalls struct {
	// Ranks is the candidates priced again, in the recommendation's
	// order: the current settings, the recommended ones and the others
	// nearest the recommended in cost under failing calls, at most
	// HungCallCandidates in all, none without a two-leader margin but the
	// current settings. Each keeps its lock's safety figures and NoMargin
	// as the recommendation has them.
	Ranks []cost.Rank
	// Decision is the choice among Ranks by the rule Review.Decide
	// applies (cost.Decide: materiality, then safety). There is always
	// one: the recommended settings, which leave a margin or fence, are
	// among Ranks.
	Decision cost.Decision
}

// Current is the current settings' row of Ranks.
func (h *HungCalls) Current(current cost.Candidate) cost.Rank {
	return h.Ranks[slices.IndexFunc(h.Ranks, func(r cost.Rank) bool { return r.Candidate == current })]
}

// Of is candidate k's row of Ranks, and whether it was priced again.
func (h *HungCalls) Of(k cost.Candidate) (cost.Rank, bool) {
	i := slices.IndexFunc(h.Ranks, func(r cost.Rank) bool { return r.Candidate == k })
	if i < 0 {
		return cost.Rank{}, false
	}
	return h.Ranks[i], true
}

// CallMode is whether a review prices its decision with hung calls as
// well, and if not, why not.
type CallMode int

// The ways a review meets the question of calls that hang.
const (
	// CallsPriced: the review leaves black_hole unset, so its decision is
	// priced again with hung calls (Review.HungCalls).
	CallsPriced CallMode = iota
	// CallsPinned: the review gives black_hole (true or false), or its
	// failure mix names a kind whose calls hang (black-hole, slow): it
	// says how calls fail, and is priced so alone.
	CallsPinned
	// CallsUnmade: in none of the review's failures does a cut-off node
	// make calls that could hang instead (the group outage pauses,
	// crashes or stops its nodes; a failure mix has no isolate entry).
	CallsUnmade
	// CallsUndecided: there is no decision to price again: no prices, an
	// incident (each node failing its own way), the publication's round
	// model, which no library sets, or no candidate safe without fencing.
	CallsUndecided
)

// CallMode is how the review meets calls that hang instead of failing
// (CallMode's values). It reads black_hole as pinned only when the review
// gives it (BlackHoleGiven), not by its value: a review that leaves it
// unset runs with calls failing at once, the model's default.
func (rv *Review) CallMode() CallMode {
	switch {
	case rv.BlackHoleGiven || slices.ContainsFunc(rv.Mix, func(e cost.MixEntry) bool { return e.Kind.Behaviour().Does&model.Hangs != 0 }):
		return CallsPinned
	case rv.Incident != nil || rv.Weights == (cost.Weights{}) || !rv.Current().Safety.Known:
		return CallsUndecided
	}
	if _, _, ok := rv.hanging(rv.mixAt(1)); !ok {
		return CallsUnmade
	}
	if _, ok := rv.Decide(rv.Recommendation); !ok {
		return CallsUndecided
	}
	return CallsPriced
}

// hanging is the base and mix with the calls of the failing nodes that
// make calls hanging instead of failing at once: the group outage's nodes
// (an outage mix's events, or the base's outage) black-holed unless they
// pause, crash or stop, which make no calls; a failure mix's isolated
// nodes black-holed, its other kinds as they are. ok is false when no
// event changes.
func (rv *Review) hanging(mix []cost.MixEntry) (base model.Config, hung []cost.MixEntry, ok bool) {
	base, hung = rv.Base, slices.Clone(mix)
	group := !base.Pause && !base.Crash && !base.Release
	for i, e := range hung {
		switch {
		case e.Kind == model.AsConfigured && group:
			base.BlackHole, ok = true, true
		case e.Kind == model.Isolated:
			hung[i].Kind, ok = model.BlackHoled, true
		}
	}
	return base, hung, ok
}

// hungCalls prices again, with hung calls (hanging), the current
// settings, the recommended ones and those nearest the recommended in
// cost (HungCallCandidates in all), over mix, and decides among them by
// the review's rule; nil unless the review's CallMode is CallsPriced.
// The safety figures stay the lock's own: the margin the rule weighs is
// the one the recommendation weighs.
func (rv *Review) hungCalls(ctx context.Context, mix []cost.MixEntry) (*HungCalls, error) {
	if rv.CallMode() != CallsPriced {
		return nil, nil
	}
	d, _ := rv.Decide(rv.Recommendation)
	current, top := rv.Current(), d.Top
	picked := []cost.Candidate{current.Candidate}
	if top.Candidate != current.Candidate {
		picked = append(picked, top.Candidate)
	}
	others := slices.DeleteFunc(slices.Clone(rv.Recommendation), func(r cost.Rank) bool {
		return r.NoMargin || slices.Contains(picked, r.Candidate)
	})
	// Nearest the recommended in cost first, the recommendation's order
	// where as near.
	gap := func(r cost.Rank) float64 { return math.Abs(r.Cost(rv.Weights) - top.Cost(rv.Weights)) }
	slices.SortStableFunc(others, func(a, b cost.Rank) int { return cmp.Compare(gap(a), gap(b)) })
	for _, r := range others[:min(len(others), HungCallCandidates-len(picked))] {
		picked = append(picked, r.Candidate)
	}
	slices.SortFunc(picked, cost.Compare) // the recommendation's order
	base, hung, _ := rv.hanging(mix)
	ranks, err := cost.Recommend(ctx, base, rv.Seed, picked, hung, rv.EventsPerYear[0], float64(rv.LinesPerBatch))
	if err != nil {
		return nil, err
	}
	for i := range ranks {
		r := rv.Recommendation[slices.IndexFunc(rv.Recommendation, func(r cost.Rank) bool { return r.Candidate == ranks[i].Candidate })]
		ranks[i].Safety, ranks[i].NoMargin = r.Safety, r.NoMargin
	}
	h := &HungCalls{Ranks: ranks}
	h.Decision, _ = rv.Decide(ranks)
	return h, nil
}
