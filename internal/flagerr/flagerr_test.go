package flagerr

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	inner := New([]string{"tick", "period"}, "give a coarser --tick or a shorter --period")
	for _, c := range []struct {
		err  error
		want []string
	}{
		{nil, nil},
		{errors.New("--lease is text, not a name"), nil},
		{inner, []string{"tick", "period"}},
		{fmt.Errorf("r.yaml: %w", inner), []string{"tick", "period"}},
		{Errorf([]string{"drift", "tick"}, "with --drift 3: %w", inner), []string{"drift", "tick", "period"}},
		{Errorf([]string{"drift"}, "with --drift 3: %v", inner), []string{"drift"}},
	} {
		if got := Of(c.err); !slices.Equal(got, c.want) {
			t.Errorf("Of(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
