package sweep_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// TestLongLists: ranges of up to a billion values are kept as ranges:
// counted, indexed and checked for duplicates without being expanded.
func TestLongLists(t *testing.T) {
	tests := []struct {
		in   string
		len  int
		at   map[int]int // index: value
		text string      // Format's
	}{
		{"3:1000000000:6,10:1000000000:8", 166666667 + 124999999, map[int]int{0: 3, 166666666: 999999999, 166666667: 10}, "3:999999999:6,10:999999994:8"},
		{"1:999999999:2,1000000000", 500000001, map[int]int{499999999: 999999999, 500000000: 1000000000}, "1:999999999:2,1000000000"},
		{"7,1:6,8:1000000000", 1000000000, map[int]int{0: 7, 1: 1, 6: 6, 7: 8, 999999999: 1000000000}, "7,1:6,8:1000000000"},
	}
	for _, tt := range tests {
		l, err := sweep.ParseValues(0, model.Lease, tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if l.Len() != tt.len || l.Format(model.Lease) != tt.text {
			t.Errorf("%s: %d values, %q; want %d, %q", tt.in, l.Len(), l.Format(model.Lease), tt.len, tt.text)
		}
		for i, v := range tt.at {
			if got := l.At(i); got != v {
				t.Errorf("%s: value %d is %d, want %d", tt.in, i, got, v)
			}
		}
	}
	// A grid of two billion-value lists is counted and indexed, not built.
	g := sweep.NewGrid(model.Default())
	g.Values[model.Lease], _ = sweep.ParseValues(0, model.Lease, "1:1000000000")
	g.Values[model.Outage], _ = sweep.ParseValues(0, model.Outage, "0:1000000000")
	if n, err := g.Size(); err != nil || n != 1000000000*1000000001 {
		t.Errorf("Size %d, %v", n, err)
	}
	if c := g.Config(1000000001*5 + 7); c.Lease != 6 || c.Outage != 7 {
		t.Errorf("row 5e9+7: lease %d, outage %d", c.Lease, c.Outage)
	}
}

// TestDuplicatesAgainstExpansion: for random small lists of ranges, the
// duplicate ParseValues finds without expanding is the smallest value that
// occurs twice in the expanded list.
func TestDuplicatesAgainstExpansion(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var items []string
		for range 1 + r.IntN(3) {
			lo, step := 1+r.IntN(60), 1+r.IntN(12)
			hi := lo + r.IntN(80)
			items = append(items, fmt.Sprintf("%d:%d:%d", lo, hi, step))
		}
		s := strings.Join(items, ",")
		count := map[int]int{}
		want := -1
		for _, item := range items {
			var lo, hi, step int
			fmt.Sscanf(item, "%d:%d:%d", &lo, &hi, &step)
			for v := lo; v <= hi; v += step {
				if count[v]++; count[v] == 2 && (want < 0 || v < want) {
					want = v
				}
			}
		}
		_, err := sweep.ParseValues(0, model.Lease, s)
		switch {
		case want < 0 && err != nil:
			t.Fatalf("%s: %v, want no error", s, err)
		case want >= 0 && (err == nil || err.Error() != fmt.Sprintf("duplicate value %d", want)):
			t.Fatalf("%s: %v, want duplicate value %d", s, err, want)
		}
	}
}

// TestOdometerAgainstConfig: walking a grid row by row (as Write does)
// gives, at every row, the configuration Config computes directly.
func TestOdometerAgainstConfig(t *testing.T) {
	g := grid(t, map[model.Param]string{
		model.Nodes: "3,1:2", model.Lease: "1:7:3,2", model.Outage: "9,0:4:2,5",
		model.Period: "6", model.Fencing: "true,false",
	})
	whole := string(write(t, g, sweep.Options{Workers: 1}))
	rows := strings.Split(strings.TrimSuffix(whole, "\n"), "\n")[1:]
	size, _ := g.Size()
	if len(rows) != size {
		t.Fatalf("%d rows, want %d", len(rows), size)
	}
	for i, row := range rows {
		c := g.Config(i)
		if want := string(model.Tick(0).AppendValues(nil, &c)); !strings.HasPrefix(row, want+",") {
			t.Fatalf("row %d: %s, want parameters %s", i, row, want)
		}
	}
}
