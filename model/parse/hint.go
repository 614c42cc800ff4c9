package parse

import (
	"fmt"
	"strings"
)

// TickHint is err, the refusal of text read in rounds (no tick), saying
// that text looks like a duration, which needs --tick: when it holds a
// number followed by a unit of time (15s, 2m) and names no file
// (empirical:…, whose line the error names). Otherwise it is err.
func TickHint(text string, err error) error {
	if !hasUnit(text) || strings.Contains(text, "empirical:") {
		return err
	}
	unit := " (rounds)"
	if strings.Contains(err.Error(), "rounds") {
		unit = ""
	}
	return fmt.Errorf("%v%s; durations such as %s need --tick", err, unit, text)
}

// hasUnit reports whether s holds a number followed by a unit of time, as
// in 15s or 2m: a duration.
func hasUnit(s string) bool {
	for i, r := range s {
		if i > 0 && strings.ContainsRune("hmsuµn", r) && s[i-1] >= '0' && s[i-1] <= '9' {
			return true
		}
	}
	return false
}
