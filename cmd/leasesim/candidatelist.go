package main

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/model"
)

// entryError is what is wrong with an entry of a candidate list, and the
// line of the list it is on (from 0), so that a review file's error can
// name the file's line.
type entryError struct {
	line int
	msg  string
}

func (e *entryError) Error() string { return e.msg }

// candidateListValue is --candidate-list: candidates written by hand, read
// once the length of a round is known, like a time flag.
type candidateListValue struct {
	entries *[]candidatelist.Entry
	text    *string
}

func (v candidateListValue) String() string { return *v.text }

func (v candidateListValue) Set(s string) error {
	*v.text = s
	return nil
}

func (v candidateListValue) Type() string { return "candidates" }

func (v candidateListValue) kind() model.TimeKind { return model.Duration }

// resolve reads the list in the unit of t. Its error names the entry,
// and it returns that entry's text, which the flag's error echoes.
func (v candidateListValue) resolve(t model.Tick) (string, error) {
	*v.entries = (*v.entries)[:0]
	texts := candidatelist.Split(*v.text)
	switch {
	case len(texts) == 0:
		return *v.text, fmt.Errorf("no candidate: want %s", candidatelist.Syntax)
	case len(texts) > candidatelist.Max:
		return fmt.Sprintf("%d entries", len(texts)), fmt.Errorf("want at most %d candidates", candidatelist.Max)
	}
	for i, et := range texts {
		e, err := candidatelist.ParseEntry(et.Text, t)
		if err != nil {
			return et.Text, &entryError{et.Line, fmt.Sprintf("entry %d: %v", i+1, err)}
		}
		e.N = i + 1
		*v.entries = append(*v.entries, e)
	}
	return *v.text, nil
}

// candidateEntryAt finds the entry an error names ("--candidate-list
// entry 3"), by its number.
var candidateEntryAt = regexp.MustCompile(`--candidate-list entry (\d+)`)

// entryLine is the line of the candidate list text that the entry msg
// names is on (from 0), if msg names one.
func entryLine(text, msg string) (int, bool) {
	m := candidateEntryAt.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	es := candidatelist.Split(text)
	if n < 1 || n > len(es) {
		return 0, false
	}
	return es[n-1].Line, true
}
