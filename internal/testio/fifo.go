package testio

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FIFO makes a named pipe named name in a temporary folder of t's, whose
// writer gives content to the first reader that opens it, and is gone:
// code that opened it again would wait for a writer for ever (a hang,
// which Returns catches). It returns the pipe's path.
func FIFO(t testing.TB, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // waits for a reader
		if err != nil {
			return
		}
		f.Write(content) // a reader that stops early breaks the pipe: no matter
		f.Close()
	}()
	t.Cleanup(func() {
		// A reader of its own lets a writer still waiting to open return.
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			r.Close()
		}
	})
	return path
}

// Pipe returns a name of a pipe that gives content, /dev/fd/N, as a
// shell's process substitution <(…) does: whoever opens it reads on from
// where the last reader stopped, so code that opened it again would find
// it empty, or its start gone.
func Pipe(t testing.TB, content []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(content) // until the test's end closes r, if it is not read through
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return fmt.Sprintf("/dev/fd/%d", r.Fd())
}
