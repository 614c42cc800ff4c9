package sweep

import (
	"math/big"
	"math/bits"

	"gonum.org/v1/gonum/stat/distuv"
)

// Tally is what a Monte Carlo summary needs of one count over replicas:
// how many replicas, how many of them counted anything, the sum of the
// counts and the sum of their squares, kept exactly in integers, so that
// the tallies of the parts of a study (shards, workers) add up to the
// whole's in any order, and the summary computed from them is the same to
// the bit.
type Tally struct {
	N       uint64
	NonZero uint64 // the replicas whose count is not 0
	Sum     uint64
	SumSq   [2]uint64 // the sum of squares as a 128-bit number: high, low
}

// Add tallies one replica's count x.
func (t *Tally) Add(x uint64) {
	hi, lo := bits.Mul64(x, x)
	t.N++
	if x != 0 {
		t.NonZero++
	}
	t.Sum += x
	var carry uint64
	t.SumSq[1], carry = bits.Add64(t.SumSq[1], lo, 0)
	t.SumSq[0] += hi + carry
}

// Merge adds u's replicas to t.
func (t *Tally) Merge(u Tally) {
	var carry uint64
	t.N += u.N
	t.NonZero += u.NonZero
	t.Sum += u.Sum
	t.SumSq[1], carry = bits.Add64(t.SumSq[1], u.SumSq[1], 0)
	t.SumSq[0] += u.SumSq[0] + carry
}

// Mean is the mean count per replica.
func (t Tally) Mean() float64 {
	if t.N == 0 {
		return 0
	}
	return float64(t.Sum) / float64(t.N)
}

// Dispersion is the counts' variance over their mean: how much more (or
// less) the total varies than a Poisson count with the same mean. It is
// estimated in two parts, so that it holds both where most replicas count
// nothing and where every replica counts much:
//
//   - the share of replicas that counted nothing times the mean of those
//     that did: how the total varies because some replicas meet the
//     statistic's events and others do not (1 for single rare events, as
//     for a Poisson count);
//   - the variance of the nonzero counts over their mean: how the total
//     varies because the events come in clumps of different sizes (a
//     failure that costs several batches or many rounds at once). That
//     variance is estimated from the nonzero replicas only, so it is
//     widened as Student's t widens a normal interval, with one degree of
//     freedom fewer than there are of them: by (t(0.975, K−1) /
//     z(0.975))², 2.0 for 5 nonzero replicas, 1.14 for 20, tending to 1.
//     With fewer than two nonzero replicas nothing shows clumps of
//     different sizes, and the part is 0.
//
// When every replica counts the same it is 0. With fewer than two
// replicas it is 1: nothing is known of the spread, so the count is taken
// for a Poisson one.
func (t Tally) Dispersion() float64 {
	if t.N < 2 {
		return 1
	}
	if t.NonZero == 0 {
		return 0
	}
	k, n := float64(t.NonZero), float64(t.N)
	meanNonZero := float64(t.Sum) / k
	phi := (1 - k/n) * meanNonZero
	if t.NonZero >= 2 {
		// K·Σx² − (Σx)², exactly: 0 when the nonzero counts are equal.
		spread := new(big.Int).Lsh(new(big.Int).SetUint64(t.SumSq[0]), 64)
		spread.Or(spread, new(big.Int).SetUint64(t.SumSq[1]))
		spread.Mul(spread, new(big.Int).SetUint64(t.NonZero))
		sum := new(big.Int).SetUint64(t.Sum)
		spread.Sub(spread, sum.Mul(sum, sum))
		s, _ := spread.Float64()
		variance := s / (k * (k - 1))
		widen := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: k - 1}.Quantile(0.975) / distuv.UnitNormal.Quantile(0.975)
		phi += variance / meanNonZero * widen * widen
	}
	return phi
}

// Interval is a 95% confidence interval.
type Interval struct{ Lo, Hi float64 }

// HalfWidth is half the interval's width.
func (iv Interval) HalfWidth() float64 { return (iv.Hi - iv.Lo) / 2 }

// Scale returns the interval with both ends multiplied by k.
func (iv Interval) Scale(k float64) Interval { return Interval{iv.Lo * k, iv.Hi * k} }

// Interval95 is a 95% confidence interval for the mean count per replica,
// right for rare counts: Garwood's exact Poisson interval for the total,
// taken over the effective number of independent events (the total over
// the dispersion) and scaled back. It never goes below zero; with no
// event at all it is [0, 3.69/N], rare, not impossible; when every
// replica counts the same nonzero number it is that number, with no
// width.
func (t Tally) Interval95() Interval {
	if t.N == 0 {
		return Interval{}
	}
	phi := t.Dispersion()
	if t.Sum == 0 {
		phi = 1 // an event, when it comes, is at least one
	}
	if phi == 0 {
		return Interval{t.Mean(), t.Mean()}
	}
	k := float64(t.Sum) / phi
	scale := phi / float64(t.N)
	lo := 0.0
	if k > 0 {
		lo = distuv.ChiSquared{K: 2 * k}.Quantile(0.025) / 2
	}
	hi := distuv.ChiSquared{K: 2*k + 2}.Quantile(0.975) / 2
	return Interval{lo * scale, hi * scale}
}
