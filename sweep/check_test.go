package sweep_test

import (
	"context"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// TestCheckSlice: every 1009th configuration of check's default grids,
// client-go's and the service protocols', a slice that meets every value
// of every parameter, keeps every invariant, with the same counts for
// one worker and for five. The whole grids are .ci/run's "leasesim check"
// step (and make check-all): tens of minutes on two cores, too long for a
// suite run every few minutes.
func TestCheckSlice(t *testing.T) {
	// Of a slice's configurations about 31% go together in CheckGrid and
	// 7% in ProtocolCheckGrid and 53% in PerFireCheckGrid, as in the whole
	// grids.
	type slice struct{ every, checked, refused int }
	for _, tt := range []struct {
		name  string
		g     sweep.Grid
		slice slice
	}{
		{"client-go", sweep.CheckGrid(), slice{1009, 35_067, 77_170}},
		{"protocols", sweep.ProtocolCheckGrid(), slice{1009, 71_979, 938_146}},
		{"per-fire", sweep.PerFireCheckGrid(), slice{1009, 4_189, 6_334}},
	} {
		g := tt.g
		size, err := g.Size()
		if err != nil {
			t.Fatal(err)
		}
		walk, workers := tt.slice, []int{1, 5}
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
			checked, refused, err := sweep.Check(context.Background(), &g, sweep.CheckOptions{Workers: n, Every: walk.every}, func(model.Config, error) error { return nil }, nil)
			if err != nil || checked != walk.checked || refused != walk.refused {
				t.Errorf("%s, %d workers, every %dth: checked %d, refused %d, %v", tt.name, n, walk.every, checked, refused, err)
			}
		}
	}
}

// TestCheckGridsMeetEveryProtocol: check's default grids, together, run
// every lock protocol model has, so that a protocol added to model is
// checked without a line here.
func TestCheckGridsMeetEveryProtocol(t *testing.T) {
	met := map[int]bool{}
	for _, g := range []sweep.Grid{sweep.CheckGrid(), sweep.ProtocolCheckGrid(), sweep.PerFireCheckGrid()} {
		for v := range g.Values[model.Protocol].All() {
			met[v] = true
		}
	}
	for p := range model.LockProtocol(model.NumProtocols) {
		if !met[int(p)] {
			t.Errorf("no default grid of check runs protocol %s", model.Protocol.AppendValue(nil, int(p)))
		}
	}
	if len(met) != int(model.NumProtocols) {
		t.Errorf("the grids run %d protocols, model has %d", len(met), model.NumProtocols)
	}
}
