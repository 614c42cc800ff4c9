// Package soak is the tests' switch for their long runs. The suite a
// contributor runs every few minutes walks a slice of each space a test
// could check whole; "go test -soak" (make soak) walks all of it. A
// package whose tests import this one takes the flag.
package soak

import (
	"flag"
	"testing"
)

var on = flag.Bool("soak", false, "walk every configuration of the spaces the tests walk a slice of (make soak)")

// On reports whether the test run is a soak.
func On() bool { return *on }

// Every returns how sparsely a test walks a space it could check whole:
// every configuration (1) in a soak, every short-th in the short suite
// (go test -short), else every n-th. A stride prime to each dimension's
// length meets every value of every dimension.
func Every(n, short int) int {
	switch {
	case *on:
		return 1
	case testing.Short():
		return short
	}
	return n
}
