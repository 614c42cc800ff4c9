package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/reviewfile"
	"github.com/spf13/pflag"
)

// applyReviewFile sets the report flags a review file, report's one
// argument, gives, except those the command line gives: the command line
// wins. A file the review names by a relative path is found beside it.
// Every error names the file and line, and the key; so do the errors of
// the later checks, through the function it returns (where).
func applyReviewFile(fs *pflag.FlagSet) (func(error, string) string, error) {
	switch fs.NArg() {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, usagef("report takes one review file, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	settings, err := reviewfile.ReadFile(path)
	if err != nil {
		return nil, usage(err)
	}
	applied := reviewfile.Applied{Path: path, From: map[string]reviewfile.Setting{}}
	at, from := applied.At, applied.From
	refuse := func(msg string, at ...reviewfile.At) error { return usage(&reviewfile.SettingError{At: at, Msg: msg}) }
	for _, s := range settings {
		if fs.Lookup(s.Flag).Changed {
			continue
		}
		if err := fs.Set(s.Flag, s.Arg(filepath.Dir(path))); err != nil {
			return nil, refuse(err.Error(), at(s, s.Line))
		}
		from[s.Flag] = s
	}
	where := func(err error, msg string) string {
		return applied.Where(err, msg, func(s reviewfile.Setting, err error) (int, bool) { // a candidate list's entry
			var ce *candidatelist.CandidateError
			if s.Flag == "candidate-list" && errors.As(err, &ce) {
				if i, ok := candidatelist.EntryAt(s.Value, ce.N); ok {
					return s.LineOf(i), true
				}
			}
			return 0, false
		})
	}
	// The times are read once the tick is known, wherever it was given:
	// read them now, so that a bad one is traced to its line.
	err = resolveTimes(fs)
	var bad *input.FlagError
	if errors.As(err, &bad) {
		if s, ok := from[bad.Flag]; ok {
			line := s.Line
			if bad.HasLine {
				line = s.LineOf(bad.Line)
			}
			return nil, refuse(bad.Msg, at(s, line))
		}
	}
	if s, ok := from["failure-mix"]; ok {
		var fe *cost.FailureMixError
		if _, err := cost.ParseFailureMix(input.TickOf(pflags{fs}), s.Value); errors.As(err, &fe) {
			return nil, refuse(err.Error(), at(s, s.ItemLine(fe.Entry, fe.Key)))
		}
	}
	var ue *usageError
	switch {
	case errors.As(err, &ue) && where(err, ue.msg) != ue.msg: // a refusal of keys the file gives (a lock's options), traced to their lines
		return nil, usagef("%s", where(err, ue.msg))
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return where, nil
}
