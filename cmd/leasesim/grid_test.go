package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGridSkips: every command that runs a list of settings runs those
// that go together, says on standard error in one line how many of them
// it skipped and the first one's reason, and refuses the whole, one line
// and exit 2 with nothing written, only when none is left.
func TestGridSkips(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc.txt")
	if err := os.WriteFile(inc, []byte("0,isolate,5,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const lease = "--lease 2 must be longer than --renew-deadline 3"
	for _, tc := range []struct {
		args   string
		code   int
		stderr string // the one line's start, after "leasesim CMD: "
		rows   int    // with code 0 and rows > 0: the CSV's lines, header included
	}{
		{"sweep --renewal 0,3 --lease 2:4 --renew-deadline 0,3", 0, "skipped 7 of the 12 configurations: their flags' values do not go together; the first: --renewal 0 (never re-read) needs a --renew-deadline above 0", 6},
		{"sweep --batch-len 1,3 --period 2", 0, "skipped 1 of the 2 configurations: their flags' values do not go together; the first: --batch-len 3 must be at most --period 2", 2},
		{"sweep --overlap allow,buffer-one --batch-len 2 --persistent-trigger false,true", 0, "skipped 1 of the 4 configurations: their flags' values do not go together; the first: --overlap buffer-one needs --persistent-trigger true", 4},
		{"sweep --lease 2,5 --renew-deadline 3 --dry-run", 0, "skipped 1 of the 2 configurations", 0},
		{"sweep --lease 2,3 --renew-deadline 3", 2, "none of the 2 configurations goes together; the first: " + lease, 0},
		{"sweep --renewal 0 --renew-deadline 0", 2, "--renewal 0 (never re-read) needs a --renew-deadline above 0", 0},
		{"montecarlo --lease 2,5 --renew-deadline 3 --replicas 8 --rounds 500", 0, "skipped 1 of the 2 configurations: their flags' values do not go together; the first: " + lease, 0},
		{"montecarlo --lease 2,3 --renew-deadline 3 --replicas 8 --rounds 500", 2, "none of the 2 configurations goes together; the first: " + lease, 0},
		{"recommend --lease 2:6 --renew-deadline 3", 0, "skipped 2 of the 5 leases: their flags' values do not go together; the first: " + lease, 0},
		{"recommend --lease 2:3 --renew-deadline 3", 2, "none of the 2 leases goes together; the first: " + lease, 0},
		{"replay --lease 2,5 --renew-deadline 3 " + inc, 0, "skipped 1 of the 2 settings: their flags' values do not go together; the first: " + lease, 0},
		{"replay --lease 2,3 --renew-deadline 3 " + inc, 2, "none of the 2 settings goes together; the first: " + lease, 0},
		{"report --out " + filepath.Join(dir, "none") + " --lease 5 --renew-deadline 3 --candidates 2,3", 2, "none of the 2 candidate leases goes together; the first: " + lease, 0},
	} {
		args := strings.Fields(tc.args)
		code, out, stderr := runCmd(t, args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != tc.code || len(lines) != 1 || !strings.HasPrefix(lines[0], "leasesim "+args[0]+": "+tc.stderr) {
			t.Errorf("leasesim %s: exit %d, stderr %q; want %d and one line %q", tc.args, code, stderr, tc.code, tc.stderr)
			continue
		}
		switch {
		case code != 0 && out != "":
			t.Errorf("leasesim %s: refused, yet wrote %q", tc.args, out)
		case code == 0 && out == "":
			t.Errorf("leasesim %s: nothing on standard output", tc.args)
		case tc.rows > 0 && strings.Count(out, "\n") != tc.rows:
			t.Errorf("leasesim %s: %d lines, want %d:\n%s", tc.args, strings.Count(out, "\n"), tc.rows, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("a refused report left its folder: %v", err)
	}
}

// TestReportSkipsCandidates: a report whose candidates include leases its
// renew deadline refuses ranks the rest and says so once.
func TestReportSkipsCandidates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "report", "--out", dir, "--lease", "5", "--renew-deadline", "3", "--candidates", "2:6")
	want := "leasesim report: skipped 2 of the 5 candidate leases: their flags' values do not go together; the first: --lease 2 must be longer than --renew-deadline 3"
	if code != 0 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q; want 0 and one line %q", code, stderr, want)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "candidates.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(csv), "\n")[1:] {
		if strings.HasPrefix(l, "2,") || strings.HasPrefix(l, "3,") {
			t.Errorf("candidates.csv ranks a skipped lease: %s", l)
		}
	}
}

// TestMonteCarloShardsSkip: a Monte Carlo study's shards skip the
// configurations the whole study skips, and merge gives its CSV.
func TestMonteCarloShardsSkip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	study := []string{"montecarlo", "--lease", "2,5,6", "--renew-deadline", "3", "--replicas", "8", "--rounds", "500"}
	whole := filepath.Join(dir, "whole.csv")
	if code, _, stderr := runCmd(t, append(study, "--csv", whole)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var shards []string
	for _, k := range []string{"0/2", "1/2"} {
		name := filepath.Join(dir, strings.ReplaceAll(k, "/", "-")+".csv")
		if code, _, stderr := runCmd(t, append(study, "--shard", k, "--csv", name)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", k, code, stderr)
		}
		shards = append(shards, name)
	}
	code, merged, stderr := runCmd(t, append([]string{"merge"}, shards...)...)
	want, _ := os.ReadFile(whole)
	if code != 0 || merged != string(want) || strings.Count(merged, "\n") != 3 {
		t.Errorf("merge: exit %d, %s\n%s\nwant the study's 2 rows:\n%s", code, stderr, merged, want)
	}
}
