package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
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
	text, err := readCapped(path, maxReviewFile)
	if err != nil {
		return nil, usagef("review file: %v", err)
	}
	settings, err := reviewfile.Parse(bytes.NewReader(text))
	var fe *reviewfile.Error
	switch {
	case errors.As(err, &fe) && fe.Line == 0:
		return nil, usagef("%s: %s", path, fe.Msg)
	case errors.As(err, &fe):
		return nil, usagef("%s:%d: %s", path, fe.Line, fe.Msg)
	case err != nil:
		return nil, usagef("review file: %v", err)
	}
	from := map[string]reviewfile.Setting{}
	for _, s := range settings {
		f := fs.Lookup(s.Flag)
		if f.Changed {
			continue
		}
		if err := fs.Set(s.Flag, s.Arg(filepath.Dir(path))); err != nil {
			return nil, usagef("%s:%d: %s.%s: %v", path, s.Line, s.Section, s.Name, err)
		}
		from[s.Flag] = s
	}
	where := func(err error, msg string) string {
		var at []string
		seen := map[string]bool{}
		for _, m := range flagName.FindAllStringSubmatch(msg, -1) {
			if s, ok := from[m[1]]; ok && !seen[m[1]] {
				seen[m[1]] = true
				line := s.Line
				var ce *candidatelist.CandidateError
				if m[1] == "candidate-list" && errors.As(err, &ce) {
					if i, ok := candidatelist.EntryAt(s.Value, ce.N); ok {
						line = s.LineOf(i)
					}
				}
				at = append(at, fmt.Sprintf("%s:%d: %s.%s", path, line, s.Section, s.Name))
			}
		}
		if len(at) == 0 {
			return msg
		}
		return strings.Join(at, ", ") + ": " + msg
	}
	// The times are read once the tick is known, wherever it was given:
	// read them now, so that a bad one is traced to its line.
	err = resolveTimes(fs)
	var bad *flagError
	if errors.As(err, &bad) {
		if s, ok := from[bad.flag]; ok {
			line := s.Line
			if bad.hasLine {
				line = s.LineOf(bad.line)
			}
			return nil, usagef("%s:%d: %s.%s: %s", path, line, s.Section, s.Name, bad.msg)
		}
	}
	if s, ok := from["failure-mix"]; ok {
		var fe *cost.FailureMixError
		if _, err := cost.ParseFailureMix(*fs.Lookup("tick").Value.(tickValue).t, s.Value); errors.As(err, &fe) {
			return nil, usagef("%s:%d: %s.%s: %v", path, s.ItemLine(fe.Entry, fe.Key), s.Section, s.Name, err)
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

// flagName finds the flags an error message names, as --outage-mix.
var flagName = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
