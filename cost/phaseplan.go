package cost

import (
	"fmt"
	"iter"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
)

// MaxPhases bounds the outage starts the phase method averages over
// exactly, and the runs it makes. Runs cost per event, not per round, so
// ten million runs take a few seconds.
const MaxPhases = 10_000_000

// MaxQuietSample is the most quiet phases (phasePlan) the phase method
// runs with jitter, where each phase draws its own.
const MaxQuietSample = 2048

// Phases is the number of outage starts the phase method averages over:
// the rounds after which the period, the re-reads and the retry rounds
// repeat together, lcm(period, re-read period, retry period), the re-read
// period left out when it is 0. Where that is more than MaxPhases (a daily
// batch at Curator's millisecond tick: lcm(86,400,000, 13,333)), it is one
// period: the starts of the first period stand for those of every period,
// each meeting the retry and re-read cycle at the phase it has there
// (PhasesOnePeriod).
func Phases(c model.Config) int {
	if PhasesOnePeriod(c) {
		return c.Period
	}
	return lcm(c.Period, renewCycle(c))
}

// PhasesOnePeriod reports whether Phases(c) is one period, as
// lcm(period, re-read period, retry period) is more than MaxPhases.
func PhasesOnePeriod(c model.Config) bool {
	cycle := renewCycle(c)
	return c.Period/gcd(c.Period, cycle) > MaxPhases/cycle
}

// renewCycle is the rounds after which the retry rounds and the re-reads
// repeat together: lcm(retry period, re-read period), the re-read period
// left out when it is 0.
func renewCycle(c model.Config) int {
	if c.RereadPeriod == 0 {
		return c.RetryPeriod
	}
	return lcm(c.RetryPeriod, c.RereadPeriod)
}

// phasePlan returns the phases the phase method runs, each with how many
// phases it stands for, the weights summing to phases. A phase is near
// when a trigger falls within reach of its outage (reach = horizon −
// period: the rounds SettleRounds gives the model to settle): from a
// batch still running when the outage starts (batch_len + reach before
// it) to twice reach after it, or at the end of the run, where a batch
// may be cut by the run's end. Every near phase is run. In a quiet phase
// no batch meets the outage: its batch figures are zero, and its election
// figures (leaderless and two-leader rounds, handovers) follow the retry
// and re-read rounds alone, which repeat every renewCycle rounds. So
// without jitter one quiet phase of each residue of that cycle stands for
// all quiet phases of its residue, and the figures are those of every
// phase exactly. With jitter every phase draws its own jitter, so the
// quiet phases are a sample: every q-th phase, q coprime to the cycle, at
// most MaxQuietSample of them, each standing for an equal share of the
// quiet phases; the near phases are still each run with their own draw.
// With drift or a cycle over a quarter of the phases, every phase is run.
// The near phases are found as intervals, never phase by phase, so a
// daily batch at a millisecond tick plans in the time of its runs. It
// refuses a plan of more than MaxPhases runs.
func phasePlan(c model.Config, phases, horizon int) (iter.Seq2[int, float64], error) {
	cycle := renewCycle(c)
	if c.Drift != 0 || cycle > phases/4 {
		if phases > MaxPhases {
			why, names := fmt.Sprintf("the re-read and retry cycle of %d rounds is over a quarter of them", cycle), []string{"tick", model.Period.Flag()}
			if c.Drift != 0 {
				names = append([]string{model.Drift.Flag()}, names...)
				why = fmt.Sprintf("with --%s %d the failing nodes' renewals repeat on no cycle", model.Drift.Flag(), c.Drift)
			}
			return nil, flagerr.Errorf(names, "the phase method would run every one of its %d outage starts (%s), more than %d: give a coarser --tick or a shorter --%s", phases, why, MaxPhases, model.Period.Flag())
		}
		return func(yield func(int, float64) bool) {
			for k := range phases {
				if !yield(k, 1) {
					return
				}
			}
		}, nil
	}
	near := nearPhases(c, phases, horizon)
	// The quiet phases of each residue: all of them, less the near ones.
	// An interval of n near phases from a holds n/cycle of each residue
	// and one more of the n%cycle residues from a's, a range (wrapping)
	// counted in diff, whose running sum gives each residue's.
	nearRuns, full := 0, 0
	diff := make([]int, cycle+1)
	for a, b := range near {
		n := b - a + 1
		nearRuns += n
		full += n / cycle
		from, to := a%cycle, a%cycle+n%cycle
		diff[from]++
		if to <= cycle {
			diff[to]--
		} else {
			diff[cycle]--
			diff[0]++
			diff[to-cycle]--
		}
	}
	quiet, run := make([]int, cycle), 0
	for r := range cycle {
		run += diff[r]
		quiet[r] = (phases-1-r+cycle)/cycle - full - run
	}
	if nearRuns > MaxPhases {
		return nil, flagerr.Errorf([]string{"tick", model.BatchLen.Flag(), model.Period.Flag()}, "the phase method would run %d outage starts near a batch, more than %d: give a coarser --tick, a shorter --%s or a shorter --%s", nearRuns, MaxPhases, model.BatchLen.Flag(), model.Period.Flag())
	}
	total := 0
	for _, n := range quiet {
		total += n
	}
	return func(yield func(int, float64) bool) {
		for a, b := range near {
			for k := a; k <= b; k++ {
				if !yield(k, 1) {
					return
				}
			}
		}
		if total == 0 {
			return
		}
		if c.Jitter { // a sample of every q-th quiet phase
			q := max(1, total/MaxQuietSample)
			for gcd(q, cycle) != 1 {
				q++
			}
			sampled := 0
			for range quietEvery(near, phases, q) {
				sampled++
			}
			if sampled > 0 {
				for k := range quietEvery(near, phases, q) {
					if !yield(k, float64(total)/float64(sampled)) {
						return
					}
				}
				return
			}
		}
		// Without jitter (or no sample): the first quiet phase of each
		// residue, in the order of the residues.
		first, left := make([]int, cycle), 0
		for r, n := range quiet {
			first[r] = -1
			if n > 0 {
				left++
			}
		}
		for k := range quietEvery(near, phases, 1) {
			if r := k % cycle; first[r] < 0 {
				first[r] = k
				if left--; left == 0 {
					break
				}
			}
		}
		for r, n := range quiet {
			if n > 0 && !yield(first[r], float64(n)) {
				return
			}
		}
	}, nil
}

// nearPhases yields the near phases of phasePlan in [0, phases) as
// intervals [a, b], in order, disjoint and not adjacent. Phase k's outage
// starts in round s = period+1+k; it is near when a trigger, a round
// m·period with m ≥ 1, falls in s−batch_len−reach … s+2·reach or in
// s+horizon−batch_len−reach … s+horizon, so the near phases are two
// families of intervals, one of each a trigger, merged.
func nearPhases(c model.Config, phases, horizon int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		p, reach := c.Period, horizon-c.Period
		// For trigger m: [m·p − lo, m·p − lo + width] in each family.
		lo := [2]int{p + 1 + 2*reach, p + 1 + horizon}
		width := [2]int{c.BatchLen + 3*reach, c.BatchLen + reach}
		next := [2]int{1, 1} // each family's next trigger
		cur, curOK := [2]int{}, false
		for {
			f := -1 // the family whose next interval starts first
			for i := range 2 {
				if a := next[i]*p - lo[i]; a < phases && (f < 0 || a < next[f]*p-lo[f]) {
					f = i
				}
			}
			if f < 0 {
				break
			}
			a := next[f]*p - lo[f]
			b := min(a+width[f], phases-1)
			next[f]++
			if b < 0 {
				continue
			}
			a = max(a, 0)
			switch {
			case !curOK:
				cur, curOK = [2]int{a, b}, true
			case a <= cur[1]+1:
				cur[1] = max(cur[1], b)
			default:
				if !yield(cur[0], cur[1]) {
					return
				}
				cur = [2]int{a, b}
			}
			if cur[1] == phases-1 { // the rest is near
				break
			}
		}
		if curOK {
			yield(cur[0], cur[1])
		}
	}
}

// quietEvery yields every q-th phase from 0 in [0, phases) that no
// interval of near holds.
func quietEvery(near iter.Seq2[int, int], phases, q int) iter.Seq[int] {
	return func(yield func(int) bool) {
		k := 0
		for a, b := range near {
			for ; k < a; k += q {
				if !yield(k) {
					return
				}
			}
			if k <= b {
				k += (b - k + q) / q * q // the first step past b
			}
		}
		for ; k < phases; k += q {
			if !yield(k) {
				return
			}
		}
	}
}

// gcd of two positive numbers.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
