package montecarlo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/leasesim/leasesim/internal/testio"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/sweep"
)

// returnsWithin fails the test if f has not returned after testio's
// generous guard: it catches a hang, it does not time a run.
func returnsWithin(t *testing.T, what string, f func() error) error {
	t.Helper()
	return testio.Returns(t, what+", its output failing", f)
}

// TestMonteCarloStopsOnEmitError: an error from emit (the output failed)
// ends the study with that error after the configuration it came from.
func TestMonteCarloStopsOnEmitError(t *testing.T) {
	base := model.Default()
	base.Rounds = 2000
	mc := study(t, base, "geometric:50", "fixed:3", 40)
	mc.Grid.Values[model.Lease] = sweep.ListOf(1, 2, 3, 4, 5, 6, 7, 8)
	for _, workers := range []int{1, 2, 8} {
		for _, after := range []int{0, 1, 7} {
			emitted := 0
			err := returnsWithin(t, "MonteCarlo.Run", func() error {
				return mc.Run(context.Background(), workers, func(*montecarlo.Summary) error {
					if emitted == after {
						return testio.ErrFull
					}
					emitted++
					return nil
				}, nil)
			})
			if !errors.Is(err, testio.ErrFull) || emitted != after {
				t.Errorf("workers %d, emit failing after %d: error %v after %d summaries", workers, after, err, emitted)
			}
		}
	}
}
