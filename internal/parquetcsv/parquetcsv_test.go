package parquetcsv_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
	"github.com/parquet-go/parquet-go"
)

// ReadBack reads a Parquet file into CSV lines as the sweep writes them,
// the header first, and the number of row groups.
func readBack(t *testing.T, b []byte) (lines []string, groups int) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range f.Schema().Fields() {
		names = append(names, c.Name())
	}
	lines = append(lines, strings.Join(names, ","))
	for _, rg := range f.RowGroups() {
		groups++
		rows := rg.Rows()
		buf := make([]parquet.Row, 100)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				var fields []string
				for _, v := range row {
					switch v.Kind() {
					case parquet.Int64:
						fields = append(fields, strconv.FormatInt(v.Int64(), 10))
					case parquet.Double:
						fields = append(fields, strconv.FormatFloat(v.Double(), 'f', -1, 64))
					case parquet.Boolean:
						fields = append(fields, strconv.FormatBool(v.Boolean()))
					case parquet.ByteArray:
						fields = append(fields, string(v.ByteArray()))
					default:
						t.Fatalf("a value of kind %v", v.Kind())
					}
				}
				lines = append(lines, strings.Join(fields, ","))
			}
			if err != nil {
				break
			}
		}
		rows.Close()
	}
	return lines, groups
}

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
		w := parquetcsv.NewWriter(&pq, parquetcsv.SweepKinds(tt.tick))
		if err := sweep.Write(context.Background(), w, &g, tt.opt); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(csv.String(), "\n"), "\n")
		got, groups := readBack(t, pq.Bytes())
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines back from Parquet, %d of CSV", tt.name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: line %d:\n parquet %s\n csv     %s", tt.name, i+1, got[i], want[i])
			}
		}
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

func TestSweepKinds(t *testing.T) {
	rounds, seconds := parquetcsv.SweepKinds(0), parquetcsv.SweepKinds(model.Tick(time.Second))
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
	} {
		if got := tt.kinds(tt.column); got != tt.want {
			t.Errorf("kind of %s = %v, want %v", tt.column, got, tt.want)
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
