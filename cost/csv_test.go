package cost

import (
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
)

// TestWriteRecommendCSVLateness: the lateness a year, which the cost
// prices with the start's delay, is the last column, in seconds with a
// tick and in rounds without.
func TestWriteRecommendCSVLateness(t *testing.T) {
	r := Rank{Candidate: Candidate{Lease: 15}, DelayedRounds: 4, LateRounds: 6}
	for _, tt := range []struct {
		tick       model.Tick
		head, last string
	}{
		{0, "lateness_rounds_per_year", "6.000000"},
		{model.Tick(500 * time.Millisecond), "lateness_s_per_year", "3.000000"}, // 6 rounds of 500 ms
	} {
		var b strings.Builder
		if err := WriteRecommendCSV(&b, tt.tick, []Rank{r}, Weights{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
		if len(head) != len(row) || head[len(head)-1] != tt.head || row[len(row)-1] != tt.last {
			t.Errorf("tick %v: header %q, row %q: want the last column %s = %s", tt.tick, lines[0], lines[1], tt.head, tt.last)
		}
	}
}
