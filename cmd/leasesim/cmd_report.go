package main

import (
	"context"
	"fmt"
	"os"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
	"github.com/spf13/pflag"
)

func setupReport(fs *pflag.FlagSet) func(context.Context, *streams) error {
	base := model.Default()
	opt := study.DefaultReviewOptions(base)
	out := fs.String("out", "out", "folder to write the report into; created if missing")
	fs.Var(ratesValue{&opt.EventsPerYear}, "handovers", "outage events (handovers) per year for the cost tables: "+cost.RatesSyntax)
	fs.Var(positiveValue{&opt.LinesPerBatch, 1e12}, "lines-per-batch", "invoice lines one batch produces")
	addModelFlags(fs, &base, model.Fencing, model.PersistentTrigger)
	fs.Var(lengthsValue{&opt.Up, new(string)}, "uptime", "node-count study: how long a node stays reachable: "+model.LengthsSyntax)
	fs.Var(lengthsValue{&opt.Down, new(string)}, "downtime", "node-count study: how long a node stays unreachable: "+model.LengthsSyntax)
	fs.Var(positiveValue{&opt.Replicas, 100_000}, "replicas", "node-count study: replicas of each configuration")
	fs.Uint64Var(&opt.Seed, "seed", opt.Seed, "node-count study: seed of the random failures")
	roundsPerYear := 0.0
	fs.Var(rateValue{&roundsPerYear}, "rounds-per-year", "rounds in a year (default: period × 365, one batch a day)")
	return func(ctx context.Context, std *streams) error {
		if *out == "" {
			return usagef("invalid argument \"\" for \"--out\" flag: want a folder name")
		}
		if fi, err := os.Stat(*out); err == nil && !fi.IsDir() {
			return usagef("invalid argument %q for \"--out\" flag: a file: want a folder", *out)
		}
		if base.RenewDeadline > 0 {
			// Its lease sweep and heat map run leases of 1 to 12 rounds,
			// most of them no longer than a deadline; a report in real
			// settings is issue 17's.
			return usagef("--renew-deadline %d: the report's studies sweep leases of 1 to %d rounds and do not take a renew deadline yet; run, sweep, cost, montecarlo and settings do", base.RenewDeadline, study.MaxReportLease)
		}
		opt.RoundsPerYear = float64(base.Period) * 365
		if roundsPerYear > 0 {
			opt.RoundsPerYear = roundsPerYear
		}
		rv, err := study.NewReview(ctx, base, opt)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return usage(err)
		}
		std.warn(base, 0)
		if err := reports.WriteDir(ctx, rv, *out); err != nil {
			return err
		}
		fmt.Fprintf(std.out, "wrote the report to %s/report.md\n", *out)
		return nil
	}
}
