package sweep_test

import (
	"context"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// TestCheckSlice: every 101st configuration of check's default grid (in
// the short suite every 1009th), a slice that meets every value of every
// parameter, keeps every invariant, with the same counts for any number of
// workers. The whole grid is .ci/run's "leasesim check" step (and make
// check-all): two minutes on two cores, too long for a suite run every
// few minutes.
func TestCheckSlice(t *testing.T) {
	g := sweep.CheckGrid()
	size, err := g.Size()
	if err != nil {
		t.Fatal(err)
	}
	// Of a slice's configurations about 31% go together, as in the whole
	// grid (35,389,440 checked of 113,246,208).
	type slice struct{ every, checked, refused int }
	fine, coarse := slice{101, 350_375, 770_875}, slice{1009, 35_067, 77_170}
	walk, workers := fine, []int{1, 2, 5}
	if testing.Short() {
		walk, workers = coarse, nil
	}
	seen := make([]map[int]bool, model.NumParams)
	for p := range seen {
		seen[p] = map[int]bool{}
	}
	for i := 0; i < size; i += walk.every { // both are prime to 6: see CheckOptions.Every
		c := g.Config(i)
		for p := range seen {
			seen[p][c.Get(model.Param(p))] = true
		}
	}
	for p := range seen {
		for v := range g.Values[p].All() {
			if !seen[p][v] {
				t.Errorf("every %dth: the slice never gives %s the value %d", walk.every, model.Param(p).Name(), v)
			}
		}
	}

	passed := 0
	checked, refused, err := sweep.Check(context.Background(), &g, sweep.CheckOptions{Every: walk.every}, func(c model.Config, err error) error {
		t.Errorf("%+v: %v", c, err)
		return nil
	}, func(n int) { passed += n })
	if err != nil || checked != walk.checked || refused != walk.refused || passed != size {
		t.Errorf("every %dth: checked %d, refused %d, progress %d of %d, %v", walk.every, checked, refused, passed, size, err)
	}

	// Any number of workers checks the same configurations.
	for _, n := range workers {
		checked, refused, err := sweep.Check(context.Background(), &g, sweep.CheckOptions{Workers: n, Every: coarse.every}, func(model.Config, error) error { return nil }, nil)
		if err != nil || checked != coarse.checked || refused != coarse.refused {
			t.Errorf("%d workers, every %dth: checked %d, refused %d, %v", n, coarse.every, checked, refused, err)
		}
	}
}
