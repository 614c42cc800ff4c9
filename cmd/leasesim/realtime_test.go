package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealTimeDefaults: with a tick, the outage's start and the run's
// length follow the period, as in rounds (start = period, four periods a
// run, or as long as the outage and the handover need); a flag given keeps
// its value; a period left at the round model's 6 rounds is warned of,
// once, and never beside a bad input's one line.
func TestRealTimeDefaults(t *testing.T) {
	t.Parallel()
	const noPeriod = "leasesim run: warning: --period is not given, so a batch falls due every 6s (the round model's 6 rounds of 1s): give the batch's period, --period 24h for a nightly one\n"
	for _, tt := range []struct {
		args          []string
		start, rounds string
		stderr        string
	}{
		{[]string{"--period", "24h"}, "86399", "345600", ""},                                    // four nights, the outage as the first batch falls due
		{[]string{"--period", "1m", "--outage", "10m"}, "59", "783", ""},                        // from round 60: the outage 600, twice the lease, retry period and deadline 54, five retry periods 10 and a period 60 (cost.SettleRounds), less 1
		{[]string{"--period", "24h", "--start", "1h", "--rounds", "30h"}, "3600", "108000", ""}, // flags keep their values
		{nil, "5", "80", noPeriod}, // the default period, 6s, warned of
	} {
		args := append([]string{"run", "--preset", "kubernetes", "--nodes", "3"}, tt.args...)
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 || stderr != tt.stderr || !strings.Contains(stdout, "\n  start_s              "+tt.start+"\n") || !strings.Contains(stdout, "\n  rounds_s             "+tt.rounds+"\n") {
			t.Errorf("%v: exit %d, stderr %q, want start_s %s and rounds_s %s in:\n%.400s", tt.args, code, stderr, tt.start, tt.rounds, stdout)
		}
	}
	if code, stdout, stderr := runCmd(t, "run", "--tick", "1s", "--lease", "0s"); code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "warning") {
		t.Errorf("bad input with the default period: exit %d, %q, %q: want its one line alone", code, stdout, stderr)
	}

	// A review file that gives the period and no run length is reviewed,
	// not refused for a run of 24 s.
	review := filepath.Join(t.TempDir(), "review.yaml")
	os.WriteFile(review, []byte("deployment:\n  preset: kubernetes\n  nodes: 3\nschedule:\n  period: 2h\nfailures:\n  outage: 30s\nstudy:\n  replicas: 5\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCmd(t, "report", "--out", out, review); code != 0 || strings.Contains(stderr, "--period") {
		t.Errorf("report of a review file with a period and no rounds: exit %d, %q", code, stderr)
	}
}
