package model_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/model"
)

// TestScenarios runs the scenario files under testdata/scenarios. Each
// case is a command and its expected output:
//
//	run nodes=1 outage=5 [windows=0:6-12,1:9-12]
//	episodes nodes=2 ...
//	trace nodes=2 ...
//
// "run" prints the statistics of one run, "episodes" how its leaderless
// and two-leader rounds fall into episodes, "trace" the round-by-round
// timeline. Arguments are model parameters by their snake_case names; the
// rest keep the publication's defaults. windows= replaces the publication's outage by
// per-node windows node:first-last, each optionally :kind, the node's own
// kind of failure (isolate, black-hole, slow, partition,
// pause, crash, release).
func TestScenarios(t *testing.T) {
	if golden.Update() {
		if err := flag.Set("rewrite", "true"); err != nil {
			t.Fatal(err)
		}
	}
	datadriven.Walk(t, filepath.Join("testdata", "scenarios"), func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			c := model.Default()
			var windows model.Windows
			for _, arg := range d.CmdArgs {
				if arg.Key == "windows" {
					windows = parseWindows(t, arg.Vals)
					continue
				}
				p, ok := model.ParamByName(arg.Key)
				if !ok || len(arg.Vals) != 1 {
					d.Fatalf(t, "unknown argument %s", arg)
				}
				v, err := p.ParseValue(arg.Vals[0])
				if err != nil {
					d.Fatalf(t, "%s: %v", arg, err)
				}
				c.Set(p, v)
			}
			var schedule model.Schedule = c.Schedule()
			if windows != nil {
				schedule = windows
			}
			switch d.Cmd {
			case "run", "episodes":
				var r model.Runner
				st, err := r.RunSchedule(c, schedule)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				if err := model.CheckInvariants(c, schedule, st); err != nil {
					t.Errorf("%+v: %v", c, err)
				}
				if d.Cmd == "episodes" {
					return formatEpisodes(st)
				}
				return formatStats(st)
			case "trace":
				b, err := new(model.Runner).AppendTrace(nil, c, schedule)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return string(b)
			}
			d.Fatalf(t, "unknown command %s", d.Cmd)
			return ""
		})
	})
}

func parseWindows(t *testing.T, vals []string) model.Windows {
	var ws model.Windows
	var items []string
	for _, v := range vals { // datadriven splits a value at commas only in key=(a, b)
		items = append(items, strings.Split(v, ",")...)
	}
	for _, v := range items {
		var w model.Window
		span, kind, hasKind := v, "", false
		if i := strings.LastIndex(v, ":"); i > strings.Index(v, ":") { // a second colon: a kind
			span, kind, hasKind = v[:i], v[i+1:], true
		}
		if n, err := fmt.Sscanf(span+"\n", "%d:%d-%d\n", &w.Node, &w.First, &w.Last); n != 3 || err != nil {
			t.Fatalf("window %q: want node:first-last[:kind]", v)
		}
		if hasKind {
			f, err := model.ParseFailure(kind)
			if err != nil {
				t.Fatalf("window %q: %v", v, err)
			}
			w.Failure = f
		}
		ws = append(ws, w)
	}
	return ws
}

func formatStats(st model.Stats) string {
	var b strings.Builder
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		if s > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", s.Name(), st.Get(s))
	}
	return b.String() + "\n"
}

func formatEpisodes(st model.Stats) string {
	var b strings.Builder
	for _, e := range []struct {
		stat     model.Stat
		episodes model.Episodes
	}{{model.LeaderlessRounds, st.LeaderlessEpisodes}, {model.TwoLeaderRounds, st.TwoLeaderEpisodes}} {
		fmt.Fprintf(&b, "%s=%d episodes=%d long=%d extra_sq=%d\n", e.stat.Name(), st.Get(e.stat), e.episodes.Count, e.episodes.Long, e.episodes.ExtraSq)
	}
	return b.String()
}
