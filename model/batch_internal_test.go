package model

import "testing"

// TestCutBatchKeepsNoDeadRuns: a batch cut again and again (nodes up for
// 3 rounds at a time, a batch 8 rounds long, rerun on a cut) keeps no run
// whose process is gone, so the runs a round passes stay as many as the
// batches still open, not one for every restart: 4,000 rounds had left
// 16,836 runs for 183 open batches, and a property test's 72,631-round
// run took hours.
func TestCutBatchKeepsNoDeadRuns(t *testing.T) {
	c := Config{
		Policy: Policy{Nodes: 2, Lease: 11, RereadPeriod: 12, RetryPeriod: 3, Period: 12, BatchLen: 8,
			PersistentTrigger: true, CatchUpOnce: true, IdempotencyKey: true, Overlap: OverlapSkip, OnCut: CutRerun, RunsIn: RunsInJob, Quorum: true, Jitter: true},
		Scenario: Scenario{Outage: 15, Start: 2, Rounds: 4000, Down: 2, Pause: true, Crash: true, BlackHole: true, Drift: 5},
	}
	var r Runner
	st, err := r.RunSchedule(c, &Alternating{Up: Lengths{A: 3}, Down: Lengths{A: 3}, Seed: [2]uint64{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if groups, runs := len(r.groups), len(r.runs); runs > groups*c.Nodes {
		t.Errorf("%d runs kept for %d open batches of %d nodes", runs, groups, c.Nodes)
	}
	if st.PartialBatches != 183 || st.Started != 183 {
		t.Errorf("%d batches started, %d cut: want 183 and 183, as before runs were dropped", st.Started, st.PartialBatches)
	}
}
