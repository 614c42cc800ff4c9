package sweep_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

func TestParseValues(t *testing.T) {
	sec := model.Tick(time.Second)
	tests := []struct {
		tick    model.Tick
		p       model.Param
		in      string
		want    []int
		wantErr string
	}{
		{0, model.Lease, "3", []int{3}, ""},
		{sec, model.Lease, "15s", []int{15}, ""},
		{sec, model.Lease, "5s:20s:5s,1m", []int{5, 10, 15, 20, 60}, ""},
		{sec, model.Start, "0s:2s", []int{1, 2, 3}, ""}, // rounds 1, 2, 3 begin 0, 1, 2 ticks in
		{sec, model.Nodes, "1:3", []int{1, 2, 3}, ""},   // not a time
		{sec, model.Lease, "5s:20s:0s", nil, `"0s" in "5s:20s:0s": want a duration from 1s`},
		{sec, model.Lease, "5s:20s:1500ms", nil, `"1500ms" in "5s:20s:1500ms": 1500ms is not a whole number of ticks`},
		{sec, model.Lease, "20s:5s", nil, `range "20s:5s" is empty`},
		{sec, model.Lease, "5s:10s,7s", nil, "duplicate value 7s"},
		{sec, model.Lease, "5", nil, `"5" in "5": want a duration`},
		{0, model.Lease, "1:4,8,16", []int{1, 2, 3, 4, 8, 16}, ""},
		{0, model.Lease, "2:10:4", []int{2, 6, 10}, ""},
		{0, model.Lease, "2:9:4", []int{2, 6}, ""},
		{0, model.Lease, "5:5", []int{5}, ""},
		{0, model.Lease, "8,1:3", []int{8, 1, 2, 3}, ""},
		{0, model.Outage, "0:2", []int{0, 1, 2}, ""},
		{0, model.Fencing, "false,true", []int{0, 1}, ""},
		{0, model.Fencing, "true", []int{1}, ""},
		{0, model.Lease, "1:4,3", nil, "duplicate value 3"},
		{0, model.Fencing, "true,true", nil, "duplicate value true"},
		{0, model.Lease, "4:1", nil, `range "4:1" is empty: want lo <= hi`},
		{0, model.Lease, "1:4:0", nil, `range "1:4:0" has step 0: want a step of 1 or more`},
		{0, model.Lease, "1:4:-1", nil, `range "1:4:-1" has step -1: want a step of 1 or more`},
		{0, model.Lease, "0:4", nil, `"0:4" is out of range: want a whole number from 1 to 1000000000`},
		{0, model.Lease, "abc", nil, `"abc" is not a whole number or range`},
		{0, model.Lease, "", nil, `"" is not a whole number or range`},
		{0, model.Lease, "1,,2", nil, `"" is not a whole number or range`},
		{0, model.Lease, "1:2:3:4", nil, `"1:2:3:4" has too many colons`},
		{0, model.Lease, "1:1000000,999999:1000000000:999999", nil, "duplicate value 999999"},
		{0, model.Lease, "3:1000000000:6,11:1000000000:4", nil, "duplicate value 15"},
		{0, model.Lease, strings.Repeat("1,", 1000) + "1", nil, "1001 items: want at most 1000"},
		{0, model.Fencing, "yes", nil, `"yes" is not a toggle: want false, true or false,true`},
		{0, model.Nodes, "99999999999999999999", nil, "is not a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.tick.String()+" "+tt.p.Name()+" "+tt.in, func(t *testing.T) {
			got, err := sweep.ParseValues(tt.tick, tt.p, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || fmt.Sprint(slices.Collect(got.All())) != fmt.Sprint(tt.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// grid builds a grid from flag-style lists over the defaults.
func grid(t testing.TB, lists map[model.Param]string) *sweep.Grid {
	t.Helper()
	g := sweep.NewGrid(model.Default())
	for p, s := range lists {
		v, err := sweep.ParseValues(0, p, s)
		if err != nil {
			t.Fatal(err)
		}
		g.Values[p] = v
	}
	return &g
}

// cornerGrid crosses every parameter, with the corners of C1 (one node, a
// zone as large as the cluster), C5 (period 1) and C6 (outages to the end).
func cornerGrid(t testing.TB) *sweep.Grid {
	return grid(t, map[model.Param]string{
		model.Nodes: "1:3,5", model.Lease: "1,2,3,8", model.RereadPeriod: "1,3,4", model.Outage: "0,2,5,30",
		model.Start: "1,6", model.Rounds: "24,48", model.Period: "1,5,6", model.Fencing: "false,true",
		model.PersistentTrigger: "false,true", model.Down: "0:2,5", model.Quorum: "false,true",
	})
}

func write(t testing.TB, g *sweep.Grid, opt sweep.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := sweep.Write(context.Background(), &b, g, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRowsAgreeWithModel: every row of a grid crossing every parameter is
// the model's run of that configuration, in grid order (first parameter
// outermost), and every run keeps the invariants.
func TestRowsAgreeWithModel(t *testing.T) {
	g := cornerGrid(t)
	size, _ := g.Size()
	lines := strings.Split(strings.TrimSuffix(string(write(t, g, sweep.Options{Workers: 2})), "\n"), "\n")
	if len(lines) != size+1 || lines[0]+"\n" != string(sweep.AppendHeader(nil, 0)) {
		t.Fatalf("%d lines for %d configurations, header %q", len(lines), size, lines[0])
	}
	var r model.Runner
	for i := range size {
		c := g.Config(i)
		st, err := r.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(string(sweep.AppendRecord(nil, 0, &c, &st)), "\n")
		if lines[i+1] != want {
			t.Fatalf("row %d:\n got %s\nwant %s", i, lines[i+1], want)
		}
		if err := r.Check(c, c.Schedule()); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	}
	// The first parameter is outermost, the last innermost.
	if c := g.Config(1); c.Quorum != true || c.Nodes != 1 {
		t.Errorf("row 1 = %+v, want quorum to turn first", c)
	}
	if c := g.Config(size - 1); c.Nodes != 5 {
		t.Errorf("last row has nodes %d, want 5", c.Nodes)
	}
}

// TestWorkersAndShards: the output is byte-identical for every worker
// count, and the shards of any split merge to the whole file.
func TestWorkersAndShards(t *testing.T) {
	g := cornerGrid(t)
	whole := write(t, g, sweep.Options{Workers: 1})
	for _, w := range []int{2, 3, 8} {
		if got := write(t, g, sweep.Options{Workers: w}); !bytes.Equal(got, whole) {
			t.Errorf("workers %d: output differs from workers 1", w)
		}
	}
	dir := t.TempDir()
	for _, n := range []int{1, 2, 3, 7, 64} {
		files := writeShards(t, dir, g, n)
		var merged bytes.Buffer
		if err := merge(&merged, files); err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if !bytes.Equal(merged.Bytes(), whole) {
			t.Errorf("%d shards do not merge to the whole file", n)
		}
	}
}

// TestMoreShardsThanRows: with more shards than rows, most shards are
// empty, and they still merge to the whole file.
func TestMoreShardsThanRows(t *testing.T) {
	g := grid(t, map[model.Param]string{model.Lease: "1:3"})
	var merged bytes.Buffer
	if err := merge(&merged, writeShards(t, t.TempDir(), g, 8)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged.Bytes(), write(t, g, sweep.Options{})) {
		t.Error("8 shards of 3 rows do not merge to the whole file")
	}
}

// writeShards writes the n shards of g to files in dir and returns their
// names, in shard order.
func writeShards(t *testing.T, dir string, g *sweep.Grid, n int) []string {
	t.Helper()
	var files []string
	for k := range n {
		name := filepath.Join(dir, fmt.Sprintf("part-%d.csv", k))
		if err := os.WriteFile(name, write(t, g, sweep.Options{K: k, Shards: n, Workers: 2}), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

func TestShardBounds(t *testing.T) {
	tests := []struct{ size, k, n, first, last int }{
		{10, 0, 3, 0, 3}, {10, 1, 3, 3, 6}, {10, 2, 3, 6, 10},
		{2, 0, 4, 0, 0}, {2, 1, 4, 0, 1}, {2, 3, 4, 1, 2},
		{1 << 62, 1, 2, 1 << 61, 1 << 62},
	}
	for _, tt := range tests {
		if first, last := sweep.Shard(tt.size, tt.k, tt.n); first != tt.first || last != tt.last {
			t.Errorf("Shard(%d, %d, %d) = %d, %d; want %d, %d", tt.size, tt.k, tt.n, first, last, tt.first, tt.last)
		}
	}
}

func TestGridSizeOverflow(t *testing.T) {
	g := sweep.NewGrid(model.Default())
	for p := range g.Values {
		if model.Param(p).Bool() {
			continue
		}
		g.Values[p], _ = sweep.ParseValues(0, model.Param(p), "1:1000000")
	}
	if _, err := g.Size(); err == nil {
		t.Error("Size() of a 10^48-row grid did not fail")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := sweep.Write(ctx, &bytes.Buffer{}, cornerGrid(t), sweep.Options{Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Write with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestPublicationLeaseSweep writes the publication's lease block (lease 2, 3, 5, 8 ×
// outage 5, 2) as a sweep, against its golden CSV.
func TestPublicationLeaseSweep(t *testing.T) {
	g := grid(t, map[model.Param]string{model.Lease: "2,3,5,8", model.Outage: "5,2"})
	golden.Check(t, "publication-lease.csv", write(t, g, sweep.Options{}))
}

// bigGrid is 700,000 configurations of 24 or 48 rounds.
func bigGrid(b testing.TB) *sweep.Grid {
	return grid(b, map[model.Param]string{
		model.Nodes: "1:5", model.Lease: "1:10", model.RereadPeriod: "1:5", model.Outage: "0:6", model.Start: "1:5",
		model.Rounds: "24,48", model.Period: "1:10", model.Fencing: "false,true", model.PersistentTrigger: "false,true",
	})
}

// BenchmarkSweep700k writes a 700,000-configuration sweep to a CSV file,
// with 1 and 2 workers. It reports configurations per second and the
// process's peak resident memory.
func BenchmarkSweep700k(b *testing.B) {
	g := bigGrid(b)
	size, _ := g.Size()
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "sweep.csv")
			for b.Loop() {
				b.StopTimer() // freeing the last iteration's file is no part of this sweep
				os.Remove(path)
				b.StartTimer()
				f, err := os.Create(path)
				if err != nil {
					b.Fatal(err)
				}
				if err := sweep.Write(context.Background(), f, g, sweep.Options{Workers: workers}); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
			b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "configs/s")
			b.ReportMetric(peakRSSMiB(b), "MiB-peak-RSS")
		})
	}
}

// BenchmarkValid counts the configurations that go together, and a
// shard's rows, of the 700,000-configuration grid and of the check's two
// grids (113 and 283 million configurations), as sweep --dry-run and
// check do before they run anything.
func BenchmarkValid(b *testing.B) {
	for name, g := range map[string]*sweep.Grid{"700k": bigGrid(b), "check": ptr(sweep.CheckGrid()), "protocol-check": ptr(sweep.ProtocolCheckGrid())} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				g.Valid(context.Background())
			}
		})
		b.Run(name+"/shard-rows", func(b *testing.B) {
			for b.Loop() {
				g.ShardRows(3, 7)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// BenchmarkSweepMemory streams grids of 700,000 and 7,000,000
// configurations to a discarding writer; the peak resident memory it reports
// after the larger one shows that memory does not grow with the grid.
func BenchmarkSweepMemory(b *testing.B) {
	for _, periods := range []string{"1:10", "1:100"} {
		g := bigGrid(b)
		g.Values[model.Period], _ = sweep.ParseValues(0, model.Period, periods)
		size, _ := g.Size()
		b.Run(fmt.Sprintf("configs=%d", size), func(b *testing.B) {
			for b.Loop() {
				if err := sweep.Write(context.Background(), io.Discard, g, sweep.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(peakRSSMiB(b), "MiB-peak-RSS")
		})
	}
}

// peakRSSMiB reads the process's peak resident set size (VmHWM) in MiB.
func peakRSSMiB(b *testing.B) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(status), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(line, "VmHWM: %f kB", &kb); err == nil {
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestValidAgreesWithWalk: Valid, from the grid of the related
// parameters alone, counts the configurations that go together as walking
// the whole grid does, and names the walk's first that does not.
func TestValidAgreesWithWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := func(lo, hi int) sweep.List {
		var vals []int
		for v := lo; v <= hi; v++ {
			if rng.IntN(3) == 0 {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			vals = []int{lo + rng.IntN(hi-lo+1)}
		}
		rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		return sweep.ListOf(vals...)
	}
	found, all := 0, 0
	for range 2000 {
		g := sweep.NewGrid(model.Default())
		a := rng.IntN(8)
		g.Values[model.Nodes], g.Values[model.Outage] = list(1, 3), list(0, 2)
		g.Values[model.Lease], g.Values[model.RereadPeriod] = list(4, 12), list(rng.IntN(2), 3)
		g.Values[model.RetryPeriod], g.Values[model.RenewDeadline] = list(1, 3), list(a, a+2)
		g.Values[model.Period], g.Values[model.BatchLen] = list(1, 3), list(1, 2)
		g.Values[model.Overlap], g.Values[model.PersistentTrigger], g.Values[model.Jitter] = list(0, 4), list(0, 1), list(0, 1)
		// fencing and quorum relate only under a per-fire protocol
		// (ShedLock's), which a third of the grids take beside client-go's
		g.Values[model.Fencing], g.Values[model.Quorum] = list(0, 1), list(0, 1)
		if rng.IntN(3) == 0 { // as a per-fire lock takes them: no renew deadline, re-read, jitter or trigger
			g.Values[model.Protocol] = sweep.ListOf(int(model.ProtocolClientGo), int(model.ProtocolShedLock))
			g.Values[model.RenewDeadline], g.Values[model.RereadPeriod] = list(0, 1), list(0, 1)
			g.Values[model.Jitter], g.Values[model.PersistentTrigger], g.Values[model.Overlap] = sweep.ListOf(0), sweep.ListOf(0), sweep.ListOf(0)
			g.Values[model.LockAtLeastFor], g.Values[model.FireSpread] = list(0, 2), list(0, 2)
		}
		size, _ := g.Size()
		valid := 0
		var walk error
		for i := range size {
			c := g.Config(i)
			if err := c.Validate(); err != nil {
				walk = cmp.Or(walk, err)
			} else {
				valid++
			}
		}
		n, err := g.Valid(context.Background())
		if n != valid || fmt.Sprint(err) != fmt.Sprint(walk) {
			t.Fatalf("grid %s: Valid %d, %v; the walk %d, %v", fmt.Sprint(g.Values[:10]), n, err, valid, walk)
		}
		switch {
		case valid == 0:
			all++
		case err != nil:
			found++
		}
	}
	if found < 400 || found > 1600 || all < 20 {
		t.Errorf("%d of 2000 grids partly invalid, %d wholly: the test draws too few of one kind", found, all)
	}
}

// TestWriteSkips: a sweep writes a row for each configuration that goes
// together and none for the rest, and its shards, merged, give the
// unsharded output byte for byte, for every way of cutting it.
func TestWriteSkips(t *testing.T) {
	g := sweep.NewGrid(model.Default())
	g.Values[model.Lease] = sweep.ListOf(2, 3, 4, 5)
	g.Values[model.RenewDeadline] = sweep.ListOf(0, 3)
	g.Values[model.RereadPeriod] = sweep.ListOf(0, 3)
	g.Values[model.Outage] = sweep.ListOf(1, 5)
	var whole bytes.Buffer
	if err := sweep.Write(context.Background(), &whole, &g, sweep.Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(whole.String(), "\n"), "\n")
	// Of lease × deadline × re-read period = 16 per outage, re-read period
	// 0 without a deadline (4) and leases 2 and 3 with deadline 3 (2 renewals) go not.
	if want := 1 + 2*(16-4-4); len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, whole.String())
	}
	if n, err := g.Valid(context.Background()); n != 16 || err == nil {
		t.Errorf("Valid: %d, %v; want 16 and the first reason", n, err)
	}
	for _, shards := range []int{2, 3, 5, 32} {
		dir := t.TempDir()
		var files []string
		for k := range shards {
			name := filepath.Join(dir, fmt.Sprintf("%d.csv", k))
			var b bytes.Buffer
			if err := sweep.Write(context.Background(), &b, &g, sweep.Options{K: k, Shards: shards}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		var merged bytes.Buffer
		if err := merge(&merged, files); err != nil {
			t.Fatalf("%d shards: %v", shards, err)
		}
		if merged.String() != whole.String() {
			t.Errorf("%d shards merged:\n%s\nwant:\n%s", shards, merged.String(), whole.String())
		}
		for k, name := range files { // the first shard with rows, missing
			if b, _ := os.ReadFile(name); bytes.Count(b, []byte("\n")) > 1 {
				if err := merge(io.Discard, slices.Delete(slices.Clone(files), k, k+1)); err == nil {
					t.Errorf("%d shards: merged without shard %d", shards, k)
				}
				break
			}
		}
	}
}

// TestFingerprintSchedule: a grid that meets an incident is another grid
// for its shards: its fingerprint differs from the same lists' with the
// group outage, and from another incident's.
func TestFingerprintSchedule(t *testing.T) {
	g := sweep.NewGrid(model.Default())
	plain := g.Fingerprint()
	g.Schedule = model.Windows{{Node: 0, First: 6, Last: 10, Failure: model.Failure{Kind: model.Partitioned}}}
	one := g.Fingerprint()
	g.Schedule[0].Failure = model.Failure{Kind: model.Crashed}
	if other := g.Fingerprint(); plain == one || one == other {
		t.Errorf("fingerprints %x, %x, %x: want three", plain, one, other)
	}
}

// TestNoMarginGoesTogether: the configuration NoMargin names goes
// together: the grid's shortest lease, which its renew deadline refuses,
// is passed over for the next that lets two leaders write.
func TestNoMarginGoesTogether(t *testing.T) {
	for _, tc := range []struct {
		leases []int
		want   int // 0: none
	}{
		{[]int{2, 4, 5}, 4},
		{[]int{2, 5}, 0},
		{[]int{4, 5}, 4},
	} {
		g := sweep.NewGrid(model.Default())
		g.Values[model.Lease] = sweep.ListOf(tc.leases...)
		g.Values[model.RenewDeadline] = sweep.ListOf(3)
		c, ok := g.NoMargin()
		if got := map[bool]int{true: c.Lease}[ok]; got != tc.want {
			t.Errorf("leases %v: NoMargin gives lease %d (ok %v), want %d", tc.leases, c.Lease, ok, tc.want)
		}
	}
}
