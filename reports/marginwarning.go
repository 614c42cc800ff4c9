package reports

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
)

// MarginWarning is the two-leader warning (model.Tick.Warnings) of the
// first of configs that leaves no two-leader margin without fencing,
// named by name(i) (if not empty), and how many more do: a command that
// compares many settings says it once, not once a setting. It is "" when
// none does.
func MarginWarning(configs []model.Config, name func(i int) string, t model.Tick) string {
	var unsafe []int
	for i, c := range configs {
		if c.NoMargin() {
			unsafe = append(unsafe, i)
		}
	}
	if len(unsafe) == 0 {
		return ""
	}
	which := name(unsafe[0])
	if n := len(unsafe) - 1; n > 0 {
		which += fmt.Sprintf(" (and %d more of the %d settings)", n, len(configs))
	}
	if which != "" {
		which += ": "
	}
	return which + t.Warnings(configs[unsafe[0]])[0]
}
