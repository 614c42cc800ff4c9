package cost_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// TestParseFailureMix: each entry's kind, scope, lengths and rate, and
// the entry and key of what is wrong.
func TestParseFailureMix(t *testing.T) {
	sec := model.Tick(1e9)
	for _, tt := range []struct {
		in       string
		want     []cost.FailureEntry
		entry    int
		key, msg string
	}{
		{in: "kind=isolate scope=every-node lengths=30s:0.8,5m:0.2 per_year=8; kind=pause scope=leader lengths=2m per_year=4",
			want: []cost.FailureEntry{
				{Kind: model.Isolated, Scope: cost.ScopeEveryNode, Lengths: []cost.MixEntry{{Outage: 30, Weight: 0.8}, {Outage: 300, Weight: 0.2}}, PerYear: 8},
				{Kind: model.Paused, Scope: cost.ScopeLeader, Lengths: []cost.MixEntry{{Outage: 120, Weight: 1}}, PerYear: 4}}},
		{in: "per_year=1 lengths=10s scope=zone kind=slow",
			want: []cost.FailureEntry{{Kind: model.Slowed, Scope: cost.ScopeZone, Lengths: []cost.MixEntry{{Outage: 10, Weight: 1}}, PerYear: 1}}},
		{in: "kind=isolate scope=leader lengths=10s per_year=1; kind=nap scope=leader lengths=10s per_year=1", entry: 1, key: "kind",
			msg: `entry 2: kind: "nap": want one of isolate, black-hole, slow, partition, pause, crash or release`},
		{in: "kind=skew:2 scope=one-node lengths=1h per_year=12", key: "kind",
			msg: `entry 1: kind: "skew:2": a clock skew goes in an incident's lines (replay, report --incident) or a montecarlo --also process, whose failures carry its value, not in a failure mix: want one of isolate, black-hole, slow, partition, pause, crash or release`},
		{in: "kind=skew scope=one-node lengths=1h per_year=12", key: "kind", msg: `entry 1: kind: "skew": a clock skew goes in an incident's lines (replay, report --incident) or a montecarlo --also process, whose failures carry its value, not in a failure mix: want one of isolate, black-hole, slow, partition, pause, crash or release`},
		{in: "kind=isolate:3 scope=one-node lengths=1h per_year=12", key: "kind", msg: `entry 1: kind: "isolate:3": want one of isolate, black-hole, slow, partition, pause, crash or release`},
		{in: "kind=isolate scope=rack lengths=10s per_year=1", key: "scope", msg: `entry 1: scope: "rack": want leader, one-node, zone or every-node`},
		{in: "kind=isolate scope=leader lengths=10s per_year=0", key: "per_year", msg: `entry 1: per_year: "0": want a positive number of events a year`},
		{in: "kind=isolate scope=leader per_year=2", key: "lengths", msg: "entry 1: lengths: missing: each entry gives kind, scope, lengths, per_year"},
		{in: "kind=isolate scope=leader lengths=10x per_year=2", key: "lengths"},
		{in: "kind=isolate kind=pause scope=leader lengths=10s per_year=2", key: "kind", msg: "entry 1: kind: given twice: want it once"},
		{in: "kind=isolate scope=leader lengths=10s per_year=2 rate=3", key: "rate"},
		{in: "kind=isolate;", entry: 0, key: "scope"},
		{in: "kind=isolate scope=leader lengths=10s per_year=2;;", entry: 1, key: ""},
	} {
		got, err := cost.ParseFailureMix(sec, tt.in)
		if tt.want != nil {
			if err != nil || !equalEntries(got, tt.want) {
				t.Errorf("ParseFailureMix(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
			continue
		}
		var fe *cost.FailureMixError
		switch {
		case !errors.As(err, &fe):
			t.Errorf("ParseFailureMix(%q): error %v, want a *FailureMixError", tt.in, err)
		case fe.Entry != tt.entry || fe.Key != tt.key:
			t.Errorf("ParseFailureMix(%q): entry %d, key %q; want %d, %q (%v)", tt.in, fe.Entry, fe.Key, tt.entry, tt.key, err)
		case tt.msg != "" && err.Error() != tt.msg:
			t.Errorf("ParseFailureMix(%q): %q\nwant %q", tt.in, err, tt.msg)
		}
	}
}

func equalEntries(a, b []cost.FailureEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Scope != b[i].Scope || a[i].PerYear != b[i].PerYear || len(a[i].Lengths) != len(b[i].Lengths) {
			return false
		}
		for j := range a[i].Lengths {
			if x, y := a[i].Lengths[j], b[i].Lengths[j]; x.Outage != y.Outage || x.Weight != y.Weight {
				return false
			}
		}
	}
	return true
}

// TestFailureMixYearly: a failure mix's yearly figures, hand-computed, add
// up its entries'. The publication's deployment (5 nodes, lease 3): an
// outage of the leader longer than the lease hands over once; one of a
// round, never, unless it crashes; a node that fails wherever it is, is
// the leader in one event of 5; every node at once leaves nobody to take
// over.
func TestFailureMixYearly(t *testing.T) {
	c := model.Default()
	leader5 := cost.FailureEntry{Kind: model.Isolated, Scope: cost.ScopeLeader, Lengths: []cost.MixEntry{{Outage: 5, Weight: 1}}, PerYear: 10}
	for _, tt := range []struct {
		name      string
		entries   []cost.FailureEntry
		perYear   float64
		handovers float64 // a year
		weights   []float64
		every     float64 // the share of events that take every node
	}{
		{"the leader, 5 rounds, 10 a year: 10 handovers", []cost.FailureEntry{leader5}, 10, 10, []float64{1}, 0},
		{"and one node, 5 rounds, 5 a year: the leader in 1 of 5", []cost.FailureEntry{leader5,
			{Kind: model.Isolated, Scope: cost.ScopeOneNode, Lengths: []cost.MixEntry{{Outage: 5, Weight: 1}}, PerYear: 5}}, 15, 10 + 5.0/5, []float64{10.0 / 15, 5.0 / 15}, 0},
		{"and the leader 1 round in 3 events of 4, 5 rounds in 1, 8 a year", []cost.FailureEntry{leader5,
			{Kind: model.Isolated, Scope: cost.ScopeLeader, Lengths: []cost.MixEntry{{Outage: 1, Weight: 0.75}, {Outage: 5, Weight: 0.25}}, PerYear: 8}}, 18, 10 + 0.25*8, []float64{10.0 / 18, 6.0 / 18, 2.0 / 18}, 0},
		{"and the same crashing: a crashed leader forgets that it led, so a round hands over too", []cost.FailureEntry{leader5,
			{Kind: model.Crashed, Scope: cost.ScopeLeader, Lengths: []cost.MixEntry{{Outage: 1, Weight: 0.75}, {Outage: 5, Weight: 0.25}}, PerYear: 8}}, 18, 10 + 8, []float64{10.0 / 18, 6.0 / 18, 2.0 / 18}, 0},
		{"every node, 5 rounds, 6 a year: nobody takes over", []cost.FailureEntry{
			{Kind: model.Isolated, Scope: cost.ScopeEveryNode, Lengths: []cost.MixEntry{{Outage: 5, Weight: 1}}, PerYear: 6}}, 6, 0, []float64{1}, 1},
		{"and the leader 5 rounds, 10 a year: 10 handovers, 6 events of 16 every node's", []cost.FailureEntry{leader5,
			{Kind: model.Isolated, Scope: cost.ScopeEveryNode, Lengths: []cost.MixEntry{{Outage: 5, Weight: 0.5}, {Outage: 2, Weight: 0.5}}, PerYear: 6}}, 16, 10, []float64{10.0 / 16, 3.0 / 16, 3.0 / 16}, 6.0 / 16},
	} {
		mix, perYear := cost.FlattenFailures(tt.entries, 2)
		if every := cost.EveryNodeShare(mix); every != tt.every {
			t.Errorf("%s: %g of the events take every node, want %g", tt.name, every, tt.every)
		}
		if perYear != tt.perYear || len(mix) != len(tt.weights) {
			t.Fatalf("%s: %d events, %g a year; want %d, %g", tt.name, len(mix), perYear, len(tt.weights), tt.perYear)
		}
		for i, e := range mix {
			if math.Abs(e.Weight-tt.weights[i]) > 1e-12 {
				t.Errorf("%s: event %d's weight %g, want %g", tt.name, i, e.Weight, tt.weights[i])
			}
		}
		ranks, err := cost.Recommend(context.Background(), c, 1, []cost.Candidate{cost.CandidateOf(c)}, mix, perYear, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := ranks[0].Handovers; math.Abs(got-tt.handovers) > 1e-9 {
			t.Errorf("%s: %g handovers a year, want %g", tt.name, got, tt.handovers)
		}
		sum := 0.0 // each entry alone at its own rate
		for _, e := range tt.entries {
			one, _ := cost.FlattenFailures([]cost.FailureEntry{e}, 2)
			r, err := cost.Recommend(context.Background(), c, 1, []cost.Candidate{cost.CandidateOf(c)}, one, e.PerYear, 1)
			if err != nil {
				t.Fatal(err)
			}
			sum += r[0].Handovers
		}
		if math.Abs(sum-tt.handovers) > 1e-9 {
			t.Errorf("%s: the entries alone add up to %g handovers a year, want %g", tt.name, sum, tt.handovers)
		}
	}
}

// TestScopeOn: a single run of an event takes down the nodes its scope
// names, from the leader, failing by its kind's toggle alone.
func TestScopeOn(t *testing.T) {
	c := model.Default() // 5 nodes
	c.Pause = true
	for _, tt := range []struct {
		e           cost.MixEntry
		down        int
		pause, hang bool
	}{
		{cost.MixEntry{Kind: model.Isolated, Scope: cost.ScopeLeader}, 1, false, false},
		{cost.MixEntry{Kind: model.BlackHoled, Scope: cost.ScopeZone, Zone: 2}, 2, false, true},
		{cost.MixEntry{Kind: model.Slowed, Scope: cost.ScopeEveryNode}, 5, false, true},
		{cost.MixEntry{Kind: model.Paused, Scope: cost.ScopeOneNode}, 1, true, false},
		{cost.MixEntry{}, 1, true, false}, // the configuration's own
	} {
		got := tt.e.On(c)
		if got.Down != tt.down || got.DownFrom != 0 || got.Pause != tt.pause || got.BlackHole != tt.hang {
			t.Errorf("%+v: down %d from %d, pause %t, black hole %t; want %d from 0, %t, %t", tt.e, got.Down, got.DownFrom, got.Pause, got.BlackHole, tt.down, tt.pause, tt.hang)
		}
	}
}
