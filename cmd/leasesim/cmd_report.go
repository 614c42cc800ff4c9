package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/leasesim/leasesim/candidatelist"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/leasesim/leasesim/cost"
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
	base := model.Default()
	opt := study.DefaultReviewOptions(base)
	out := fs.String("out", "out", "folder to write the report into; created if missing")
	example := fs.Bool("example", false, "print a commented review file, a starting point for one's own, and write nothing else")
	parquet := fs.Bool("parquet", false, "also write each CSV table as Parquet beside it (candidates.parquet, …): the CSV's columns, each typed (a toggle boolean, a name a string, figures and seconds doubles, else a 64-bit integer; an empty cell null), for DuckDB or pandas")
	fs.Var(ratesValue{&opt.EventsPerYear}, "outages-per-year", "outage events a year for the cost tables, the first for the recommendation: "+cost.RatesSyntax)
	fs.Var(positiveValue{&opt.LinesPerBatch, 1e12}, "lines-per-batch", "invoice lines one batch produces")
	addModelFlags(fs, &base) // fencing and the trigger policy are the current deployment's, which the recommendation prices; the three arrangements set their own
	fs.Var(lengthsValue{&opt.Up, new(string)}, "uptime", "node-count study: how long a node stays reachable: "+parse.LengthsSyntax(0)+" (default geometric:2000; with --tick, a year over the first --outages-per-year)")
	fs.Var(lengthsValue{&opt.Down, new(string)}, "downtime", "node-count study: how long a node stays unreachable: "+parse.LengthsSyntax(0)+" (default lognormal:1.2,0.6; with --tick, the --outage-mix, or --outage without one)")
	fs.Var(positiveValue{&opt.Replicas, 100_000}, "replicas", "node-count study: replicas of each configuration (default 200; with --tick, 1000)")
	fs.Var(precisionValue{&opt.Precision}, "precision", "node-count study: run --replicas at a time until each configuration's missed and double lines a year are within ± this share, e.g. 10%, or ± 1 line (0: off)")
	opt.MaxReplicas = 100_000
	fs.Var(positiveValue{&opt.MaxReplicas, 1_000_000}, "max-replicas", "node-count study, with --precision: stop at this many replicas of a configuration, precise or not")
	fs.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed of the node-count study's random failures and of the followers' jitter (with --jitter); the same seed gives the same report")
	roundsPerYear := 0.0
	fs.Var(rateValue{&roundsPerYear}, "rounds-per-year", "rounds in a year (default: period × 365, one batch a day; with --tick, a year's rounds)")
	mix := ""
	fs.StringVar(&mix, "outage-mix", "", "the recommendation's outage lengths and their weights, outage:weight,… (with --tick, durations: 40s:0.9,5m:0.1; default: --outage alone)")
	failureMix := ""
	fs.StringVar(&failureMix, "failure-mix", "", "the deployment's failures instead of --outages-per-year and --outage-mix, each entry its kind, scope, lengths and rate: "+cost.FailureMixSyntax()+"; every section uses it (a zone is the zone study's nodes)")
	history := ""
	fs.StringVar(&history, "outage-history", "", "instead of --outage-mix, a file of the outages a team has seen, one length a line (with --tick, a duration such as 45s; # starts a comment): each distinct length weighted by how often it occurs")
	incident := addIncidentFlags(fs, "the outage event is this incident (leasesim replay's file: one failure a line, each node its own kind) instead of the group outage and its --outage-mix or --outage-history: the recommendation, the arrangements, the cost section and the timeline price and replay it")
	var candidates sweep.List
	fs.Var(listValue{model.Lease, &candidates, new(string)}, "candidates", "the leases the recommendation chooses among, the current settings always with them: "+sweep.ListSyntax+" (default: the lease sweep's)")
	var candidateDeadlines, candidateRetries sweep.List
	fs.Var(listValue{model.RenewDeadline, &candidateDeadlines, new(string)}, "candidate-renew-deadline", "with a renew deadline, the renew deadlines the recommendation tries with each candidate lease, combinations client-go refuses skipped: "+sweep.ListSyntax+" (default: the current one and 2, 3 and 4 times it)")
	fs.Var(listValue{model.RetryPeriod, &candidateRetries, new(string)}, "candidate-retry-period", "with a renew deadline, the retry periods the recommendation tries with each candidate lease and renew deadline: "+sweep.ListSyntax+" (default: the current one and twice it)")
	var listed []candidatelist.Entry
	fs.Var(candidateListValue{&listed, new(string)}, "candidate-list", "candidates by hand, ranked with the others, each free to change the node count, fencing and the trigger policy: "+candidatelist.Syntax+"; in a review file, a literal block (candidate_list: |), a candidate a line")
	priceDelay := addPriceFlags(fs, &opt.Weights)
	fs.Var(currencyValue{&opt.Currency}, "currency", "the prices' currency or unit, which report.md names the cost a year in, e.g. EUR (default: invoice lines when a missed and a double line cost 1 and nothing else is priced, else price units)")
	opt.Material = study.DefaultMaterial
	fs.Var(precisionValue{&opt.Material}, "material", "the share of the current settings' cost a year a candidate must save to be recommended instead, e.g. 5% (0: any saving); a smaller one keeps the current settings")
	gate := fs.Bool("gate", false, "once the report is written, judge the current settings as a CI gate: exit 3 with one line naming the settings and the rule they break, no two-leader margin without fencing or a cost a year more than --material above the recommended's; else one line saying why they pass")
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	return func(ctx context.Context, std *streams) error {
		if *example {
			_, err := io.WriteString(std.out, reviewfile.Example)
			return err
		}
		if *out == "" {
			return usagef("invalid argument \"\" for \"--out\" flag: want a folder name")
		}
		if fi, err := os.Stat(*out); err == nil && !fi.IsDir() {
			return usagef("invalid argument %q for \"--out\" flag: a file: want a folder", *out)
		}
		if fi, err := os.Lstat(*out); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if _, err := os.Stat(*out); errors.Is(err, os.ErrNotExist) {
				target, _ := os.Readlink(*out)
				return usagef("invalid argument %q for \"--out\" flag: a symbolic link to %s, which does not exist: want a folder, or a link to one", *out, target)
			}
		}
		t := *tick
		given, err := incident.given(fs)
		switch {
		case err != nil:
			return err
		case given && (mix != "" || history != "" || failureMix != ""):
			return usagef("--incident is the outage event: want it without --outage-mix, --outage-history and --failure-mix")
		case given:
			file := *incident.file
			in, err := incidentFlag(fs, file, t, *incident.epoch)
			if err != nil {
				return err
			}
			if f, ok := in.Beyond(base.Nodes); ok {
				return usagef("--incident: %s: line %d: node %d, but the deployment has %d nodes (--nodes)", file, f.Line, f.Node, base.Nodes)
			}
			for _, f := range in.Windows {
				if f.Last > base.Rounds {
					return usagef("--incident: %s: line %d: the failure ends at %s, after the run's end (--rounds %s)", file, f.Line, t.FormatValue(model.Rounds, f.Last), t.FormatValue(model.Rounds, base.Rounds))
				}
			}
			in.Apply(&base)
			opt.Incident, opt.IncidentFile = in.Schedule(), filepath.Base(file)
		}
		if err := base.Validate(); err != nil {
			return usage(err)
		}
		if base.Protocol.PerFire() {
			return usagef("--protocol %s: the review weighs a leader's arrangements (fencing, the persistent trigger), leases and handovers, which a per-fire lock has none of: leasesim run counts its double runs over a year, and leasesim cost --method phase prices its outages", model.Protocol.AppendValue(nil, int(base.Protocol)))
		}
		// A report's prose reads its runs as evidence: a run in which no
		// batch falls due, or no node fails, would be read as good news.
		if base.Triggers() == 0 {
			return usagef("--period %s is longer than the run's --rounds %s: no batch falls due, so the report would have nothing to count; want a --period of at most --rounds",
				t.FormatValue(model.Period, base.Period), t.FormatValue(model.Rounds, base.Rounds))
		}
		if base.Outage > 0 && base.Start > base.Rounds {
			return usagef("--start %s is after the run's end (--rounds %s): no node fails, so the report would have nothing to compare; want a --start inside the run",
				t.FormatValue(model.Start, base.Start), t.FormatValue(model.Rounds, base.Rounds))
		}
		opt.Tick = t
		if err := priceDelay(t); err != nil {
			return err
		}
		if err := failureMixFlag(fs, failureMix, &base, &opt); err != nil {
			return err
		}
		switch {
		case mix != "" && history != "":
			return usagef("--outage-mix and --outage-history both give the outage lengths: want one of them")
		case mix != "":
			var err error
			if opt.Mix, err = cost.ParseMix(t, mix); err != nil {
				return usagef("invalid argument %q for \"--outage-mix\" flag: %v", mix, err)
			}
		case fs.Changed("outage-history") && history == "":
			return usagef("invalid argument \"\" for \"--outage-history\" flag: want a file of outage lengths")
		case history != "":
			seen, err := readEmpirical(history, t)
			if err == nil {
				opt.Mix, err = cost.MixOf(seen.Samples)
			}
			if err != nil {
				return usagef("invalid argument %q for \"--outage-history\" flag: %v", history, err)
			}
		}
		study.StudyOutage(&base, &opt, fs.Changed("outage"), fs.Changed("start"), fs.Changed("rounds"))
		if err := base.Validate(); err != nil {
			return usage(err)
		}
		if p := *fs.Lookup("preset").Value.(namedValue[settings.Preset]).v; p.Lock != nil && t != 0 {
			if fs.Changed("candidates") {
				return usagef("--candidates lists leases, client-go's option: under --preset %s the candidates are its own options' grid (%s); list others by hand with --candidate-list (preset=%s %s)", p.Name, settings.Setting(p.Lock), p.Name, settings.Setting(p.Lock))
			}
			opt.Lock, _, _ = p.WithOptions(flagTexts(fs)) // valid: the preset was applied
		}
		if candidates.Len() > maxRankedLeases {
			return usagef("--candidates lists %d leases: the recommendation ranks at most %d", candidates.Len(), maxRankedLeases)
		}
		deadlines, retries := study.DefaultRenewDeadlines(base), study.DefaultRetryPeriods(base)
		for _, l := range []struct {
			flag string
			list sweep.List
			dst  *[]int
		}{{"candidate-renew-deadline", candidateDeadlines, &deadlines}, {"candidate-retry-period", candidateRetries, &retries}} {
			switch {
			case !fs.Changed(l.flag):
			case base.RenewDeadline == 0:
				return usagef("--%s goes only with a renew deadline (--renew-deadline or a preset): without one, the candidates are leases", l.flag)
			default:
				*l.dst = slices.Collect(l.list.All())
			}
		}
		if fs.Changed("candidate-renew-deadline") {
			opt.CandidateRenewDeadlines = deadlines
		}
		if fs.Changed("candidate-retry-period") {
			opt.CandidateRetryPeriods = retries
		}
		skipped, firstBad := 0, error(nil)
		for lease := range candidates.All() {
			if err := goesWithOne(base, lease, deadlines, retries); err != nil {
				if !isRelation(err) {
					return usagef("--candidates %s: %v", t.FormatValue(model.Lease, lease), err)
				}
				skipped, firstBad = skipped+1, cmp.Or(firstBad, err)
				continue
			}
			opt.CandidateLeases = append(opt.CandidateLeases, lease)
		}
		var re *model.RelationError
		switch {
		case candidates.Len() == 1 && errors.As(firstBad, &re):
			return usagef("--candidates %s cannot be the lease here: %s", t.FormatValue(model.Lease, candidates.At(0)), re.Flags(t))
		case fs.Changed("candidates"):
			if err := std.skip("candidate leases", skipped, candidates.Len(), firstBad, t); err != nil {
				return err
			}
		}
		for _, e := range listed {
			k, err := e.Candidate(base, t)
			if err != nil {
				return usagef("--candidate-list %v", err)
			}
			opt.CandidateList = append(opt.CandidateList, k)
			opt.CandidateLocks = append(opt.CandidateLocks, e.Options)
		}
		opt.Presets = presetsIn(t)
		switch {
		case t != 0 && fs.Changed("rounds-per-year"):
			return usagef("--rounds-per-year goes only without --tick: with it, a year has %s rounds of %s", strconv.FormatFloat(t.RoundsPerYear(), 'f', -1, 64), t)
		case t != 0:
			opt.RoundsPerYear = t.RoundsPerYear()
			up, down := study.DeploymentFailures(base, opt)
			if !fs.Changed("uptime") {
				opt.Up = up
			}
			if !fs.Changed("downtime") {
				opt.Down = down
			}
			if !fs.Changed("replicas") {
				// A deployment's failures are rare: 1,000 replicas of ten
				// years narrow the intervals to tens of lines a year, at
				// about 1.5 s.
				opt.Replicas = 1000
			}
		case roundsPerYear > 0:
			opt.RoundsPerYear = roundsPerYear
		default:
			opt.RoundsPerYear = float64(base.Period) * 365
		}
		switch {
		case opt.Precision == 0 && fs.Changed("max-replicas"):
			return usagef("--max-replicas goes only with --precision")
		case opt.Precision > 0 && opt.MaxReplicas < opt.Replicas:
			return usagef("--max-replicas %d is fewer than --replicas %d, the replicas run at a time", opt.MaxReplicas, opt.Replicas)
		}
		// On a terminal, a bar of the review's steps and then the writing
		// of its files, one step more.
		begin, hide := stepProgress(std.err, "report")
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

// goesWithOne reports whether lease goes with at least one of the renew
// deadlines and retry periods (base's own without a renew deadline), with
// base's other settings: nil if so, else the first combination's error.
func goesWithOne(base model.Config, lease int, deadlines, retries []int) error {
	if base.RenewDeadline == 0 {
		deadlines, retries = []int{0}, []int{base.RetryPeriod}
	}
	var first error
	for _, d := range deadlines {
		for _, retry := range retries {
			c := cost.CandidateOf(base).WithLease(lease, d, retry).Apply(base)
			err := c.Validate()
			if err == nil {
				return nil
			}
			first = cmp.Or(first, err)
		}
	}
	return first
}

// failureMixFlag reads --failure-mix, if given, into opt: its events as
// one outage mix (cost.FlattenFailures), the zone study's zone a zone,
// at their events a year. Each entry gives its kind and scope, so it
// goes without the flags that give the group outage's: --outages-per-year,
// --outage-mix, --outage-history, --down, --down-from and the kinds'
// toggles.
func failureMixFlag(fs *pflag.FlagSet, text string, base *model.Config, opt *study.ReviewOptions) error {
	if !fs.Changed("failure-mix") {
		return nil
	}
	others := []string{"outages-per-year", "outage-mix", "outage-history", "down", "down-from"}
	for _, p := range model.KindToggles() {
		others = append(others, p.Flag())
	}
	for _, flag := range others {
		if fs.Changed(flag) {
			return usagef("--failure-mix gives each entry's rate, kind, scope and lengths: want it without --%s", flag)
		}
	}
	t := *fs.Lookup("tick").Value.(tickValue).t
	entries, err := cost.ParseFailureMix(t, text)
	if err != nil {
		return usagef("invalid argument %q for \"--failure-mix\" flag: %v", text, err)
	}
	opt.Failures = entries
	opt.Mix, opt.EventsPerYear[0] = cost.FlattenFailures(entries, study.ZoneDown(*base))
	opt.EventsPerYear = opt.EventsPerYear[:1]
	return nil
}
