package parquetcsv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/internal/parquetcsv/parquetcsvtest"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/sweep"
)

// TestSweepRowForRow writes sweeps as CSV and as Parquet and reads the
// Parquet back: the same header and rows, each column of its kind, a row
// group a chunk of the sweep's rows (2048), in rounds and in seconds,
// with named values and skipped configurations, and a shard.
func TestSweepRowForRow(t *testing.T) {
	list := func(p model.Param, s string) sweep.List {
		l, err := sweep.ParseValues(0, p, s)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	g := sweep.NewGrid(model.Default())
	g.Values[model.Lease] = list(model.Lease, "1:40")
	g.Values[model.Outage] = list(model.Outage, "0:9")
	g.Values[model.Fencing] = list(model.Fencing, "false,true")
	g.Values[model.Protocol] = list(model.Protocol, "client-go,etcd")
	g.Values[model.RereadPeriod] = list(model.RereadPeriod, "0,3")
	for _, tt := range []struct {
		name string
		tick model.Tick
		opt  sweep.Options
	}{
		{"rounds", 0, sweep.Options{Workers: 2}},
		{"seconds", model.Tick(1500 * time.Millisecond), sweep.Options{Workers: 2}},
		{"a shard", 0, sweep.Options{Workers: 2, K: 1, Shards: 3}},
	} {
		g.Tick = tt.tick
		var csv, pq bytes.Buffer
		if err := sweep.Write(context.Background(), &csv, &g, tt.opt); err != nil {
			t.Fatal(err)
		}
		w := parquetcsv.NewWriter(&pq, parquetcsv.Kinds(tt.tick))
		if err := sweep.Write(context.Background(), w, &g, tt.opt); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		groups := len(parquetcsvtest.Same(t, tt.name, csv.Bytes(), pq.Bytes()))
		size, _ := g.Size()
		first, last := 0, size
		if tt.opt.Shards > 0 {
			first, last = sweep.Shard(size, tt.opt.K, tt.opt.Shards)
		}
		if wantGroups := (last - first + 2047) / 2048; groups != wantGroups || (tt.opt.Shards == 0 && groups < 2) {
			t.Errorf("%s: %d row groups, want %d, one a chunk of the sweep's", tt.name, groups, wantGroups)
		}
	}
}

// TestKinds: a column's kind by its name, in rounds and in seconds.
func TestKinds(t *testing.T) {
	rounds, seconds := parquetcsv.Kinds(0), parquetcsv.Kinds(model.Tick(time.Second))
	for _, tt := range []struct {
		kinds  func(string) parquetcsv.Kind
		column string
		want   parquetcsv.Kind
	}{
		{rounds, "lease", parquetcsv.Int},
		{seconds, "lease_s", parquetcsv.Float},
		{rounds, "fencing", parquetcsv.Bool},
		{rounds, "protocol", parquetcsv.String},
		{rounds, "nodes", parquetcsv.Int},
		{seconds, "nodes", parquetcsv.Int},
		{rounds, "row_of_9_grid_0123", parquetcsv.Int}, // a shard's row number
		{rounds, "leaderless_rounds", parquetcsv.Int},
		{seconds, "leaderless_s", parquetcsv.Float},
		{rounds, "leaderless_rounds_mean", parquetcsv.Float},
		{rounds, "seed", parquetcsv.Uint},
		{rounds, "uptime", parquetcsv.String},
		{rounds, "trigger_every", parquetcsv.Int},
		{seconds, "trigger_every", parquetcsv.Float},
		{rounds, "double_lines_per_year_hi95", parquetcsv.Float},
		{rounds, "two_leader_margin", parquetcsv.Float | parquetcsv.Optional},
		{seconds, "takeover_after_crash_median_s", parquetcsv.Float | parquetcsv.Optional},
		{rounds, "recommended", parquetcsv.Bool},
		{rounds, "violation", parquetcsv.String}, // check's violations
		{seconds, "command", parquetcsv.String},
	} {
		if got := tt.kinds(tt.column); got != tt.want {
			t.Errorf("kind of %s = %v, want %v", tt.column, got, tt.want)
		}
	}
}

// TestViolationsRowForRow writes check's table of violations
// (sweep.ViolationTable) as CSV and, a row at a time as the command
// does, as Parquet in row groups of 2: the same rows, the parameters of
// their kinds, the messages and commands strings, commas and quotes
// included; in rounds and in seconds; and a table of no violation, its
// header alone, which has no row group.
func TestViolationsRowForRow(t *testing.T) {
	c := model.Default()
	var violations []error
	for _, msg := range []string{"two leaders in round 3", `fencing changed the rounds: {Started:1, Missed:2}, "quoted"`, "computed stretch by stretch {A:1 B:2}, round by round {A:1 B:3}"} {
		violations = append(violations, errors.New(msg))
	}
	for _, tt := range []struct {
		name       string
		tick       model.Tick
		violations int
		groups     []int
	}{
		{"rounds", 0, 3, []int{2, 1}},
		{"seconds", model.Tick(time.Second), 3, []int{2, 1}},
		{"none", 0, 0, nil},
	} {
		var csv, pq bytes.Buffer
		w := parquetcsv.NewWriter(&pq, parquetcsv.Kinds(tt.tick)).GroupRows(2)
		var tables []*sweep.ViolationTable
		for _, out := range []io.Writer{&csv, w} {
			table, err := sweep.NewViolationTable(out, tt.tick)
			if err != nil {
				t.Fatal(err)
			}
			tables = append(tables, table)
		}
		for i := range tt.violations {
			c.Lease = 10 + i
			for _, table := range tables {
				if err := table.Add(c, violations[i], fmt.Sprintf("leasesim run --lease=%d --nodes=3", c.Lease)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if groups := parquetcsvtest.Same(t, tt.name, csv.Bytes(), pq.Bytes()); !slices.Equal(groups, tt.groups) {
			t.Errorf("%s: row groups of %v rows, want %v", tt.name, groups, tt.groups)
		}
	}
}

func TestWriterRefuses(t *testing.T) {
	kinds := func(string) parquetcsv.Kind { return parquetcsv.Int }
	for _, tt := range []struct{ writes, err string }{
		{"a,b\n1,2\n1,2,3\n", "line 3 has more than the header's 2 columns"},
		{"a,b\n1\n", "line 2 has 1 columns, the header 2"},
		{"a,b\n1,x\n", `line 2, column 2: strconv.ParseInt: parsing "x": invalid syntax`},
		{"a,b\n1,2", "a write of part of a line"},
		{"a,b\n1,\n", `line 2, column 2: strconv.ParseInt: parsing "": invalid syntax`}, // not Optional
		{"a,b\n\"1\"x,2\n", "line 2, column 1: a quoted field goes on after its closing quote"},
		{"a,b\n1,\"2\n", "line 2, column 2: a quoted field has no closing quote"},
	} {
		w := parquetcsv.NewWriter(new(bytes.Buffer), kinds)
		_, err := w.Write([]byte(tt.writes))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: %v, want %q", tt.writes, err, tt.err)
		}
	}
	if err := parquetcsv.NewWriter(new(bytes.Buffer), kinds).Close(); err == nil {
		t.Error("Close with no header: no error")
	}
}

// TestMonteCarloRowForRow writes a Monte Carlo study's summaries as CSV
// and, a row at a time as the command does, as Parquet in row groups of 4
// rows (GroupRows): the same rows, each column of its kind, its quoted
// distributions ("lognormal:1.2,0.6") a string, with yearly figures, in
// rounds and in seconds; 10 configurations in groups of 4, 4 and 2.
func TestMonteCarloRowForRow(t *testing.T) {
	for _, tick := range []model.Tick{0, model.Tick(time.Second)} {
		base := model.Default()
		base.Rounds = 2000
		mc := montecarlo.MonteCarlo{Grid: sweep.NewGrid(base), Replicas: 3, Seed: 1 << 63, RoundsPerYear: 1000, LinesPerBatch: 10}
		mc.Grid.Tick = tick
		mc.Grid.Values[model.Lease], _ = sweep.ParseValues(0, model.Lease, "1:5")
		mc.Grid.Values[model.Fencing] = sweep.ListOf(0, 1)
		mc.Up, _ = parse.Lengths(0, "geometric:200")
		mc.Down, _ = parse.Lengths(0, "lognormal:1.2,0.6")
		csv := mc.AppendHeader(nil)
		var pq bytes.Buffer
		w := parquetcsv.NewWriter(&pq, parquetcsv.Kinds(tick)).GroupRows(4)
		if _, err := w.Write(mc.AppendHeader(nil)); err != nil {
			t.Fatal(err)
		}
		err := mc.Run(context.Background(), 2, func(s *montecarlo.Summary) error {
			csv = mc.AppendRow(csv, s)
			_, err := w.Write(mc.AppendRow(nil, s))
			return err
		}, func(int) {})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(csv, []byte(`"lognormal:1.2,0.6"`)) {
			t.Fatalf("the CSV has no quoted distribution: %.300s", csv)
		}
		if groups := parquetcsvtest.Same(t, "montecarlo", csv, pq.Bytes()); !slices.Equal(groups, []int{4, 4, 2}) {
			t.Errorf("tick %v: row groups of %v rows, want 4, 4, 2", tick, groups)
		}
	}
}
