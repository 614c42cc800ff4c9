package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoLeaderWarnings: settings that leave no two-leader margin
// (openshift-sno's 270s lease beside its 60s retry period and 240s renew
// deadline) are warned of by every command that runs them, once, on
// standard error (recommend names the first lease it lists that leaves none);
// the report opens with the warning and recommends no
// such lease; recommend never chooses one.
func TestTwoLeaderWarnings(t *testing.T) {
	t.Parallel()
	const warning = "two leaders: the lease 4m30s is not longer than the retry period 1m0s and the renew deadline 4m0s together (a two-leader margin of -30s)"
	incident := filepath.Join("..", "..", "testdata", "incidents", "brownout.txt")
	for _, tt := range []struct {
		args []string
		who  string // what the line names before the warning
	}{
		{[]string{"run", "--preset", "openshift-sno", "--nodes", "3", "--period", "1h", "--rounds", "2h"}, ""},
		{[]string{"replay", "--preset", "kubernetes,openshift-sno", "--phase", "0s", "--nodes", "3", "--period", "1h", incident}, "openshift-sno, lease 4m30s: "},
		{[]string{"replay", "--preset", "openshift-sno", "--lease", "4m30s,4m40s", "--phase", "0s", "--nodes", "3", "--period", "1h", incident}, "openshift-sno, lease 4m30s (and 1 more of the 2 settings): "},
		{[]string{"montecarlo", "--preset", "openshift-sno", "--nodes", "3", "--period", "24h", "--rounds", "720h", "--replicas", "2"}, ""},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		prefix := "leasesim " + tt.args[0] + ": warning: " + tt.who + warning
		if code != 0 || stdout == "" || !strings.HasPrefix(stderr, prefix) || strings.Count(stderr, "two-leader margin") != 1 {
			t.Errorf("leasesim %s: exit %d, stderr %q, want it to begin %q", strings.Join(tt.args, " "), code, stderr, prefix)
		}
	}
	if _, _, stderr := runCmd(t, "run", "--preset", "openshift-sno", "--fencing", "--nodes", "3", "--period", "1h", "--rounds", "2h"); strings.Contains(stderr, "two leaders") {
		t.Errorf("with fencing: %q, want no two-leader warning", stderr)
	}

	_, stdout, stderr := runCmd(t, "recommend", "--preset", "openshift-sno", "--lease", "4m10s,4m30s,5m10s", "--outage-mix", "1m:1", "--period", "1h", "--cost-missed-line", "1")
	const recommendWarning = "leasesim recommend: warning: lease 4m10s (and 1 more of the 3 settings): two leaders: the lease 4m10s is not longer than the retry period 1m0s and the renew deadline 4m0s together (a two-leader margin of -50s)"
	if !strings.Contains(stdout, "no two-leader margin, so never chosen: 4m10s, 4m30s") || !strings.Contains(stdout, "cheapest lease: 5m10s") ||
		!strings.HasPrefix(stderr, recommendWarning) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("recommend: stdout %s, stderr %q, want it to begin %q", stdout, stderr, recommendWarning)
	}
	_, stdout, stderr = runCmd(t, "recommend", "--preset", "openshift-sno", "--lease", "4m10s,4m30s", "--outage-mix", "1m:1", "--period", "1h", "--cost-missed-line", "1")
	if !strings.Contains(stdout, "no lease is safe") || strings.Contains(stdout, "cheapest") || strings.Count(stderr, "two-leader margin") != 1 {
		t.Errorf("recommend with no safe lease: stdout %s, stderr %q", stdout, stderr)
	}
	if _, _, stderr := runCmd(t, "recommend", "--preset", "openshift-sno", "--fencing", "--lease", "4m10s,5m10s", "--outage-mix", "1m:1", "--period", "1h"); strings.Contains(stderr, "two leaders") {
		t.Errorf("recommend with fencing: %q, want no two-leader warning", stderr)
	}
	if _, _, stderr := runCmd(t, "recommend", "--preset", "openshift-sno", "--lease", "5m10s", "--outage-mix", "1m:1", "--period", "1h"); strings.Contains(stderr, "two leaders") {
		t.Errorf("recommend of a lease with a margin: %q, want no two-leader warning", stderr)
	}

	dir := t.TempDir()
	code, _, stderr := runCmd(t, "report", "--out", dir, "--preset", "openshift-sno", "--nodes", "3", "--period", "1h", "--rounds", "1h30m", "--start", "59m50s", "--outage", "4m", "--replicas", "5",
		"--candidates", "4m30s,6m", "--cost-missed-line", "1")
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	_, afterTitle, _ := strings.Cut(string(md), "\n\n**Warning:** ")
	if code != 0 || !strings.Contains(stderr, warning) || !strings.HasPrefix(afterTitle, warning) ||
		!strings.Contains(string(md), "Not recommended whatever they cost: 4m30s/4m0s/1m0s, 4m30s/4m0s/2m0s and 6m0s/4m0s/2m0s") ||
		!strings.Contains(string(md), "**Raise the lease to 6m0s** (6m0s/4m0s/1m0s): 2,646.7 a year against 2,080.0 for the current 4m30s/4m0s/1m0s, which leaves no two-leader margin") {
		t.Errorf("report: exit %d, stderr %q, report.md:\n%.3000s", code, stderr, md)
	}
}
