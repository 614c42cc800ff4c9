package atomicfile

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// spoolMemory is how much output Spool holds in memory before it moves it
// to a temporary file.
const spoolMemory = 4 << 20

// Spool writes through write into a holding place and copies what it wrote
// to w only if write succeeds; otherwise w gets nothing and the error is
// write's. It is for output that is known good only once all of an input
// read once has been read (the shards of a merge, which may be FIFOs): up
// to spoolMemory bytes are held in memory, more in a temporary file,
// removed from its folder as soon as it is made where the system allows,
// and in any case before Spool returns or the process is abandoned.
func Spool(w io.Writer, write func(w *bufio.Writer) error) error {
	var s spool
	defer s.close()
	bw := bufio.NewWriterSize(&s, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if s.f == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

// spool holds Spool's output: in memory, then in a temporary file.
type spool struct {
	mem  bytes.Buffer
	f    *os.File
	name string // the file's name while it still has one
}

func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil && s.mem.Len()+len(p) > spoolMemory {
		if err := s.toFile(); err != nil {
			return 0, err
		}
	}
	if s.f == nil {
		return s.mem.Write(p)
	}
	return s.f.Write(p)
}

// toFile moves what s holds into a new temporary file, which is removed
// from its folder at once where an open file can be.
func (s *spool) toFile() error {
	f, err := os.CreateTemp("", "leasesim-spool-*")
	if err != nil {
		return err
	}
	if os.Remove(f.Name()) != nil { // kept by name until close
		if !track(f.Name(), nil) {
			f.Close()
			os.Remove(f.Name())
			return errAbandoned
		}
		s.name = f.Name()
	}
	s.f = f
	_, err = f.Write(s.mem.Bytes())
	s.mem = bytes.Buffer{}
	return err
}

func (s *spool) close() {
	if s.f == nil {
		return
	}
	s.f.Close()
	if s.name != "" {
		os.Remove(s.name)
		untrack(s.name)
	}
}
