package main

import (
	"context"
	"fmt"
	"io"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/internal/progress"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/reviewfile"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

func setupReport(fs *pflag.FlagSet) func(context.Context, *streams) error {
	in := study.ReviewInputs{Base: model.Default()}
	in.Options = study.DefaultReviewOptions(in.Base)
	opt := &in.Options
	out := fs.String("out", "out", "folder to write the report into; created if missing")
	example := fs.Bool("example", false, "print a commented review file, a starting point for one's own, and write nothing else")
	parquet := fs.Bool("parquet", false, "also write each CSV table as Parquet beside it (candidates.parquet, …): the CSV's columns, each typed (a toggle boolean, a name a string, figures and seconds doubles, else a 64-bit integer; an empty cell null), for DuckDB or pandas")
	fs.Var(input.Rates(&opt.EventsPerYear), "outages-per-year", "outage events a year for the cost tables, the first for the recommendation: "+cost.RatesSyntax)
	fs.Var(input.Positive(&opt.LinesPerBatch, 1e12), "lines-per-batch", "invoice lines one batch produces")
	addModelFlags(fs, &in.Base) // fencing and the trigger policy are the current deployment's, which the recommendation prices; the three arrangements set their own
	fs.Var(input.NewLengths(&opt.Up), "uptime", "node-count study: how long a node stays reachable: "+parse.LengthsSyntax(0)+" (default geometric:2000; with --tick, a year over the first --outages-per-year)")
	fs.Var(input.NewLengths(&opt.Down), "downtime", "node-count study: how long a node stays unreachable: "+parse.LengthsSyntax(0)+" (default lognormal:1.2,0.6; with --tick, the --outage-mix, or --outage without one)")
	fs.Var(input.Positive(&opt.Replicas, 100_000), "replicas", "node-count study: replicas of each configuration (default 200; with --tick, 1000)")
	fs.Var(input.Share(&opt.Precision), "precision", "node-count study: run --replicas at a time until each configuration's missed and double lines a year are within ± this share, e.g. 10%, or ± 1 line (0: off)")
	fs.Var(input.Positive(&opt.MaxReplicas, 1_000_000), "max-replicas", "node-count study, with --precision: stop at this many replicas of a configuration, precise or not")
	fs.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed of the node-count study's random failures and of the followers' jitter (with --jitter); the same seed gives the same report")
	fs.Var(input.Rate(&in.RoundsPerYear), "rounds-per-year", "rounds in a year (default: period × 365, one batch a day; with --tick, a year's rounds)")
	fs.StringVar(&in.OutageMix, "outage-mix", "", "the recommendation's outage lengths and their weights, outage:weight,… (with --tick, durations: 40s:0.9,5m:0.1; default: --outage alone)")
	fs.StringVar(&in.FailureMix, "failure-mix", "", "the deployment's failures instead of --outages-per-year and --outage-mix, each entry its kind, scope, lengths and rate: "+cost.FailureMixSyntax()+"; every section uses it (a zone is the zone study's nodes)")
	fs.StringVar(&in.OutageHistory, "outage-history", "", "instead of --outage-mix, a file of the outages a team has seen, one length a line (with --tick, a duration such as 45s; # starts a comment): each distinct length weighted by how often it occurs")
	incident := addIncidentFlags(fs, "the outage event is this incident (leasesim replay's file: one failure a line, each node its own kind) instead of the group outage and its --outage-mix or --outage-history: the recommendation, the arrangements, the cost section and the timeline price and replay it")
	fs.Var(input.NewList(model.Lease, &in.CandidateLeases), "candidates", "the leases the recommendation chooses among, the current settings always with them: "+sweep.ListSyntax+" (default: the lease sweep's)")
	fs.Var(input.NewList(model.RenewDeadline, &in.CandidateRenewDeadlines), "candidate-renew-deadline", "with a renew deadline, the renew deadlines the recommendation tries with each candidate lease, combinations client-go refuses skipped: "+sweep.ListSyntax+" (default: the current one and 2, 3 and 4 times it)")
	fs.Var(input.NewList(model.RetryPeriod, &in.CandidateRetryPeriods), "candidate-retry-period", "with a renew deadline, the retry periods the recommendation tries with each candidate lease and renew deadline: "+sweep.ListSyntax+" (default: the current one and twice it)")
	fs.Var(input.NewCandidateList(&in.CandidateList), "candidate-list", "candidates by hand, ranked with the others, each free to change the node count, fencing and the trigger policy: "+candidatelist.Syntax+"; in a review file, a literal block (candidate_list: |), a candidate a line")
	addPriceFlags(fs, &opt.Weights, &in.DelayHour)
	fs.Var(currencyFlag(&opt.Currency), "currency", "the prices' currency or unit, which report.md names the cost a year in, e.g. EUR (default: invoice lines when a missed and a double line cost 1 and nothing else is priced, else price units)")
	fs.Var(input.Share(&opt.Material), "material", "the share of the current settings' cost a year a candidate must save to be recommended instead, e.g. 5% (0: any saving); a smaller one keeps the current settings")
	gate := fs.Bool("gate", false, "once the report is written, judge the current settings as a CI gate: exit 3 with one line naming the settings and the rule they break, no two-leader margin without fencing or a cost a year more than --material above the recommended's; else one line saying why they pass")
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	return func(ctx context.Context, std *streams) error {
		if *example {
			_, err := io.WriteString(std.out, reviewfile.Example)
			return err
		}
		if err := atomicfile.CheckDir(*out); err != nil {
			return flagUsagef([]string{"out"}, "invalid argument %q for \"--out\" flag: %v", *out, err)
		}
		t := *tick
		in.Tick, in.Given, in.Preset = t, fs.Changed, *fs.Lookup("preset").Value.(input.Parsed[settings.Preset]).P
		in.Skip = func(what string, skipped, total int, first error) error {
			return std.skip(what, skipped, total, first, t)
		}
		given, err := incident.given(fs)
		switch {
		case err != nil:
			return err
		case given && (in.OutageMix != "" || in.OutageHistory != "" || in.FailureMix != ""):
			return flagUsagef([]string{"incident", "outage-mix", "outage-history", "failure-mix"}, "--incident is the outage event: want it without --outage-mix, --outage-history and --failure-mix")
		case given:
			read, err := incidentFlag(fs, *incident.file, t, *incident.epoch)
			if err != nil {
				return err
			}
			in.Incident, in.IncidentFile = &read, *incident.file
		}
		if in.Preset.Lock != nil {
			in.Lock, _, _ = in.Preset.WithOptions(input.Texts(pflags{fs})) // valid: the preset was applied
		}
		base, opt, err := in.Prepare()
		if err != nil {
			return usage(err)
		}
		// On a terminal, a bar of the review's steps and then the writing
		// of its files, one step more.
		begin, hide := progress.Steps(std.err, "report")
		defer hide()
		steps := 0
		if begin != nil {
			opt.Progress = func(done, total int, step string) {
				steps = total + 1
				begin(done, steps, step)
			}
		}
		rv, err := study.NewReview(ctx, base, opt)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			return usage(err)
		}
		hide()
		if std.held != nil {
			std.held.flush()
		}
		for _, w := range reports.Warnings(rv) { // report.md's, the two-leader one by the lock's own margin
			fmt.Fprintf(std.err, "leasesim report: warning: %s\n", w)
		}
		if begin != nil {
			begin(steps-1, steps, "writing the plots and tables")
		}
		var more []reports.File
		if *parquet {
			more = reports.ParquetFiles(rv)
		}
		err = reports.WriteDir(ctx, rv, *out, func() error {
			hide()
			_, err := fmt.Fprintf(std.out, "wrote the report to %s/report.md\n", *out)
			return err
		}, more...)
		if err != nil || !*gate {
			return err
		}
		g := rv.Gate()
		if g.Rule != study.GatePass {
			return gateError{reports.GateLine(rv, g)}
		}
		_, err = fmt.Fprintf(std.out, "gate: %s\n", reports.GateLine(rv, g))
		return err
	}
}

// gateError is report --gate's failure: the current settings break a rule
// of the gate (study.Gate), said in one line; exit status 3.
type gateError struct{ line string }

func (e gateError) Error() string { return "gate: " + e.line }
