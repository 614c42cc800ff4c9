package input

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// SameTick refuses p, one of a list of presets that a command compares,
// where its tick (PresetTick) is not tick, the first's (first), unless
// --tick was given: doing says what the command would do with them
// ("compare them").
func SameTick(f Flags, first, p settings.Preset, tick model.Tick, doing string) error {
	if Given(f, "tick") {
		return nil
	}
	if pt, err := PresetTick(f, p); err == nil && pt != tick {
		return fmt.Errorf("--preset %s's rounds are %s, %s's %s: give --tick to %s", p.Name, pt, first.Name, tick, doing)
	}
	return nil
}
