package sweep

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/stat/distuv"
)

// Tally is what a Monte Carlo summary needs of one count over replicas:
// how many replicas, the sum of the counts and the sum of their squares,
// kept exactly in integers, so that the tallies of the parts of a study
// (shards, workers) add up to the whole's in any order, and the summary
// computed from them is the same to the bit.
type Tally struct {
	N     uint64
	Sum   uint64
	SumSq [2]uint64 // the sum of squares as a 128-bit number: high, low
}

// Add tallies one replica's count x.
func (t *Tally) Add(x uint64) {
	hi, lo := bits.Mul64(x, x)
	t.N++
	t.Sum += x
	var carry uint64
	t.SumSq[1], carry = bits.Add64(t.SumSq[1], lo, 0)
	t.SumSq[0] += hi + carry
}

// Merge adds u's replicas to t.
func (t *Tally) Merge(u Tally) {
	var carry uint64
	t.N += u.N
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

// Dispersion is the counts' variance over their mean, at least 1: how
// much more the total varies than a Poisson count with the same mean. A
// failure that costs several batches or many rounds at once makes counts
// that come in clumps, and an interval that took them for Poisson counts
// would be too narrow. The variance is itself estimated from the
// replicas, so it is widened as Student's t widens a normal interval:
// by (t(0.975, N−1) / z(0.975))², which is 1.14 for 20 replicas and
// tends to 1.
func (t Tally) Dispersion() float64 {
	if t.N < 2 || t.Sum == 0 {
		return 1
	}
	n, mean := float64(t.N), t.Mean()
	sumSq := math.Ldexp(float64(t.SumSq[0]), 64) + float64(t.SumSq[1])
	variance := (sumSq - n*mean*mean) / (n - 1)
	widen := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) / distuv.UnitNormal.Quantile(0.975)
	return max(1, variance/mean*widen*widen)
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
// the dispersion) and scaled back. It never goes below zero, and with no
// event at all it is [0, 3.69/N]: rare, not impossible.
func (t Tally) Interval95() Interval {
	if t.N == 0 {
		return Interval{}
	}
	phi := t.Dispersion()
	k := float64(t.Sum) / phi
	scale := phi / float64(t.N)
	lo := 0.0
	if k > 0 {
		lo = distuv.ChiSquared{K: 2 * k}.Quantile(0.025) / 2
	}
	hi := distuv.ChiSquared{K: 2*k + 2}.Quantile(0.975) / 2
	return Interval{lo * scale, hi * scale}
}
