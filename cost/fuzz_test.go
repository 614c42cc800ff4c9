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
		mix, err := ParseMix(0, s)
		if err != nil {
			return
		}
		total := 0.0
		seen := map[int]bool{}
		for _, e := range mix {
			if model.Outage.Validate(e.Outage) != nil || seen[e.Outage] || !(e.Weight > 0) {
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

// FuzzParseRates: accepted rates are positive, finite and distinct.
func FuzzParseRates(f *testing.F) {
	for _, s := range []string{"6,12", "0.5", "1:24", "1:2:0.25", "0", "1e308:1e309", "1:1e12:1e-300", "NaN", "6,6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := ParseRates(s)
		if err != nil {
			return
		}
		seen := map[float64]bool{}
		for _, v := range vals {
			if !(v > 0) || math.IsInf(v, 0) || seen[v] {
				t.Fatalf("%q: bad rate %v", s, v)
			}
			seen[v] = true
		}
	})
}
