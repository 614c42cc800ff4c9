package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/testio"
	"github.com/leasesim/leasesim/model"
	"github.com/parquet-go/parquet-go"
)

// TestSweepAgreesWithRun: every row of a sweep crossing every parameter,
// corner cases of C1-C7 included, is what "leasesim run --format csv"
// prints for that configuration.
func TestSweepAgreesWithRun(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCmd(t, "sweep", "--nodes", "1,2,5", "--lease", "1,3,8", "--renewal", "1,3",
		"--outage", "0,5,30", "--start", "1,6", "--rounds", "24", "--period", "1,6", "--fencing", "false,true",
		"--persistent-trigger", "false,true", "--down", "0,1,5", "--quorum", "false,true")
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+3*3*2*3*2*1*2*2*2*3*2 {
		t.Fatalf("%d lines", len(lines))
	}
	header := strings.Split(lines[0], ",")
	for _, row := range lines[1:] {
		fields := strings.Split(row, ",")
		args := []string{"run", "--format", "csv"}
		for p := range model.NumParams {
			args = append(args, "--"+model.Param(p).Flag()+"="+fields[p])
		}
		_, want, _ := runCmd(t, args...)
		if want != lines[0]+"\n"+row+"\n" {
			t.Fatalf("sweep row\n%s\ndiffers from leasesim %s:\n%s", row, strings.Join(args, " "), want)
		}
	}
	if header[0] != "nodes" || header[model.NumParams] != "started" {
		t.Errorf("header %v", header)
	}
}

// TestSweepTickDefaults: with a tick, a sweep that gives no --start or
// --rounds runs each row as run runs it: the outage as its period's first
// batch falls due and a run that holds the handover, so every row below
// is what "leasesim run" prints with the same flags; a flag given keeps
// its value.
func TestSweepTickDefaults(t *testing.T) {
	t.Parallel()
	for _, given := range [][]string{nil, {"--start", "30s"}, {"--rounds", "10m"}} {
		args := append([]string{"sweep", "--preset", "kubernetes", "--period", "1m,2m", "--lease", "15s,40s", "--outage", "5s,1m"}, given...)
		code, out, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 1+8 {
			t.Fatalf("%v: %d lines", args, len(lines))
		}
		for _, row := range lines[1:] {
			f := strings.Split(row, ",")
			run := append([]string{"run", "--format", "csv", "--preset", "kubernetes", "--period", f[model.Period] + "s", "--lease", f[model.Lease] + "s", "--outage", f[model.Outage] + "s"}, given...)
			_, want, _ := runCmd(t, run...)
			if want != lines[0]+"\n"+row+"\n" {
				t.Fatalf("%v: sweep row\n%s\ndiffers from leasesim %s:\n%s", args, row, strings.Join(run, " "), want)
			}
		}
	}
}

// TestPublicationLeaseCSVAgreesWithMeasure: the sweep's CSV of the publication's lease
// block holds the numbers that "leasesim measure" prints in that block.
func TestPublicationLeaseCSVAgreesWithMeasure(t *testing.T) {
	_, csv, _ := runCmd(t, "sweep", "--lease", "2,3,5,8", "--outage", "5,2")
	_, table, _ := runCmd(t, "measure")
	block := strings.Split(table, "\n")[14:18] // the rows of lease 2, 3, 5, 8
	rows := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")[1:]
	col := func(name string) int {
		for i, h := range strings.Split(strings.Split(csv, "\n")[0], ",") {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	stats := []string{"handover_rounds", "leaderless_rounds", "missed", "two_leader_rounds", "double_starts"}
	for i, line := range block {
		got := strings.Fields(line)
		want := []string{strings.Split(rows[2*i], ",")[col("lease")]}
		for _, row := range rows[2*i : 2*i+2] { // long outage, then short
			f := strings.Split(row, ",")
			for _, s := range stats {
				want = append(want, f[col(s)])
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("measure's lease row %q, CSV says %v", line, want)
		}
	}
}

func TestSweepOutFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "grid.csv")
	_, stdout, _ := runCmd(t, "sweep", "--lease", "1:12", "--outage", "0:9")
	if code, out, stderr := runCmd(t, "sweep", "--lease", "1:12", "--outage", "0:9", "--out", path, "--workers", "3"); code != 0 || out != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != stdout {
		t.Fatalf("--out file differs from standard output (%v)", err)
	}
	onlyFiles(t, dir, "grid.csv")

	// Interrupted (Ctrl-C cancels the context): non-zero, no file.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var so, se strings.Builder
	if code := runWith(ctx, []string{"sweep", "--lease", "1:100", "--out", filepath.Join(dir, "cut.csv")}, &so, &se, noEnv); code != exitInterrupted {
		t.Errorf("interrupted sweep: exit %d (%s)", code, se.String())
	}
	onlyFiles(t, dir, "grid.csv")
}

// onlyFiles fails unless dir holds exactly the named files: no partial
// output, no temporary file.
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// lockLists is a sweep of two protocols and the settings only some of
// them take, of which 3 configurations of 16 go together: client-go's with
// a re-read and neither setting, etcd's without a re-read and with or
// without a failover.
var lockLists = []string{"sweep", "--protocol", "client-go,etcd", "--renewal", "0,3", "--service-failover", "0,5", "--lock-delay", "0,5"}

// lockSkipped is what a sweep of lockLists says on standard error.
const lockSkipped = "leasesim sweep: skipped 13 of the 16 configurations: their flags' values do not go together; the first: --renewal 0 (never re-read) needs a --renew-deadline above 0: otherwise a stale leader believes for ever\n"

func TestSweepDryRunAndLimits(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"sweep", "--lease", "1:4,8,16", "--fencing", "false,true", "--dry-run"}, 0, "12 configurations\n", ""},
		{[]string{"sweep", "--lease", "1:10", "--shard", "1/3", "--dry-run"}, 0, "10 configurations; shard 1/3 has 3 (rows 3 to 5)\n", ""},
		// Whether a configuration goes together turns on the protocol and
		// the settings only some protocols take, in any order of the lists
		// (issue 44): the count is what the sweep writes, beside what it skips.
		{[]string{"sweep", "--protocol", "etcd,client-go", "--dry-run"}, 0, "1 configurations\n", "leasesim sweep: skipped 1 of the 2 configurations: their flags' values do not go together; the first: --renewal 3 (a re-read of the record) is client-go's: under --protocol etcd a believer learns it lost from the service (give 0)\n"},
		{[]string{"sweep", "--protocol", "client-go,etcd", "--dry-run"}, 0, "1 configurations\n", "leasesim sweep: skipped 1 of the 2 configurations: their flags' values do not go together; the first: --renewal 3 (a re-read of the record) is client-go's: under --protocol etcd a believer learns it lost from the service (give 0)\n"},
		{append(lockLists, "--shard", "1/3", "--dry-run"), 0, "3 configurations; shard 1/3 has 2 (rows 1 to 2)\n", lockSkipped},
		{append(lockLists, "--shard", "2/3", "--dry-run"), 0, "3 configurations; shard 2/3 has none\n", lockSkipped},
		{[]string{"sweep", "--lease", "1:10", "--outage", "0:9", "--max-configs", "99"}, 2, "", "leasesim sweep: the grid has 100 configurations, more than --max-configs 99\n"},
		{[]string{"sweep", "--shard", "3/3"}, 2, "", "leasesim sweep: invalid argument \"3/3\" for \"--shard\" flag: want K/N with 0 <= K < N, e.g. 0/4, or auto (a Slurm array job's task) or auto/N (a Kubernetes Indexed Job's index, of N)\n"},
		{[]string{"sweep", "--lease", "4:1"}, 2, "", "leasesim sweep: invalid argument \"4:1\" for \"--lease\" flag: range \"4:1\" is empty: want lo <= hi\n"},
		{[]string{"sweep", "--lease", "1,1"}, 2, "", "leasesim sweep: invalid argument \"1,1\" for \"--lease\" flag: duplicate value 1\n"},
		{[]string{"sweep", "--lease", "1:9:0"}, 2, "", "leasesim sweep: invalid argument \"1:9:0\" for \"--lease\" flag: range \"1:9:0\" has step 0: want a step of 1 or more\n"},
		{[]string{"sweep", "--workers", "0"}, 2, "", "leasesim sweep: invalid argument \"0\" for \"--workers\" flag: want a whole number from 1 to 1024\n"},
		{[]string{"sweep", "--quorum", "maybe"}, 2, "", "leasesim sweep: invalid argument \"maybe\" for \"--quorum\" flag: \"maybe\" is not a toggle: want false, true or false,true\n"},
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, tt.args...)
		if code != tt.code || out != tt.out || stderr != tt.err {
			t.Errorf("leasesim %s:\n exit %d, stdout %q, stderr %q\nwant %d, %q, %q", strings.Join(tt.args, " "), code, out, stderr, tt.code, tt.out, tt.err)
		}
	}
}

// TestShardAuto: --shard auto/8 under a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX=3 and --shard auto under a Slurm array's task 4 of
// 1 to 8 write what --shard 3/8 writes, in a sweep and a Monte Carlo
// study; without the engine's variables they refuse in one line naming
// them, before any output.
func TestShardAuto(t *testing.T) {
	indexedJob := map[string]string{"JOB_COMPLETION_INDEX": "3"}
	slurm := map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}
	for _, cmd := range [][]string{
		{"sweep", "--lease", "1:20", "--outage", "0:3"},
		{"sweep", "--lease", "1:10", "--dry-run"},
		{"montecarlo", "--nodes", "1:2", "--rounds", "2000", "--replicas", "16"},
	} {
		code, want, stderr := runCmd(t, append(slices.Clone(cmd), "--shard", "3/8")...)
		if code != 0 || want == "" {
			t.Fatalf("%s --shard 3/8: exit %d, %s", cmd, code, stderr)
		}
		for _, tt := range []struct {
			shard string
			env   map[string]string
		}{{"auto/8", indexedJob}, {"auto", slurm}} {
			code, got, stderr := runEnv(t, tt.env, append(slices.Clone(cmd), "--shard", tt.shard)...)
			if code != 0 || got != want || stderr != "" {
				t.Errorf("%s --shard %s under %v: exit %d, %q, %d bytes; want --shard 3/8's %d bytes", cmd, tt.shard, tt.env, code, stderr, len(got), len(want))
			}
		}
	}
	for _, tt := range []struct {
		args []string
		env  map[string]string
		err  string
	}{
		{[]string{"sweep", "--shard", "auto/8"}, nil, "leasesim sweep: --shard auto/8 takes the shard from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, which is not set (under a Slurm array job, give auto)\n"},
		{[]string{"sweep", "--shard", "auto/8"}, slurm, "leasesim sweep: --shard auto/8 takes the shard from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, which is not set (under a Slurm array job, give auto)\n"},
		{[]string{"montecarlo", "--shard", "auto"}, indexedJob, "leasesim montecarlo: --shard auto takes the shard from a Slurm array job's SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT, and none is set (under a Kubernetes Indexed Job, give auto/N, N its completions)\n"},
		{[]string{"sweep", "--shard", "auto/8"}, map[string]string{"JOB_COMPLETION_INDEX": "8"}, "leasesim sweep: --shard auto/8: JOB_COMPLETION_INDEX=8 is not below 8: give the Job's completions as N\n"},
		{[]string{"sweep", "--shard", "auto/0"}, indexedJob, "leasesim sweep: invalid argument \"auto/0\" for \"--shard\" flag: want auto (a Slurm array job's task) or auto/N (a Kubernetes Indexed Job's index, of N), N at least 1\n"},
	} {
		code, out, stderr := runEnv(t, tt.env, tt.args...)
		if code != exitUsage || out != "" || stderr != tt.err {
			t.Errorf("%s under %v: exit %d, %q, %q; want exit 2, %q", tt.args, tt.env, code, out, stderr, tt.err)
		}
	}
}

// TestShardsMerge: shards written to files and merged give the unsharded
// file byte for byte; merge refuses files whose headers differ.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	grid := []string{"--nodes", "1:3", "--lease", "1:5", "--outage", "0:6", "--persistent-trigger", "false,true"}
	_, whole, _ := runCmd(t, append([]string{"sweep"}, grid...)...)
	var parts []string
	for k := range 4 {
		part := filepath.Join(dir, "part-"+strconv.Itoa(k)+".csv")
		if code, _, stderr := runCmd(t, append([]string{"sweep", "--shard", strconv.Itoa(k) + "/4", "--out", part}, grid...)...); code != 0 {
			t.Fatal(stderr)
		}
		parts = append(parts, part)
	}
	merged := filepath.Join(dir, "merged.csv")
	if code, _, stderr := runCmd(t, append([]string{"merge", "--out", merged}, parts...)...); code != 0 {
		t.Fatal(stderr)
	}
	if got, _ := os.ReadFile(merged); string(got) != whole {
		t.Error("merged shards differ from the unsharded sweep")
	}
	if code, stdout, _ := runCmd(t, append([]string{"merge"}, parts...)...); code != 0 || stdout != whole {
		t.Error("merge to standard output differs from the unsharded sweep")
	}

	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("lease,started\n3,4\n"), 0o644)
	code, _, stderr := runCmd(t, "merge", "--out", filepath.Join(dir, "bad.csv"), parts[0], other)
	if code != exitUsage || !strings.HasPrefix(stderr, "leasesim merge: "+other+": line 1: header differs") {
		t.Errorf("mismatched headers: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.csv")); !os.IsNotExist(err) {
		t.Error("merge left a partial file")
	}
	// A shard twice, a later file that is no shard, or one that is not
	// there: bad input, exit 2, one line, nothing written.
	for _, files := range [][]string{{parts[0], parts[0]}, append(slices.Clone(parts), other), {parts[0], filepath.Join(dir, "no-such.csv")}} {
		if code, stdout, stderr := runCmd(t, append([]string{"merge"}, files...)...); code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge %v: exit %d, %d bytes on stdout, stderr %q", files, code, len(stdout), stderr)
		}
	}
	if code, _, stderr := runCmd(t, "merge"); code != 2 || !strings.HasPrefix(stderr, "leasesim merge: no input files") {
		t.Errorf("merge without files: exit %d, %q", code, stderr)
	}
}

// TestShardsMergeSkipped: the shards of a sweep that skips configurations
// for its protocols' sake state the rows the sweep writes, and merge
// gives the unsharded sweep from them.
func TestShardsMergeSkipped(t *testing.T) {
	dir := t.TempDir()
	_, whole, _ := runCmd(t, lockLists...)
	var parts []string
	for k := range 3 {
		part := filepath.Join(dir, "part-"+strconv.Itoa(k)+".csv")
		if code, _, stderr := runCmd(t, append(slices.Clone(lockLists), "--shard", strconv.Itoa(k)+"/3", "--out", part)...); code != 0 {
			t.Fatal(stderr)
		}
		if b, _ := os.ReadFile(part); !strings.HasPrefix(string(b), "row_of_3_grid_") {
			t.Errorf("shard %d/3's header %.30q, want the sweep's 3 rows", k, b)
		}
		parts = append(parts, part)
	}
	if code, merged, stderr := runCmd(t, append([]string{"merge"}, parts...)...); code != 0 || merged != whole || strings.Count(whole, "\n") != 4 {
		t.Errorf("merge: exit %d, %s\n%s\nwant the sweep's 3 rows:\n%s", code, stderr, merged, whole)
	}
}

// TestSweepSeedIsRunSeed: with jitter, a sweep's row is the run of its
// configuration with the same --seed, and another seed draws otherwise.
func TestSweepSeedIsRunSeed(t *testing.T) {
	args := []string{"--preset", "kubernetes", "--outage", "20s", "--start", "1m", "--rounds", "5m", "--period", "1m"}
	rows := map[string]string{}
	for _, seed := range []string{"3", "0"} {
		_, sweep, _ := runCmd(t, append([]string{"sweep", "--seed", seed}, args...)...)
		code, run, stderr := runCmd(t, append([]string{"run", "--format", "csv", "--seed", seed}, args...)...)
		if code != 0 || sweep != run {
			t.Errorf("seed %s: sweep\n%s\nrun (exit %d, %s)\n%s", seed, sweep, code, stderr, run)
		}
		rows[seed] = sweep
	}
	if rows["3"] == rows["0"] {
		t.Errorf("seeds 3 and 0 give the same row:\n%s", rows["3"])
	}
}

// TestSweepIncident: with --incident every configuration meets the
// incident, row for row what replay gives for the same settings; the
// outage columns hold its span; flags the incident overrules, nodes it
// names that a configuration lacks and runs it outlasts are refused.
func TestSweepIncident(t *testing.T) {
	inc := "../../testdata/incidents/api-partition.txt"
	settings := []string{"--preset", "kubernetes", "--lease", "15s,30s", "--nodes", "3", "--period", "1m", "--rounds", "10m"}
	code, csv, stderr := runCmd(t, append([]string{"sweep", "--incident", inc}, settings...)...)
	if code != 0 {
		t.Fatal(stderr)
	}
	rows := strings.Split(strings.TrimSpace(csv), "\n")
	if len(rows) != 3 {
		t.Fatalf("%d lines, want a header and 2 rows:\n%s", len(rows), csv)
	}
	header := strings.Split(rows[0], ",")
	col := func(row, name string) string { return strings.Split(row, ",")[slices.Index(header, name)] }
	_, replay, _ := runCmd(t, append([]string{"replay", "--phase", "0s"}, append(settings, inc)...)...) // the incident as written: sweep's run
	for i, want := range []string{"7", "20"} {                                                          // replay's leaderless_s for 15s and 30s
		if got := col(rows[1+i], "leaderless_s"); got != want || !strings.Contains(replay, " "+want+" ") {
			t.Errorf("row %d: leaderless_s %s, replay's %s:\n%s", i, got, want, replay)
		}
		if got := col(rows[1+i], "start_s") + "," + col(rows[1+i], "outage_s"); got != "120,40" {
			t.Errorf("row %d: start_s,outage_s %s, want the incident's span 120,40", i, got)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--outage", "3"}, "leasesim sweep: --outage goes not with --incident: the incident says who fails when, and how"},
		{[]string{"--preset", "kubernetes", "--nodes", "2", "--rounds", "10m"}, "leasesim sweep: --incident: " + inc + ": line 6: node 2, but the sweep has configurations of 2 nodes (--nodes)"},
		{[]string{"--rounds", "100"}, "leasesim sweep: --incident: " + inc + `: line 5: start "2m": want a whole number`},
		{[]string{"--preset", "kubernetes"}, "leasesim sweep: --incident: " + inc + ": line 5: the failure ends at 2m40s, after the shortest run's 24s (--rounds)"},
	} {
		code, stdout, stderr := runCmd(t, append(append([]string{"sweep"}, tt.args...), "--incident", inc)...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("sweep %v: exit %d, %q, want %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "sweep", "--epoch", "2026-11-30T23:58:00Z"); code != 2 || !strings.Contains(stderr, "--epoch goes only with --incident") {
		t.Errorf("--epoch alone: exit %d, %q", code, stderr)
	}
}

// TestMergeReadsOnce: merge reads each of a sweep's or a Monte Carlo
// study's shards once, front to back, so a named pipe or a process
// substitution's /dev/fd/N, first or later, merges as a file does, and
// what it writes of a shard is what it checked; shards found bad after
// good ones leave standard output empty.
func TestMergeReadsOnce(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range [][]string{
		{"sweep", "--lease", "1:20", "--outage", "0:3"},
		{"montecarlo", "--nodes", "1:2", "--rounds", "2000", "--replicas", "6"},
	} {
		wholeFile := filepath.Join(dir, "whole.csv")
		if code, _, stderr := runCmd(t, append(slices.Clone(cmd), "--csv", wholeFile)...); code != 0 {
			t.Fatal(stderr)
		}
		b, _ := os.ReadFile(wholeFile)
		whole := string(b)
		var parts [][]byte
		for k := range 2 {
			code, part, stderr := runCmd(t, append(slices.Clone(cmd), "--shard", strconv.Itoa(k)+"/2")...)
			if code != 0 {
				t.Fatal(stderr)
			}
			parts = append(parts, []byte(part))
		}
		for k := range parts {
			for kind, pipe := range map[string]func([]byte) string{
				"FIFO": func(b []byte) string { return testio.FIFO(t, "part.fifo", b) },
				"pipe": func(b []byte) string { return testio.Pipe(t, b) },
			} {
				files := make([]string, len(parts))
				for i, b := range parts {
					files[i] = filepath.Join(dir, strconv.Itoa(i)+".csv")
					os.WriteFile(files[i], b, 0o644)
				}
				files[k] = pipe(parts[k])
				var code int
				var merged, stderr string
				testio.Returns(t, "merge", func() error {
					code, merged, stderr = runCmd(t, append([]string{"merge"}, files...)...)
					return nil
				})
				if code != 0 || merged != whole {
					t.Errorf("%s: shard %d/2 a %s: exit %d, %s; %d bytes of the whole %d", cmd[0], k, kind, code, stderr, len(merged), len(whole))
				}
			}
		}
		cut := filepath.Join(dir, "cut.csv")
		os.WriteFile(cut, parts[1][:len(parts[1])-5], 0o644)
		if code, stdout, stderr := runCmd(t, "merge", testio.Pipe(t, parts[0]), cut); code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "leasesim merge: "+cut+": line ") {
			t.Errorf("%s: a good shard, then one cut short: exit %d, %d bytes on standard output, %q", cmd[0], code, len(stdout), stderr)
		}
	}
}

// TestSweepParquet: sweep --format parquet writes the CSV's columns and
// rows as Parquet (parquetcsv's test compares them row for row), for one
// preset and for a list of them, whose CSV has one header.
func TestSweepParquet(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sweep", "--lease", "500ms:15s", "--outage", "0s:4.5s", "--fencing", "false,true", "--tick", "500ms"},
		{"sweep", "--preset", "kubernetes,etcd", "--outage", "0s:20s"},
	} {
		csvPath, pqPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.parquet")
		if code, _, stderr := runCmd(t, append(slices.Clone(args), "--csv", csvPath)...); code != 0 {
			t.Fatal(stderr)
		}
		if code, _, stderr := runCmd(t, append(slices.Clone(args), "--format", "parquet", "--csv", pqPath)...); code != 0 {
			t.Fatal(stderr)
		}
		csvText, _ := os.ReadFile(csvPath)
		lines := strings.Split(strings.TrimSuffix(string(csvText), "\n"), "\n")
		b, _ := os.ReadFile(pqPath)
		f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		var names []string
		for _, c := range f.Schema().Fields() {
			names = append(names, c.Name())
		}
		if got := strings.Join(names, ","); got != lines[0] || f.NumRows() != int64(len(lines)-1) {
			t.Errorf("%q: Parquet of %d rows, columns %s; want the CSV's %d rows, %s", args, f.NumRows(), got, len(lines)-1, lines[0])
		}
	}
	if code, out, stderr := runCmd(t, "sweep", "--format", "json"); code != 2 || out != "" || !strings.Contains(stderr, `invalid argument "json" for "--format" flag`) {
		t.Errorf("--format json: exit %d, %q, %q", code, out, stderr)
	}
}
