package candidatelist_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/model"
)

// TestSplit: entries at newlines and ';', comments and empty entries
// left out, each with its line.
func TestSplit(t *testing.T) {
	got := candidatelist.Split("lease=20s; lease=30s # two\n\n# none\n nodes=5 ;")
	want := []candidatelist.Text{{"lease=20s", 0}, {"lease=30s", 0}, {"nodes=5", 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestParseEntry: an entry's settings in rounds, and its refusals, each
// naming the keys as the entry does.
func TestParseEntry(t *testing.T) {
	tick := model.Tick(time.Second)
	e, err := candidatelist.ParseEntry("lease=20s, nodes=5", tick)
	if want := []candidatelist.Setting{{model.Lease, 20}, {model.Nodes, 5}}; err != nil || !reflect.DeepEqual(e.Set, want) {
		t.Errorf("lease=20s, nodes=5: %v, %v; want %v", e.Set, err, want)
	}
	e, err = candidatelist.ParseEntry("preset=etcd session_ttl=9s", tick)
	if err != nil || e.Lock.Lease != 9*time.Second || !e.HasPreset || e.Preset.Name != "etcd" {
		t.Errorf("preset=etcd session_ttl=9s: %+v, %v", e, err)
	}
	for _, tt := range []struct{ entry, err string }{
		{"lease", `"lease" is not KEY=VALUE: want preset=NAME or one of lease, renew_deadline, retry_period, nodes, fencing, persistent_trigger, catch_up_window, catch_up_once, idempotency_key, overlap, on_cut, runs_in, protocol, lock_delay, acquire_wait, disconnect_delay, as lease=45s`},
		{"session-ttl=9s", `key "session-ttl": write it session_ttl, named as its parameter is, with underscores`},
		{"lease=20s lease_duration=30s", "lease is given twice: want each key once"},
		{"preset=etcd lease=10s", "lease is not an option of preset=etcd, which takes session_ttl"},
		{"session_ttl=9s", "session_ttl is an option of preset=etcd or consul: give preset=, which sets the model's protocol, lease and retry period from it"},
		{"preset=etcd session_ttl=2500ms", "preset=etcd session_ttl=2500ms: session TTL 2.5s: want whole seconds, at least 1s (concurrency.WithTTL takes seconds); the nearest it takes at a round of 1s: session_ttl=3s"},
		{"preset=dynamodb refresh_period=2s lease=21s", "preset=dynamodb lease=21s refresh_period=2s: lease 21s is not a whole number of refresh_period 2s: the round model's waiters read the record every round, which is the refresh period, so it takes a multiple of it (20s, 22s, …)"},
	} {
		if _, err := candidatelist.ParseEntry(tt.entry, tick); err == nil || err.Error() != tt.err {
			t.Errorf("%s:\n got %v\nwant %s", tt.entry, err, tt.err)
		}
	}
}

// TestCandidate: an entry's candidate for a deployment, and a
// CandidateError naming the entry where the deployment's tick cannot
// hold its preset's times.
func TestCandidate(t *testing.T) {
	tick := model.Tick(time.Second)
	e, err := candidatelist.ParseEntry("lease=20s renew_deadline=12s", tick)
	if err != nil {
		t.Fatal(err)
	}
	k, err := e.Candidate(model.Default(), tick)
	if err != nil || k.Lease != 20 || k.RenewDeadline != 12 {
		t.Errorf("lease=20s renew_deadline=12s: %+v, %v", k, err)
	}
	e, err = candidatelist.ParseEntry("preset=zookeeper", tick)
	if err != nil {
		t.Fatal(err)
	}
	e.N = 1
	_, err = e.Candidate(model.Default(), tick)
	var ce *candidatelist.CandidateError
	if want := "entry 1 (preset=zookeeper): preset zookeeper sets retry-period 13.333s, which --tick 1s cannot hold: 13.333s is not a whole number of ticks: want a duration from 1s to 277777h46m40s in whole ticks of 1s"; !errors.As(err, &ce) || err.Error() != want {
		t.Errorf("preset=zookeeper:\n got %v\nwant %s", err, want)
	}
}

// TestParseErrors: a list's refusals are structured: an entry's carries
// its number, its line in the list and its text (what a review file
// names and a flag echoes); a list with no entry or too many is refused
// whole; and EntryAt finds the line of an entry a CandidateError names.
func TestParseErrors(t *testing.T) {
	text := "lease=10s\n# a comment\n\nlease=20s; lease=ten\n"
	_, err := candidatelist.Parse(text, model.Tick(time.Second))
	var ee *candidatelist.EntryError
	if !errors.As(err, &ee) || ee.N != 3 || ee.Line != 3 || ee.Text != "lease=ten" || !strings.HasPrefix(err.Error(), `entry 3: lease "ten": want a duration`) {
		t.Errorf("Parse(%q) = %v (%+v), want entry 3 on line 3, lease=ten", text, err, ee)
	}
	if line, ok := candidatelist.EntryAt(text, 2); !ok || line != 3 {
		t.Errorf("EntryAt(2) = %d, %v; want line 3", line, ok)
	}
	if _, ok := candidatelist.EntryAt(text, 4); ok {
		t.Errorf("EntryAt(4) found an entry of a list of 3")
	}
	var le *candidatelist.ListError
	if _, err := candidatelist.Parse("# none", 0); !errors.As(err, &le) || le.N != 0 || err.Error() != "no candidate: want "+candidatelist.Syntax {
		t.Errorf("Parse of no entry = %v", err)
	}
	if _, err := candidatelist.Parse(strings.Repeat("nodes=3;", candidatelist.Max+1), 0); !errors.As(err, &le) || le.N != candidatelist.Max+1 || err.Error() != "want at most 1000 candidates" {
		t.Errorf("Parse of %d entries = %v", candidatelist.Max+1, err)
	}
	es, err := candidatelist.Parse("nodes=5; lease=4", 0)
	if err != nil || len(es) != 2 || es[0].N != 1 || es[1].N != 2 || es[1].Set[0] != (candidatelist.Setting{Param: model.Lease, Value: 4}) {
		t.Errorf("Parse(nodes=5; lease=4) = %+v, %v", es, err)
	}
}
