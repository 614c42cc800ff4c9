// Package reports renders what leasesim computes: the seed's text tables,
// CSV files, PNG plots and the capacity-planning report.md.
package reports

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes a file through write: the content goes to a
// temporary file in the same folder, which is renamed to path only when
// write and the flush succeed. On any error the temporary file is removed,
// so path either appears whole or is left as it was.
func WriteFileAtomic(path string, write func(w *bufio.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	if err := fill(f, path, write); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// fill writes f through a buffer, makes it readable by all and closes it,
// reporting write errors under the name path.
func fill(f *os.File, path string, write func(w *bufio.Writer) error) error {
	w := bufio.NewWriterSize(f, 1<<16)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
