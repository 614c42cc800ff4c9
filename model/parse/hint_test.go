package parse_test

import (
	"errors"
	"testing"

	"github.com/leasesim/leasesim/model/parse"
)

// TestTickHint: a duration read in rounds is told it needs --tick, with
// "(rounds)" unless the refusal says rounds already; a file's name or a
// plain number is left as refused.
func TestTickHint(t *testing.T) {
	refused := errors.New("want a whole number from 1 to 9")
	for _, tt := range []struct{ text, want string }{
		{"15s", "want a whole number from 1 to 9 (rounds); durations such as 15s need --tick"},
		{"2m:0.5", "want a whole number from 1 to 9 (rounds); durations such as 2m:0.5 need --tick"},
		{"empirical:h10m.txt", "want a whole number from 1 to 9"},
		{"15", "want a whole number from 1 to 9"},
	} {
		if got := parse.TickHint(tt.text, refused).Error(); got != tt.want {
			t.Errorf("TickHint(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	inRounds := errors.New("want a whole number of rounds")
	if got := parse.TickHint("3m", inRounds).Error(); got != "want a whole number of rounds; durations such as 3m need --tick" {
		t.Errorf("TickHint of a refusal in rounds = %q", got)
	}
}
