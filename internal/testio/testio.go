// Package testio holds I/O helpers for leasesim's tests.
package testio

import "errors"

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
