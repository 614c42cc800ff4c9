package sweep_test

import (
	"context"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// TestCheckSlice: every 101st configuration of check's default grids,
// client-go's and the service protocols' (in the short suite every
// 1009th), a slice that meets every value of every parameter, keeps every
// invariant, with the same counts for any number of workers. The whole
// grids are .ci/run's "leasesim check" step (and make check-all): minutes
// on two cores, too long for a suite run every few minutes.
func TestCheckSlice(t *testing.T) {
	// Of a slice's configurations about 31% go together in CheckGrid, as
	// in the whole grid (35,389,440 checked of 113,246,208), and 10% in
	// ProtocolCheckGrid (57,876,480 of 566,231,040).
	type slice struct{ every, checked, refused int }
	for _, tt := range []struct {
		name         string
		g            sweep.Grid
		fine, coarse slice
	}{
		{"client-go", sweep.CheckGrid(), slice{101, 350_375, 770_875}, slice{1009, 35_067, 77_170}},
		{"protocols", sweep.ProtocolCheckGrid(), slice{101, 573_030, 5_033_218}, slice{1009, 57_365, 503_816}},
	} {
		g := tt.g
		size, err := g.Size()
		if err != nil {
			t.Fatal(err)
		}
		walk, workers := tt.fine, []int{1, 2, 5}
		if testing.Short() {
			walk, workers = tt.coarse, nil
		}
		if tt.name != "client-go" { // the workers share a grid alike whatever it holds
			workers = nil
		}
		seen := make([]map[int]bool, model.NumParams)
		for p := range seen {
			seen[p] = map[int]bool{}
		}
		for i := 0; i < size; i += walk.every { // both are prime to 30: see CheckOptions.Every
			c := g.Config(i)
			for p := range seen {
				seen[p][c.Get(model.Param(p))] = true
			}
		}
		for p := range seen {
			for v := range g.Values[p].All() {
				if !seen[p][v] {
					t.Errorf("%s, every %dth: the slice never gives %s the value %d", tt.name, walk.every, model.Param(p).Name(), v)
				}
			}
		}

		passed := 0
		checked, refused, err := sweep.Check(context.Background(), &g, sweep.CheckOptions{Every: walk.every}, func(c model.Config, err error) error {
			t.Errorf("%+v: %v", c, err)
			return nil
		}, func(n int) { passed += n })
		if err != nil || checked != walk.checked || refused != walk.refused || passed != size {
			t.Errorf("%s, every %dth: checked %d, refused %d, progress %d of %d, %v", tt.name, walk.every, checked, refused, passed, size, err)
		}

		// Any number of workers checks the same configurations.
		for _, n := range workers {
			checked, refused, err := sweep.Check(context.Background(), &g, sweep.CheckOptions{Workers: n, Every: tt.coarse.every}, func(model.Config, error) error { return nil }, nil)
			if err != nil || checked != tt.coarse.checked || refused != tt.coarse.refused {
				t.Errorf("%s, %d workers, every %dth: checked %d, refused %d, %v", tt.name, n, tt.coarse.every, checked, refused, err)
			}
		}
	}
}
