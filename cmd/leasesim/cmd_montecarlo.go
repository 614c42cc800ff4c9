package main

import (
	"bufio"
	"cmp"
	"context"
	"io"
	"runtime"
	"strconv"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/internal/parquetcsv"
	"github.com/leasesim/leasesim/internal/progress"
	"github.com/leasesim/leasesim/internal/shardenv"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

func setupMonteCarlo(fs *pflag.FlagSet) func(context.Context, *streams) error {
	base := model.Default()
	base.Rounds = 100_000
	mc := montecarlo.MonteCarlo{Grid: sweep.NewGrid(base), Replicas: 100, Seed: 1, LinesPerBatch: study.PublicationLinesPerBatch}
	mc.Up, _ = parse.Lengths(0, "geometric:2000")
	mc.Down, _ = parse.Lengths(0, "lognormal:1.2,0.6")
	addGridFlags(fs, &mc.Grid, montecarlo.ListParams()...)
	for _, p := range montecarlo.OneValueParams() { // the replicas' rounds, and one lock a study, as a --preset sets it
		usage := p.Doc() + "; one value a study"
		if p == model.Rounds {
			usage = "rounds in each replica"
		}
		fs.Var(input.NewParam(p, &base), p.Flag(), usage)
	}
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	fs.Var(input.NewLengths(&mc.Up), "uptime", "how long a node stays reachable: "+parse.LengthsSyntax(0)+"; with --tick, "+parse.LengthsSyntax(1)+"; or "+montecarlo.EmpiricalSyntax)
	fs.Var(input.NewLengths(&mc.Down), "downtime", "how long a node stays unreachable: "+parse.LengthsSyntax(0)+"; with --tick, "+parse.LengthsSyntax(1)+"; or "+montecarlo.EmpiricalSyntax)
	fs.Var(input.NewProcesses(&mc.Also), "also", "beside the --uptime/--downtime failures, every node also fails this way, on its own: KIND=UPTIME/DOWNTIME with KIND "+model.KindNames()+" (a pause now and then: pause=geometric:50000/fixed:3), or the nodes of a zone together: KIND@NODES=… (isolate@0:1=geometric:90000/fixed:20); repeatable; a node down in two ways fails as the first given, --uptime/--downtime's first")
	fs.Var(input.Positive(&mc.Replicas, 1_000_000), "replicas", "independent runs of each configuration; with --precision, run this many at a time")
	fs.Var(input.Share(&mc.Precision), "precision", "run replicas until every headline figure's 95% interval is within ± this share of it, e.g. 10% (0: off): missed and double lines a year with --rounds-per-year or --tick, else missed and double batches and leaderless and two-leader rounds per replica")
	mc.Floor = 1
	fs.Var(input.Rate(&mc.Floor), "precision-floor", "with --precision, a figure whose interval's half-width is at most this is precise enough, in its own unit (lines a year, or batches or rounds per replica): what keeps a figure of zero from running for ever")
	mc.MaxReplicas = 100_000
	fs.Var(input.Positive(&mc.MaxReplicas, 1_000_000), "max-replicas", "with --precision, stop at this many replicas of a configuration, precise or not")
	fs.Uint64Var(&mc.Seed, "seed", 1, "seed of the random failures; the same seed gives the same output")
	workers := runtime.NumCPU()
	fs.Var(input.Positive(&workers, 1024), "workers", "replicas run in parallel")
	fs.Lookup("workers").DefValue = "all cores"
	fs.Var(input.Rate(&mc.RoundsPerYear), "rounds-per-year", "with this many rounds a year, also report missed and double batches and lines per year (0: off; with --tick, a year's rounds)")
	lines := float64(mc.LinesPerBatch)
	fs.Var(input.Rate(&lines), "lines-per-batch", "invoice lines one batch produces")
	fs.BoolVar(&mc.PhaseAverage, "phase-average", false, "average the yearly figures over the trigger's phase: replicas trigger every phase period (the shortest that keeps the period's phases on the retry and re-read rounds and fits a batch) and count each trigger as its share of a batch; the same expectation, with far less noise where batches are rarely hit; needs yearly figures and --persistent-trigger false")
	csvPath := addOutputFlag(fs, "csv", "", "also write the summaries as CSV to this file")
	format := "csv"
	fs.Var(input.NewChoice(&format, "csv", "parquet"), "format", "the --csv file's format: csv, or parquet: the CSV's columns, each typed (a toggle boolean, a name or distribution a string, the seed an unsigned 64-bit integer, means, intervals and seconds doubles, else a 64-bit integer), a row group per 2,048 configurations")
	shardK, shardN := 0, 0
	fs.Var(shardenv.NewValue(&shardK, &shardN), "shard", "run only shard K of N, a slice of every configuration's replicas, and write its tallies (to --csv, or standard output) for merge to add up into the whole study's CSV; "+shardenv.AutoUsage)
	maxConfigs := 1_000_000
	fs.Var(input.Positive(&maxConfigs, 1<<62), "max-configs", "refuse a study with more configurations than this")
	return func(ctx context.Context, std *streams) error {
		if *tick != 0 {
			if fs.Changed("rounds-per-year") {
				return usagef("--rounds-per-year goes only without --tick: with it, a year has %s rounds of %s", strconv.FormatFloat(tick.RoundsPerYear(), 'f', -1, 64), *tick)
			}
			mc.RoundsPerYear, mc.Grid.Tick = tick.RoundsPerYear(), *tick
		}
		mc.SetOne(base)
		mc.LinesPerBatch = lines
		if err := mc.CheckOptions(fs.Changed); err != nil {
			return usage(err)
		}
		if format == "parquet" && *csvPath == "" {
			return usagef("--format parquet is the --csv file's format: want --csv FILE with it (the table on standard output is text)")
		}
		if format == "parquet" && shardN > 0 {
			return usagef("--format parquet goes without --shard: a shard's tallies are for merge, which reads them as CSV; merge the shards, or run the study whole with --format parquet")
		}
		if shardN > 0 && mc.Precision > 0 {
			return usagef("--shard and --precision do not go together: how many replicas precision takes is known only from all of them")
		}
		if err := mc.CheckZones(); err != nil {
			return usage(err)
		}
		size, err := mc.Grid.Size()
		if err != nil {
			return usage(err)
		}
		if size > maxConfigs {
			return usagef("the study has %d configurations, more than --max-configs %d", size, maxConfigs)
		}
		valid, firstBad := mc.Grid.Valid(ctx)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := std.skip("configurations", size-valid, size, firstBad, *tick); err != nil {
			return err
		}
		if err := mc.CheckWork(); err != nil {
			return usage(err)
		}
		if c, ok := mc.Grid.NoMargin(); ok {
			std.warnMargins([]model.Config{c}, func(int) string { return "" }, *tick)
		}
		advance := func(int) {}
		if bar := progress.Bar(std.err, valid*mc.Replicas, "montecarlo"); bar != nil {
			advance = func(n int) { bar.Add(n) }
			defer bar.Finish()
		}
		if shardN > 0 {
			return atomicfile.WriteOr(cmp.Or(*csvPath, "-"), "-", std.out, func(w *bufio.Writer) error {
				return mc.RunShard(ctx, workers, shardK, shardN, w, advance)
			})
		}
		// The table and the CSV stream, a configuration at a time, so that
		// memory stays flat however many configurations there are.
		study := func(file *bufio.Writer) error {
			out := bufio.NewWriter(std.out)
			if err := reports.MonteCarloHead(out, &mc, base.Rounds); err != nil {
				return err
			}
			var csv io.Writer
			done := func() error { return nil }
			if file != nil {
				csv, done = parquetcsv.As(file, format, mc.Grid.Tick, parquetGroupRows)
			}
			err := mc.RunCSV(ctx, workers, csv, func(s *montecarlo.Summary) error { return reports.MonteCarloSummary(out, &mc, s) }, advance)
			if err != nil {
				return err
			}
			if err := done(); err != nil {
				return err
			}
			return out.Flush()
		}
		if *csvPath == "" {
			return study(nil)
		}
		return atomicfile.Write(*csvPath, study)
	}
}

// parquetGroupRows is the rows of a row group of montecarlo's Parquet,
// as many as a chunk of a sweep's (sweep.Write's 2,048 configurations).
const parquetGroupRows = 2048
