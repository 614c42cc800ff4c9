package candidatelist_test

import (
	"errors"
	"reflect"
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
