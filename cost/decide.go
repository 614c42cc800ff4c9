package cost

import (
	"cmp"
	"math"
	"slices"
)

// Span is a safety figure's least, median and greatest value, over the
// phase of the fault and the followers' jitter.
type Span struct{ Min, Median, Max float64 }

// Safety is a candidate's safety figures as "leasesim settings" gives
// them for its lock, in seconds (in rounds without a tick): when a leader
// that cannot renew gives up, the longest outage it rides out with calls
// failing at once and with calls hanging, the takeover after a crash, the
// two-leader margin and the clock-rate skew it tolerates.
type Safety struct {
	// Known says the figures are set: a lock of its own, or client-go
	// with a renew deadline (the publication's round model has none).
	Known bool
	// OneNode says there is no follower: nobody takes over, and no two
	// leaders can come about.
	OneNode                                    bool
	GiveUp, FastFail, BlackHole, Crash, Margin Span
	// Skew is the clock-rate skew between the leader and the others that
	// the margin absorbs, as "leasesim settings" gives it: the least margin
	// over the give-up it follows, the earliest takeover less the margin
	// (the kubernetes preset's 3 s over 12 s, 25%); 0 without a margin.
	Skew float64
}

// Safer orders ranks safest first: the wider least two-leader margin
// (none known counts as the narrowest), then the faster median takeover
// after a crash, then neither (0).
func Safer(a, b Rank) int {
	margin := func(r Rank) float64 {
		if !r.Safety.Known {
			return math.Inf(-1)
		}
		return r.Safety.Margin.Min
	}
	if c := cmp.Compare(margin(b), margin(a)); c != 0 {
		return c
	}
	return cmp.Compare(a.Safety.Crash.Median, b.Safety.Crash.Median)
}

// Decision is the choice among ranked candidates under prices: the
// candidates whose cost is within Tolerance of the least (Near, safest
// first by Safer, none of them with NoMargin), and the one recommended,
// Top: the current settings if they are among Near (a difference too small
// to matter: Keep), or else Near's safest.
type Decision struct {
	Near      []Rank
	Top       Rank
	Keep      bool
	Tolerance float64 // in the prices' currency a year
}

// Decide chooses among ranks under w: a cost within `within` of the least
// (half the unit the costs are shown in) or within `material` (a share)
// of the current settings' cost is too small to matter, so the current
// settings are kept if they are that near the least, and otherwise the
// safest of the near candidates is recommended. current must be one of
// ranks. It returns false when every rank has NoMargin: nothing can be
// recommended.
func Decide(ranks []Rank, w Weights, within, material float64, current Candidate) (Decision, bool) {
	i := slices.IndexFunc(ranks, func(r Rank) bool { return r.Candidate == current })
	tol := within + material*max(0, ranks[i].Cost(w))
	near := Cheapest(ranks, w, tol)
	if len(near) == 0 {
		return Decision{}, false
	}
	d := Decision{Near: near, Top: near[0], Tolerance: tol}
	if k := slices.IndexFunc(near, func(r Rank) bool { return r.Candidate == current }); k >= 0 {
		d.Top, d.Keep = near[k], true
	}
	return d, true
}
