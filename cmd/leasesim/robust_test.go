package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// failWriter accepts n bytes, then fails every write, as a full disk or a
// closed pipe does.
type failWriter struct{ n int }

var errFull = errors.New("no space left on device")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errFull
}

// runGuarded runs leasesim with ctx and stdout, and fails the test if it
// has not returned after a generous guard: a hang, not a slow run.
func runGuarded(t *testing.T, ctx context.Context, stdout *failWriter, args ...string) (int, string) {
	t.Helper()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, stdout, &stderr) }()
	select {
	case code := <-done:
		return code, stderr.String()
	case <-time.After(20 * time.Second):
		t.Fatalf("leasesim %s: still running 20 s after its output failed", strings.Join(args, " "))
		return 0, ""
	}
}

// TestFailingOutput: when standard output fails (a full disk, a closed
// pipe) after any number of bytes, every command with a worker pool stops
// and exits 1 with one line naming the error; none hangs.
func TestFailingOutput(t *testing.T) {
	commands := [][]string{
		{"sweep", "--lease", "1:2000", "--outage", "0:9", "--workers", "2"},
		{"montecarlo", "--lease", "1:40", "--replicas", "20", "--rounds", "2000", "--workers", "2"},
		{"check", "--lease", "1:6"},
		{"recommend", "--lease", "1:200"},
	}
	for _, args := range commands {
		var full strings.Builder
		if code := run(context.Background(), args, &full, &full); code != exitOK {
			t.Fatalf("leasesim %s: exit %d: %s", strings.Join(args, " "), code, full.String())
		}
		size := full.Len()
		for _, n := range []int{0, 1, size / 3, size - 1} {
			code, stderr := runGuarded(t, context.Background(), &failWriter{n}, args...)
			if code != exitFailure || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, errFull.Error()) {
				t.Errorf("leasesim %s, output failing after %d bytes: exit %d, stderr %q", strings.Join(args, " "), n, code, stderr)
			}
		}
	}
}
