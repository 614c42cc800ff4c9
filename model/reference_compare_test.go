package model_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/model"
)

// refDiff names the statistics in which got and want differ, "" if none.
func refDiff(got, want model.Stats) string {
	var b strings.Builder
	g, w := got.Values(), want.Values()
	for s := range model.NumStats {
		if g[s] != w[s] {
			fmt.Fprintf(&b, " %s %d, want %d;", model.Stat(s).Name(), g[s], w[s])
		}
	}
	return b.String()
}

// TestReferenceScenarios: the reference gives the hand-computed results of
// every scenario it covers.
func TestReferenceScenarios(t *testing.T) {
	covered := 0
	datadriven.Walk(t, filepath.Join("testdata", "scenarios"), func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				return d.Expected
			}
			c := model.Default()
			var ws model.Windows
			hasWindows := false
			for _, arg := range d.CmdArgs {
				if arg.Key == "windows" {
					ws, hasWindows = parseWindows(t, arg.Vals), true
					continue
				}
				p, _ := model.ParamByName(arg.Key)
				v, err := p.ParseValue(arg.Vals[0])
				if err != nil {
					d.Fatalf(t, "%s: %v", arg, err)
				}
				c.Set(p, v)
			}
			if !hasWindows {
				ws = refWindows(c)
			}
			if c.Validate() != nil || !refCovers(c, ws) {
				return d.Expected
			}
			covered++
			return formatStats(reference(c, ws))
		})
	})
	if covered < 100 {
		t.Fatalf("the reference covers only %d scenarios", covered)
	}
	t.Logf("%d scenarios", covered)
}
