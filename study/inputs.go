package study

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
)

// ReviewInputs is what a review is given, as `leasesim report`'s flags
// and a review file give it, before the defaults that follow from the
// tick and from each other are filled in (Prepare). An input is named by
// its flag (outage for --outage), as the errors name it.
type ReviewInputs struct {
	// Base is the deployment, with what its preset and scheduler set
	// where no input did.
	Base model.Config
	// Options is the review's options given, the others at
	// DefaultReviewOptions(Base).
	Options ReviewOptions
	Tick    model.Tick
	// Given reports whether an input was given, by its flag's name; nil
	// if none was.
	Given func(flag string) bool
	// Incident, if not nil, is the outage event (ReviewOptions.Incident),
	// read from the file IncidentFile names.
	Incident     *incident.Incident
	IncidentFile string
	// RoundsPerYear is a year's rounds without a tick; 0 for the period
	// × 365, one batch a day.
	RoundsPerYear float64
	// DelayHour is the price of a batch waiting an hour for a leader
	// (cost.Weights.PriceDelay).
	DelayHour float64
	// FailureMix, OutageMix and OutageHistory are the deployment's
	// failures (cost.ParseFailureMix), the outage lengths and their
	// weights (cost.ParseMix) and the file of the outages a team has seen
	// (montecarlo.ReadEmpirical), as given; "" if not.
	FailureMix, OutageMix, OutageHistory string
	// CandidateLeases, CandidateRenewDeadlines and CandidateRetryPeriods
	// are the candidates' lists, each read only where Given names it
	// (candidates, candidate-renew-deadline, candidate-retry-period).
	CandidateLeases, CandidateRenewDeadlines, CandidateRetryPeriods sweep.List
	// CandidateList is the candidates listed by hand.
	CandidateList []candidatelist.Entry
	// Preset is the deployment's preset, if any, and Lock, for a lock's
	// preset, its lock with the options given (settings.Preset.WithOptions).
	Preset settings.Preset
	Lock   settings.Lock
	// Skip, if not nil, is told of the candidate leases left out as their
	// settings do not go together: how many of how many, and the first's
	// reason. Its error refuses them.
	Skip func(what string, skipped, total int, first error) error
}

// Prepare checks the inputs and fills in the defaults that follow from
// them: the incident's outage, the study outage (StudyOutage), the
// candidates' lists, the lease presets' names (PresetsIn) and, with a
// tick, a year's rounds and the node-count study's failures
// (DeploymentFailures) and replicas. Its base and options are what
// NewReview takes to write `leasesim report`'s review; its error is bad
// input, one line naming the flags.
func (in ReviewInputs) Prepare() (model.Config, ReviewOptions, error) {
	base, opt, t := in.Base, in.Options, in.Tick
	given := in.Given
	if given == nil {
		given = func(string) bool { return false }
	}
	if in.Incident != nil {
		if err := in.Incident.Fits(base, false, in.IncidentFile, "the deployment", t); err != nil {
			return base, opt, err
		}
		base = in.Incident.Apply(base)
		opt.Incident, opt.IncidentFile = in.Incident.Schedule(), filepath.Base(in.IncidentFile)
	}
	if err := base.Validate(); err != nil {
		return base, opt, err
	}
	if base.Protocol.PerFire() {
		if err := in.perFire(base, given); err != nil {
			return base, opt, err
		}
	}
	// A report's prose reads its runs as evidence: a run in which no
	// batch falls due, or no node fails, would be read as good news.
	if base.Triggers() == 0 {
		return base, opt, flagerr.Errorf([]string{"period", "rounds"}, "--period %s is longer than the run's --rounds %s: no batch falls due, so the report would have nothing to count; want a --period of at most --rounds",
			t.FormatValue(model.Period, base.Period), t.FormatValue(model.Rounds, base.Rounds))
	}
	if base.Outage > 0 && base.Start > base.Rounds {
		return base, opt, flagerr.Errorf([]string{"start", "rounds"}, "--start %s is after the run's end (--rounds %s): no node fails, so the report would have nothing to compare; want a --start inside the run",
			t.FormatValue(model.Start, base.Start), t.FormatValue(model.Rounds, base.Rounds))
	}
	opt.Tick = t
	if err := opt.Weights.PriceDelay(in.DelayHour, t); err != nil {
		return base, opt, err
	}
	if err := in.failureMix(&base, &opt, given); err != nil {
		return base, opt, err
	}
	mix, history := in.OutageMix, in.OutageHistory
	switch {
	case mix != "" && history != "":
		return base, opt, flagerr.New([]string{"outage-mix", "outage-history"}, "--outage-mix and --outage-history both give the outage lengths: want one of them")
	case mix != "":
		var err error
		if opt.Mix, err = cost.ParseMix(t, mix); err != nil {
			return base, opt, flagerr.Errorf([]string{"outage-mix"}, "invalid argument %q for \"--outage-mix\" flag: %v", mix, err)
		}
	case given("outage-history") && history == "":
		return base, opt, flagerr.New([]string{"outage-history"}, "invalid argument \"\" for \"--outage-history\" flag: want a file of outage lengths")
	case history != "":
		seen, err := montecarlo.ReadEmpirical(history, t)
		if err == nil {
			opt.Mix, err = cost.MixOf(seen.Samples)
		}
		if err != nil {
			return base, opt, flagerr.Errorf([]string{"outage-history"}, "invalid argument %q for \"--outage-history\" flag: %v", history, err)
		}
	}
	StudyOutage(&base, &opt, given("outage"), given("start"), given("rounds"))
	if err := base.Validate(); err != nil {
		return base, opt, err
	}
	if p := in.Preset; p.Lock != nil && t != 0 {
		if given("candidates") {
			return base, opt, flagerr.Errorf([]string{"candidates", "preset", "candidate-list"}, "--candidates lists leases, client-go's option: under --preset %s the candidates are its own options' grid (%s); list others by hand with --candidate-list (preset=%s %s)", p.Name, settings.Setting(p.Lock), p.Name, settings.Setting(p.Lock))
		}
		opt.Lock = in.Lock
	}
	if err := in.candidates(base, &opt, given); err != nil {
		return base, opt, err
	}
	opt.Presets = PresetsIn(t)
	// Given in the review file or on the command line, true or false,
	// black_hole pins how calls fail; a preset never sets it.
	opt.BlackHoleGiven = given(model.BlackHole.Flag())
	switch {
	case t != 0 && given("rounds-per-year"):
		return base, opt, flagerr.Errorf([]string{"rounds-per-year", "tick"}, "--rounds-per-year goes only without --tick: with it, a year has %s rounds of %s", strconv.FormatFloat(t.RoundsPerYear(), 'f', -1, 64), t)
	case t != 0:
		opt.RoundsPerYear = t.RoundsPerYear()
		up, down := DeploymentFailures(base, opt)
		if !given("uptime") {
			opt.Up = up
		}
		if !given("downtime") {
			opt.Down = down
		}
		if !given("replicas") {
			// A deployment's failures are rare: 1,000 replicas of ten
			// years narrow the intervals to tens of lines a year, at
			// about 1.5 s.
			opt.Replicas = 1000
		}
	case in.RoundsPerYear > 0:
		opt.RoundsPerYear = in.RoundsPerYear
	default:
		opt.RoundsPerYear = float64(base.Period) * 365
	}
	switch {
	case opt.Precision == 0 && given("max-replicas"):
		return base, opt, flagerr.New([]string{"max-replicas", "precision"}, "--max-replicas goes only with --precision")
	case opt.Precision > 0 && opt.MaxReplicas < opt.Replicas:
		return base, opt, flagerr.Errorf([]string{"max-replicas", "replicas"}, "--max-replicas %d is fewer than --replicas %d, the replicas run at a time", opt.MaxReplicas, opt.Replicas)
	}
	return base, opt, nil
}

// perFire refuses what a review of a per-fire lock (ShedLock) cannot
// take: no tick, whose candidates are its library's options in durations,
// and the inputs that give candidates of a leader's lease or an incident
// of a leader's failures.
func (in ReviewInputs) perFire(base model.Config, given func(string) bool) error {
	name := model.Protocol.AppendValue(nil, int(base.Protocol))
	if in.Tick == 0 {
		return flagerr.Errorf([]string{"tick", "protocol"}, "--protocol %s: the review's candidates are ShedLock's lockAtMostFor and lockAtLeastFor, durations: want --tick (--preset shedlock's rounds are 1s)", name)
	}
	for _, flag := range []string{"candidates", "candidate-renew-deadline", "candidate-retry-period", "candidate-list", "incident"} {
		if given(flag) {
			return flagerr.Errorf([]string{flag, "protocol"}, "--%s goes only with a leader's lock: under --protocol %s the candidates are ShedLock's own options' grid (lock_at_most_for, lock_at_least_for) and the events the outage mix's", flag, name)
		}
	}
	return nil
}

// failureMix reads the failure mix, if given, into opt: its events as
// one outage mix (cost.FlattenFailures), the zone study's zone a zone,
// at their events a year. Each entry gives its kind and scope, so it
// goes without the inputs that give the group outage's:
// --outages-per-year, --outage-mix, --outage-history, --down, --down-from
// and the kinds' toggles.
func (in ReviewInputs) failureMix(base *model.Config, opt *ReviewOptions, given func(string) bool) error {
	if !given("failure-mix") {
		return nil
	}
	others := []string{"outages-per-year", "outage-mix", "outage-history", "down", "down-from"}
	for _, p := range model.KindToggles() {
		others = append(others, p.Flag())
	}
	for _, flag := range others {
		if given(flag) {
			return flagerr.Errorf([]string{"failure-mix", flag}, "--failure-mix gives each entry's rate, kind, scope and lengths: want it without --%s", flag)
		}
	}
	entries, err := cost.ParseFailureMix(in.Tick, in.FailureMix)
	if err != nil {
		return flagerr.Errorf([]string{"failure-mix"}, "invalid argument %q for \"--failure-mix\" flag: %v", in.FailureMix, err)
	}
	opt.Failures = entries
	opt.Mix, opt.EventsPerYear[0] = cost.FlattenFailures(entries, ZoneDown(*base))
	opt.EventsPerYear = opt.EventsPerYear[:1]
	return nil
}

// candidates sets opt's candidates from the lists given: the renew
// deadlines and retry periods (only with a renew deadline), the leases
// that go with at least one of them (the others told to Skip), and the
// candidates listed by hand.
func (in ReviewInputs) candidates(base model.Config, opt *ReviewOptions, given func(string) bool) error {
	t, leases := in.Tick, in.CandidateLeases
	if leases.Len() > cost.MaxRankedLeases {
		return flagerr.Errorf([]string{"candidates"}, "--candidates lists %d leases: the recommendation ranks at most %d", leases.Len(), cost.MaxRankedLeases)
	}
	deadlines, retries := DefaultRenewDeadlines(base), DefaultRetryPeriods(base)
	for _, l := range []struct {
		flag string
		list sweep.List
		dst  *[]int
	}{{"candidate-renew-deadline", in.CandidateRenewDeadlines, &deadlines}, {"candidate-retry-period", in.CandidateRetryPeriods, &retries}} {
		switch {
		case !given(l.flag):
		case base.RenewDeadline == 0:
			return flagerr.Errorf([]string{l.flag, "renew-deadline", "preset"}, "--%s goes only with a renew deadline (--renew-deadline or a preset): without one, the candidates are leases", l.flag)
		default:
			*l.dst = slices.Collect(l.list.All())
		}
	}
	if given("candidate-renew-deadline") {
		opt.CandidateRenewDeadlines = deadlines
	}
	if given("candidate-retry-period") {
		opt.CandidateRetryPeriods = retries
	}
	skipped, firstBad := 0, error(nil)
	for lease := range leases.All() {
		if err := goesWithOne(base, lease, deadlines, retries); err != nil {
			var re *model.RelationError
			if !errors.As(err, &re) {
				return flagerr.Errorf(append([]string{"candidates"}, flagerr.Of(err)...), "--candidates %s: %v", t.FormatValue(model.Lease, lease), err)
			}
			skipped, firstBad = skipped+1, cmp.Or(firstBad, err)
			continue
		}
		opt.CandidateLeases = append(opt.CandidateLeases, lease)
	}
	var re *model.RelationError
	switch {
	case leases.Len() == 1 && errors.As(firstBad, &re):
		return flagerr.Errorf(append([]string{"candidates"}, re.FlagNames()...), "--candidates %s cannot be the lease here: %s", t.FormatValue(model.Lease, leases.At(0)), re.Flags(t))
	case given("candidates") && in.Skip != nil:
		if err := in.Skip("candidate leases", skipped, leases.Len(), firstBad); err != nil {
			return err
		}
	}
	for _, e := range in.CandidateList {
		k, err := e.Candidate(base, t)
		if err != nil {
			return flagerr.Errorf([]string{"candidate-list"}, "--candidate-list %w", err) // a *candidatelist.CandidateError, whose entry a review file traces to its line
		}
		opt.CandidateList = append(opt.CandidateList, k)
		opt.CandidateLocks = append(opt.CandidateLocks, e.Options)
	}
	return nil
}

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

// PresetsIn is the lease presets' defaults that t holds, in its rounds,
// for naming candidates (ReviewOptions.Presets): none without a tick.
func PresetsIn(t model.Tick) []PresetRounds {
	if t == 0 {
		return nil
	}
	var ps []PresetRounds
	for _, p := range settings.Presets() {
		r, _ := p.Round()
		vals, err := p.Values(r, t)
		if err != nil {
			continue
		}
		ps = append(ps, PresetRounds{Name: p.Name, Lease: vals[model.Lease], RenewDeadline: vals[model.RenewDeadline], RetryPeriod: vals[model.RetryPeriod],
			Protocol: model.LockProtocol(vals[model.Protocol]), LockDelay: vals[model.LockDelay], AcquireWait: vals[model.AcquireWait], DisconnectDelay: vals[model.DisconnectDelay]})
	}
	return ps
}
