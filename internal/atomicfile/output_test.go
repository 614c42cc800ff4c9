package atomicfile_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/leasesim/leasesim/internal/atomicfile"
)

// TestWriteOrAlong: WriteOr writes to standard output under its name and
// to the file otherwise; WriteAlong puts the file in place only once
// standard output's part succeeded, and leaves none when it fails.
func TestWriteOrAlong(t *testing.T) {
	dir := t.TempDir()
	hello := func(w *bufio.Writer) error { _, err := w.WriteString("hello\n"); return err }
	var out bytes.Buffer
	if err := atomicfile.WriteOr("-", "-", &out, hello); err != nil || out.String() != "hello\n" {
		t.Errorf("WriteOr to standard output: %q, %v", out.String(), err)
	}
	path := filepath.Join(dir, "a.txt")
	if err := atomicfile.WriteOr(path, "-", &out, hello); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "hello\n" {
		t.Errorf("WriteOr to a file: %q, %v", b, err)
	}
	failed := filepath.Join(dir, "b.txt")
	boom := errors.New("boom")
	if err := atomicfile.WriteAlong(failed, hello, func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("WriteAlong with a failing output: %v", err)
	}
	if _, err := os.Stat(failed); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteAlong left %s after its output failed: %v", failed, err)
	}
	if err := atomicfile.WriteAlong(failed, hello, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(failed); err != nil || string(b) != "hello\n" {
		t.Errorf("WriteAlong: %q, %v", b, err)
	}
}
