package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/internal/progress"
	"github.com/leasesim/leasesim/internal/shardenv"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// resolveShard reads fs's --shard auto or auto/N, if it has one, from the
// environment getenv reads (shardenv.Value.ResolveAuto), refused in one
// line naming the engine's variables when they are not set.
func resolveShard(fs *pflag.FlagSet, getenv func(string) string) error {
	if f := fs.Lookup("shard"); f != nil {
		if err := f.Value.(shardenv.Value).ResolveAuto(getenv); err != nil {
			return usagef("--shard %v", err)
		}
	}
	return nil
}

func setupSweep(fs *pflag.FlagSet) func(context.Context, *streams) error {
	g := sweep.NewGrid(model.Default())
	addGridFlags(fs, &g, model.Params()...)
	tick := addTickFlag(fs)
	var presets []settings.Preset
	addPresetsFlag(fs, &presets, presetUsage+"; a list, as kubernetes,etcd, sweeps each preset's grid in turn into one CSV, each of its flags going to the presets that take it")
	fs.Uint64Var(&g.Seed, "seed", 0, "seed of the followers' jitter, for configurations with jitter; the same seed gives the same rows")
	out, oneOut := addCSVFlag(fs, "write the CSV to this file, atomically; - is standard output")
	format := "csv"
	fs.Var(input.NewChoice(&format, "csv", "parquet"), "format", "output format: csv, or parquet: the CSV's columns, each typed (a toggle boolean, a name a string, seconds a double, else a 64-bit integer), a row group a chunk of rows")
	workers := runtime.NumCPU()
	fs.Var(input.Positive(&workers, 1024), "workers", "configurations run in parallel")
	fs.Lookup("workers").DefValue = "all cores"
	var k, n int = 0, 1
	fs.Var(shardenv.NewValue(&k, &n), "shard", "write only shard K of N: a contiguous slice of the rows, each led by its row number, for merge to check; "+shardenv.AutoUsage)
	incident := addIncidentFlags(fs, "run every configuration through this incident (leasesim replay's file: one failure a line, each node its own kind) instead of its group outage")
	dryRun := fs.Bool("dry-run", false, "print the number of configurations and exit")
	maxConfigs := 50_000_000
	fs.Var(input.Positive(&maxConfigs, 1<<62), "max-configs", "refuse a grid with more configurations than this")
	return func(ctx context.Context, std *streams) error {
		if err := oneOut(); err != nil {
			return err
		}
		g.Tick = *tick
		if err := incident.useOn(fs, &g); err != nil {
			return err
		}
		grids, err := presetGrids(fs, g, presets)
		if err != nil {
			return err
		}
		if derive, name := input.RealTimeRun(pflags{fs}); derive != nil && !fs.Changed("incident") {
			for i := range grids {
				grids[i].Derive, grids[i].DeriveName = derive, name
			}
		}
		if len(grids) > 1 && fs.Changed("shard") {
			return usagef("--shard goes with one --preset: the shards of several presets' grids would not merge into one sweep")
		}
		size := 0
		for i := range grids {
			n, err := grids[i].Size()
			if err != nil {
				return usage(err)
			}
			size += n
		}
		if size > maxConfigs { // refused before the grid is counted
			return usagef("the grid has %d configurations, more than --max-configs %d", size, maxConfigs)
		}
		valid, firstBad := 0, error(nil)
		for i := range grids {
			v, bad := grids[i].Valid(ctx)
			valid, firstBad = valid+v, cmp.Or(firstBad, bad)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := std.skip("configurations", size-valid, size, firstBad, g.Tick); err != nil {
			return err
		}
		first, last := sweep.Shard(size, k, n)
		if *dryRun {
			if n == 1 {
				fmt.Fprintf(std.out, "%d configurations\n", valid)
				return nil
			}
			// One grid: --shard goes with one preset. Its rows are
			// those it writes, numbered as they are in the sweep's output.
			from, to := grids[0].ShardRows(k, n)
			if from == to {
				fmt.Fprintf(std.out, "%d configurations; shard %d/%d has none\n", valid, k, n)
				return nil
			}
			fmt.Fprintf(std.out, "%d configurations; shard %d/%d has %d (rows %d to %d)\n", valid, k, n, to-from, from, to-1)
			return nil
		}
		opt := sweep.Options{Workers: workers}
		if fs.Changed("shard") {
			opt.K, opt.Shards = k, n
		}
		if bar := progress.Bar(std.err, last-first, "sweep"); bar != nil {
			opt.Progress = func(rows int) { bar.Add(rows) }
			defer bar.Finish()
		}
		return atomicfile.WriteOr(*out, "-", std.out, func(w *bufio.Writer) error {
			csv, done := parquetcsv.As(w, format, g.Tick, 0)
			if err := sweep.WriteGrids(ctx, csv, grids, opt); err != nil {
				return err
			}
			return done()
		})
	}
}

// presetGrids is the grids a sweep writes: g, or with --preset a grid a
// preset, each g with what its preset sets where no flag does
// (input.PresetUnset, sweep.PresetGrids). The presets of a list must
// share a tick unless --tick is given, as replay's.
func presetGrids(fs *pflag.FlagSet, g sweep.Grid, presets []settings.Preset) ([]sweep.Grid, error) {
	var values []map[model.Param]int
	for _, p := range presets {
		if err := input.SameTick(pflags{fs}, presets[0], p, g.Tick, "sweep them together"); err != nil {
			return nil, usage(err)
		}
		vals, err := input.PresetUnset(pflags{fs}, p, g.Tick)
		if err != nil {
			return nil, usage(err)
		}
		values = append(values, vals)
	}
	return sweep.PresetGrids(g, values), nil
}

// incidentFlags are a command's --incident and --epoch.
type incidentFlags struct{ file, epoch *string }

// addIncidentFlags adds --incident, what doing says the command does with
// it, and --epoch.
func addIncidentFlags(fs *pflag.FlagSet, doing string) incidentFlags {
	return incidentFlags{
		fs.String("incident", "", doing+"; --outage, --start, --down, --down-from and the kind flags then have no say"),
		fs.String("epoch", "", "with --incident, the moment the run begins, RFC 3339: a failure's start may then be a timestamp"),
	}
}

// given reports whether --incident was given, refusing --epoch without it.
func (f incidentFlags) given(fs *pflag.FlagSet) (bool, error) {
	if !fs.Changed("incident") && fs.Changed("epoch") {
		return false, flagUsagef([]string{"epoch", "incident"}, "--epoch goes only with --incident")
	}
	return fs.Changed("incident"), nil
}

// useOn makes every configuration of g meet the incident, if one is
// given (incident.Incident.OnGrid), refusing the flags it overrules.
func (f incidentFlags) useOn(fs *pflag.FlagSet, g *sweep.Grid) error {
	given, err := f.given(fs)
	if !given || err != nil {
		return err
	}
	in, err := incidentFlag(fs, *f.file, g.Tick, *f.epoch)
	if err != nil {
		return err
	}
	if err := in.OnGrid(g, *f.file); err != nil {
		return usage(err)
	}
	return nil
}

// incidentFlag reads the file of an --incident flag, refusing the flags it
// overrules (incident.Overrules).
func incidentFlag(fs *pflag.FlagSet, name string, t model.Tick, epoch string) (incident.Incident, error) {
	if err := incident.Overrules(fs.Changed); err != nil {
		return incident.Incident{}, usage(err)
	}
	if name == "" {
		return incident.Incident{}, flagUsagef([]string{"incident"}, "invalid argument \"\" for \"--incident\" flag: want an incident file")
	}
	return readIncident(fs, "--incident: ", name, t, epoch)
}

func setupMerge(fs *pflag.FlagSet) func(context.Context, *streams) error {
	out, oneOut := addCSVFlag(fs, "write the merged CSV to this file, atomically; - is standard output")
	return func(_ context.Context, std *streams) error {
		if err := oneOut(); err != nil {
			return err
		}
		files := fs.Args()
		if len(files) == 0 {
			return usagef("no input files: want the shards of one sweep or one Monte Carlo study, in shard order")
		}
		shards := sweep.OpenShards(files) // each read once: FIFOs and <(…) too
		defer shards.Close()
		merge := sweep.Merge
		if r, err := shards.Reader(0); err == nil && montecarlo.IsMonteCarloShard(r) {
			merge = montecarlo.MergeMonteCarlo
		}
		err := atomicfile.WriteOr(*out, "-", std.out, func(w *bufio.Writer) error { return merge(w, shards) })
		var bad *sweep.ShardError
		if errors.As(err, &bad) { // the shards are bad input, whatever the output
			return usage(bad)
		}
		return err
	}
}
