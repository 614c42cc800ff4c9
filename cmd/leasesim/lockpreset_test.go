package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// TestEveryLockRowIsAFlag: every option of every lock row is a flag of
// every round-model command (the model's own flags carrying the preset's
// note) and of settings, and a round-model command takes each row's
// preset with its defaults; so a lock added to settings.LockRows is
// registered with nothing written here.
func TestEveryLockRowIsAFlag(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		if !slices.Contains([]string{"settings", "run", "sweep", "cost", "recommend", "report", "replay"}, c.name) {
			continue
		}
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.setup(fs)
		for _, row := range settings.LockRows() {
			for _, o := range row.Flags {
				f := fs.Lookup(o.Name)
				switch {
				case f == nil:
					t.Errorf("%s: no --%s, an option of --preset %s", c.name, o.Name, row.Preset)
				case c.name != "settings" && o.Model && !strings.HasSuffix(f.Usage, o.Usage):
					t.Errorf("%s --%s: help %q; want it to end with --preset %s's note %q", c.name, o.Name, f.Usage, row.Preset, o.Usage)
				case c.name != "settings" && o.Refusal != "" && !f.Hidden:
					t.Errorf("%s --%s: shown, though the round model refuses it", c.name, o.Name)
				}
			}
		}
	}
	for _, row := range settings.LockRows() {
		if code, stdout, stderr := runCmd(t, "settings", "--preset", row.Preset); code != 0 || stderr != "" || !strings.Contains(stdout, "two_leader_margin") {
			t.Errorf("settings --preset %s: exit %d, %q, %q", row.Preset, code, stdout, stderr)
		}
		if code, _, stderr := runCmd(t, "run", "--preset", row.Preset, "--rounds", "10m"); code != 0 {
			t.Errorf("run --preset %s: exit %d, %q", row.Preset, code, stderr)
		}
	}
}
