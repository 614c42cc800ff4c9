package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/parquetcsv/parquetcsvtest"
	"github.com/parquet-go/parquet-go"
)

// TestMonteCarloParquet: montecarlo --format parquet writes the --csv
// file as Parquet that reads back as the CSV row for row, in rounds with
// yearly figures and a further failure process (its quoted text a
// string), and in seconds under --precision; the table on standard output
// is the same either way. Without --csv, or with --shard, it is refused
// in one line.
func TestMonteCarloParquet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, args := range [][]string{
		{"--nodes", "1,3", "--lease", "2,4", "--rounds", "3000", "--replicas", "20", "--rounds-per-year", "10000", "--also", "pause=geometric:5000/fixed:3"},
		{"--preset", "kubernetes", "--tick", "1s", "--nodes", "3", "--rounds", "2h", "--uptime", "geometric:30m", "--downtime", "fixed:20s", "--replicas", "10", "--precision", "50%", "--max-replicas", "40"},
	} {
		csvPath, pqPath := filepath.Join(dir, "mc.csv"), filepath.Join(dir, "mc.parquet")
		code, table, stderr := runCmd(t, append([]string{"montecarlo", "--workers", "2", "--csv", csvPath}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		code, pqTable, stderr := runCmd(t, append([]string{"montecarlo", "--workers", "2", "--format", "parquet", "--csv", pqPath}, args...)...)
		if code != 0 || pqTable != table {
			t.Fatalf("%q --format parquet: exit %d, %s; the table %q, want %q", args, code, stderr, pqTable, table)
		}
		csv, _ := os.ReadFile(csvPath)
		pq, _ := os.ReadFile(pqPath)
		if i == 0 && !bytes.Contains(csv, []byte(`,"pause=geometric:5000/fixed:3",`)) {
			t.Errorf("the CSV has no quoted also column: %.400s", csv)
		}
		if groups := parquetcsvtest.Same(t, strings.Join(args, " "), csv, pq); len(groups) != 1 {
			t.Errorf("%q: row groups of %v rows, want one (fewer than 2,048 configurations)", args, groups)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"montecarlo", "--format", "parquet"}, "leasesim montecarlo: --format parquet is the --csv file's format: want --csv FILE with it (the table on standard output is text)\n"},
		{[]string{"montecarlo", "--format", "parquet", "--csv", filepath.Join(dir, "s.parquet"), "--shard", "0/2"}, "leasesim montecarlo: --format parquet goes without --shard: a shard's tallies are for merge, which reads them as CSV; merge the shards, or run the study whole with --format parquet\n"},
		{[]string{"montecarlo", "--format", "arrow"}, "leasesim montecarlo: invalid argument \"arrow\" for \"--format\" flag: want one of csv, parquet\n"},
	} {
		if code, out, stderr := runCmd(t, tt.args...); code != 2 || out != "" || stderr != tt.want {
			t.Errorf("%q: exit %d, %q, %q; want 2 and %q", tt.args, code, out, stderr, tt.want)
		}
	}
}

// TestSweepShardsParquet: the Parquet files of a sweep's shards have one
// schema, so that a reader takes the folder as one table
// (read_parquet('out/*.parquet')), and their rows, in shard order, are
// the unsharded sweep's, each after its row number.
func TestSweepShardsParquet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"sweep", "--lease", "1:30", "--outage", "0:20", "--fencing", "false,true", "--workers", "2"}
	whole := filepath.Join(dir, "whole.csv")
	if code, _, stderr := runCmd(t, append(slices.Clone(args), "--csv", whole)...); code != 0 {
		t.Fatal(stderr)
	}
	var schemas []string
	var rows []string
	for _, k := range []string{"0/3", "1/3", "2/3"} {
		csvPath, pqPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s"+k[:1]+".parquet")
		for _, out := range [][]string{{"--csv", csvPath}, {"--format", "parquet", "--csv", pqPath}} {
			if code, _, stderr := runCmd(t, append(slices.Clone(args), append(out, "--shard", k)...)...); code != 0 {
				t.Fatal(stderr)
			}
		}
		csv, _ := os.ReadFile(csvPath)
		pq, _ := os.ReadFile(pqPath)
		parquetcsvtest.Same(t, "shard "+k, csv, pq)
		f, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
		if err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, f.Schema().String())
		for _, line := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
			_, row, _ := strings.Cut(line, ",")
			rows = append(rows, row)
		}
	}
	if schemas[0] != schemas[1] || schemas[1] != schemas[2] {
		t.Errorf("the shards' schemas differ:\n%s", strings.Join(schemas, "\n"))
	}
	b, _ := os.ReadFile(whole)
	if want := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]; !slices.Equal(rows, want) {
		t.Errorf("the shards' %d rows are not the sweep's %d", len(rows), len(want))
	}
}

// TestReportParquet: report --parquet writes each CSV table as Parquet
// beside it, reading back as the CSV (reports' TestParquetFiles checks
// every file in rounds and seconds); without it, none.
func TestReportParquet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, parquet := range []bool{false, true} {
		out := filepath.Join(dir, "out")
		args := []string{"report", "--replicas", "2", "--candidates", "2,3", "--out", out}
		if parquet {
			args = append(args, "--parquet")
		}
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatal(stderr)
		}
		pq, err := os.ReadFile(filepath.Join(out, "candidates.parquet"))
		if !parquet {
			if err == nil {
				t.Error("without --parquet: candidates.parquet written")
			}
			continue
		}
		csv, _ := os.ReadFile(filepath.Join(out, "candidates.csv"))
		parquetcsvtest.Same(t, "candidates", csv, pq)
		entries, _ := os.ReadDir(out)
		n := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".parquet") {
				n++
			}
		}
		if n != 7 {
			t.Errorf("%d Parquet files, want 7, one a CSV", n)
		}
	}
}
