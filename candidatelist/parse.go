package candidatelist

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
)

// EntryError is an entry of a candidate list that cannot be read: its
// number (from 1), the line of the list it is on (from 0), its text and
// why. A review file names the line from it; a flag's error echoes the
// entry's text.
type EntryError struct {
	N, Line int
	Text    string
	Err     error
}

// Error names the entry by its number: entry 3: ….
func (e *EntryError) Error() string { return fmt.Sprintf("entry %d: %v", e.N, e.Err) }

// Unwrap returns why the entry was refused.
func (e *EntryError) Unwrap() error { return e.Err }

// ListError is a candidate list refused as a whole: with no entry, or
// with more than Max (N entries).
type ListError struct{ N int }

func (e *ListError) Error() string {
	if e.N == 0 {
		return "no candidate: want " + Syntax
	}
	return fmt.Sprintf("want at most %d candidates", Max)
}

// Parse reads a candidate list in rounds of t: its entries (Split), each
// read by ParseEntry and numbered from 1. Its error is a *ListError or
// the first entry's *EntryError.
func Parse(text string, t model.Tick) ([]Entry, error) {
	texts := Split(text)
	if len(texts) == 0 || len(texts) > Max {
		return nil, &ListError{len(texts)}
	}
	entries := make([]Entry, 0, len(texts))
	for i, et := range texts {
		e, err := ParseEntry(et.Text, t)
		if err != nil {
			return nil, &EntryError{N: i + 1, Line: et.Line, Text: et.Text, Err: err}
		}
		e.N = i + 1
		entries = append(entries, e)
	}
	return entries, nil
}

// EntryAt is the line of the list text (from 0) that entry n (from 1) is
// on, if the list has such an entry: what a review file traces a
// *CandidateError to.
func EntryAt(text string, n int) (line int, ok bool) {
	es := Split(text)
	if n < 1 || n > len(es) {
		return 0, false
	}
	return es[n-1].Line, true
}
