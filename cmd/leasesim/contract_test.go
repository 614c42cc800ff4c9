package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
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
		{"recommend --lease 2:6 --renew-deadline 3 --fencing", 0, "skipped 2 of the 5 leases: their flags' values do not go together; the first: " + lease, 0},
		{"recommend --lease 2:3 --renew-deadline 3", 2, "none of the 2 leases goes together; the first: " + lease, 0},
		{"replay --lease 2,5 --renew-deadline 3 " + inc, 0, "skipped 1 of the 2 settings: their flags' values do not go together; the first: " + lease, 0},
		{"replay --lease 2,3 --renew-deadline 3 " + inc, 2, "none of the 2 settings goes together; the first: " + lease, 0},
		{"check --renewal 0 --renew-deadline 0", 2, "none of the 28311552 configurations goes together; the first: --renewal 0 (never re-read) needs a --renew-deadline above 0", 0},
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
	// check says it in its one line, on standard output.
	args := strings.Fields("check --nodes 2 --lease 2,4 --renew-deadline 3 --renewal 3 --retry-period 1 --outage 2 --start 1 --rounds 8 --period 2 --batch-len 1 --fencing false --persistent-trigger false --idempotency-key false --down 1 --quorum false --jitter false --black-hole false --partition false --crash false --release false --pause false --drift 0")
	if code, out, stderr := runCmd(t, args...); code != 0 || stderr != "" || out != "checked 1 configurations (and skipped 1 whose settings do not go together): every invariant holds\n" {
		t.Errorf("leasesim %s: exit %d, %q, %q", strings.Join(args, " "), code, out, stderr)
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

// TestReplayCSV: replay writes its table as CSV with --csv, a row a
// setting in the order of the table, as the other table commands do.
func TestReplayCSV(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "replay.csv")
	args := []string{"replay", "--preset", "kubernetes", "--lease", "15s,30s,1m", "--nodes", "3", "--period", "1m", "--fencing", "--csv", path, "../../testdata/incidents/api-partition.txt"}
	code, table, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	without := append(slices.Clone(args[:len(args)-3]), args[len(args)-1]) // no --csv
	if _, want, _ := runCmd(t, without...); table != want {
		t.Errorf("--csv changed the table:\n%s\nwant:\n%s", table, want)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, name := range []string{"\"kubernetes, lease 15s\",", "\"kubernetes, lease 30s\",", "\"kubernetes, lease 1m0s\","} {
		if !strings.HasPrefix(lines[i+1], name) {
			t.Errorf("row %d: %q, want the setting %s", i+1, lines[i+1], name)
		}
	}
	golden.Check(t, "cmd/replay-leases.csv", b)
}

// TestCSVFlag: sweep and merge write their CSV to --csv FILE, as every
// command does, and still to --out FILE, the contract's name; not both.
func TestCSVFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, want, _ := runCmd(t, "sweep", "--lease", "1:3")
	for _, flag := range []string{"--csv", "--out"} {
		path := filepath.Join(dir, flag[2:]+".csv")
		if code, out, stderr := runCmd(t, "sweep", "--lease", "1:3", flag, path); code != 0 || out != "" || stderr != "" {
			t.Fatalf("sweep %s: exit %d, %q, %q", flag, code, out, stderr)
		}
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("sweep %s FILE wrote %q, want %q", flag, b, want)
		}
		part := filepath.Join(dir, flag[2:]+"-part.csv")
		runCmd(t, "sweep", "--lease", "1:3", "--shard", "0/1", flag, part)
		merged := filepath.Join(dir, flag[2:]+"-merged.csv")
		if code, _, stderr := runCmd(t, "merge", flag, merged, part); code != 0 {
			t.Fatalf("merge %s: exit %d: %s", flag, code, stderr)
		}
		if b, _ := os.ReadFile(merged); string(b) != want {
			t.Errorf("merge %s FILE wrote %q, want %q", flag, b, want)
		}
	}
	for _, cmd := range []string{"sweep", "merge"} {
		code, out, stderr := runCmd(t, cmd, "--csv", filepath.Join(dir, "a.csv"), "--out", filepath.Join(dir, "b.csv"), filepath.Join(dir, "csv-part.csv"))
		if cmd == "sweep" {
			code, out, stderr = runCmd(t, cmd, "--csv", filepath.Join(dir, "a.csv"), "--out", filepath.Join(dir, "b.csv"))
		}
		if code != exitUsage || out != "" || stderr != "leasesim "+cmd+": --csv and --out are one flag by two names: give one of them\n" {
			t.Errorf("%s --csv --out: exit %d, %q, %q", cmd, code, out, stderr)
		}
	}
}

// TestHandoversFlag: cost and recommend take --handovers, the contract's
// name (SPEC §4) for --outages-per-year, as the same flag.
func TestHandoversFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range [][2][]string{
		{{"cost", "--handovers", "6,12"}, {"cost"}},
		{{"cost", "--handovers", "4", "--method", "both"}, {"cost", "--outages-per-year", "4", "--method", "both"}},
		{{"recommend", "--handovers", "12"}, {"recommend", "--outages-per-year", "12"}},
	} {
		code, got, stderr := runCmd(t, tc[0]...)
		_, want, _ := runCmd(t, tc[1]...)
		if code != 0 || got != want {
			t.Errorf("leasesim %s: exit %d, %s\n%s\nwant leasesim %s's:\n%s", strings.Join(tc[0], " "), code, stderr, got, strings.Join(tc[1], " "), want)
		}
	}
	for _, cmd := range []string{"cost", "recommend"} {
		code, out, stderr := runCmd(t, cmd, "--handovers", "6", "--outages-per-year", "6")
		if want := "leasesim " + cmd + ": --outages-per-year and --handovers are one flag by two names: give one of them\n"; code != exitUsage || out != "" || stderr != want {
			t.Errorf("%s --handovers --outages-per-year: exit %d, %q, %q", cmd, code, out, stderr)
		}
	}
}
