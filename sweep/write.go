package sweep

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/leasesim/leasesim/model"
)

// Options says which rows of a grid Write runs and how. The zero value
// runs every row with GOMAXPROCS workers.
type Options struct {
	// Shard K of Shards: rows Shard(size, K, Shards) of the grid, written
	// in the shard format that Merge reads (ShardColumn). Shards 0 means
	// the whole grid, in the plain format.
	K, Shards int
	Workers   int // goroutines running configurations; 0 means GOMAXPROCS
	// Progress, if set, is called after each block of rows is written,
	// with the number of rows in it.
	Progress func(rows int)
}

// chunkRows is how many rows a worker renders at a time. Large enough to
// amortise the hand-off, small enough to keep memory flat.
const chunkRows = 2048

type chunk struct {
	buf  []byte
	rows int
	err  error
}

// Write writes the CSV header and one row per configuration of g in the
// shard's rows, in grid order, but for configurations whose settings do
// not go together (model.Config.Validate; Grid.Valid counts them), which
// have no row. A shard's rows are numbered in the whole sweep's output,
// the skipped configurations left out. The output is byte-identical for
// every worker count. At most a few chunks per worker are held in memory,
// whatever the grid size. Write stops early, returning ctx.Err(), when ctx
// is cancelled.
func Write(ctx context.Context, w io.Writer, g *Grid, opt Options) error {
	size, err := g.Size()
	if err != nil {
		return err
	}
	valid, _ := g.Valid(ctx)
	first, last := 0, size
	header := AppendHeader(nil, g.Tick)
	sharded := opt.Shards > 0
	if sharded {
		first, last = Shard(size, opt.K, opt.Shards)
		header = append(ShardColumn(nil, g), header...)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if _, err := w.Write(header); err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	type job struct {
		first, last int
		row         int // the number in the sweep's output of the job's first row
		out         chan chunk
	}
	jobs := make(chan job)
	order := make(chan chan chunk, 2*workers) // bounds the chunks in flight
	free := make(chan []byte, 3*workers)      // buffers written out, for reuse

	go func() { // dispatcher: hands out chunks and remembers their order
		defer close(jobs)
		defer close(order)
		row := first
		if valid < size && sharded {
			row = g.validBefore(first)
		}
		for first := first; first < last; first += chunkRows {
			out := make(chan chunk, 1)
			select {
			case order <- out:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{first, min(first+chunkRows, last), row, out}:
			case <-ctx.Done():
				return
			}
			if valid < size && sharded {
				row += g.validIn(first, min(first+chunkRows, last))
			} else {
				row += chunkRows
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := model.Runner{JitterSeed: model.JitterSeed(g.Seed)}
			for j := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
				}
				buf, err := render(buf[:0], g, &r, j.first, j.last, j.row, sharded)
				j.out <- chunk{buf, j.last - j.first, err}
			}
		}()
	}
	// On any return, cancel first so that the dispatcher stops and closes
	// jobs, then wait for the workers: waiting first would hang whenever
	// the writer fails with the dispatcher blocked on a full order queue.
	defer func() {
		cancel()
		wg.Wait()
	}()

	for out := range order {
		var c chunk
		select {
		case c = <-out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if c.err != nil {
			return c.err
		}
		_, err := w.Write(c.buf)
		if err != nil {
			return err
		}
		select {
		case free <- c.buf:
		default:
		}
		if opt.Progress != nil {
			opt.Progress(c.rows)
		}
	}
	return ctx.Err()
}

// render appends the rows [first, last) of g to buf but for those whose
// settings do not go together, each led by its number in the sweep's
// output, from row on, if rowNumbers is set.
func render(buf []byte, g *Grid, r *model.Runner, first, last, row int, rowNumbers bool) ([]byte, error) {
	var o odometer
	o.seek(g, first)
	c := o.config(g)
	params := newParamText(g, &c, model.Param(o.last))
	var derived model.Config // c with g.Derive's parameters set
	for i := first; i < last; i++ {
		// Both calls are written out, not put behind a method of Grid: the
		// call is the sweep's inner loop, and a wrapper that cannot be
		// inlined costs a tenth of a short run.
		var st model.Stats
		var err error
		switch {
		case g.Derive != nil: // the rare grid whose rows set parameters of their own
			derived = c
			g.Derive(&derived)
			st, err = g.runDerived(r, derived)
		case g.Schedule == nil:
			st, err = r.Run(c)
		default:
			st, err = r.RunSchedule(c, g.Schedule)
		}
		if err != nil {
			if !isRelation(err) {
				return buf, err
			}
			params.update(g.Tick, &c, o.next(g, &c)) // not a configuration: no row
			continue
		}
		if rowNumbers {
			buf = strconv.AppendInt(buf, int64(row), 10)
			buf = append(buf, ',')
			row++
		}
		if g.Derive != nil {
			buf = g.Tick.AppendValues(buf, &derived)
		} else {
			buf = append(buf, params.text...)
			buf = append(buf, params.tail...)
		}
		buf = appendStats(buf, g.Tick, &st)
		params.update(g.Tick, &c, o.next(g, &c))
	}
	return buf, nil
}

// runDerived runs c, a configuration with Derive's parameters set, on
// the grid's schedule or its own group outage.
func (g *Grid) runDerived(r *model.Runner, c model.Config) (model.Stats, error) {
	if g.Schedule == nil {
		return r.Run(c)
	}
	return r.RunSchedule(c, g.Schedule)
}

// paramText is the parameter columns of the current row as CSV text. From
// one row to the next mostly the innermost parameters change, so only the
// text from the outermost changed parameter on is written anew; and the
// parameters after the last that varies in the grid never change, so
// their text, the tail, is written once.
type paramText struct {
	text    []byte
	tail    []byte
	varying model.Param          // the last parameter whose list has more than one value
	ends    [model.NumParams]int // where each parameter's text ends
}

func newParamText(g *Grid, c *model.Config, varying model.Param) *paramText {
	pt := &paramText{varying: varying}
	for p := pt.varying + 1; int(p) < model.NumParams; p++ {
		pt.tail = append(pt.tail, ',')
		pt.tail = g.Tick.AppendValue(pt.tail, p, c.Get(p))
	}
	pt.update(g.Tick, c, 0)
	return pt
}

func (pt *paramText) update(t model.Tick, c *model.Config, from model.Param) {
	if from > 0 {
		pt.text = pt.text[:pt.ends[min(from, pt.varying+1)-1]]
	} else {
		pt.text = pt.text[:0]
	}
	for p := from; p <= pt.varying; p++ {
		if p > 0 {
			pt.text = append(pt.text, ',')
		}
		pt.text = t.AppendValue(pt.text, p, c.Get(p))
		pt.ends[p] = len(pt.text)
	}
}

// isRelation reports whether err is a *model.RelationError: settings that
// do not go together.
func isRelation(err error) bool {
	var re *model.RelationError
	return errors.As(err, &re)
}
