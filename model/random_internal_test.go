package model

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDrawEvent is the floor under a Monte Carlo failure event: drawing
// its period length alone (an up period of geometric:20, then a down one of
// geometric:5, as BenchmarkMonteCarlo's heavy churn), per event.
func BenchmarkDrawEvent(b *testing.B) {
	var src rand.PCG
	src.Seed(1, 2)
	rng := rand.New(&src)
	up, _ := ParseLengths("geometric:20")
	down, _ := ParseLengths("geometric:5")
	u, d := newSampler(up), newSampler(down)
	sum := 0
	for i := 0; b.Loop(); i++ {
		if i&1 == 0 {
			sum += u.draw(rng)
		} else {
			sum += d.draw(rng)
		}
	}
	if sum == 0 {
		b.Fatal("no draws")
	}
}
