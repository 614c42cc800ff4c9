package cost_test

import (
	"reflect"
	"testing"

	"github.com/leasesim/leasesim/cost"
)

// TestMixOf: observed lengths become a mix of the distinct lengths,
// shortest first, each weighted by its share; too many distinct lengths
// are refused.
func TestMixOf(t *testing.T) {
	mix, err := cost.MixOf([]int{45, 30, 120, 30, 45, 30, 600, 30})
	want := []cost.MixEntry{{Outage: 30, Weight: 0.5}, {Outage: 45, Weight: 0.25}, {Outage: 120, Weight: 0.125}, {Outage: 600, Weight: 0.125}}
	if err != nil || !reflect.DeepEqual(mix, want) {
		t.Errorf("MixOf = %v, %v; want %v", mix, err, want)
	}
	var many []int
	for n := 1; n <= cost.MaxMixLengths+1; n++ {
		many = append(many, n)
	}
	if _, err := cost.MixOf(many); err == nil {
		t.Errorf("MixOf of %d distinct lengths: no error", len(many))
	}
}
