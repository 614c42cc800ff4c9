package reviewfile

import (
	"errors"
	"fmt"
	"testing"

	"github.com/leasesim/leasesim/internal/flagerr"
)

// TestWhere traces a refusal to the lines of the flags it names that the
// file gave, each once, in the message's order, an entry's line where
// one is found.
func TestWhere(t *testing.T) {
	lease := Setting{Key: Key{Section: "deployment", Name: "lease", Flag: "lease"}, Line: 3}
	list := Setting{Key: Key{Section: "candidates", Name: "candidate_list", Flag: "candidate-list"}, Line: 8}
	a := Applied{Path: "r.yaml", From: map[string]Setting{"lease": lease, "candidate-list": list}}
	entry := func(s Setting, err error) (int, bool) {
		if s.Flag == "candidate-list" {
			return 10, true
		}
		return 0, false
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New("no flags"), "msg"},
		{flagerr.New([]string{"tick"}, "x"), "msg"}, // not from the file
		{flagerr.New([]string{"lease", "tick", "lease"}, "x"), "r.yaml:3: deployment.lease: msg"},
		{fmt.Errorf("wrapped: %w", flagerr.New([]string{"candidate-list", "lease"}, "x")), "r.yaml:10: candidates.candidate_list, r.yaml:3: deployment.lease: msg"},
	} {
		if got := a.Where(c.err, "msg", entry); got != c.want {
			t.Errorf("Where(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
