package cost

import (
	"math"
	"testing"

	"github.com/leasesim/leasesim/model"
)

// FuzzParseMix: an accepted mix has valid, distinct outages and positive
// weights summing to 1.
func FuzzParseMix(f *testing.F) {
	for _, s := range []string{"2:0.9,5:0.1", "3:1", "2:0", "2", "x:1", "2:1,2:1", "0:1e308,1:1e308", "5:1e-320"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mix, err := ParseMix(s)
		if err != nil {
			return
		}
		total := 0.0
		seen := map[int]bool{}
		for _, e := range mix {
			if model.Outage.Check(e.Outage) != nil || seen[e.Outage] || !(e.Weight > 0) {
				t.Fatalf("%q: bad entry %+v", s, e)
			}
			seen[e.Outage] = true
			total += e.Weight
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("%q: weights sum to %v", s, total)
		}
	})
}
