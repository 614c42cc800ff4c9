package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// File is one file of a folder written by WriteDir.
type File struct {
	Name  string // a plain name, no folder
	Write func(w io.Writer) error
}

// A staging folder of WriteDir is named tempPrefix, the writer's process
// id, a dash and MkdirTemp's random digits, so that a later run can tell a
// dead run's leftovers from a live run's work; and it holds a marker file,
// written before anything else, so that a folder a user named alike (a
// ".leasesim-2024-backup") is never taken for one.
const (
	tempPrefix    = ".leasesim-"
	markerName    = ".leasesim-staging"
	markerContent = "a staging folder of leasesim report; removed when its run ends\n"
)

// stagingName matches the names of WriteDir's staging folders and holds
// the writer's process id.
var stagingName = regexp.MustCompile(`^\.leasesim-([1-9][0-9]{0,9})-([0-9]{1,20})$`)

// WriteDir writes files into dir, creating it if need be, all or nothing:
// every file is first written into a staging folder inside dir, and only
// when all are written are they moved into place. If a move fails part-way,
// the files already moved are put back as they were (earlier versions
// restored, new ones removed), so an error leaves dir as it was. Other
// files in dir are not touched, except the staging folders that killed
// runs left behind, which are removed. WriteDir checks ctx between files.
// Then, if not nil, runs once every file is in place (to say so on
// standard output); if it fails, the files are put back as they were too.
// The folders WriteDir created for dir, and only those, are removed again
// when it fails, if they are empty.
func WriteDir(ctx context.Context, dir string, files []File, then func() error) (err error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is a file: want a folder", dir)
	}
	made, err := mkdirAll(dir)
	if err != nil {
		return err
	}
	defer func() { // after the staging folder's removal, deferred below
		if err != nil {
			removeMade(made)
		}
	}()
	removeStale(dir)
	tmp, err := os.MkdirTemp(dir, tempPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	if !track(tmp, made) {
		os.Remove(tmp)
		return errAbandoned
	}
	defer untrack(tmp)
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, markerName), []byte(markerContent), 0o644); err != nil {
		return err
	}
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
	return whileLive(func() error { return replace(dir, tmp, names, os.Rename, then) })
}

// mkdirAll creates dir and the folders above it that are missing, as
// os.MkdirAll does, and returns those it created, outermost first: not a
// folder another run created meanwhile.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		switch err := os.Mkdir(missing[i], 0o755); {
		case err == nil:
			made = append(made, missing[i])
		case errors.Is(err, fs.ErrExist): // another run's, or a file that the next Mkdir or the staging folder trips on
		default:
			removeMade(made)
			return nil, err
		}
	}
	return made, nil
}

// removeMade removes the folders mkdirAll made, innermost first, each only
// if it is empty: a folder another run writes into meanwhile stays.
func removeMade(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		os.Remove(made[i])
	}
}

// replace moves each named file from tmp into dir with rename, then runs
// then (if not nil). Before a file is moved, the one it replaces is kept
// as a hard link in tmp; if a move fails, the moves before it are undone,
// and if then fails, all of them are.
func replace(dir, tmp string, names []string, rename func(from, to string) error, then func() error) error {
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
	if then != nil {
		if err := then(); err != nil {
			return undo(dir, old, names, kept, err)
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
// process no longer exists: a run killed before it could clean up. A
// folder is one only if its name matches stagingName and it is a real
// folder (not a link) holding the marker file as WriteDir wrote it, or is
// empty (a run killed before it wrote the marker); anything else is left.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := stagingName.FindStringSubmatch(e.Name())
		if m == nil || e.Type() != fs.ModeDir {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || alive(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if marker, err := os.ReadFile(filepath.Join(path, markerName)); err == nil && string(marker) == markerContent {
			os.RemoveAll(path)
		} else {
			os.Remove(path) // only if empty
		}
	}
}
