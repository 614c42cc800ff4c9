package sweep_test

import (
	"context"
	"errors"
	"testing"

	"github.com/leasesim/leasesim/internal/testio"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// returnsWithin fails the test if f has not returned after testio's
// generous guard: it catches a hang, it does not time a run.
func returnsWithin(t *testing.T, what string, f func() error) error {
	t.Helper()
	return testio.Returns(t, what+", its output failing", f)
}

// TestWriteStopsOnWriterError: a writer that fails after any number of
// bytes stops Write with the writer's error, for any worker count; the
// pool's goroutines do not keep it waiting.
func TestWriteStopsOnWriterError(t *testing.T) {
	g := grid(t, map[model.Param]string{model.Lease: "1:2000", model.Outage: "0:9"})
	for _, workers := range []int{1, 2, 8} {
		for _, n := range []int{0, 1, 100_000, 1 << 20} {
			err := returnsWithin(t, "Write", func() error {
				return sweep.Write(context.Background(), &testio.FailWriter{N: n}, g, sweep.Options{Workers: workers})
			})
			if !errors.Is(err, testio.ErrFull) {
				t.Errorf("workers %d, failing after %d bytes: error %v, want %v", workers, n, err, testio.ErrFull)
			}
		}
	}
}
