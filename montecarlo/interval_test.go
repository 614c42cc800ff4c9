package montecarlo_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestTallyMerge: tallies of the parts of a study, merged in any order,
// are the whole's to the bit, and so is the interval computed from them.
func TestTallyMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var whole, a, b montecarlo.Tally
	for i := range 10_000 {
		x := r.Uint64N(1 << 40) // large counts: their squares overflow 64 bits
		if i%5 == 0 {
			x = 0
		}
		whole.Add(x)
		if i%3 == 0 {
			a.Add(x)
		} else {
			b.Add(x)
		}
	}
	ab, ba := a, b
	ab.Merge(b)
	ba.Merge(a)
	if ab != whole || ba != whole || whole.NonZero != 8000 {
		t.Fatalf("merged %+v and %+v, whole %+v", ab, ba, whole)
	}
	if ab.Interval95() != whole.Interval95() {
		t.Errorf("interval of the merged %v, of the whole %v", ab.Interval95(), whole.Interval95())
	}
}

// TestIntervalRare: an interval never goes below zero; with no event in n
// replicas it is [0, 3.689/n], Garwood's for a count of 0; with one event
// its lower end is above zero; with a single replica it is Garwood's for
// its count.
func TestIntervalRare(t *testing.T) {
	var none montecarlo.Tally
	for range 100 {
		none.Add(0)
	}
	if ci := none.Interval95(); ci.Lo != 0 || math.Abs(ci.Hi-0.03689) > 1e-5 {
		t.Errorf("no event in 100 replicas: %v, want [0, 0.03689]", ci)
	}
	one := none
	one.Add(1)
	if ci := one.Interval95(); ci.Lo <= 0 || ci.Lo > one.Mean() || ci.Hi < one.Mean() {
		t.Errorf("one event in 101 replicas: %v around mean %v", ci, one.Mean())
	}
	var single montecarlo.Tally
	single.Add(5)
	if ci := single.Interval95(); math.Abs(ci.Lo-1.6235) > 1e-4 || math.Abs(ci.Hi-11.6683) > 1e-4 {
		t.Errorf("a single replica of 5: %v, want Garwood's [1.6235, 11.6683]", ci)
	}
	var clumped, spread montecarlo.Tally // 150 rounds: three failures of 50 rounds each, or 150 of one round
	for i := range 200 {
		if i%70 == 0 {
			clumped.Add(50)
		} else {
			clumped.Add(0)
		}
		spread.Add(uint64(min(1, i%4)))
	}
	c, s := clumped.Interval95(), spread.Interval95()
	if c.Lo < 0 || c.Lo > clumped.Mean() || c.Hi < clumped.Mean() {
		t.Errorf("clumped counts: %v around mean %v", c, clumped.Mean())
	}
	if c.HalfWidth() < 3*s.HalfWidth() {
		t.Errorf("three clumps of 50 give an interval %v, 150 single rounds %v: want the clumps' far wider", c, s)
	}
}

// TestDispersion: the dispersion is the share of replicas that counted
// nothing times the mean of those that did, plus the nonzero counts'
// variance over their mean, widened for their number: 0 when every
// replica counts the same, so that the interval has no width.
func TestDispersion(t *testing.T) {
	widen := func(nonZero float64) float64 { // (t(0.975, K−1) / z(0.975))²
		w := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nonZero - 1}.Quantile(0.975) / distuv.UnitNormal.Quantile(0.975)
		return w * w
	}
	for _, tt := range []struct {
		name   string
		counts []uint64
		want   float64
	}{
		{"five replicas of 300", []uint64{300, 300, 300, 300, 300}, 0},
		{"every replica 0", []uint64{0, 0, 0, 0}, 0},
		{"one replica", []uint64{7}, 1},
		{"two equal clumps in ten replicas", []uint64{4, 0, 0, 4, 0, 0, 0, 0, 0, 0}, 0.8 * 4},
		{"single events in half the replicas", []uint64{1, 0, 1, 0, 1, 0, 1, 0}, 0.5},
		{"clumps of 1 and 3 in ten replicas", []uint64{1, 0, 0, 0, 3, 0, 0, 0, 0, 0}, 0.8*2 + 2.0/2*widen(2)},
		{"every replica, varying", []uint64{10, 12, 14, 10, 12, 14}, 16.0 / 5 / 12 * widen(6)},
	} {
		var tl montecarlo.Tally
		for _, x := range tt.counts {
			tl.Add(x)
		}
		if got := tl.Dispersion(); math.Abs(got-tt.want) > 1e-9*max(1, tt.want) {
			t.Errorf("%s: dispersion %v, want %v", tt.name, got, tt.want)
		}
		if ci := tl.Interval95(); tt.want == 0 && tl.Sum > 0 && (ci.Lo != tl.Mean() || ci.Hi != tl.Mean()) {
			t.Errorf("%s: interval %v, want no width around %v", tt.name, ci, tl.Mean())
		}
	}
}

// TestEpisodeInterval: the interval of a count of rounds from its
// episodes. One episode of one round in 200 replicas reaches up to 10.05
// rounds a study, not Garwood's 5.55 for a single round: the next
// episodes may be longer (up to 4.69 rounds on average, 3.69 past the
// first). With no round, or every replica alike, it is the count's own.
// Where no replica meets two episodes the factors are uncorrelated;
// where each replica meets many, fewer and longer against more and
// shorter, their correlation is negative.
func TestEpisodeInterval(t *testing.T) {
	type replica struct {
		rounds int
		ep     model.Episodes
	}
	tally := func(rs []replica, n int) (montecarlo.EpisodeTally, montecarlo.Tally) {
		var e montecarlo.EpisodeTally
		var r montecarlo.Tally
		for i := range n {
			x := replica{}
			if i < len(rs) {
				x = rs[i]
			}
			e.Add(x.rounds, x.ep)
			r.Add(uint64(x.rounds))
		}
		return e, r
	}
	one, rounds := tally([]replica{{1, model.Episodes{Count: 1}}}, 200)
	if ci := one.Interval95(rounds).Scale(200); math.Abs(ci.Lo-0.02572) > 1e-5 || math.Abs(ci.Hi-10.053) > 1e-3 {
		t.Errorf("one episode of one round in 200 replicas: %v rounds a study, want [0.02572, 10.053]", ci)
	}
	if ci := rounds.Interval95().Scale(200); math.Abs(ci.Hi-5.552) > 1e-3 {
		t.Errorf("a single round in 200 replicas, Garwood's: %v, want up to 5.552", ci)
	}
	if r := one.Correlation(rounds); r != 0 {
		t.Errorf("one episode: correlation %v, want 0", r)
	}
	apart, rounds := tally([]replica{{1, model.Episodes{Count: 1}}, {3, model.Episodes{Count: 1, Long: 1, ExtraSq: 4}}, {2, model.Episodes{Count: 1, Long: 1, ExtraSq: 1}}}, 100)
	if r := apart.Correlation(rounds); math.Abs(r) > 1e-12 {
		t.Errorf("episodes in replicas of their own: correlation %v, want 0", r)
	}
	if ci := apart.Interval95(rounds); ci.Lo <= 0 || ci.Lo >= rounds.Mean() || ci.Hi <= rounds.Mean() {
		t.Errorf("episodes in replicas of their own: %v around %v", ci, rounds.Mean())
	}
	// Replicas of 12 rounds each: 4 episodes of 3, or 2 of 6, or 3 of 4.
	var many []replica
	for _, k := range []int{4, 2, 3, 4, 2, 3} {
		extra := 12/k - 1
		many = append(many, replica{12, model.Episodes{Count: k, Long: k, ExtraSq: k * extra * extra}})
	}
	e, rounds := tally(many, len(many))
	if r := e.Correlation(rounds); r > -0.99 {
		t.Errorf("fewer episodes, longer: correlation %v, want -1", r)
	}
	if ci := e.Interval95(rounds); ci.Lo != 12 || ci.Hi != 12 {
		t.Errorf("every replica 12 rounds: %v, want no width", ci)
	}
	none, rounds := tally(nil, 100)
	if ci := none.Interval95(rounds); ci != rounds.Interval95() || math.Abs(ci.Hi-0.03689) > 1e-5 {
		t.Errorf("no round in 100 replicas: %v, want Garwood's [0, 0.03689]", ci)
	}
}

// TestEpisodeTallyMerge: episode tallies of the parts of a study, merged
// in any order, are the whole's to the bit, and so is the interval.
func TestEpisodeTallyMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var whole, a, b montecarlo.EpisodeTally
	var rounds, ra, rb montecarlo.Tally
	for i := range 10_000 {
		var ep model.Episodes
		n := 0
		for range r.IntN(4) {
			l := 1 + r.IntN(1<<20)
			ep.Count++
			ep.Long += min(1, l-1)
			ep.ExtraSq += (l - 1) * (l - 1)
			n += l
		}
		whole.Add(n, ep)
		rounds.Add(uint64(n))
		if i%3 == 0 {
			a.Add(n, ep)
			ra.Add(uint64(n))
		} else {
			b.Add(n, ep)
			rb.Add(uint64(n))
		}
	}
	ab, ba := a, b
	ab.Merge(b)
	ba.Merge(a)
	ra.Merge(rb)
	if ab != whole || ba != whole || ra != rounds {
		t.Fatalf("merged %+v and %+v, whole %+v", ab, ba, whole)
	}
	if ab.Interval95(ra) != whole.Interval95(rounds) {
		t.Errorf("interval of the merged %v, of the whole %v", ab.Interval95(ra), whole.Interval95(rounds))
	}
}
