package main

import (
	"bufio"
	"context"
	"slices"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

func setupCost(fs *pflag.FlagSet) func(context.Context, *streams) error {
	in := study.CostInput{Config: model.Default(), EventsPerYear: []float64{6, 12}, LinesPerBatch: study.PublicationLinesPerBatch}
	method := "window"
	fs.Var(input.NewChoice(&method, "window", "phase", "both"), "method", "window (the publication's), phase (averaged over outage phases) or both")
	fs.Var(input.Rates(&in.EventsPerYear), "outages-per-year", "outage events a year, the CSV's handovers_per_year (the publication's \"handovers per year\", KK4; not the takeovers the statistic handovers counts): "+cost.RatesSyntax)
	oneName := addAlias(fs, "outages-per-year", "handovers", "the same as --outages-per-year, by the contract's name for it: outage events a year, not the takeovers the statistic handovers counts")
	fs.Var(input.Positive(&in.LinesPerBatch, 1e12), "lines-per-batch", "invoice lines one batch produces")
	csvPath := addOutputFlag(fs, "csv", "", "also write the projection as CSV to this file")
	addModelFlags(fs, &in.Config)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	addJitterSeedFlag(fs, &in.Seed)
	incident := addIncidentFlags(fs, "the outage event is this incident (leasesim replay's file) instead of the group outage: what it costs a year at --outages-per-year such incidents")
	return func(ctx context.Context, std *streams) error {
		if err := oneName(); err != nil {
			return err
		}
		in.Tick = *tick
		if given, err := incident.given(fs); err != nil {
			return err
		} else if given {
			inc, err := incidentFlag(fs, *incident.file, in.Tick, *incident.epoch)
			if err != nil {
				return err
			}
			if err := inc.Fits(in.Config, method == "phase", *incident.file, "the run", in.Tick); err != nil { // the phase method sets its runs' rounds itself
				return usage(err)
			}
			in.Config = inc.Apply(in.Config)
			in.Incident = inc.Schedule()
		}
		if in.Config.Protocol.PerFire() && method != "phase" {
			return usagef("--method %s reads the leaderless and two-leader rounds of a leader, and arranges fencing and the persistent trigger, which --protocol %s has none of: give --method phase", method, model.Protocol.AppendValue(nil, int(in.Config.Protocol)))
		}
		methods := []cost.Method{cost.Method(method)}
		write := reports.WriteWindowCost
		switch method {
		case "phase":
			write = reports.WritePhaseCost
		case "both":
			methods = []cost.Method{cost.Window, cost.Phase}
			write = reports.WriteBothCost
		}
		r, err := study.ComputeCost(ctx, in, methods...)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return usage(err)
		}
		if method != "phase" { // the phase method sets start and rounds itself
			std.warn(in.Config, in.Tick)
		}
		std.warnIdleFailover(in.Config, in.Tick)
		return atomicfile.WriteAlong(*csvPath, func(w *bufio.Writer) error {
			return cost.WriteCostCSV(w, in.Tick, cost.WithConfig(in.Config, r.Projections(methods...)))
		}, func() error {
			if err := write(std.out, r); err != nil {
				return err
			}
			return reports.WriteCalmRuns(std.out, in.Config, in.Tick, in.LinesPerBatch)
		})
	}
}

func setupRecommend(fs *pflag.FlagSet) func(context.Context, *streams) error {
	in := reports.RecommendInput{Config: model.Default(), EventsPerYear: 6, LinesPerBatch: study.PublicationLinesPerBatch}
	leases, _ := sweep.ParseValues(0, model.Lease, "1:12")
	fs.Var(input.NewList(model.Lease, &leases), "lease", "lease lengths to rank: "+sweep.ListSyntax)
	mix := "2:0.9,5:0.1"
	fs.StringVar(&mix, "outage-mix", mix, "outage lengths and their weights, outage:weight,… (with --tick, lengths are durations: 40s:0.9,5m:0.1)")
	rates := []float64{in.EventsPerYear}
	fs.Var(input.Rates(&rates), "outages-per-year", "outage events a year: one positive number")
	oneName := addAlias(fs, "outages-per-year", "handovers", "the same as --outages-per-year, by the contract's name for it: outage events a year, not the takeovers the statistic handovers counts")
	fs.Var(input.Positive(&in.LinesPerBatch, 1e12), "lines-per-batch", "invoice lines one batch produces")
	csvPath := addOutputFlag(fs, "csv", "", "also write the ranking as CSV to this file")
	delayHour := new(float64)
	addPriceFlags(fs, &in.Weights, delayHour)
	addModelFlags(fs, &in.Config, model.Lease, model.Outage)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	addJitterSeedFlag(fs, &in.Seed)
	return func(ctx context.Context, std *streams) error {
		if err := oneName(); err != nil {
			return err
		}
		var err error
		in.Tick = *tick
		if in.Mix, err = cost.ParseMix(in.Tick, mix); err != nil {
			return usagef("invalid argument %q for \"--outage-mix\" flag: %v", mix, err)
		}
		if len(rates) != 1 {
			return usagef("--outages-per-year takes one rate in recommend, which ranks at one rate, not a list of %d (cost and report take a list)", len(rates))
		}
		in.EventsPerYear = rates[0]
		if leases.Len() > cost.MaxRankedLeases {
			return usagef("--lease lists %d leases: recommend ranks at most %d", leases.Len(), cost.MaxRankedLeases)
		}
		valid, configs, skipped, firstBad := cost.Leases(in.Config, leases.All())
		in.Leases = valid
		if err := std.skip("leases", skipped, leases.Len(), firstBad, in.Tick); err != nil {
			return err
		}
		if err := in.Weights.PriceDelay(*delayHour, in.Tick); err != nil {
			return usage(err)
		}
		std.warnMargins(configs, func(i int) string { return "lease " + in.Tick.FormatValue(model.Lease, in.Leases[i]) }, in.Tick)
		longest := in.Config // the failover is idle for every candidate if for the longest lease and outage
		longest.Lease = slices.Max(in.Leases)
		for _, e := range in.Mix {
			longest.Outage = max(longest.Outage, e.Outage)
		}
		std.warnIdleFailover(longest, in.Tick)
		ranks, err := cost.Recommend(ctx, in.Config, in.Seed, cost.LeaseCandidates(in.Config, in.Leases), in.Mix, in.EventsPerYear, float64(in.LinesPerBatch))
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return usage(err)
		}
		return atomicfile.WriteAlong(*csvPath, func(w *bufio.Writer) error { return cost.WriteRecommendCSV(w, in.Tick, ranks, in.Weights) },
			func() error { return reports.WriteRecommend(std.out, in, ranks) })
	}
}

// addPriceFlags registers the --cost-* flags, which price a year of a
// lease in any one currency, into w and, for --cost-delay-hour, an hour's
// price, which needs --tick (cost.Weights.PriceDelay), into delayHour.
func addPriceFlags(fs *pflag.FlagSet, w *cost.Weights, delayHour *float64) {
	fs.Var(input.Rate(&w.MissedLine), "cost-missed-line", "the price of an invoice line never written, in any currency: with the other prices, ranks the leases by yearly cost")
	fs.Var(input.Rate(&w.DoubleLine), "cost-double-line", "the price of an invoice line written twice")
	fs.Var(input.Rate(delayHour), "cost-delay-hour", "the price of a batch waiting an hour for a leader (needs --tick)")
	fs.Var(input.Rate(&w.Handover), "cost-handover", "the price of a handover: a restart, a warm-up, a page")
}
