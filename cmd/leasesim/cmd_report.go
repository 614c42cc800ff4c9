package main

import (
	"context"
	"fmt"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

func setupReport(fs *pflag.FlagSet) func(context.Context, *streams) error {
	base := model.Default()
	out := fs.String("out", "out", "folder to write the report into; created if missing")
	handovers := []float64{6, 12}
	fs.Var(ratesValue{&handovers}, "handovers", "outage events (handovers) per year for the cost tables: "+sweep.ListSyntax)
	lines := reports.SeedLinesPerBatch
	fs.Var(positiveValue{&lines, 1e12}, "lines-per-batch", "invoice lines one batch produces")
	addModelFlags(fs, &base, model.Fencing, model.PersistentTrigger)
	return func(ctx context.Context, std *streams) error {
		rv, err := reports.NewReview(base, handovers, lines)
		if err != nil {
			return &usageError{err.Error()}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := rv.WriteDir(*out); err != nil {
			return err
		}
		fmt.Fprintf(std.out, "wrote the report to %s/report.md\n", *out)
		return nil
	}
}
