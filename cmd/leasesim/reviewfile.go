package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/leasesim/leasesim/reviewfile"
	"github.com/spf13/pflag"
)

// applyReviewFile sets the report flags a review file, report's one
// argument, gives, except those the command line gives: the command line
// wins. A file the review names by a relative path is found beside it.
// Every error names the file and line, and the key.
func applyReviewFile(fs *pflag.FlagSet) error {
	switch fs.NArg() {
	case 0:
		return nil
	case 1:
	default:
		return usagef("report takes one review file, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	text, err := os.ReadFile(path)
	if err != nil {
		return usagef("review file: %v", err)
	}
	settings, err := reviewfile.Parse(bytes.NewReader(text))
	var fe *reviewfile.Error
	if errors.As(err, &fe) {
		return usagef("%s:%d: %s", path, fe.Line, fe.Msg)
	}
	from := map[string]reviewfile.Setting{}
	for _, s := range settings {
		f := fs.Lookup(s.Flag)
		if f.Changed {
			continue
		}
		if err := fs.Set(s.Flag, s.Arg(filepath.Dir(path))); err != nil {
			return usagef("%s:%d: %s.%s: %v", path, s.Line, s.Section, s.Name, err)
		}
		from[s.Flag] = s
	}
	// The times are read once the tick is known, wherever it was given:
	// read them now, so that a bad one is traced to its line.
	err = resolveTimes(fs)
	var bad *flagError
	if errors.As(err, &bad) {
		if s, ok := from[bad.flag]; ok {
			return usagef("%s:%d: %s.%s: %s", path, s.Line, s.Section, s.Name, bad.msg)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
