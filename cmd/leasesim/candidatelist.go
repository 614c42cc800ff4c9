package main

import (
	"errors"
	"fmt"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/model"
)

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

// resolve reads the list in the unit of t (candidatelist.Parse). Its
// error names the entry, and it returns that entry's text, which the
// flag's error echoes.
func (v candidateListValue) resolve(t model.Tick) (string, error) {
	es, err := candidatelist.Parse(*v.text, t)
	var ee *candidatelist.EntryError
	var le *candidatelist.ListError
	switch {
	case errors.As(err, &ee):
		return ee.Text, err
	case errors.As(err, &le) && le.N > 0:
		return fmt.Sprintf("%d entries", le.N), err
	case err != nil:
		return *v.text, err
	}
	*v.entries = es
	return *v.text, nil
}
