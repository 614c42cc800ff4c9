// Package golden compares test output with golden files, or rewrites them
// with "go test -update" in a package that has them (make golden: every
// such package: cmd/leasesim, cost, model, reports, sweep, each of which
// imports this one and so defines the flag). A test's golden files live in
// the nearest testdata/golden folder: its own package's (model, sweep,
// reports), or, for the command, the module's, which holds the CLI's
// end-to-end outputs.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.sr.ht/~sbinet/cmpimg"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Update reports whether the test run rewrites golden files.
func Update() bool { return *update }

// Path returns the path of a golden file, name relative to the nearest
// testdata/golden folder: in the test's package folder or above it, up to
// the module's root.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		folder := filepath.Join(dir, "testdata", "golden")
		if fi, err := os.Stat(folder); err == nil && fi.IsDir() {
			return filepath.Join(folder, filepath.FromSlash(name))
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			t.Fatalf("golden: no testdata/golden folder from the test's folder up to the module's root")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("golden: no go.mod above the test's folder")
		}
		dir = parent
	}
}

// CheckImage compares the PNG got with the golden image name (relative to
// the nearest testdata/golden) pixel by pixel, each within delta (0 … 1, a share of
// the largest colour difference, cmpimg's YIQ measure), or rewrites it with
// -update. A tolerance, not bytes: an encoder's or a rasteriser's change
// of a shade passes, a moved line or label does not.
func CheckImage(t testing.TB, name string, got []byte, delta float64) {
	t.Helper()
	want, ok := golden(t, name, got)
	if !ok {
		return
	}
	same, err := cmpimg.EqualApprox("png", got, want, delta)
	if err != nil {
		t.Fatal(err)
	}
	if !same {
		t.Errorf("image differs from %s beyond a tolerance of %g. If the change is intended, rewrite it with go test -update in this package and say why in the commit.", name, delta)
	}
}

// Check compares got with the golden file name (relative to the nearest
// testdata/golden) and reports the first differing lines, or rewrites the
// file with -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	want, ok := golden(t, name, got)
	if !ok {
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("output differs from %s (-want +got):\n%s\nIf the change is intended, rewrite it with go test -update in this package and say why in the commit.",
			name, cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n")))
	}
}

// golden returns the golden file name's content to compare got with, or,
// with -update, writes got there instead and returns false.
func golden(t testing.TB, name string, got []byte) (want []byte, compare bool) {
	t.Helper()
	path := Path(t, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return nil, false
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update in this package to create it)", err)
	}
	return want, true
}
