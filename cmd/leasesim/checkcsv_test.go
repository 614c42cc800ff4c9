package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/parquetcsv/parquetcsvtest"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/sweep"
)

// smallCheck is a check of 32 configurations, 24 of which go together.
var smallCheck = []string{"check", "--lease", "1:4", "--nodes", "2,3", "--retry-period", "1", "--renew-deadline", "0", "--drift", "0", "--down", "1", "--rounds", "24",
	"--jitter", "false", "--black-hole", "false", "--partition", "false", "--crash", "false", "--pause", "false", "--idempotency-key", "false"}

// TestCheckCSV: check --csv, when every invariant holds, writes the
// table's header alone (a sweep's parameter columns, then violation and
// command), as CSV or as Parquet of the same columns and no row, and
// prints what it prints without the file; --format parquet without
// --csv is refused in one line naming both.
func TestCheckCSV(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, want, stderr := runCmd(t, smallCheck...)
	if code != exitOK || stderr != "" || !strings.HasSuffix(want, ": every invariant holds\n") {
		t.Fatalf("check: exit %d, %q, %q", code, want, stderr)
	}
	for _, tt := range []struct {
		args []string
		tick model.Tick
	}{
		{nil, 0},
		{[]string{"--tick", "1s", "--rounds", "24s", "--lease", "1s:4s", "--retry-period", "1s", "--renew-deadline", "0s"}, model.Tick(1e9)},
	} {
		files := map[string][]byte{}
		for _, format := range []string{"csv", "parquet"} {
			path := filepath.Join(dir, "violations."+format)
			args := append(append(slices.Clone(smallCheck), tt.args...), "--csv", path, "--format", format)
			code, stdout, stderr := runCmd(t, args...)
			if code != exitOK || stderr != "" || stdout != want {
				t.Errorf("check %v: exit %d, %q, %q, want %q", args[1:], code, stdout, stderr, want)
			}
			files[format], _ = os.ReadFile(path)
		}
		header := string(append(tt.tick.AppendNames(nil, model.Params()...), "violation,command\n"...))
		if string(files["csv"]) != header || !strings.Contains(header, map[bool]string{true: ",lease_s,", false: ",lease,"}[tt.tick != 0]) {
			t.Errorf("check --csv %v: %q, want the header alone, %q", tt.args, files["csv"], header)
		}
		if groups := parquetcsvtest.Same(t, "check --format parquet", files["csv"], files["parquet"]); len(groups) != 0 {
			t.Errorf("check --format parquet: row groups %v, want none", groups)
		}
	}
	code, stdout, stderr := runCmd(t, append(slices.Clone(smallCheck), "--format", "parquet")...)
	if want := "leasesim check: --format parquet is the --csv file's format: want --csv FILE with it (the violations on standard output are text)\n"; code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("check --format parquet: exit %d, %q, %q, want %q", code, stdout, stderr, want)
	}
	onlyFiles(t, dir, "violations.csv", "violations.parquet")
}

// fencedBreak stands in for sweep.Check, whose model has no violation
// to find: it checks every configuration of g with sweep.Check (so that
// the counts are its), and reports each that goes together and has
// fencing on as breaking an invariant, in grid order.
func fencedBreak(ctx context.Context, g *sweep.Grid, opt sweep.CheckOptions, violation func(model.Config, error) error, progress func(int)) (int, int, error) {
	checked, refused, err := sweep.Check(ctx, g, opt, violation, progress)
	if err != nil {
		return checked, refused, err
	}
	size, _ := g.Size()
	for i := range size {
		if c := g.Config(i); c.Validate() == nil && c.Fencing {
			if err := violation(c, fmt.Errorf("a test's violation, configuration %d, lease %d: fenced, \"quoted\"", i, c.Lease)); err != nil {
				return checked, refused, err
			}
		}
	}
	return checked, refused, nil
}

// TestCheckViolationsTable: with violations, check prints a line each as
// it always did, and its --csv file has a row for each line, in the
// same order: the configuration's parameters, the very values of the
// line's command, then the line's message and command; the Parquet file
// holds the same rows; both are in place though check fails.
func TestCheckViolationsTable(t *testing.T) {
	dir := t.TempDir()
	check := func(path, format string) (string, error) {
		g := sweep.NewGrid(model.Default())
		g.Values[model.Lease] = sweep.ListOf(2, 3, 4, 5, 6)
		g.Values[model.Nodes] = sweep.ListOf(2, 3)
		g.Values[model.Fencing] = sweep.ListOf(0, 1)
		size, _ := g.Size()
		var stdout, stderr bytes.Buffer
		run := checkRun{check: fencedBreak, grids: []*sweep.Grid{&g}, workers: 2, size: size, csv: path, format: format,
			command: func(c model.Config) string { return reports.Reproduce(c, 0, 0, "", "") }}
		err := run.run(context.Background(), &streams{out: &stdout, err: &stderr, cmd: "check"})
		if stderr.Len() != 0 {
			t.Errorf("stderr %q", stderr.String())
		}
		return stdout.String(), err
	}
	text, err := check("", "csv")
	var bad errViolations
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !errors.As(err, &bad) || bad.configs != len(lines) || bad.configs != 10 || bad.checked != 20 {
		t.Fatalf("check: %v, %d lines:\n%s", err, len(lines), text)
	}
	files := map[string][]byte{}
	for _, format := range []string{"csv", "parquet"} {
		path := filepath.Join(dir, "violations."+format)
		if got, err := check(path, format); got != text || err != bad {
			t.Errorf("check --csv --format %s: %v, stdout\n%s\nwant it as without --csv, %v:\n%s", format, err, got, bad, text)
		}
		files[format], _ = os.ReadFile(path)
	}
	rows, err := csv.NewReader(bytes.NewReader(files["csv"])).ReadAll()
	if err != nil || len(rows) != len(lines)+1 {
		t.Fatalf("the CSV: %v, %d rows, want the header and %d", err, len(rows), len(lines))
	}
	header := rows[0]
	for i, row := range rows[1:] {
		violation, command := row[len(row)-2], row[len(row)-1]
		if want := "violation: " + command + ": " + violation; lines[i] != want {
			t.Errorf("row %d: %q, the line %q", i+1, want, lines[i])
		}
		for p := range model.Param(model.NumParams) {
			if flag := " --" + p.Flag() + "=" + row[p] + " "; header[p] != p.Name() || !strings.Contains(command+" ", flag) {
				t.Errorf("row %d: column %s has %q; its command %q has no %q", i+1, header[p], row[p], command, flag)
			}
		}
	}
	parquetcsvtest.Same(t, "check --format parquet", files["csv"], files["parquet"])
}
