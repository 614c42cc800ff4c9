package model_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/leasesim/leasesim/internal/soak"
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

// refKinds are the failure kinds the reference covers, as toggles.
var refKinds = []func(*model.Config){
	func(*model.Config) {},
	func(c *model.Config) { c.Partition = true },
	func(c *model.Config) { c.Pause = true },
	func(c *model.Config) { c.Crash = true },
	func(c *model.Config) { c.Release = true },
}

// grid walks every combination of the dimensions' lengths, each every-th
// (a stride prime to each length meets every value of every dimension),
// calling visit with one index per dimension.
func grid(lengths []int, every int, visit func(ix []int)) {
	total := 1
	for _, l := range lengths {
		total *= l
	}
	ix := make([]int, len(lengths))
	for i := 0; i < total; i += every {
		k := i
		for d, l := range lengths {
			ix[d], k = k%l, k/l
		}
		visit(ix)
	}
}

// refCheck runs c under schedule s (ws, its windows, for the reference) on
// the Runner and the reference and reports a difference.
func refCheck(t *testing.T, r *model.Runner, c model.Config, s model.Schedule, ws model.Windows) bool {
	t.Helper()
	got, err := r.RunSchedule(c, s)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	d := refDiff(got, reference(c, ws))
	if d == "" {
		return true
	}
	for _, k := range refDivergences {
		if refDiff(got, referenceWay(c, ws, k.way)) == "" {
			refKnown[k.name]++
			return true
		}
	}
	t.Errorf("%+v, windows %v: the Runner gives%s", c, ws, d)
	return false
}

// refDivergences are where the Runner and the reference are known to
// disagree: each names the engine's way, which the reference takes on
// when asked, and why it is not the docs'.
var refDivergences = []struct {
	name string
	way  refWay
}{
	// docs/model.md: a follower takes over once the lease has run out
	// since the last renewal, between two attempts of a leader that is
	// back too. With a lease shorter than the retry period and a renewal
	// off the retry rounds (a leader woken from a pause renews as it
	// wakes), the lease runs out before the next attempt; the engine
	// takes no lease to run out within a retry period of a renewal.
	{"no takeover within a retry period of a renewal", refWay{leaseOutlastsRetry: true}},
}

// refKnown counts the comparisons that met each known divergence.
var refKnown = map[string]int{}

// TestReferenceElection compares the Runner with the reference over a
// small grid of who leads: node counts, leases, re-reads, retry periods,
// renew deadlines, outages of zones of the leader or of standbys, every
// kind of failure the reference covers, clock drift, quorum, fencing and
// the persistent trigger, with instant batches.
func TestReferenceElection(t *testing.T) {
	var r model.Runner
	nodes, leases, renewals, retries, deadlines := []int{1, 2, 3}, []int{1, 2, 4, 7}, []int{0, 1, 3}, []int{1, 2, 3}, []int{0, 2, 3, 6}
	outages, starts, drifts := []int{0, 2, 5, 11}, []int{1, 3, 6}, []int{0, -500, 1000}
	n, bad := 0, 0
	grid([]int{3, 4, 3, 3, 4, 4, 3, 2, 2, len(refKinds), 3, 2, 2, 2}, soak.Every(13, 101), func(ix []int) {
		c := model.Config{
			Policy: model.Policy{Nodes: nodes[ix[0]], Lease: leases[ix[1]], Renewal: renewals[ix[2]], RetryPeriod: retries[ix[3]], RenewDeadline: deadlines[ix[4]],
				Period: 2, BatchLen: 1, Fencing: ix[11] == 1, Quorum: ix[12] == 1, PersistentTrigger: ix[13] == 1},
			Scenario: model.Scenario{Outage: outages[ix[5]], Start: starts[ix[6]], Rounds: 30, Down: 1 + ix[7], DownFrom: ix[8], Drift: drifts[ix[10]]},
		}
		refKinds[ix[9]](&c)
		if c.Validate() != nil || bad > 10 {
			return
		}
		if !refCheck(t, &r, c, c.Schedule(), refWindows(c)) {
			bad++
		}
		n++
	})
	t.Logf("%d configurations; known divergences met: %v", n, refKnown)
}
