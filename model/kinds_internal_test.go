package model

import "testing"

// TestFailsAsKindsSay checks that the engine's fails does what the table
// of kinds says (Config.DoesAs) for every kind, under every combination of
// the configuration's toggles.
func TestFailsAsKindsSay(t *testing.T) {
	var toggles []Param
	for _, b := range Kinds() {
		if b.Toggle != Param(NumParams) {
			toggles = append(toggles, b.Toggle)
		}
	}
	for set := range 1 << len(toggles) {
		c := Default()
		for i, p := range toggles {
			c.Set(p, set>>i&1)
		}
		for f := AsConfigured; f < numKinds; f++ {
			var x state
			x.c = c
			x.reach.reset(1)
			x.reach.Fail(0, Failure{Kind: f})
			does := func(d Does, yes bool) Does {
				if yes {
					return d
				}
				return 0
			}
			got := does(Stops, x.fails(0, Crashed) || x.fails(0, Released)) | does(Releases, x.fails(0, Released)) |
				does(Freezes, x.fails(0, Paused)) | does(ReachesStore, x.fails(0, Partitioned)) |
				does(Hangs, x.fails(0, BlackHoled) || x.fails(0, Slowed)) | does(HangsUntilAnswered, x.fails(0, Slowed))
			if want := c.DoesAs(f); got != want {
				t.Errorf("toggles %05b, kind %q: the engine does %06b, the table %06b", set, f, got, want)
			}
		}
	}
}
