package model

import "testing"

// failAt is a schedule that, in round 2, takes node 0 down without a kind
// (SetReachable, as the group outage and the churn's flips do), then node
// 1 failing as f, then node 2 without a kind; nobody comes back.
type failAt struct{ f Failure }

func (s failAt) Begin(*Reachability) int { return 2 }

func (s failAt) ChangeAt(_ int, r *Reachability) int {
	r.SetReachable(0, false)
	r.Fail(1, s.f)
	r.SetReachable(2, false)
	return Never
}

// TestFailsAsKindsSay checks that the engine's fails does what the table
// of kinds says (Config.DoesAs) for every kind, under every combination of
// the configuration's toggles, as a run sets it up: a node of its own kind
// as its row says, and one without, before another has a kind of its own
// and after, as the toggles say together (each alone as its kind's row);
// that a Runner reads the table again as the toggles change; and that the
// guards of the round steps that only some kinds need (Reachability's
// may) know every behaviour a node down in the run has.
func TestFailsAsKindsSay(t *testing.T) {
	behaviours := []Does{Stops, Releases, Freezes, ReachesStore, Hangs, HangsUntilAnswered, Skews}
	var all Does
	for _, d := range behaviours {
		all |= d
	}
	for _, b := range kindTable() {
		if b.Does&^all != 0 {
			t.Errorf("kind %q does %07b, beyond the behaviours this test asks of the engine", b.Kind, b.Does)
		}
		if b.Toggle == Param(NumParams) {
			continue
		}
		c := Default()
		c.Set(b.Toggle, 1)
		if got := c.DoesAs(AsConfigured); got != b.Does { // the run reads the toggles through Scenario.toggles
			t.Errorf("%s alone: a node without a kind of its own does %07b, want kind %q's %07b", b.Toggle.Name(), got, b.Kind, b.Does)
		}
	}
	toggles := KindToggles()
	var r Runner
	for set := range 1 << len(toggles) {
		c := Default()
		c.Nodes, c.Rounds = 3, 4
		for i, p := range toggles {
			c.Set(p, set>>i&1)
		}
		for f := AsConfigured; f < numKinds; f++ {
			if _, err := r.RunSchedule(c, failAt{Failure{Kind: f}}); err != nil {
				t.Fatal(err)
			}
			does := func(node int) Does {
				var d Does
				for _, b := range behaviours {
					if r.fails(node, b) {
						d |= b
					}
				}
				return d
			}
			as, own := c.DoesAs(AsConfigured), c.DoesAs(f)
			for node, want := range []Does{as, own, as} {
				if got := does(node); got != want {
					t.Errorf("toggles %05b, node 1 of kind %q: node %d does %07b in the engine, %07b by the table", set, f, node, got, want)
				}
			}
			if want := as | own; r.reach.may != want {
				t.Errorf("toggles %05b, kind %q: the run's nodes may do %07b, the table says %07b", set, f, r.reach.may, want)
			}
		}
	}
}
