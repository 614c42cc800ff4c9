package main

import (
	"bufio"
	"context"
	"fmt"
	"runtime"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/internal/progress"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// errViolations is check's failure: the violations are already printed.
type errViolations struct{ configs, checked int }

func (e errViolations) Error() string {
	return fmt.Sprintf("%d of %d configurations break an invariant", e.configs, e.checked)
}

func setupCheck(fs *pflag.FlagSet) func(context.Context, *streams) error {
	g, protocols, perFire := sweep.CheckGrid(), sweep.ProtocolCheckGrid(), sweep.PerFireCheckGrid()
	addGridFlags(fs, &g, model.Params()...)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	addJitterSeedFlag(fs, &g.Seed)
	incident := addIncidentFlags(fs, "check every configuration against this incident (leasesim replay's file: one failure a line, each node its own kind) instead of its group outage")
	workers := runtime.NumCPU()
	fs.Var(input.Positive(&workers, 1024), "workers", "configurations checked in parallel; the output is the same for any number")
	fs.Lookup("workers").DefValue = "all cores"
	csvPath := addOutputFlag(fs, "csv", "", "also write the violations as a table to this file, atomically: a row each, the configuration's parameters as sweep's CSV has them, then the invariant's message (violation) and the command that reproduces it (command); the header alone when every invariant holds")
	format := "csv"
	fs.Var(input.NewChoice(&format, "csv", "parquet"), "format", "the --csv file's format: csv, or parquet: the CSV's columns, each typed as a sweep's (a toggle boolean, a name, the message and the command a string, seconds a double, else a 64-bit integer), a row group per 2,048 violations")
	return func(ctx context.Context, std *streams) error {
		if format == "parquet" && *csvPath == "" {
			return usagef("--format parquet is the --csv file's format: want --csv FILE with it (the violations on standard output are text)")
		}
		g.Tick = *tick
		if err := incident.useOn(fs, &g); err != nil {
			return err
		}
		size, err := g.Size()
		if err != nil {
			return usage(err)
		}
		valid, firstBad := g.Valid(ctx)
		if err := ctx.Err(); err != nil {
			return err
		}
		if valid == 0 { // nothing to check; skipped ones are counted in the last line
			return std.skip("configurations", size, size, firstBad, g.Tick)
		}
		grids := []*sweep.Grid{&g}
		if defaultGrid(fs) { // the service protocols' values, and the per-fire ones', beside client-go's
			for _, more := range []*sweep.Grid{&protocols, &perFire} {
				more.Seed = g.Seed
				grids = append(grids, more)
				n, _ := more.Size()
				size += n
			}
		}
		run := checkRun{check: sweep.Check, grids: grids, workers: workers, size: size, csv: *csvPath, format: format, tick: g.Tick,
			command: func(c model.Config) string {
				return reports.Reproduce(c, g.Tick, g.Seed, *incident.file, *incident.epoch)
			}}
		return run.run(ctx, std)
	}
}

// checkRun is what check runs once its flags are read: the grids, of
// size configurations in all, through check (sweep.Check; a test's
// stand-in makes violations the model has none of) on workers
// goroutines, and where it writes their violations beside standard
// output: the --csv file, if any, in format, times in the unit of tick;
// command is the command that reproduces a configuration.
type checkRun struct {
	check       func(context.Context, *sweep.Grid, sweep.CheckOptions, func(model.Config, error) error, func(int)) (checked, refused int, err error)
	grids       []*sweep.Grid
	workers     int
	size        int
	csv, format string
	tick        model.Tick
	command     func(model.Config) string
}

// run checks every grid, printing a line for each violation, in grid
// order, and adding it to the --csv file's table, and then the line that
// says every invariant holds or errViolations. The file is written
// atomically: in place once the check is done, violations or not, and
// not at all if it fails or is interrupted.
func (r checkRun) run(ctx context.Context, std *streams) error {
	advance := func(int) {}
	if bar := progress.Bar(std.err, r.size, "check"); bar != nil {
		advance = func(n int) { bar.Add(n) }
		defer bar.Finish()
	}
	bad, checked, refused := 0, 0, 0
	check := func(table *sweep.ViolationTable) error {
		for _, grid := range r.grids {
			c, rf, err := r.check(ctx, grid, sweep.CheckOptions{Workers: r.workers}, func(c model.Config, violation error) error {
				bad++
				command := r.command(c)
				if _, err := fmt.Fprintf(std.out, "violation: %s: %v\n", command, violation); err != nil || table == nil {
					return err
				}
				return table.Add(c, violation, command)
			}, advance)
			checked, refused = checked+c, refused+rf
			if err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	if r.csv == "" {
		err = check(nil)
	} else {
		err = atomicfile.Write(r.csv, func(w *bufio.Writer) error {
			out, done := parquetcsv.As(w, r.format, r.tick, parquetGroupRows)
			table, err := sweep.NewViolationTable(out, r.tick)
			if err != nil {
				return err
			}
			if err := check(table); err != nil {
				return err
			}
			return done()
		})
	}
	if err != nil {
		return err
	}
	if bad > 0 {
		return errViolations{bad, checked}
	}
	skipped := ""
	if refused > 0 {
		skipped = fmt.Sprintf(" (and skipped %d whose settings do not go together)", refused)
	}
	_, err = fmt.Fprintf(std.out, "checked %d configurations%s: every invariant holds\n", checked, skipped)
	return err
}

// defaultGrid reports whether check runs its default space: no flag set a
// parameter's list, a preset, a scheduler, a tick or an incident. Only
// then does it check sweep.ProtocolCheckGrid and sweep.PerFireCheckGrid
// beside sweep.CheckGrid; a
// space given by flags is one grid.
func defaultGrid(fs *pflag.FlagSet) bool {
	for _, p := range model.Params() {
		if fs.Changed(p.Flag()) {
			return false
		}
	}
	for _, name := range []string{"preset", "scheduler", "tick", "incident"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			return false
		}
	}
	return true
}
