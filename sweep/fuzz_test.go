package sweep_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// FuzzParseValues: whatever the input, ParseValues does not panic, and a
// list it accepts is non-empty, in range, free of duplicates, and reads back
// the same from Format.
func FuzzParseValues(f *testing.F) {
	for _, s := range []string{"3", "1:4,8,16", "2:10:4", "false,true", "0:0", "1:1000000", "-1", "1::2", ",", "9223372036854775807:9223372036854775807"} {
		f.Add(uint8(model.Lease), s)
		f.Add(uint8(model.Fencing), s)
		f.Add(uint8(model.Outage), s)
	}
	f.Fuzz(func(t *testing.T, param uint8, s string) {
		p := model.Param(int(param) % model.NumParams)
		vals, err := sweep.ParseValues(0, p, s)
		if err != nil {
			return
		}
		if vals.Len() == 0 {
			t.Fatalf("%q: no values and no error", s)
		}
		if vals.Len() <= 100_000 { // a longer list is checked by its ranges
			seen := map[int]bool{}
			for v := range vals.All() {
				if p.Validate(v) != nil || seen[v] {
					t.Fatalf("%s %q: value %d out of range or repeated", p.Name(), s, v)
				}
				seen[v] = true
			}
		}
		again, err := sweep.ParseValues(0, p, vals.Format(p))
		if err != nil || again.Len() != vals.Len() || again.Format(p) != vals.Format(p) {
			t.Fatalf("%s %q: Format does not read back: %v", p.Name(), s, err)
		}
	})
}
