package cost_test

import (
	"context"
	"fmt"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// The publication's scenario at 6 handovers a year and 4,000 lines a batch, by
// both methods.
func Example() {
	c := model.Default()
	w, _ := cost.WindowMethod(c, 0, nil)
	p, _ := cost.PhaseMethod(context.Background(), c, 0, nil)
	for _, pr := range []cost.Projection{
		cost.Project(cost.Window, w.PerEvent(), 6, 4000),
		cost.Project(cost.Phase, p.PerEvent(), 6, 4000),
	} {
		fmt.Printf("%-6s missed %5.0f lines/yr, doubled %5.0f lines/yr\n", pr.Method, pr.MissedLines(), pr.DoubleLines())
	}
	// Output:
	// window missed  2000 lines/yr, doubled  2000 lines/yr
	// phase  missed  8000 lines/yr, doubled 12000 lines/yr
}
