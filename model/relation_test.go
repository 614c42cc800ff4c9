package model_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestRelationErrorFlagNames: FlagNames lists the flags Flags names, in
// the order it names them, which a review file traces to their lines.
func TestRelationErrorFlagNames(t *testing.T) {
	for _, c := range []struct {
		set  func(*model.Config)
		want []string
	}{
		{func(c *model.Config) { c.Lease, c.RenewDeadline = 3, 5 }, []string{"lease", "renew-deadline"}},
		{func(c *model.Config) { c.BatchLen, c.Period = 9, 4 }, []string{"batch-len", "period"}},
	} {
		cfg := model.Default()
		c.set(&cfg)
		var re *model.RelationError
		if err := cfg.Validate(); !errors.As(err, &re) {
			t.Fatalf("Validate() = %v, want a *RelationError", err)
		}
		if got := re.FlagNames(); !slices.Equal(got, c.want) {
			t.Errorf("FlagNames() = %q, want %q", got, c.want)
		}
		msg, at := re.Flags(0), -1
		for _, f := range re.FlagNames() {
			i := strings.Index(msg, "--"+f+" ")
			if i <= at {
				t.Errorf("%q names --%s at %d, not after the flag before it (%d)", msg, f, i, at)
			}
			at = i
		}
	}
}
