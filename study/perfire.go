package study

import (
	"context"
	"slices"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// PerFire is what a review of a per-fire lock (ShedLock: protocols
// shedlock and shedlock-redis) has beyond its candidates' ranks. Such a
// lock elects no leader: each node fires the batch itself and the first
// to take the lock runs it, so a slot can run twice, or be missed, with
// no failure at all. A candidate's year is then its slots' calm cost
// (Calm, every slot of the year) plus its outage events' cost beyond the
// same run without them (the phase method's, cost.RecommendAll); the
// leader's arrangements, handovers, lease sweep and node studies of a
// round-model review have nothing to weigh here and are not computed.
type PerFire struct {
	// SlotsPerYear is the batch's slots in a year: a year's rounds over
	// the period.
	SlotsPerYear float64
	// Calm is each candidate's slot with no failure.
	Calm map[cost.Candidate]CalmSlot
	// DoubleRuns is, for the current and the recommended settings, the
	// runs a year beyond a slot's first: the calm ones of every slot and
	// those the outage events add (their double starts).
	DoubleRuns map[cost.Candidate]float64
}

// CalmSlot is one slot of a per-fire lock with no failure, in batches:
// how many times it runs (model.Config.CalmRuns), the batches missed
// (a slot no node ran, or the parts no run wrote) and the batches
// written twice (parts written by more than one run).
type CalmSlot struct {
	Runs           int
	Missed, Double float64
}

// calmSlots is how many slots the calm run counts (calmSlotOf).
const calmSlots = 4

// calmSlotOf runs c with no failure over calmSlots slots, each with the
// period before the next to play out, and gives one slot's figures.
func calmSlotOf(r *model.Runner, c model.Config) (CalmSlot, error) {
	c.Outage = 0
	c.Rounds = (calmSlots+1)*c.Period - 1
	st, err := r.RunSchedule(c, model.Windows{})
	if err != nil {
		return CalmSlot{}, err
	}
	n, b := float64(calmSlots), float64(c.BatchLen)
	return CalmSlot{Runs: c.CalmRuns(), Missed: (float64(st.Missed+st.Unresolved) + float64(st.MissedParts)/b) / n, Double: float64(st.DoubledParts) / b / n}, nil
}

// perFireGrid is the candidates of a per-fire lock: ShedLock's
// lockAtMostFor and lockAtLeastFor, each combination the library takes
// (settings.Takes) and the round model runs at the review's tick, the
// current settings among them, in cost.Compare's order. lockAtMostFor
// tries its grid's values around the current one (settings.Grid) and
// also one and a half, two and four times the task, which the README asks it
// to outlast; lockAtLeastFor its grid's values (none, the fire spread,
// twice it, the task and the spread), none above lockAtMostFor.
func (rv *Review) perFireGrid() []cost.Candidate {
	current := cost.CandidateOf(rv.Base)
	rv.rememberListed()
	lock := rv.deployedLock()
	tick := time.Duration(rv.Tick)
	ks := []cost.Candidate{current}
	if lock == nil {
		return ks
	}
	opts := lock.Options()
	mostAt := slices.IndexFunc(opts, func(o settings.Option) bool { return o.Key == "lock_at_most_for" })
	leastAt := slices.IndexFunc(opts, func(o settings.Option) bool { return o.Key == "lock_at_least_for" })
	if mostAt < 0 || leastAt < 0 {
		return ks
	}
	most, least := opts[mostAt].Tries, opts[leastAt].Tries
	task := time.Duration(rv.Base.BatchLen) * tick
	for _, q := range []time.Duration{6, 8, 16} {
		most = append(most, task*q/4)
	}
	for _, l := range most {
		below, above, okB, okA := settings.NearestValue(lock, mostAt, l, tick)
		switch {
		case okB && (!okA || l-below <= above-l):
			l = below
		case okA:
			l = above
		default:
			continue
		}
		for _, a := range least {
			if a%tick != 0 {
				continue
			}
			cand := opts[mostAt].With(l).(settings.Lock).Options()[leastAt].With(a).(settings.Lock)
			if settings.Takes(cand, tick) != nil {
				continue
			}
			r, _ := settings.RoundLockOf(cand)
			k, fits := WithLock(current, r, rv.Tick)
			if c := k.Apply(rv.Base); !fits || c.Validate() != nil {
				continue
			}
			rv.remember(k, cand)
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, cost.Compare)
	return slices.Compact(ks)
}

// newPerFire is NewReview of base under a per-fire lock: the candidates
// (perFireGrid) ranked over the mix by the phase method, what each costs
// beyond its calm run, plus its calm slots' cost over a year
// (Review.PerFire), each with its lock's safety figures, so that
// Decide chooses among them as among a round-model review's; and the
// spreads of the current and the recommended settings' years.
func newPerFire(ctx context.Context, base model.Config, opt ReviewOptions) (*Review, error) {
	rv := &Review{Base: base, ReviewOptions: opt}
	rv.Lock = nil // the preset's task is settings' --task-length: the lock is read back from base, whose task is its batch (LockOf)
	pf := &PerFire{SlotsPerYear: opt.RoundsPerYear / float64(base.Period), Calm: map[cost.Candidate]CalmSlot{}, DoubleRuns: map[cost.Candidate]float64{}}
	rv.PerFire = pf
	step := func(done int, name string) {
		if opt.Progress != nil {
			opt.Progress(done, 2, name)
		}
	}
	step(0, "the calm runs and the recommendation")
	ks := rv.perFireGrid()
	var r model.Runner
	for _, k := range ks {
		calm, err := calmSlotOf(&r, k.Apply(base))
		if err != nil {
			return nil, err
		}
		pf.Calm[k] = calm
	}
	var err error
	if rv.safety, err = rv.safetyOf(ctx, ks); err != nil {
		return nil, err
	}
	mix := rv.mixAt(1)
	all, errs := cost.RecommendAll(ctx, rv.Seed, []cost.Ranking{{Config: base, Candidates: ks, Mixes: [][]cost.MixEntry{mix}}}, rv.EventsPerYear[0], float64(rv.LinesPerBatch))
	if errs[0] != nil {
		return nil, errs[0]
	}
	ranks := rv.withSafety(all[0][0])
	lines := float64(rv.LinesPerBatch)
	for i := range ranks {
		calm := pf.Calm[ranks[i].Candidate]
		ranks[i].MissedLines += pf.SlotsPerYear * calm.Missed * lines
		ranks[i].DoubleLines += pf.SlotsPerYear * calm.Double * lines
	}
	rv.Recommendation = ranks
	step(1, "how sure")
	ks = []cost.Candidate{rv.Current().Candidate}
	if d, ok := rv.Decide(rv.Recommendation); ok && d.Top.Candidate != ks[0] {
		ks = append(ks, d.Top.Candidate)
	}
	rv.Spreads = map[cost.Candidate]cost.Spread{}
	for _, k := range ks {
		calm := pf.Calm[k]
		doubles := pf.SlotsPerYear * float64(calm.Runs-1)
		var events []cost.YearEvent
		for _, e := range mix {
			c := k.Apply(base)
			c.Outage = e.Outage
			losses, err := e.Losses(ctx, c, rv.Seed)
			if err != nil {
				return nil, err
			}
			in, err := e.Effect(ctx, c, rv.Seed)
			if err != nil {
				return nil, err
			}
			doubles += e.Weight * rv.EventsPerYear[0] * in.DoubleStarts
			events = append(events, cost.YearEvent{PerYear: e.Weight * rv.EventsPerYear[0], LinesPerBatch: lines, Losses: losses})
		}
		pf.DoubleRuns[k] = doubles
		rv.Spreads[k] = calmShifted(cost.SpreadOf(events, rv.Weights, rv.Seed), pf.SlotsPerYear, calm, lines, rv.Weights)
	}
	return rv, nil
}

// calmShifted is s, a year of outage events' spread, with the calm
// slots' year added: the same every year, so it moves both ends, and a
// year with a calm loss is never quiet.
func calmShifted(s cost.Spread, slots float64, calm CalmSlot, lines float64, w cost.Weights) cost.Spread {
	missed, double := slots*calm.Missed*lines, slots*calm.Double*lines
	for i := range 2 {
		s.Missed[i] += missed
		s.Double[i] += double
		s.Cost[i] += w.MissedLine*missed + w.DoubleLine*double
	}
	if missed > 0 || double > 0 {
		s.Quiet = 0
	}
	return s
}
