package reports

import (
	"fmt"
	"slices"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
)

// Reproduce writes the command that runs c as check ran it: leasesim run
// with every parameter or, against an incident, leasesim replay of it with
// every parameter the incident leaves free, at the phase it is written in,
// times in the tick's unit, and the jitter's seed if it is not 0: the
// command column of leasesim check's violations.
func Reproduce(c model.Config, tick model.Tick, seed uint64, incidentFile, epoch string) string {
	b := []byte("leasesim run")
	if incidentFile != "" {
		b = []byte("leasesim replay --trace")
	}
	if tick != 0 {
		b = fmt.Appendf(b, " --tick=%s", tick)
	}
	if epoch != "" {
		b = fmt.Appendf(b, " --epoch=%s", epoch)
	}
	if seed != 0 {
		b = fmt.Appendf(b, " --seed=%d", seed)
	}
	if incidentFile != "" { // the incident as written, not replay's spread over its phases
		b = fmt.Appendf(b, " --phase=%s", tick.FormatValue(model.Outage, 0))
	}
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if incidentFile == "" || !slices.Contains(incident.Params(), p) {
			b = fmt.Appendf(b, " --%s=%s", p.Flag(), tick.FormatValue(p, c.Get(p)))
		}
	}
	if incidentFile != "" {
		b = fmt.Appendf(b, " %s", incidentFile)
	}
	return string(b)
}
