package montecarlo_test

import (
	"slices"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
)

// TestOneValueParams: a parameter is either varied as a list or one
// value a study, and SetOne sets the latter alone.
func TestOneValueParams(t *testing.T) {
	lists, ones := montecarlo.ListParams(), montecarlo.OneValueParams()
	for _, p := range ones {
		if slices.Contains(lists, p) {
			t.Errorf("%s is both a list and one value", p.Flag())
		}
	}
	if slices.Contains(lists, model.Rounds) || !slices.Contains(lists, model.Lease) {
		t.Errorf("ListParams %v, want lease and not rounds", lists)
	}
	base := model.Default()
	base.Rounds = 12345
	mc := study(t, model.Default(), "geometric:200", "fixed:3", 1)
	leases := mc.Grid.Values[model.Lease].Format(model.Lease)
	mc.SetOne(base)
	if got := mc.Grid.Values[model.Rounds].Format(model.Rounds); got != "12345" {
		t.Errorf("rounds %s, want 12345", got)
	}
	if got := mc.Grid.Values[model.Lease].Format(model.Lease); got != leases {
		t.Errorf("leases %s, want %s untouched", got, leases)
	}
}
