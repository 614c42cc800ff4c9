package incident_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
)

// TestSettingAndBudget: a setting meets the incident as its outage and,
// without --rounds, runs until it settles after the incident's first
// round; one that does not go together is a skip, an incident naming a
// node it lacks a refusal naming the file's line; a budget refuses the
// spread that takes it past MaxRuns, naming the setting.
func TestSettingAndBudget(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0 isolate 10 5\n2 isolate 12 3\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	cfg, skip, err := in.Setting(c, false, "inc.txt", 0)
	if skip != nil || err != nil || cfg.Start != 10 || cfg.Outage != 5 || cfg.Rounds <= 14 {
		t.Errorf("Setting = start %d, outage %d, rounds %d, %v, %v; want the span 10 to 14 within the run", cfg.Start, cfg.Outage, cfg.Rounds, skip, err)
	}
	bad := c
	bad.Lease, bad.RenewDeadline = 3, 5
	var re *model.RelationError
	if _, skip, _ := in.Setting(bad, false, "inc.txt", 0); !errors.As(skip, &re) {
		t.Errorf("a lease shorter than its renew deadline: skip %v, want a RelationError", skip)
	}
	two := c
	two.Nodes = 2
	if _, _, err := in.Setting(two, false, "inc.txt", 0); err == nil || err.Error() != "inc.txt: line 2: node 2, but the run has 2 nodes (--nodes)" {
		t.Errorf("two nodes: %v", err)
	}
	var b incident.Budget
	s := incident.Sample{Phases: 1, Seeds: incident.MaxRuns}
	if err := b.Add("first", cfg, s); err != nil {
		t.Fatalf("a spread of MaxRuns runs: %v", err)
	}
	if err := b.Add("second", cfg, incident.Sample{Phases: 1, Seeds: 1}); err == nil || !strings.HasPrefix(err.Error(), "the spread of second over its incident's phases") {
		t.Errorf("one run past MaxRuns: %v", err)
	}
}
