// Package testio holds I/O helpers for leasesim's tests.
package testio

import (
	"errors"
	"testing"
	"time"
)

// ErrFull is the error a FailWriter fails with.
var ErrFull = errors.New("no space left on device")

// FailWriter accepts N bytes, then fails every write with ErrFull, as a
// full disk or a closed pipe does.
type FailWriter struct{ N int }

func (w *FailWriter) Write(p []byte) (int, error) {
	if len(p) <= w.N {
		w.N -= len(p)
		return len(p), nil
	}
	k := w.N
	w.N = 0
	return k, ErrFull
}

// HangAfter is how long a test waits for something that must stop (a
// command whose output failed, one that was interrupted) before it calls
// it a hang. The runs that tests wait for take well under a second; two
// minutes is far beyond what a slow, busy machine under the race detector
// makes of them, so only a real hang reaches it. It times nothing else.
const HangAfter = 2 * time.Minute

// Returns runs f and returns its error, or fails the test as a hang of
// what once HangAfter has passed: it catches a hang, it times nothing.
func Returns(t testing.TB, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	return Await(t, done, what)
}

// Await returns what done delivers, or fails the test as a hang of what
// once HangAfter has passed.
func Await[T any](t testing.TB, done <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-done:
		return v
	case <-time.After(HangAfter):
		t.Fatalf("%s: still running %v later: a hang", what, HangAfter)
		var zero T
		return zero
	}
}
