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
	"github.com/leasesim/leasesim/model/parse"
)

// TestScenarios runs the scenario files under testdata/scenarios. Each
// case is a command and its expected output:
//
//	run nodes=1 outage=5 [windows=0:6-12,1:9-12] [seeds=1000]
//	episodes nodes=2 ...
//	trace nodes=2 ...
//
// "run" prints the statistics of one run, "episodes" how its leaderless
// and two-leader rounds fall into episodes, "trace" the round-by-round
// timeline. Arguments are model parameters by their snake_case names; the
// rest keep the publication's defaults. windows= replaces the publication's outage by
// per-node windows node:first-last, each optionally :kind, the node's own
// kind of failure (isolate, black-hole, slow, partition,
// pause, crash, release, or skew:V, its clock V rounds ahead). seeds=N runs "run" with the followers' jitter
// drawn from each of the seeds 0 … N−1 (model.JitterSeed) and prints the
// statistics only if every seed gives the same, else the seeds that
// differ: a case with jitter is hand-computed only where its outcome
// does not hang on the draws, and this checks that it does not.
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
			seeds := 1
			for _, arg := range d.CmdArgs {
				switch arg.Key {
				case "windows":
					windows = parseWindows(t, arg.Vals)
					continue
				case "seeds":
					if len(arg.Vals) != 1 {
						d.Fatalf(t, "%s: want one number of seeds", arg)
					}
					if _, err := fmt.Sscan(arg.Vals[0], &seeds); err != nil || seeds < 1 {
						d.Fatalf(t, "%s: want a number of seeds, at least 1", arg)
					}
					continue
				}
				p, ok := model.ParamByName(arg.Key)
				if !ok || len(arg.Vals) != 1 {
					d.Fatalf(t, "unknown argument %s", arg)
				}
				v, err := parse.Value(0, p, arg.Vals[0])
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
				out := ""
				for seed := range uint64(seeds) {
					r := model.Runner{JitterSeed: model.JitterSeed(seed)}
					st, err := r.RunSchedule(c, schedule)
					if err != nil {
						return "error: " + err.Error() + "\n"
					}
					if err := model.CheckInvariants(c, schedule, st); err != nil {
						t.Errorf("%+v, seed %d: %v", c, seed, err)
					}
					s := formatStats(st)
					if d.Cmd == "episodes" {
						s = formatEpisodes(st)
					}
					if seed == 0 {
						out = s
					} else if s != out {
						return fmt.Sprintf("seed 0: %sseed %d: %s", out, seed, s)
					}
				}
				return out
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
		if i := strings.Index(v, ":"); i >= 0 {
			if j := strings.Index(v[i+1:], ":"); j >= 0 { // a second colon: a kind, KIND:VALUE for one that takes a value
				span, kind, hasKind = v[:i+1+j], v[i+2+j:], true
			}
		}
		if n, err := fmt.Sscanf(span+"\n", "%d:%d-%d\n", &w.Node, &w.First, &w.Last); n != 3 || err != nil {
			t.Fatalf("window %q: want node:first-last[:kind]", v)
		}
		if hasKind {
			f, err := parse.Failure(kind)
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
