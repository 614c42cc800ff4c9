package sweep

import (
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestPresetGrids gives a grid a preset, each its own lists where the
// preset sets a value, the others g's, and g untouched.
func TestPresetGrids(t *testing.T) {
	g := NewGrid(model.Default())
	g.Values[model.Nodes] = ListOf(3, 5)
	for _, c := range []struct {
		values []map[model.Param]int
		leases []string // each grid's lease list
	}{
		{nil, []string{g.Values[model.Lease].Format(model.Lease)}},
		{[]map[model.Param]int{{model.Lease: 15}, {model.Lease: 60, model.RetryPeriod: 5}}, []string{"15", "60"}},
	} {
		grids := PresetGrids(g, c.values)
		if len(grids) != len(c.leases) {
			t.Fatalf("%v: %d grids, want %d", c.values, len(grids), len(c.leases))
		}
		for i, h := range grids {
			if got := h.Values[model.Lease].Format(model.Lease); got != c.leases[i] {
				t.Errorf("%v: grid %d's leases %s, want %s", c.values, i, got, c.leases[i])
			}
			if got := h.Values[model.Nodes].Format(model.Nodes); got != "3,5" {
				t.Errorf("%v: grid %d's nodes %s, want g's 3,5", c.values, i, got)
			}
		}
	}
	if got := g.Values[model.Lease].Format(model.Lease); got == "15" || got == "60" {
		t.Errorf("g's leases changed to %s", got)
	}
}
