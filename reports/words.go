package reports

import (
	"fmt"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
)

// batchName names c's batch by its period, as a team says it: "hourly
// batch", "nightly batch", "15-minute batch", "weekly batch", or "batch
// every 7h0m0s"; without a tick, the publication's "end-of-day batch".
func batchName(t model.Tick, c model.Config) string {
	if t == 0 {
		return "end-of-day batch"
	}
	d := time.Duration(c.Period) * time.Duration(t)
	switch {
	case d == time.Hour:
		return "hourly batch"
	case d == 24*time.Hour:
		return "nightly batch"
	case d == 7*24*time.Hour:
		return "weekly batch"
	case d < time.Hour && d%time.Minute == 0:
		return fmt.Sprintf("%d-minute batch", d/time.Minute)
	case d < 24*time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d-hourly batch", d/time.Hour)
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d-day batch", d/(24*time.Hour))
	}
	return "batch every " + t.DurationOf(c.Period)
}

// failingKind says how c's group outage fails its nodes, by the kind's
// name (model.Kinds): "crashed", "paused", "partitioned", "black-holed",
// "stopped cleanly", several joined, or "isolated" (cut off from the
// record and the store, the model's plain outage), which without a tick
// is the publication's "unreachable".
func failingKind(t model.Tick, c model.Config) string {
	var ks []string
	for _, k := range model.Kinds() {
		if k.Toggle != model.Param(model.NumParams) && c.Get(k.Toggle) != 0 {
			ks = append(ks, k.Said)
		}
	}
	switch {
	case ks == nil && t == 0:
		return "unreachable"
	case ks == nil:
		return "isolated"
	}
	return strings.Join(ks, " and ")
}
