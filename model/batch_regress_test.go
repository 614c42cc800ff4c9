package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// TestLateCountsEarliestRun: two runs of one batch group pass a stretch
// one after the other, and the one passed second may write the batch's
// last part in an earlier round than the first; the batch is late by the
// earliest, stretch by stretch as round by round. TestPropertyInvariants
// found it (its draw below): round by round gave 3 late rounds fewer,
// from round 36,753 on.
func TestLateCountsEarliestRun(t *testing.T) {
	c := model.Config{
		Policy:   model.Policy{Nodes: 3, Lease: 1, RereadPeriod: 2, RetryPeriod: 1, Period: 20, BatchLen: 20, PersistentTrigger: true, Overlap: model.OverlapSkip, Jitter: true},
		Scenario: model.Scenario{Outage: 391, Start: 43, Rounds: 36_800, DownFrom: 1, Pause: true},
	}
	up, _ := parse.Lengths(0, "geometric:5")
	down, _ := parse.Lengths(0, "lognormal:1,0.8")
	slowUp, _ := parse.Lengths(0, "fixed:40")
	slowDown, _ := parse.Lengths(0, "fixed:3")
	s := &model.Alternating{Up: up, Down: down, Seed: [2]uint64{0xb, 1},
		Also: []model.Process{{Up: slowUp, Down: slowDown, Failure: model.Failure{Kind: model.Slowed}}}}
	var r model.Runner
	if err := r.Check(c, s); err != nil {
		t.Fatal(err)
	}
}
