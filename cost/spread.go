package cost

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// SpreadYears is how many years Spread draws.
const SpreadYears = 20_000

// Spread is how a candidate's year varies when its outage events come at
// random: the 2.5% and 97.5% quantiles of a year's missed and double
// lines, handovers and cost, and the share of years that lose no line.
type Spread struct {
	Missed, Double, Handovers, Cost [2]float64
	Quiet                           float64 // the share of years with no missed or double line
}

// YearEvent is one outage of a mix as a year meets it: how many events
// of it a year on average, the lines a batch, and what one event costs
// at each phase (PhaseLosses).
type YearEvent struct {
	PerYear, LinesPerBatch float64
	Losses                 []Loss
}

// SpreadOf draws SpreadYears years of events from seed: each outage of
// the mix a Poisson number of times at its rate, each event at a phase
// drawn uniformly, costing what the phase method found there (Loss); w
// prices each year. Its mean is the phase method's expectation (Rank's
// figures); the quantiles say how far one year strays from it.
func SpreadOf(events []YearEvent, w Weights, seed uint64) Spread {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	type event struct {
		n      distuv.Poisson
		cum    []float64 // cumulative shares of the losses
		losses []Loss
		lines  float64
	}
	var evs []event
	for _, e := range events {
		if e.PerYear <= 0 || len(e.Losses) == 0 {
			continue
		}
		ev := event{n: distuv.Poisson{Lambda: e.PerYear, Src: rng}, losses: e.Losses, lines: e.LinesPerBatch}
		sum := 0.0
		for _, l := range e.Losses {
			sum += l.Share
			ev.cum = append(ev.cum, sum)
		}
		evs = append(evs, ev)
	}
	years := [4][]float64{}
	quiet := 0
	for range SpreadYears {
		var missed, double, delayed, handovers float64
		for _, ev := range evs {
			for range int(ev.n.Rand()) {
				j, _ := slices.BinarySearch(ev.cum, rng.Float64()*ev.cum[len(ev.cum)-1])
				l := ev.losses[min(j, len(ev.losses)-1)]
				missed += l.Missed * ev.lines
				double += l.Double * ev.lines
				delayed += l.Delayed
				handovers += l.Handovers
			}
		}
		if missed == 0 && double == 0 {
			quiet++
		}
		c := w.MissedLine*missed + w.DoubleLine*double + w.DelayedRound*delayed + w.Handover*handovers
		for i, v := range []float64{missed, double, handovers, c} {
			years[i] = append(years[i], v)
		}
	}
	s := Spread{Quiet: float64(quiet) / SpreadYears}
	for i, dst := range []*[2]float64{&s.Missed, &s.Double, &s.Handovers, &s.Cost} {
		slices.Sort(years[i])
		*dst = [2]float64{quantile(years[i], 0.025), quantile(years[i], 0.975)}
	}
	return s
}

// quantile is the q-quantile of sorted xs, the nearest rank's.
func quantile(xs []float64, q float64) float64 {
	return xs[min(len(xs)-1, int(math.Ceil(q*float64(len(xs))))-1)]
}
