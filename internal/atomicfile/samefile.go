package atomicfile

import (
	"errors"
	"fmt"
	"os"
)

// Named is a file a command reads or writes, and what named it: a flag
// ("--png") or the command's argument.
type Named struct{ Path, By string }

// Overwrites returns the first of outs that is one of ins (the same file
// by os.SameFile, so also through a link or another path), and that
// input: writing it would destroy what the command reads, as replay
// --png inc.txt inc.txt once overwrote the incident with its PNG. An
// output that does not exist yet, or is not a regular file (a stream,
// written rather than replaced), is none.
func Overwrites(outs, ins []Named) (out, in Named, found bool) {
	for _, o := range outs {
		ofi, err := os.Stat(o.Path)
		if err != nil || !ofi.Mode().IsRegular() {
			continue
		}
		for _, in := range ins {
			if ifi, err := os.Stat(in.Path); err == nil && os.SameFile(ofi, ifi) {
				return o, in, true
			}
		}
	}
	return Named{}, Named{}, false
}

// CheckDir reports whether path can be a folder of outputs (the report's
// folder): a name, of a folder or of nothing yet, or of a link to a
// folder; its errors do not repeat path.
func CheckDir(path string) error {
	if path == "" {
		return errors.New("want a folder name")
	}
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return errors.New("a file: want a folder")
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			target, _ := os.Readlink(path)
			return fmt.Errorf("a symbolic link to %s, which does not exist: want a folder, or a link to one", target)
		}
	}
	return nil
}
