package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// File is one file of a folder written by WriteDir.
type File struct {
	Name  string // a plain name, no folder
	Write func(w io.Writer) error
}

// tempPrefix starts the name of WriteDir's staging folder, followed by the
// writer's process id, so that a later run can tell a dead run's leftovers
// from a live run's work.
const tempPrefix = ".leasesim-"

// WriteDir writes files into dir, creating it if need be, all or nothing:
// every file is first written into a staging folder inside dir, and only
// when all are written are they moved into place. If a move fails part-way,
// the files already moved are put back as they were (earlier versions
// restored, new ones removed), so an error leaves dir as it was. Other
// files in dir are not touched, except the staging folders that killed
// runs left behind, which are removed. WriteDir checks ctx between files.
func WriteDir(ctx context.Context, dir string, files []File) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is a file: want a folder", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeStale(dir)
	tmp, err := os.MkdirTemp(dir, tempPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var names []string
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := os.OpenFile(filepath.Join(tmp, file.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if err := fill(f, filepath.Join(dir, file.Name), func(w *bufio.Writer) error { return file.Write(w) }); err != nil {
			return err
		}
		names = append(names, file.Name)
	}
	for _, name := range names {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a folder: cannot put the report's %s there", filepath.Join(dir, name), name)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return replace(dir, tmp, names, os.Rename)
}

// replace moves each named file from tmp into dir with rename. Before a
// file is moved, the one it replaces is kept as a hard link in tmp; if a
// move fails, the moves before it are undone.
func replace(dir, tmp string, names []string, rename func(from, to string) error) error {
	old := filepath.Join(tmp, "old")
	if err := os.Mkdir(old, 0o755); err != nil {
		return err
	}
	kept := make([]bool, len(names))
	for i, name := range names {
		dst := filepath.Join(dir, name)
		err := os.Link(dst, filepath.Join(old, name))
		switch {
		case err == nil:
			kept[i] = true
		case !errors.Is(err, os.ErrNotExist):
			return undo(dir, old, names[:i], kept, err)
		}
		if err := rename(filepath.Join(tmp, name), dst); err != nil {
			return undo(dir, old, names[:i], kept, err)
		}
	}
	return nil
}

// undo puts back the files of dir that replace moved, and returns err.
func undo(dir, old string, moved []string, kept []bool, err error) error {
	for i := len(moved) - 1; i >= 0; i-- {
		dst := filepath.Join(dir, moved[i])
		if kept[i] {
			os.Rename(filepath.Join(old, moved[i]), dst)
		} else {
			os.Remove(dst)
		}
	}
	return err
}

// removeStale removes the staging folders in dir of WriteDir runs whose
// process no longer exists: a run killed before it could clean up.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tempPrefix)
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if !ok || err != nil || pid <= 0 || !e.IsDir() || alive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// alive reports whether a process with this id exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
