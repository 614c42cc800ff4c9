package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
)

// TestMonteCarlo: small studies against their golden output and CSV, one
// averaged over the trigger's phase (its table says how often the
// replicas triggered and what each trigger counts for, its CSV has a
// trigger_every column); the same seed gives the same CSV for any worker
// count.
func TestMonteCarlo(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		golden, columns string // the golden files' name; the CSV's columns after seed
		args            []string
	}{
		{"montecarlo", "replicas,started_mean", []string{"--nodes", "1,3", "--lease", "2,4", "--quorum", "false,true", "--rounds", "5000",
			"--uptime", "geometric:150", "--downtime", "lognormal:1.5,0.7", "--replicas", "60", "--seed", "42",
			"--rounds-per-year", "2190", "--lines-per-batch", "2500"}},
		{"montecarlo-phase", "replicas,trigger_every,started_mean", []string{"--nodes", "3", "--period", "6,30", "--retry-period", "2", "--batch-len", "5",
			"--rounds", "20000", "--rounds-per-year", "2190", "--replicas", "50", "--seed", "3", "--phase-average"}},
	} {
		var csvs []string
		for _, workers := range []string{"1", "3"} {
			path := filepath.Join(t.TempDir(), "mc.csv")
			code, stdout, stderr := runCmd(t, append(append([]string{"montecarlo"}, tt.args...), "--workers", workers, "--csv", path)...)
			if code != 0 || stderr != "" {
				t.Fatalf("%s: exit %d: %s", tt.golden, code, stderr)
			}
			golden.Check(t, "cmd/"+tt.golden+".txt", []byte(stdout))
			csv, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			csvs = append(csvs, string(csv))
		}
		if csvs[0] != csvs[1] {
			t.Errorf("%s: --workers 1 and 3 give different CSV", tt.golden)
		}
		golden.Check(t, "cmd/"+tt.golden+".csv", []byte(csvs[0]))
		if header := strings.SplitN(csvs[0], "\n", 2)[0]; !strings.HasPrefix(header, "nodes,lease,renewal,retry_period,renew_deadline,rounds,period,batch_len,fencing,persistent_trigger,catch_up_window,catch_up_once,idempotency_key,overlap,quorum,pause,crash,release,partition,black_hole,jitter,drift,uptime,downtime,seed,"+tt.columns+",") ||
			!strings.HasSuffix(header, ",double_lines_per_year,double_lines_per_year_lo95,double_lines_per_year_hi95") {
			t.Errorf("%s: header %s", tt.golden, header)
		}
	}
}

func TestMonteCarloBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"montecarlo", "--uptime", "weibull:2"}, `leasesim montecarlo: invalid argument "weibull:2" for "--uptime" flag: "weibull:2": want fixed:N, geometric:MEAN or lognormal:MU,SIGMA (rounds)`},
		{[]string{"montecarlo", "--downtime", "fixed:0"}, `leasesim montecarlo: invalid argument "fixed:0" for "--downtime" flag: "fixed:0": want a whole number of rounds from 1 to 1000000000`},
		{[]string{"montecarlo", "--replicas", "0"}, `leasesim montecarlo: invalid argument "0" for "--replicas" flag: want a whole number from 1 to 1000000`},
		{[]string{"montecarlo", "--seed", "-1"}, `leasesim montecarlo: invalid argument "-1" for "--seed" flag:`},
		{[]string{"montecarlo", "--rounds-per-year", "-5"}, `leasesim montecarlo: invalid argument "-5" for "--rounds-per-year" flag: want a number from 0 to 1e12`},
		{[]string{"montecarlo", "--rounds", "1:5"}, `leasesim montecarlo: invalid argument "1:5" for "--rounds" flag: want one value here, not a list (sweep and check take every model flag as a list)`},
		{[]string{"montecarlo", "--outage", "3"}, `leasesim montecarlo: unknown flag: --outage`},
		{[]string{"montecarlo", "--replicas", "1000000", "--rounds", "1000000000", "--nodes", "1:2"}, `leasesim montecarlo: the study would draw about 3e+12 up and down periods, more than 1e+11 (hours of work)`},
		{[]string{"montecarlo", "--nodes", "1000000", "--rounds", "1000000000", "--replicas", "1000000"}, `leasesim montecarlo: the study would draw about 1e+18 up and down periods`},
		{[]string{"montecarlo", "--nodes", "1000000", "--replicas", "100000", "--rounds", "1"}, `leasesim montecarlo: the study would draw about 1e+11 up and down periods`},
		{[]string{"montecarlo", "--lease", "1:1000", "--renewal", "1:1000", "--max-configs", "999999"}, `leasesim montecarlo: the study has 1000000 configurations, more than --max-configs 999999`},
		{[]string{"montecarlo", "--lease", "1:1000", "--renewal", "1:1000", "--period", "1:1000"}, `leasesim montecarlo: the study has 1000000000 configurations, more than --max-configs 1000000`},
		{[]string{"montecarlo", "--nodes", "3", "--also", "isolate@2:3=fixed:50/fixed:5"}, `leasesim montecarlo: --also isolate@…: node 3, but no configuration of the study has more than 3 nodes (0 to 2)`},
		{[]string{"montecarlo", "--precision", "150%"}, `leasesim montecarlo: invalid argument "150%" for "--precision" flag: want a share from 0 to 1, as 10% or 0.1`},
		{[]string{"montecarlo", "--precision", "ten"}, `leasesim montecarlo: invalid argument "ten" for "--precision" flag: want a share from 0 to 1, as 10% or 0.1`},
		{[]string{"montecarlo", "--max-replicas", "500"}, `leasesim montecarlo: --max-replicas and --precision-floor go only with --precision`},
		{[]string{"montecarlo", "--precision", "5%", "--replicas", "200", "--max-replicas", "100"}, `leasesim montecarlo: --max-replicas 100 is fewer than --replicas 200, the replicas run at a time`},
		{[]string{"montecarlo", "--phase-average"}, `leasesim montecarlo: --phase-average needs yearly figures: --rounds-per-year or --tick`},
		{[]string{"montecarlo", "--phase-average", "--tick", "1s", "--persistent-trigger", "false,true"}, `leasesim montecarlo: --phase-average needs --persistent-trigger false: a queued batch depends on the triggers before it`},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("leasesim %s: exit %d, stdout %q, stderr %q", strings.Join(tt.args, " "), code, stdout, stderr)
		}
	}
}

// TestMonteCarloShardsMerge: a study run as shards of its replicas and
// merged is the unsharded study's CSV byte for byte, in rounds, averaged
// over the trigger's phase, and with a tick and jitter; merge refuses
// shards out of order, missing, of another study, cut short or written by
// a leasesim that tallied otherwise, with one line, exit 1 and nothing
// written.
func TestMonteCarloShardsMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, study := range [][]string{
		{"--nodes", "1:3", "--quorum", "false,true", "--rounds", "20000", "--rounds-per-year", "2190", "--replicas", "90"},
		{"--nodes", "2:3", "--period", "6,12", "--batch-len", "1,4", "--rounds", "20000", "--rounds-per-year", "2190", "--replicas", "40", "--phase-average"},
		{"--preset", "kubernetes", "--nodes", "3", "--rounds", "24h", "--uptime", "geometric:2h", "--downtime", "lognormal:30s,1", "--replicas", "25", "--seed", "5",
			"--also", "pause=geometric:6h/fixed:20s", "--also", "partition=geometric:12h/lognormal:1m,0.5", "--also", "isolate@0:1=geometric:24h/fixed:2m"},
	} {
		whole := filepath.Join(dir, "whole.csv")
		if code, _, stderr := runCmd(t, append([]string{"montecarlo", "--csv", whole}, study...)...); code != 0 {
			t.Fatal(stderr)
		}
		var parts []string
		for k := range 3 {
			part := filepath.Join(dir, fmt.Sprintf("part-%d", k))
			if code, stdout, stderr := runCmd(t, append([]string{"montecarlo", "--shard", fmt.Sprintf("%d/3", k), "--csv", part}, study...)...); code != 0 || stdout != "" {
				t.Fatalf("shard %d: exit %d, %q, %q", k, code, stdout, stderr)
			}
			parts = append(parts, part)
		}
		code, merged, stderr := runCmd(t, append([]string{"merge"}, parts...)...)
		if want, _ := os.ReadFile(whole); code != 0 || merged != string(want) {
			t.Errorf("%v: merged shards (exit %d, %s) differ from the unsharded study:\n%s\nwant\n%s", study, code, stderr, merged, want)
		}
	}
	other := filepath.Join(dir, "other")
	if code, _, stderr := runCmd(t, "montecarlo", "--shard", "1/3", "--replicas", "30", "--csv", other); code != 0 {
		t.Fatal(stderr)
	}
	cut := filepath.Join(dir, "cut")
	b, _ := os.ReadFile(filepath.Join(dir, "part-2"))
	os.WriteFile(cut, b[:len(b)-10], 0o644)
	older, oldest := filepath.Join(dir, "older"), filepath.Join(dir, "oldest") // part-2 as a leasesim before the episodes, and before the nonzero count, wrote it
	lines, oldLines := strings.Split(string(b), "\n"), strings.Split(string(b), "\n")
	for i := 2; i < len(lines); i++ {
		if fields := strings.Split(lines[i], ","); len(fields) > 1 {
			fields = fields[:1+5*18] // the statistics' and the lost parts' tallies
			oldLines[i] = strings.Join(fields, ",")
			kept := fields[:1]
			for j := 1; j < len(fields); j += 5 {
				kept = append(kept, fields[j], fields[j+2], fields[j+3], fields[j+4])
			}
			lines[i] = strings.Join(kept, ",")
		}
	}
	os.WriteFile(oldest, []byte(strings.Join(lines, "\n")), 0o644)
	os.WriteFile(older, []byte(strings.Join(oldLines, "\n")), 0o644)
	p := func(k int) string { return filepath.Join(dir, fmt.Sprintf("part-%d", k)) }
	for _, tt := range []struct {
		files []string
		want  string
	}{
		{[]string{p(1), p(0), p(2)}, "part-1: line 1: shard 1/3 given as file 1 of 3"},
		{[]string{p(0), p(1)}, "part-0: line 1: shard 0/3, but 2 files given: want the study's 3 shards"},
		{[]string{p(0), other, p(2)}, "other: line 2: the study differs from"},
		{[]string{p(0), p(1), cut}, "cut: line 3 is missing or cut short"},
		{[]string{p(0), p(1), older}, "older: line 3: 91 fields, an older leasesim's shard, without the episodes' tallies that the intervals of leaderless and two-leader rounds need: run its shards again with this leasesim"},
		{[]string{p(0), p(1), oldest}, "oldest: line 3: 73 fields, want 115 (the row, then N, nonzero, sum and the sum of squares' two words of each tally, then the episodes' cross sums): the line is cut short, glued to another, or of an older leasesim's shard"},
	} {
		out := filepath.Join(dir, "bad.csv")
		code, stdout, stderr := runCmd(t, append([]string{"merge", "--out", out}, tt.files...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want %q", tt.files, code, stdout, stderr, tt.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("merge %v left a file", tt.files)
		}
	}
	if code, _, stderr := runCmd(t, "montecarlo", "--shard", "0/2", "--precision", "10%"); code != 2 || !strings.Contains(stderr, "--shard and --precision do not go together") {
		t.Errorf("--shard with --precision: exit %d, %q", code, stderr)
	}
}

// TestEmpiricalDowntime: --downtime empirical:FILE reads a team's outage
// lengths; its shards merge like any study's; a bad line is named.
func TestEmpiricalDowntime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outages := filepath.Join(dir, "outages.txt")
	os.WriteFile(outages, []byte("# this year's\n30s\n45s\n2m\n\n20s # the DNS one\n"), 0o644)
	study := []string{"--preset", "kubernetes", "--nodes", "3", "--rounds", "720h", "--uptime", "geometric:72h", "--downtime", "empirical:" + outages, "--replicas", "20"}
	wholeCSV := filepath.Join(dir, "whole.csv")
	if code, _, stderr := runCmd(t, append([]string{"montecarlo", "--csv", wholeCSV}, study...)...); code != 0 {
		t.Fatal(stderr)
	}
	want, _ := os.ReadFile(wholeCSV)
	if !strings.Contains(string(want), `"empirical:`+outages+`"`) {
		t.Fatalf("the CSV does not name the distribution:\n%s", want)
	}
	var parts []string
	for k := range 2 {
		part := filepath.Join(dir, fmt.Sprintf("part-%d", k))
		if code, _, stderr := runCmd(t, append([]string{"montecarlo", "--shard", fmt.Sprintf("%d/2", k), "--csv", part}, study...)...); code != 0 {
			t.Fatal(stderr)
		}
		parts = append(parts, part)
	}
	if code, merged, stderr := runCmd(t, append([]string{"merge"}, parts...)...); code != 0 || merged != string(want) {
		t.Errorf("merged empirical shards (exit %d, %s) differ from the whole study", code, stderr)
	}
	os.WriteFile(outages, []byte("30s\nsoon\n"), 0o644)
	code, _, stderr := runCmd(t, append([]string{"montecarlo"}, study...)...)
	if want := `for "--downtime" flag: ` + outages + `: line 2: "soon": want a duration such as 45s or 2m`; code != 2 || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a bad line: exit %d, %q, want %q", code, stderr, want)
	}
}
