package atomicfile

import (
	"bufio"
	"io"
)

// WriteOr writes through write to path, atomically (Write), or, when path
// is stdout, the name that means standard output, to w, buffered.
func WriteOr(path, stdout string, w io.Writer, write func(w *bufio.Writer) error) error {
	if path != stdout {
		return Write(path, write)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteAlong writes the file path (if not "") through write and standard
// output through out, both or neither: the file is prepared first and
// goes in place only once out has succeeded (Prepare, Commit).
func WriteAlong(path string, write func(w *bufio.Writer) error, out func() error) error {
	if path == "" {
		return out()
	}
	p, err := Prepare(path, write)
	if err != nil {
		return err
	}
	defer p.Discard()
	if err := out(); err != nil {
		return err
	}
	return p.Commit()
}
