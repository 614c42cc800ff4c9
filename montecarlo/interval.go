package montecarlo

import (
	"math"
	"math/big"
	"math/bits"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/leasesim/leasesim/model"
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
		variance := spread(t.NonZero, t.Sum, t.Sum, t.SumSq) / (k * (k - 1))
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

// EpisodeTally is what a Monte Carlo summary needs of a count of rounds
// that falls into episodes (model.Episodes): the tally over replicas of
// how many episodes each met, the tally over episodes of their rounds
// past the first, and the sum over replicas of episodes times rounds.
// All are exact integers and merge as Tally does.
type EpisodeTally struct {
	Count Tally     // per replica, its number of episodes
	Extra Tally     // per episode, its rounds past the first
	Cross [2]uint64 // Σ episodes × rounds over replicas, as a 128-bit number: high, low
}

// Add tallies one replica's count of rounds and their episodes.
func (e *EpisodeTally) Add(rounds int, ep model.Episodes) {
	e.Count.Add(uint64(ep.Count))
	e.Extra.Merge(Tally{N: uint64(ep.Count), NonZero: uint64(ep.Long), Sum: uint64(rounds - ep.Count), SumSq: [2]uint64{0, uint64(ep.ExtraSq)}})
	hi, lo := bits.Mul64(uint64(ep.Count), uint64(rounds))
	e.Cross = add128(e.Cross, hi, lo)
}

// Merge adds u's replicas to e.
func (e *EpisodeTally) Merge(u EpisodeTally) {
	e.Count.Merge(u.Count)
	e.Extra.Merge(u.Extra)
	e.Cross = add128(e.Cross, u.Cross[0], u.Cross[1])
}

// add128 adds the 128-bit number hi, lo to x.
func add128(x [2]uint64, hi, lo uint64) [2]uint64 {
	var carry uint64
	x[1], carry = bits.Add64(x[1], lo, 0)
	x[0] += hi + carry
	return x
}

// spread is n·Σxy − Σx·Σy, exactly, as a float: n(n−1) times the sample
// covariance of x and y.
func spread(n, sumX, sumY uint64, sumXY [2]uint64) float64 {
	s := new(big.Int).Lsh(new(big.Int).SetUint64(sumXY[0]), 64)
	s.Or(s, new(big.Int).SetUint64(sumXY[1]))
	s.Mul(s, new(big.Int).SetUint64(n))
	s.Sub(s, new(big.Int).Mul(new(big.Int).SetUint64(sumX), new(big.Int).SetUint64(sumY)))
	f, _ := s.Float64()
	return f
}

// Interval95 is a 95% confidence interval for the mean count of rounds
// per replica, rounds (the count's own tally), seen as the episodes a
// replica meets times their mean length. Each factor has its interval
// from its own tally (Tally.Interval95): the episodes per replica over
// the replicas, the rounds past an episode's first over the episodes.
// The two are combined on the log scale by Zou and Donner's MOVER: each
// end is the estimate moved by the root of the squares of the factors'
// distances to their own ends, plus twice their product times the
// factors' correlation (Correlation). So a study that met one episode
// of one round does not take that round for every episode's length,
// and where replicas meet many episodes the fewer, longer ones of some
// and the more, shorter ones of others do not count twice. With no round
// at all, or with every replica counting the same, it is rounds' own
// interval: Garwood's for no event (an episode lasts at least a round),
// or one of no width.
func (e EpisodeTally) Interval95(rounds Tally) Interval {
	if rounds.Sum == 0 || e.Count.Sum == 0 || rounds.Dispersion() == 0 { // no episode to learn from (a shard's tallies may say so)
		return rounds.Interval95()
	}
	count, extra := e.Count.Interval95(), e.Extra.Interval95()
	episodes, length := e.Count.Mean(), 1+e.Extra.Mean()
	r := e.Correlation(rounds)
	move := func(a, b float64) float64 { return math.Sqrt(max(0, a*a+b*b+2*r*a*b)) }
	down := move(math.Log(episodes/count.Lo), math.Log(length/(1+extra.Lo)))
	up := move(math.Log(count.Hi/episodes), math.Log((1+extra.Hi)/length))
	mean := rounds.Mean()
	return Interval{mean * math.Exp(-down), mean * math.Exp(up)}
}

// Correlation is the correlation, over replicas, between the logarithms
// of the two factors of the mean count of rounds: the episodes per
// replica and their mean length, estimated from the replicas' episodes
// and rounds by the delta method. It is 0 where no replica meets more
// than one episode, for then a replica's rounds are its episode's
// length; it is negative where the replicas' runs are long enough to
// meet many: a replica that meets fewer episodes meets longer ones. It
// is 0 where the replicas do not show it.
func (e EpisodeTally) Correlation(rounds Tally) float64 {
	m, t := float64(e.Count.Sum), float64(rounds.Sum)
	if m == 0 || t == 0 {
		return 0
	}
	n := e.Count.N
	vm := spread(n, e.Count.Sum, e.Count.Sum, e.Count.SumSq) / (m * m) // of log episodes, times n−1 over n, as the others
	vt := spread(n, rounds.Sum, rounds.Sum, rounds.SumSq) / (t * t)
	c := spread(n, e.Count.Sum, rounds.Sum, e.Cross) / (m * t)
	vl := vt + vm - 2*c // of log length
	if vm <= 0 || vl <= 0 {
		return 0
	}
	return max(-1, min(1, (c-vm)/math.Sqrt(vm*vl)))
}
