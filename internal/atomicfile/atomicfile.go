// Package atomicfile writes leasesim's output files so that a reader never
// sees half of one: a file appears whole or is left as it was, and a folder
// of files (the report) is updated all together or not at all.
//
// A regular file is written to a temporary file beside it and renamed over
// it at the end. A symbolic link is followed, and its target is replaced in
// the target's own folder, so the link survives. Anything else that exists
// under the name (a FIFO, a device, /dev/stdout) cannot be replaced by a
// rename without breaking whoever reads it, so it is written directly,
// streaming.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Check reports whether path can be written as an output file, before any
// work is done for it: a non-empty name that is not a folder (nor ends in
// a slash), in a folder that exists. Its errors do not repeat path.
func Check(path string) error {
	_, _, err := destination(path)
	return err
}

// Write writes path through write, as the package doc says: atomically for
// a regular or new file, streaming for a FIFO or device. On any error a
// temporary file is removed and a regular file is left as it was.
func Write(path string, write func(w *bufio.Writer) error) error {
	p, err := Prepare(path, write)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Pending is an output file written but not yet in place, so that a
// command with several outputs (a file and its standard output) can put
// all of them in place or none: Commit puts it there, Discard drops it.
type Pending struct {
	tmp, target string
	stream      func() error // for a FIFO or device, which cannot wait: the write itself
}

// Prepare writes path's content through write into a temporary file
// beside its target, which Commit renames into place. A FIFO or device
// (streaming, as Write says) is written only by Commit.
func Prepare(path string, write func(w *bufio.Writer) error) (*Pending, error) {
	target, stream, err := destination(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if stream {
		return &Pending{stream: func() error {
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			return fill(f, path, write)
		}}, nil
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, err
	}
	p := &Pending{tmp: f.Name(), target: target}
	if !track(p.tmp, nil) {
		f.Close()
		os.Remove(p.tmp)
		return nil, errAbandoned
	}
	err = f.Chmod(0o644)
	if err == nil {
		err = fill(f, path, write)
	} else {
		f.Close()
	}
	if err != nil {
		p.Discard()
		return nil, err
	}
	return p, nil
}

// Commit puts the file in place: renames it over its target, or, for a
// FIFO or device, writes it.
func (p *Pending) Commit() error {
	if p.stream != nil {
		return p.stream()
	}
	err := whileLive(func() error { return os.Rename(p.tmp, p.target) })
	if err != nil {
		p.Discard()
		return err
	}
	untrack(p.tmp)
	p.tmp = "" // renamed: nothing for Discard to remove
	return nil
}

// Discard removes the temporary file, if Commit has not renamed it; the
// target stays as it was. It may be called after Commit, to no effect.
func (p *Pending) Discard() {
	if p.tmp != "" {
		os.Remove(p.tmp)
		untrack(p.tmp)
		p.tmp = ""
	}
}

// destination says where Write puts path. Something that exists and is
// not a regular file (a FIFO, a device, /dev/stdout, whose link text is no
// path at all) is written through path itself, streaming. A regular file,
// or one yet to be made, is the file path's links lead to, replaced.
func destination(path string) (target string, stream bool, err error) {
	switch {
	case path == "":
		return "", false, errors.New("want a file name, not an empty one")
	case strings.HasSuffix(path, string(filepath.Separator)):
		return "", false, errors.New("a folder name (it ends in a slash): want a file name")
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return "", false, errors.New("a folder: want a file name")
	case err == nil && !fi.Mode().IsRegular():
		return path, true, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", false, err
	}
	target, err = resolve(path)
	if err != nil {
		return "", false, err
	}
	dir, _ := filepath.Split(target) // as written: missing/../x.csv needs missing
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if len(dir) > 1 {
			dir = strings.TrimSuffix(dir, string(filepath.Separator))
		}
		return "", false, fmt.Errorf("folder %s does not exist", dir)
	}
	return target, false, nil
}

// fill writes f through a buffer and closes it, reporting write errors
// of f under the name path; an error of write's own (of another output
// it writes, such as standard output) is returned as it is.
func fill(f *os.File, path string, write func(w *bufio.Writer) error) error {
	file := &errorWriter{w: f}
	w := bufio.NewWriterSize(file, 1<<16)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	} else if err != nil && file.err == nil && cerr == nil {
		return err // not the file's (standard output's, or the work's): not named after it
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// errorWriter remembers the first error of its writer.
type errorWriter struct {
	w   io.Writer
	err error
}

func (e *errorWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// maxLinks bounds the symbolic links resolve follows, as the kernel does.
const maxLinks = 40

// resolve follows path's symbolic links, if any, to the file they name,
// which need not exist yet.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}
