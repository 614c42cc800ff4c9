package input

import (
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestSameTick refuses a preset of another tick than the first's, unless
// --tick is given.
func TestSameTick(t *testing.T) {
	kube, _ := settings.PresetByName("kubernetes")
	consul, _ := settings.PresetByName("consul")
	for _, c := range []struct {
		tick string // --tick given, if not empty
		p    settings.Preset
		err  string
	}{
		{"", kube, ""},
		{"", consul, "--preset consul's rounds are 500ms, kubernetes's 1s: give --tick to compare them"},
		{"1s", consul, ""},
	} {
		cfg := model.Default()
		var preset settings.Preset
		f := modelFlags(&cfg, &preset)
		if c.tick != "" {
			f.set(t, "tick", c.tick)
		}
		err := SameTick(f, kube, c.p, model.Tick(kube.Tick()), "compare them")
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s with --tick %q: %v, want %q", c.p.Name, c.tick, err, c.err)
		}
	}
}
