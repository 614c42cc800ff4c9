package model_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestPollResidualMean: the wait to a follower's next poll from an
// unrelated moment has the mean a renewal process gives, E[G²] / 2E[G]:
// for gaps uniform on [RP, 2.2·RP), 2.68/3.2 = 0.8375 RP. Drawing the wait
// within a gap of unbiased length would give 0.8 RP.
func TestPollResidualMean(t *testing.T) {
	r := rand.NewPCG(3, 4)
	const n = 400_000
	sum, gaps := 0.0, 0.0
	for range n {
		sum += model.PollResidual(r, 1)
		gaps += model.PollGap(r, 1)
	}
	if mean := sum / n; math.Abs(mean-0.8375) > 0.003 {
		t.Errorf("mean residual %v RP, want 0.8375", mean)
	}
	if mean := gaps / n; math.Abs(mean-1.6) > 0.003 {
		t.Errorf("mean gap %v RP, want 1.6", mean)
	}
}
