package sweep_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// smallValues are the values of parameter p a random grid draws from: every
// value of an enumeration or toggle, and a few small ones of a number, at
// which its relations to the others turn.
func smallValues(p model.Param) []int {
	switch {
	case p.Bool():
		return []int{0, 1}
	case p.Names() != nil:
		vals := make([]int, len(p.Names()))
		for v := range vals {
			vals[v] = v
		}
		return vals
	case p == model.Drift:
		return []int{-500, -100, 0, 250, 1000}
	case p == model.Rounds:
		return []int{6, 12, 24}
	}
	lo, _ := p.Range()
	return []int{lo, lo + 1, lo + 2, lo + 3, lo + 4, lo + 5}
}

// randomGrid is a grid of every parameter at a random small value or its
// default, (an eighth of them at random), but for a few parameters, drawn from all of them alike, each a
// list of two or three values in random order, the default put into
// half of those that lack it.
func randomGrid(rng *rand.Rand) sweep.Grid {
	def := model.Default()
	g := sweep.NewGrid(def)
	for p := range model.Param(model.NumParams) {
		if vals := smallValues(p); rng.IntN(8) == 0 {
			g.Values[p] = sweep.ListOf(vals[rng.IntN(len(vals))])
		}
	}
	for _, p := range rng.Perm(model.NumParams)[:7] {
		vals := smallValues(model.Param(p))
		rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		n := min(len(vals), 2+rng.IntN(2))
		if d, k := def.Get(model.Param(p)), slices.Index(vals, def.Get(model.Param(p))); k >= n && rng.IntN(2) == 0 {
			vals[rng.IntN(n)] = d
		}
		g.Values[p] = sweep.ListOf(vals[:n]...)
	}
	return g
}

// shuffled returns g with every list in a random order.
func shuffled(rng *rand.Rand, g sweep.Grid) sweep.Grid {
	for p, l := range g.Values {
		var vals []int
		for v := range l.All() {
			vals = append(vals, v)
		}
		rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		g.Values[p] = sweep.ListOf(vals...)
	}
	return g
}

// TestValidAnyListOrder: for random small grids over every parameter, with
// their lists in random orders, Valid counts the rows Write writes and
// names the first configuration, in grid order, that does not go together,
// and gives the same count for any order of the lists; NoMargin names the
// first that goes together and lets two leaders write; each shard's header
// states the rows the whole sweep writes, its rows are numbered as
// ShardRows says, and the shards merge to the whole output.
func TestValidAnyListOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	dir := t.TempDir()
	partly, none := 0, 0
	for i := range 250 {
		g := randomGrid(rng)
		size, _ := g.Size()
		valid, rowBefore := 0, make([]int, size+1)
		var first error
		var noMargin model.Config
		for k := range size {
			rowBefore[k] = valid
			c := g.Config(k)
			if err := c.Validate(); err != nil {
				first = cmp.Or(first, err)
				continue
			}
			if valid++; c.NoMargin() && noMargin.Nodes == 0 {
				noMargin = c
			}
		}
		rowBefore[size] = valid
		name := fmt.Sprintf("grid %d: %s", i, describe(&g))
		if n, err := g.Valid(context.Background()); n != valid || fmt.Sprint(err) != fmt.Sprint(first) {
			t.Fatalf("%s: Valid %d, %v; the walk %d, %v", name, n, err, valid, first)
		}
		if c, ok := g.NoMargin(); ok != (noMargin.Nodes != 0) || c != noMargin && ok {
			t.Fatalf("%s: NoMargin %+v, %v; the walk %+v", name, c, ok, noMargin)
		}
		for range 3 {
			if h := shuffled(rng, g); true {
				if n, _ := h.Valid(context.Background()); n != valid {
					t.Fatalf("%s: Valid %d, but %d with its lists reordered as %s", name, valid, n, describe(&h))
				}
			}
		}
		switch valid {
		case 0:
			none++
			continue
		case size:
		default:
			partly++
		}
		whole := write(t, &g, sweep.Options{Workers: 2})
		if rows := bytes.Count(whole, []byte("\n")) - 1; rows != valid {
			t.Fatalf("%s: Valid %d, Write wrote %d rows", name, valid, rows)
		}
		n := 1 + rng.IntN(4)
		var files []string
		for k := range n {
			part := write(t, &g, sweep.Options{K: k, Shards: n, Workers: 2})
			lines := strings.Split(strings.TrimSuffix(string(part), "\n"), "\n")
			if want := fmt.Sprintf("row_of_%d_grid_", valid); !strings.HasPrefix(lines[0], want) {
				t.Fatalf("%s: shard %d/%d's header %.40q, want %s…", name, k, n, lines[0], want)
			}
			lo, hi := sweep.Shard(size, k, n)
			from, to := g.ShardRows(k, n)
			if from != rowBefore[lo] || to != rowBefore[hi] || len(lines)-1 != to-from {
				t.Fatalf("%s: shard %d/%d: ShardRows %d, %d; the walk %d, %d; it wrote %d rows", name, k, n, from, to, rowBefore[lo], rowBefore[hi], len(lines)-1)
			}
			if to > from && !strings.HasPrefix(lines[1], fmt.Sprint(from)+",") {
				t.Fatalf("%s: shard %d/%d's first row %.20q, want row %d", name, k, n, lines[1], from)
			}
			file := filepath.Join(dir, fmt.Sprintf("%d.csv", k))
			if err := os.WriteFile(file, part, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, file)
		}
		var merged bytes.Buffer
		if err := merge(&merged, files); err != nil || !bytes.Equal(merged.Bytes(), whole) {
			t.Fatalf("%s: %d shards merged (%v) differ from the whole output", name, n, err)
		}
	}
	if partly < 50 || none < 20 {
		t.Errorf("of 250 grids %d partly valid, %d wholly invalid: the test draws too few of one kind", partly, none)
	}
}

// TestValidListOrder: the grids of issue 44, whose validity turns on
// parameters beside the lease settings, count alike in either order of
// their lists.
func TestValidListOrder(t *testing.T) {
	tests := []struct {
		lists map[model.Param]string
		want  int
	}{
		// etcd takes no re-read of the record: of the two, client-go's alone.
		{map[model.Param]string{model.Protocol: "etcd,client-go"}, 1},
		{map[model.Param]string{model.Protocol: "client-go,etcd"}, 1},
		// A failover and a lock-delay need etcd and consul: client-go
		// takes neither (1), etcd not the lock-delay (2, with renewal 0).
		{map[model.Param]string{model.Protocol: "client-go,etcd", model.ServiceFailover: "0,5", model.LockDelay: "0,5"}, 1},
		{map[model.Param]string{model.Protocol: "etcd,client-go", model.ServiceFailover: "5,0", model.LockDelay: "5,0", model.RereadPeriod: "0,3"}, 3},
		{map[model.Param]string{model.Protocol: "consul,client-go", model.LockDelay: "5,0", model.RereadPeriod: "0,3"}, 3},
		{map[model.Param]string{model.Protocol: "dynamodb,client-go", model.AcquireWait: "2,0", model.RereadPeriod: "3,0"}, 3},
		// Under dynamodb a failing node whose clock counts the lease (3)
		// in no more rounds than the retry period (2) goes not: drift 1000
		// counts it in 2, unless no node fails (down 0), or the failing
		// ones are past the last node (down-from 5 of 5).
		{map[model.Param]string{model.Protocol: "dynamodb", model.RereadPeriod: "0", model.RetryPeriod: "2", model.Drift: "1000,0", model.Down: "1,0", model.DownFrom: "5,0", model.Nodes: "5,6"}, 2*2*2*2 - 3},
		{map[model.Param]string{model.Protocol: "dynamodb", model.RereadPeriod: "0", model.RetryPeriod: "2", model.Drift: "0,1000", model.Down: "0,1", model.DownFrom: "0,5", model.Nodes: "6,5"}, 2*2*2*2 - 3},
	}
	for _, tt := range tests {
		g := grid(t, tt.lists)
		if got, _ := g.Valid(context.Background()); got != tt.want {
			t.Errorf("%v: Valid %d, want %d", tt.lists, got, tt.want)
		}
	}
}

// describe names every parameter's list of g, as flags take them.
func describe(g *sweep.Grid) string {
	var b strings.Builder
	for p, l := range g.Values {
		fmt.Fprintf(&b, " --%s %s", model.Param(p).Flag(), l.Format(model.Param(p)))
	}
	return b.String()
}

// TestValidStopsWhenCancelled: counting a large grid's configurations
// that go together takes seconds; with its context done it stops at
// once, saying why, so that an interrupted command is not kept waiting.
func TestValidStopsWhenCancelled(t *testing.T) {
	g := sweep.CheckGrid()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := g.Valid(ctx); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("Valid with its context cancelled: %d, %v; want 0, context.Canceled", n, err)
	}
}
