package settings

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestResidualMean: the wait to a follower's next poll from an unrelated
// moment has the mean a renewal process gives, E[G²] / 2E[G]: for gaps
// uniform on [RP, 2.2·RP), 2.68/3.2 = 0.8375 RP. Drawing the wait within a
// gap of unbiased length would give 0.8 RP.
func TestResidualMean(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 400_000
	sum := 0.0
	for range n {
		sum += residual(r, 1)
	}
	if mean := sum / n; math.Abs(mean-0.8375) > 0.003 {
		t.Errorf("mean residual %v RP, want 0.8375", mean)
	}
}
