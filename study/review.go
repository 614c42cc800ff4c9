package study

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
)

// Result is one configuration and what its run counted.
type Result struct {
	Config model.Config
	Stats  model.Stats
}

// ArrangementCost is one of the two arrangements the cost plot compares.
type ArrangementCost struct {
	Name   string
	Result CostResult
}

// Review is every number of a capacity-planning report, computed once from
// a base configuration. The plots, the CSV and text files and report.md all
// read it; none runs anything.
type Review struct {
	Base model.Config
	ReviewOptions

	// Every section but the arrangements table runs the deployment as
	// deployed, Base: its fencing, trigger policy, overlap and batch
	// length, against its study outage (Base's outage, from its start).
	// The arrangements table varies fencing and the persistent trigger,
	// Deployed beside them.
	Measure      Measure            // the publication's measure table of Base
	Arrangements []Result           // plain, fencing, fencing+trigger, as Arrangements()
	Deployed     Result             // Base as deployed, against its outage event
	Ranges       Ranges             // the leases and outages the studies sweep
	LeaseSweep   []Result           // Base × Ranges.Leases × {Ranges.Long, Ranges.Short}, lease outermost
	Heat         []Result           // Base × Ranges.Leases × Ranges.Outages, lease outermost
	Cost         [2]ArrangementCost // Base as deployed, and Base with fencing + persistent trigger
	Timeline     []model.TraceRound // Base's run, round by round (model.TraceWindow)
	// IncidentSpread is Base's spread over the incident's phase and the
	// followers' jitter, if the event is an incident: the timeline is its
	// run at phase 0 and seed Seed, the incident as written.
	IncidentSpread incident.Spread
	Zone           []Result // Base with a zone of ZoneNodes nodes failing together (every node, where every failure of the mix takes them all: EveryNodeShare): ZoneNodes … MostNodes nodes × quorum off, on
	NodeStudy      *montecarlo.MonteCarlo
	Nodes          []montecarlo.Summary // independent failures: StudyNodes × quorum off, on

	// Recommendation ranks the candidates (Candidates, the base's
	// settings among them) over Mix at the first of EventsPerYear, by the
	// phase method: what each costs a year, the answer report.md opens
	// with.
	Recommendation []cost.Rank
	// Skipped counts the combinations of the candidate lists that do not
	// go together (model.Config.Validate: a renew deadline not shorter
	// than the lease, or not longer than 1.2 retry periods with jitter),
	// left out of the recommendation.
	Skipped int
	// ByOutage is the recommendation over each outage of the mix alone
	// (every event that outage), in the mix's order: what each candidate
	// loses to each, so that the answer can say which outages the top
	// choice rides out.
	ByOutage [][]cost.Rank
	// Sensitivity is the recommendation again under each assumption
	// halved and doubled: what moves the answer.
	Sensitivity []Variant

	// Spreads is how a year of the current settings, and of the
	// recommended ones if the review names others, varies when the
	// outage events come at random (cost.SpreadOf): the first screen's
	// intervals.
	Spreads map[cost.Candidate]cost.Spread

	// Levers is the deployment changed beyond its lock's settings, each
	// over the mix as the candidates are: what the report names when the
	// lease is not the lever.
	Levers []Lever
	// Fenced is the recommendation's candidates with fencing turned on,
	// in its order, ranked over the mix as they are: set, under prices,
	// only when the deployment does not fence and no candidate may be
	// recommended without fencing (every one NoMargin), so that the
	// verdict can name the setting to take once fenced (DecideFenced).
	Fenced []cost.Rank
	// HungCalls is the decision again with the failing nodes' calls
	// hanging until they time out instead of failing at once (hungCalls),
	// when the review does not pin how calls fail and prices a decision;
	// nil otherwise (CallMode says why).
	HungCalls *HungCalls

	// PerFire, set under a per-fire lock (ShedLock), is its slots' calm
	// cost and double runs; such a review computes only the
	// recommendation, its safety figures and spreads, and this (newPerFire):
	// every other section weighs a leader it has none of.
	PerFire *PerFire

	safety []cost.Safety // each candidate's, in the recommendation's order
	// locks is the library's settings that set each candidate's lock
	// times, for its name (Setting).
	locks map[lockTimes]settings.Lock
}

// Lever is a change to the deployment beyond its lock's settings and its
// rank over the review's outages.
type Lever struct {
	What string // "fencing and the persistent trigger", "the persistent trigger", "4 nodes"
	Rank cost.Rank
}

// Variant is the recommendation with one assumption changed.
type Variant struct {
	Assumption string  // what was changed: "outage events a year", "invoice lines a batch", "outage lengths", "batch length"
	Factor     float64 // by how much: ½ or 2
	Ranks      []cost.Rank
}

// ReviewOptions are the report's settings beyond the base configuration.
type ReviewOptions struct {
	EventsPerYear []float64 // outage events per year, for the cost tables
	LinesPerBatch int

	// The node-count study: independent up and down periods.
	Up, Down model.Lengths
	Replicas int
	// Precision, if above 0, runs the node-count study Replicas at a time
	// until each configuration's missed and double lines a year are within
	// ± this share, or ± one line a year, or MaxReplicas have run
	// (montecarlo.MonteCarlo's Precision).
	Precision     float64
	MaxReplicas   int
	Seed          uint64  // the node-count study's failures, and every run's jitter
	RoundsPerYear float64 // rounds in a year; each replica lasts StudyYears

	Tick model.Tick // the length of a round, for outputs in seconds

	// Incident, if set, is the outage event (a post-mortem's failures,
	// each node its own kind, base's outage fields their span) in place
	// of the group outage wherever the review prices or replays the
	// event: the recommendation and its sensitivity, the arrangements, the
	// cost section and the timeline. The lease sweep, the heat map and the
	// zone study vary a group outage, as long as the incident's span.
	// IncidentFile names it.
	Incident     model.Windows
	IncidentFile string

	// OutageFromMix says that Base's outage, the study outage the single
	// runs meet, is the mix's most common (StudyOutage), as none was
	// given; MidBatch, that it starts halfway through the first batch, as
	// no start was given and the batch takes time.
	OutageFromMix, MidBatch bool

	// The recommendation: the outage lengths an event has and their
	// shares (nil: base's outage alone, or the incident), the settings to
	// choose among (Candidates), and the price of each yearly measure
	// (zero: none given, so the report names the Pareto front instead of
	// one candidate).
	Mix []cost.MixEntry
	// Failures is the deployment's failure mix as given (--failure-mix),
	// each entry its kind, scope, lengths and rate; Mix is then its events
	// (cost.FlattenFailures) at EventsPerYear[0], their sum. Nil: the
	// group outage's mix, of the configuration's kind and scope.
	Failures []cost.FailureEntry
	// The candidates are every valid combination of a lease of
	// CandidateLeases (nil: the lease sweep's), a renew deadline of
	// CandidateRenewDeadlines and a retry period of CandidateRetryPeriods
	// (nil: DefaultRenewDeadlines, DefaultRetryPeriods), with the base's
	// own settings among them. Without a renew deadline in the base (the
	// publication's round model) only the lease varies.
	CandidateLeases, CandidateRenewDeadlines, CandidateRetryPeriods []int
	// CandidateList is candidates listed by hand, each valid with the
	// base's other settings (model.Config.Validate): ranked with the
	// grid's, and free to change the node count, fencing and the trigger
	// policy, which the grid's keep.
	CandidateList []cost.Candidate
	// CandidateLocks is, for each of CandidateList, the lock whose options
	// it was listed with (a lock's preset), else nil: what names it.
	CandidateLocks []settings.Lock
	// Lock is the deployment's lock as its library's options set it, for
	// a lock the model runs by its own protocol (nil: read back from
	// Base, LockOf). With a tick, and no CandidateLeases, the candidates
	// are its options' grid (settings.Grid), not leases.
	Lock settings.Lock
	// Presets is the lease presets in rounds of Tick, by name: a
	// candidate whose lease settings are a preset's is named for it
	// (PresetOf).
	Presets []PresetRounds
	Weights cost.Weights
	// Material is the share of the current settings' cost a year below
	// which a saving is too small to matter (cost.Decide): the verdict is
	// then to keep them.
	Material float64
	// Currency is the prices' unit as the review names it ("EUR"), for
	// report.md's cost a year; "" for none named.
	Currency string
	// BlackHoleGiven says the review gives black_hole itself, true or
	// false (its file or the command line: the flag was set), and so pins
	// whether the failing nodes' calls hang or fail at once; a preset
	// never sets it. Unset, the review prices its decision both ways
	// (HungCalls).
	BlackHoleGiven bool

	// Progress, if not nil, is told as each step of NewReview begins: how
	// many of its total steps are done, and what the next computes, as
	// "the node-count study", for a progress display.
	Progress func(done, total int, step string)
}

// PresetRounds is a lease preset's settings in rounds: its name, lease, renew
// deadline and retry period, and its lock's protocol, lock-delay,
// acquire wait and disconnect delay.
type PresetRounds struct {
	Name                              string
	Lease, RenewDeadline, RetryPeriod int
	Protocol                          model.LockProtocol
	LockDelay, AcquireWait            int
	DisconnectDelay                   int
}

// PresetOf is the name of the preset whose lease, renew deadline, retry
// period, protocol, lock-delay, acquire wait and disconnect delay are k's, or "" if none's
// are.
func (rv *Review) PresetOf(k cost.Candidate) string {
	for _, p := range rv.Presets {
		if p.Lease == k.Lease && p.RenewDeadline == k.RenewDeadline && p.RetryPeriod == k.RetryPeriod && p.Protocol == k.Protocol && p.LockDelay == k.LockDelay && p.AcquireWait == k.AcquireWait && p.DisconnectDelay == k.DisconnectDelay {
			return p.Name
		}
	}
	return ""
}

// DefaultRenewDeadlines is the renew deadlines the review tries by
// default: base's, and two, three and four times it (a leader that rides
// out longer outages before it gives up); none without a renew deadline.
func DefaultRenewDeadlines(base model.Config) []int {
	if base.RenewDeadline == 0 {
		return []int{0}
	}
	var ds []int
	for k := 1; k <= 4; k++ {
		ds = append(ds, min(model.MaxRounds, k*base.RenewDeadline))
	}
	return slices.Compact(ds)
}

// DefaultRetryPeriods is the retry periods the review tries by default:
// base's and twice it, or base's alone without a renew deadline.
func DefaultRetryPeriods(base model.Config) []int {
	if base.RenewDeadline == 0 {
		return []int{base.RetryPeriod}
	}
	return slices.Compact([]int{base.RetryPeriod, min(model.MaxRounds, 2*base.RetryPeriod)})
}

// Candidates is every combination of leases, renew deadlines and retry
// periods that goes with base's other settings (model.Config.Validate),
// base's own settings among them, and the candidates listed, ordered by
// cost.Compare (lease, renew deadline, retry period, then the rest), each
// once, and how many combinations were skipped. Without a renew deadline
// in base, only the leases vary: the renew deadlines and retry periods
// given are not used. The listed candidates are taken as they are.
func Candidates(base model.Config, leases, renewDeadlines, retryPeriods []int, listed ...cost.Candidate) (ks []cost.Candidate, skipped int) {
	if base.RenewDeadline == 0 {
		renewDeadlines, retryPeriods = []int{0}, []int{base.RetryPeriod}
	}
	current := cost.CandidateOf(base)
	for _, lease := range leases {
		for _, d := range renewDeadlines {
			for _, retry := range retryPeriods {
				k := current.WithLease(lease, d, retry)
				if c := k.Apply(base); c.Validate() != nil {
					skipped++
					continue
				}
				ks = append(ks, k)
			}
		}
	}
	ks = append(append(ks, current), listed...)
	slices.SortFunc(ks, cost.Compare)
	return slices.Compact(ks), skipped
}

// candidates is the review's candidates (Candidates over its lists or
// their defaults) and how many combinations were skipped.
func (rv *Review) candidates() ([]cost.Candidate, int) {
	if ks, ok := rv.lockCandidates(); ok {
		return ks, 0
	}
	rv.rememberListed()
	leases, deadlines, retries := rv.CandidateLeases, rv.CandidateRenewDeadlines, rv.CandidateRetryPeriods
	if leases == nil {
		leases = rv.Ranges.Leases
	}
	if deadlines == nil {
		deadlines = DefaultRenewDeadlines(rv.Base)
	}
	if retries == nil {
		retries = DefaultRetryPeriods(rv.Base)
	}
	return Candidates(rv.Base, leases, deadlines, retries, rv.CandidateList...)
}

// DefaultMaterial is the share of the current settings' cost a year
// below which a saving does not matter (ReviewOptions.Material): 5%.
const DefaultMaterial = 0.05

// DefaultReviewOptions returns the report's defaults for base: the publication's
// rates and batch, nodes up for 2,000 rounds on average and down for about
// 3 (200 replicas, at most 100,000 under a precision), and a year of one
// batch a day (period × 365 rounds). ReviewInputs.Prepare fills in those
// that follow from a tick.
func DefaultReviewOptions(base model.Config) ReviewOptions {
	up, _ := parse.Lengths(0, "geometric:2000")
	down, _ := parse.Lengths(0, "lognormal:1.2,0.6")
	return ReviewOptions{
		EventsPerYear: []float64{6, 12}, LinesPerBatch: PublicationLinesPerBatch,
		Up: up, Down: down, Replicas: 200, MaxReplicas: 100_000, Seed: 1, RoundsPerYear: float64(base.Period) * 365, Material: DefaultMaterial,
	}
}

// DeploymentFailures is the node-count study's failure model for a review
// in real time (opt.Tick set): every node fails on its own as often as
// outages reach the leader (the first of opt.EventsPerYear: up periods
// geometric with a mean of a year over that rate), for as long as the
// outage mix says, or base's outage without a mix. So the study asks what
// more nodes do against the failures the recommendation assumes, not
// against the publication's churn of a failure every 2,000 rounds.
//
// With a failure mix, the failures a node has on its own are those that
// do not take every node at once (as many a year as they are, and as
// long); if all do, all of them, which the report says are not the
// review's.
func DeploymentFailures(base model.Config, opt ReviewOptions) (up, down model.Lengths) {
	perYear := opt.EventsPerYear[0]
	if share := cost.EveryNodeShare(opt.Mix); opt.Failures != nil && share < 1 {
		perYear *= 1 - share
		opt.Mix = slices.DeleteFunc(slices.Clone(opt.Mix), func(e cost.MixEntry) bool { return e.Scope == cost.ScopeEveryNode })
		for i := range opt.Mix {
			opt.Mix[i].Weight /= 1 - share
		}
	}
	up = model.Lengths{Kind: model.Geometric, A: max(1, opt.RoundsPerYear/perYear)}
	down = model.Lengths{Kind: model.Fixed, A: float64(max(1, base.Outage))}
	if len(opt.Mix) == 0 {
		return up, down
	}
	// The mix as equally likely samples: each length as many times as its
	// weight in thousandths, over their greatest common divisor.
	counts := make([]int, len(opt.Mix))
	g := 0
	for i, m := range opt.Mix {
		counts[i] = max(1, int(math.Round(m.Weight*1000)))
		g = gcd(g, counts[i])
	}
	var samples []int
	for i, m := range opt.Mix {
		for range counts[i] / g {
			samples = append(samples, max(1, m.Outage))
		}
	}
	return up, model.Lengths{Kind: model.Empirical, Samples: samples, Source: "the outage mix"}
}

// cmpWeight orders mix entries by weight (slices.MaxFunc then keeps the
// first of those tied).
func cmpWeight(a, b cost.MixEntry) int {
	switch {
	case a.Weight < b.Weight:
		return -1
	case a.Weight > b.Weight:
		return 1
	}
	return 0
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// The review's fixed ranges; the leases and outages scale with the base
// configuration (NewRanges).
const (
	MaxPlotHandover = 24 // the cost plot's handovers per year, 1 … 24
	minZoneDown     = 2  // the zone study's zone: the base's down nodes, at least 2
	minMostNodes    = 7  // the zone and node-count studies go up to the base's nodes + 2, at least 7
	StudyYears      = 10 // the length of each replica of the study, unless
	// a replica that long would draw more than MaxStudyPeriods failure
	// periods in all: then replicas are shortened to fit.
	MaxStudyPeriods = 2e7
)

// NewReview computes a review of base. It stops with ctx.Err() when ctx is
// cancelled.
func NewReview(ctx context.Context, base model.Config, opt ReviewOptions) (*Review, error) {
	if base.Protocol.PerFire() {
		return newPerFire(ctx, base, opt)
	}
	rv := &Review{Base: base, ReviewOptions: opt, Ranges: NewRanges(base)}
	if opt.Tick != 0 && opt.Incident == nil && len(opt.Mix) > 0 { // a deployment's own outages, not the publication's
		var lengths []int
		for _, e := range opt.Mix {
			lengths = append(lengths, e.Outage)
		}
		rv.Ranges = rv.Ranges.WithMix(lengths)
	}
	done := 0
	step := func(name string) {
		if opt.Progress != nil {
			opt.Progress(done, reviewSteps, name)
		}
		done++
	}
	step("the measure table")
	var err error
	if rv.Measure, err = NewMeasure(base, opt.Seed, opt.Incident); err != nil {
		return nil, err
	}
	rv.Measure.IncidentFile = opt.IncidentFile
	r := model.Runner{JitterSeed: model.JitterSeed(opt.Seed)}
	// add runs base with edit applied and appends the run to dst.
	add := func(dst *[]Result, base model.Config, edit func(*model.Config)) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := base
		edit(&c)
		st, err := r.Run(c)
		*dst = append(*dst, Result{c, st})
		return err
	}
	for i, a := range Arrangements() { // the measure table ran them
		rv.Arrangements = append(rv.Arrangements, Result{a.Apply(base), rv.Measure.Arrangements[i]})
	}
	st, err := cost.RunEvent(&r, base, opt.Incident)
	if err != nil {
		return nil, err
	}
	rv.Deployed = Result{base, st}
	step("the lease sweep and the heat map")
	// vary sets a lease and an outage, a run long enough for them to play
	// out where the outages are the review's own.
	vary := func(lease, outage int) func(*model.Config) {
		return func(c *model.Config) {
			c.Lease, c.Outage = lease, outage
			if rv.Ranges.FromMix {
				c.Rounds = min(model.MaxRounds, max(c.Rounds, c.Start-1+cost.SettleRounds(*c)))
			}
		}
	}
	for _, lease := range rv.Ranges.Leases {
		for _, outage := range []int{rv.Ranges.Long, rv.Ranges.Short} {
			if err := add(&rv.LeaseSweep, base, vary(lease, outage)); err != nil {
				return nil, err
			}
		}
		for _, outage := range rv.Ranges.Outages {
			if err := add(&rv.Heat, base, vary(lease, outage)); err != nil {
				return nil, err
			}
		}
	}
	var plotRates []float64
	for h := 1; h <= MaxPlotHandover; h++ {
		plotRates = append(plotRates, float64(h))
	}
	step("the cost section")
	for i, v := range []struct {
		name string
		c    model.Config
	}{{"as deployed", base}, {Arrangements()[2].Name, Arrangements()[2].Apply(base)}} {
		res, err := ComputeCost(ctx, CostInput{Config: v.c, EventsPerYear: plotRates, LinesPerBatch: opt.LinesPerBatch, Tick: opt.Tick, Seed: opt.Seed, Incident: opt.Incident}, cost.Window, cost.Phase)
		if err != nil {
			return nil, err
		}
		rv.Cost[i] = ArrangementCost{v.name, res}
	}
	mix := rv.mixAt(1)
	mixes := [][]cost.MixEntry{mix}
	for _, e := range mix {
		e.Weight = 1
		mixes = append(mixes, []cost.MixEntry{e})
	}
	step("the recommendation")
	ks, skipped := rv.candidates()
	// The recommendation, its levers and what moves it are measured in one
	// pool, with the node-count study alongside it, so no core waits for
	// the last runs of one before the next begins.
	var (
		nodes     sync.WaitGroup
		nodesErr  error
		nodesCtx  context.Context
		stopNodes context.CancelFunc
	)
	nodesCtx, stopNodes = context.WithCancel(ctx)
	defer func() { stopNodes(); nodes.Wait() }()
	nodes.Go(func() { nodesErr = rv.studyNodes(nodesCtx) })
	ls, lks := rv.leverCandidates()
	rankings := []cost.Ranking{{Config: base, Candidates: ks, Mixes: mixes}, {Config: base, Candidates: lks, Mixes: [][]cost.MixEntry{mix}}}
	rankings = append(rankings, rv.sensitivityRankings(ks)...)
	if rv.safety, err = rv.safetyOf(ctx, ks); err != nil {
		return nil, err
	}
	all, errs := cost.RecommendAll(ctx, rv.Seed, rankings, rv.EventsPerYear[0], float64(rv.LinesPerBatch))
	if errs[0] != nil {
		return nil, errs[0]
	}
	for _, ranks := range all[0] {
		rv.withSafety(ranks)
	}
	rv.Recommendation, rv.ByOutage, rv.Skipped = all[0][0], all[0][1:], skipped
	if len(lks) > 0 {
		if errs[1] != nil {
			return nil, errs[1]
		}
		for i := range ls {
			ls[i].Rank = all[1][0][i]
		}
		rv.Levers = ls
	}
	if rv.Fenced, err = rv.fenced(ctx, ks, mix); err != nil {
		return nil, err
	}
	// The decision priced again with hung calls runs beside the spreads,
	// which measure one run at a time, so that it takes no core from
	// them; neither reads what the other sets.
	var (
		hung    sync.WaitGroup
		hungErr error
	)
	hung.Go(func() { rv.HungCalls, hungErr = rv.hungCalls(ctx, mix) })
	err = rv.spreads(ctx, mix)
	hung.Wait()
	if err != nil {
		return nil, err
	}
	if hungErr != nil {
		return nil, hungErr
	}
	step("what moves the answer")
	if rv.Sensitivity, err = rv.sensitivity(all[2:], errs[2:]); err != nil {
		return nil, err
	}
	step("the timeline")
	var event model.Schedule = base.Schedule()
	if opt.Incident != nil {
		event = opt.Incident
	}
	if rv.Timeline, _, err = r.TraceRounds(base, event); err != nil {
		return nil, err
	}
	if opt.Incident != nil {
		if rv.IncidentSpread, err = incident.Of(opt.Incident).SpreadOf(base, opt.Seed); err != nil {
			return nil, err
		}
	}
	step("the zone study")
	for nodes := rv.ZoneNodes(); nodes <= MostNodes(base); nodes++ {
		down := rv.ZoneNodes()
		if rv.EveryNodeShare() == 1 { // the review's failures take every node, however many
			down = nodes
		}
		for _, quorum := range []bool{false, true} {
			if err := add(&rv.Zone, base, func(c *model.Config) { c.Nodes, c.Down, c.Quorum = nodes, down, quorum }); err != nil {
				return nil, err
			}
		}
	}
	step("the node-count study")
	nodes.Wait()
	return rv, nodesErr
}

// StudyOutage sets the study outage of base, the one outage the report's
// single runs meet (the arrangements, the timeline, the cost table, the
// zone study; the lease sweep and the heat map vary it), where the
// review does not give it: the most common outage of opt's mix (the first
// of those tied) unless outageGiven, and a start halfway through the
// first batch, where a cut batch loses lines, unless startGiven or the
// batch is instant. An incident is its own event: nothing changes. The
// run's length follows the start unless roundsGiven, as without a tick
// (four periods, and the start, the outage and the model's settling).
// opt says what was chosen, for the report to say so.
func StudyOutage(base *model.Config, opt *ReviewOptions, outageGiven, startGiven, roundsGiven bool) {
	if opt.Incident != nil {
		return
	}
	if len(opt.Mix) > 0 && !outageGiven {
		common := opt.Mix[0]
		for _, e := range opt.Mix[1:] {
			if e.Weight > common.Weight {
				common = e
			}
		}
		base.Outage, opt.OutageFromMix = common.Outage, true
	}
	if opt.Failures != nil { // the most common event's kind and scope, whatever its length
		common := slices.MaxFunc(opt.Mix, func(a, b cost.MixEntry) int { return cmpWeight(a, b) })
		*base = common.On(*base)
	}
	if base.BatchLen > 1 && !startGiven {
		base.Start, opt.MidBatch = base.Period+base.BatchLen/2, true
	}
	if !roundsGiven && (opt.OutageFromMix || opt.MidBatch) {
		base.Rounds = min(model.MaxRounds, max(base.Rounds, base.Start-1+cost.SettleRounds(*base)))
	}
}

// DeployedAs is the index in Arrangements of the arrangement that is Base
// as deployed, or -1 if none is: the persistent trigger without fencing,
// or an overlap policy that buffers without the persistent trigger, which
// the arrangements skip instead (Arrangement.Apply).
func (rv *Review) DeployedAs() int {
	for i, a := range rv.Arrangements {
		if a.Config == rv.Base {
			return i
		}
	}
	return -1
}

// reviewSteps is the number of steps NewReview tells Progress of.
const reviewSteps = 8

// leverCandidates is the levers (without their ranks) and their
// candidates: the deployment with fencing and the persistent trigger (the
// third arrangement) and with one more node, each if it is another
// deployment than the base's and valid. Ranked over the mix with the base's
// other settings, they are the review's Levers.
func (rv *Review) leverCandidates() ([]Lever, []cost.Candidate) {
	fenced := Arrangements()[2]
	more := rv.Base
	more.Nodes++
	var ls []Lever
	var ks []cost.Candidate
	for _, l := range []struct {
		what string
		c    model.Config
	}{{turnedOn(rv.Base), fenced.Apply(rv.Base)}, {fmt.Sprintf("%d nodes", more.Nodes), more}} {
		if k, c := cost.CandidateOf(l.c), l.c; k != cost.CandidateOf(rv.Base) && c.Validate() == nil {
			ls, ks = append(ls, Lever{What: l.what}), append(ks, k)
		}
	}
	return ls, ks
}

// fenced ranks the candidates ks with fencing turned on over mix, with
// their safety figures, when the review prices its candidates, the base
// does not fence and none of the recommendation may be recommended
// without fencing; nil otherwise.
func (rv *Review) fenced(ctx context.Context, ks []cost.Candidate, mix []cost.MixEntry) ([]cost.Rank, error) {
	if _, ok := rv.Decide(rv.Recommendation); ok || rv.Base.Fencing || rv.Weights == (cost.Weights{}) {
		return nil, nil
	}
	on := make([]cost.Candidate, len(ks))
	for i, k := range ks {
		k.Fencing = true
		on[i] = k
	}
	ranks, err := cost.Recommend(ctx, rv.Base, rv.Seed, on, mix, rv.EventsPerYear[0], float64(rv.LinesPerBatch))
	if err != nil {
		return nil, err
	}
	return rv.withSafety(ranks), nil
}

// DecideFenced is the choice among the candidates with fencing turned on
// (Fenced) by the rule Decide applies, the current settings fenced
// standing for the current ones; false without Fenced.
func (rv *Review) DecideFenced() (cost.Decision, bool) {
	if rv.Fenced == nil {
		return cost.Decision{}, false
	}
	current := cost.CandidateOf(rv.Base)
	current.Fencing = true
	return cost.Decide(rv.Fenced, rv.Weights, 0.05, rv.Material, current)
}

// turnedOn names what the third arrangement turns on in base: fencing
// and the persistent trigger, or the one base lacks.
func turnedOn(base model.Config) string {
	switch {
	case base.Fencing && !base.PersistentTrigger:
		return "the persistent trigger"
	case !base.Fencing && base.PersistentTrigger:
		return "fencing"
	}
	return "fencing and the persistent trigger"
}

// safetyOf is the safety figures of each candidate with the base's other
// settings (SafetyOf), in ks's order, each drawn from the review's seed on
// its own, on every core.
func (rv *Review) safetyOf(ctx context.Context, ks []cost.Candidate) ([]cost.Safety, error) {
	ss := make([]cost.Safety, len(ks))
	errs := make([]error, len(ks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ks)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ks); i = int(next.Add(1) - 1) {
				ss[i], errs[i] = SafetyOf(ctx, ks[i].Apply(rv.Base), rv.Tick, rv.Seed)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return ss, nil
}

// withSafety gives each of ranks, the review's candidates in their order,
// its safety figures, and marks it NoMargin by its lock's own margin.
func (rv *Review) withSafety(ranks []cost.Rank) []cost.Rank {
	for i := range ranks {
		ranks[i].Safety = rv.safety[i]
		ranks[i].NoMargin = NoMargin(ranks[i].Apply(rv.Base), rv.safety[i])
	}
	return ranks
}

// Decide is the choice among the recommendation's candidates under the
// review's prices (cost.Decide): a difference under half the 0.1 the
// report shows costs in, or under Material of the current settings' cost,
// does not matter. It is false when no candidate may be recommended.
func (rv *Review) Decide(ranks []cost.Rank) (cost.Decision, bool) {
	return cost.Decide(ranks, rv.Weights, 0.05, rv.Material, cost.CandidateOf(rv.Base))
}

// mixAt is the review's outage events with every outage stretched by
// stretch: the mix (base's outage alone without one), or the incident.
func (rv *Review) mixAt(stretch float64) []cost.MixEntry {
	if rv.Incident != nil {
		ws := stretchIncident(rv.Incident, stretch)
		first, last := ws.Span()
		return []cost.MixEntry{{Outage: last - first + 1, Weight: 1, Incident: ws}}
	}
	mix := slices.Clone(rv.Mix)
	if mix == nil {
		mix = []cost.MixEntry{{Outage: rv.Base.Outage, Weight: 1}}
	}
	for i := range mix {
		mix[i].Outage = stretchLength(mix[i].Outage, stretch)
	}
	return mix
}

// stretchLength is n rounds stretched by k, at least a round.
func stretchLength(n int, k float64) int {
	return max(1, min(model.MaxRounds, int(math.Round(k*float64(n)))))
}

// stretchIncident is an incident's failures, each stretched by k from its
// start (at least a round): the sensitivity's "outage lengths".
func stretchIncident(ws model.Windows, k float64) model.Windows {
	out := slices.Clone(ws)
	for i := range out {
		out[i].Last = out[i].First + stretchLength(out[i].Last-out[i].First+1, k) - 1
	}
	return out
}

// sensitivityRankings is what the sensitivity (sensitivity) measures
// again, as rankings of the candidates ks: every outage of the mix halved
// and doubled, and, for a batch that takes time, the base with its length
// halved and doubled (a batch at most its period).
func (rv *Review) sensitivityRankings(ks []cost.Candidate) []cost.Ranking {
	rs := []cost.Ranking{{Config: rv.Base, Candidates: ks, Mixes: [][]cost.MixEntry{rv.mixAt(0.5), rv.mixAt(2)}}}
	if rv.Base.BatchLen == 1 { // an instant batch has no length to halve or double
		return rs
	}
	for _, k := range []float64{0.5, 2} {
		c := rv.Base
		c.BatchLen = max(1, min(c.Period, int(math.Round(k*float64(c.BatchLen))))) // a batch takes at most its period
		rs = append(rs, cost.Ranking{Config: c, Candidates: ks, Mixes: [][]cost.MixEntry{rv.mixAt(1)}})
	}
	return rs
}

// sensitivity is the recommendation with the outage rate, the lines a
// batch, the outage lengths and, for a batch that takes time, its length
// each halved and doubled. The first two scale the yearly figures they
// enter, as the phase method's are linear in them; the lengths are
// measured again: measured and errs are the rankings of
// sensitivityRankings and their errors (cost.RecommendAll).
func (rv *Review) sensitivity(measured [][][]cost.Rank, errs []error) ([]Variant, error) {
	var vs []Variant
	scaled := func(f func(cost.Rank) cost.Rank) []cost.Rank {
		ranks := slices.Clone(rv.Recommendation)
		for i := range ranks {
			ranks[i] = f(ranks[i])
		}
		return ranks
	}
	for _, k := range []float64{0.5, 2} {
		vs = append(vs, Variant{"outage events a year", k, scaled(func(r cost.Rank) cost.Rank {
			r.MissedLines, r.DoubleLines, r.DelayedRounds, r.LateRounds, r.Handovers = k*r.MissedLines, k*r.DoubleLines, k*r.DelayedRounds, k*r.LateRounds, k*r.Handovers
			r.PartialLines, r.PartialBatches = k*r.PartialLines, k*r.PartialBatches
			return r
		})})
	}
	for _, k := range []float64{0.5, 2} {
		vs = append(vs, Variant{"invoice lines a batch", k, scaled(func(r cost.Rank) cost.Rank {
			r.MissedLines, r.DoubleLines, r.PartialLines = k*r.MissedLines, k*r.DoubleLines, k*r.PartialLines
			return r
		})})
	}
	if errs[0] != nil {
		return nil, errs[0]
	}
	for i, k := range []float64{0.5, 2} {
		vs = append(vs, Variant{"outage lengths", k, rv.withSafety(measured[0][i])})
	}
	for i, k := range []float64{0.5, 2} {
		if 1+i >= len(measured) { // an instant batch
			break
		}
		if errs[1+i] != nil {
			return nil, errs[1+i]
		}
		vs = append(vs, Variant{"batch length", k, rv.withSafety(measured[1+i][0])})
	}
	return vs, nil
}

// spreads sets Spreads: the current settings' and the recommended
// ones', over mix, each event's losses at each phase measured anew,
// each entry met by its kind and scope as the ranking meets it
// (cost.MixEntry.Losses), the years drawn from the review's seed.
func (rv *Review) spreads(ctx context.Context, mix []cost.MixEntry) error {
	ks := []cost.Candidate{rv.Current().Candidate}
	if d, ok := rv.Decide(rv.Recommendation); ok && rv.Weights != (cost.Weights{}) && d.Top.Candidate != ks[0] {
		ks = append(ks, d.Top.Candidate)
	}
	rv.Spreads = map[cost.Candidate]cost.Spread{}
	for _, k := range ks {
		var events []cost.YearEvent
		for _, e := range mix {
			c := k.Apply(rv.Base)
			c.Outage = e.Outage
			losses, err := e.Losses(ctx, c, rv.Seed)
			if err != nil {
				return err
			}
			events = append(events, cost.YearEvent{PerYear: e.Weight * rv.EventsPerYear[0], LinesPerBatch: float64(rv.LinesPerBatch), Losses: losses})
		}
		rv.Spreads[k] = cost.SpreadOf(events, rv.Weights, rv.Seed)
	}
	return nil
}

// Current returns the recommendation's row of the base's settings.
func (rv *Review) Current() cost.Rank {
	current := cost.CandidateOf(rv.Base)
	i := slices.IndexFunc(rv.Recommendation, func(r cost.Rank) bool { return r.Candidate == current })
	return rv.Recommendation[i]
}

// EveryNodeShare is the share of the review's failure events that take
// every node down at once (scope every-node), against which more nodes or
// zones cannot help: 0 without a failure mix.
func (rv *Review) EveryNodeShare() float64 {
	if rv.Failures == nil {
		return 0
	}
	return cost.EveryNodeShare(rv.Mix)
}

// ZoneNodes is the zone the zone study fails together: ZoneDown of the
// deployment as configured, as a failure mix's zones are (the base's
// Down is then its most common event's).
func (rv *Review) ZoneNodes() int {
	if rv.Failures != nil {
		return rv.Mix[0].Zone
	}
	return ZoneDown(rv.Base)
}

// ZoneDown is the zone the zone study fails together: the base's own
// zone of down nodes, or 2 if it has none larger (one node down is not a
// zone).
func ZoneDown(base model.Config) int { return max(minZoneDown, base.Down) }

// MostNodes is the most nodes the zone and node-count studies try: two
// more than the base has, and at least 7, the publication's.
func MostNodes(base model.Config) int { return max(minMostNodes, base.Nodes+2) }

// studyNodes runs the node-count study of Base as deployed: nodes 1 …
// MostNodes, quorum off and on, every node failing independently, the
// yearly figures averaged over the trigger's phase where no batch queues
// (without the persistent trigger, montecarlo.MonteCarlo.PhaseAverage), each
// replica StudyYears long or, where that would cost more than
// MaxStudyPeriods periods, as long as fits: a long period (many rounds a
// year) with short up periods would otherwise take minutes.
func (rv *Review) studyNodes(ctx context.Context) error {
	mc := &montecarlo.MonteCarlo{Grid: sweep.NewGrid(rv.Base), Up: rv.Up, Down: rv.Down, Replicas: rv.Replicas, Seed: rv.Seed,
		RoundsPerYear: rv.RoundsPerYear, LinesPerBatch: float64(rv.LinesPerBatch), PhaseAverage: !rv.Base.PersistentTrigger}
	mc.Grid.Tick = rv.Tick
	mc.Grid.Values[model.Nodes], _ = sweep.ParseValues(0, model.Nodes, fmt.Sprintf("1:%d", MostNodes(rv.Base)))
	mc.Grid.Values[model.Quorum] = sweep.ListOf(0, 1)
	rounds := max(1, min(model.MaxRounds, int(StudyYears*rv.RoundsPerYear)))
	mc.Grid.Values[model.Rounds] = sweep.ListOf(rounds)
	if periods := mc.Periods(); periods > MaxStudyPeriods {
		// Periods grow about linearly with the rounds.
		mc.Grid.Values[model.Rounds] = sweep.ListOf(max(1, int(float64(rounds)*MaxStudyPeriods/periods)))
	}
	// Precision sets the replicas, not their length: the cap above is on
	// a batch of Replicas, so that replicas keep their length however many
	// batches precision takes.
	mc.Precision, mc.Floor, mc.MaxReplicas = rv.Precision, 1, rv.MaxReplicas
	rv.NodeStudy = mc
	return mc.Run(ctx, 0, func(s *montecarlo.Summary) error { rv.Nodes = append(rv.Nodes, *s); return nil }, nil)
}

// NodePartialLines is the invoice lines a year of batches cut mid-run
// that no run wrote, in the node-count study's configuration of s: the
// mean of its missed parts, scaled as its missed lines are
// (montecarlo.MonteCarlo.Finish).
func (rv *Review) NodePartialLines(s montecarlo.Summary) float64 {
	mc, c := rv.NodeStudy, s.Config
	scale := mc.RoundsPerYear / float64(c.Rounds) / float64(c.BatchLen)
	if mc.PhaseAverage {
		scale *= float64(c.PhasePeriod()) / float64(c.Period)
	}
	return scale * s.Mean[model.MissedParts] * mc.LinesPerBatch
}

// NodeSummary returns the node-count study's summary for a node count and
// quorum setting.
func (rv *Review) NodeSummary(nodes int, quorum bool) montecarlo.Summary {
	for _, s := range rv.Nodes {
		if s.Config.Nodes == nodes && s.Config.Quorum == quorum {
			return s
		}
	}
	panic(fmt.Sprintf("study: the node-count study has no run of %d nodes, quorum %t", nodes, quorum))
}

// CostAt returns the cost result of arrangement i at the review's own rates.
func (rv *Review) CostAt(i int) CostResult {
	res := rv.Cost[i].Result
	res.EventsPerYear = rv.EventsPerYear
	return res
}

// Projections returns the cost plot's numbers: every arrangement, method
// and rate of 1 … MaxPlotHandover a year.
func (rv *Review) Projections() []cost.ConfigProjection {
	var ps []cost.ConfigProjection
	for _, a := range rv.Cost {
		ps = append(ps, cost.WithConfig(a.Result.Config, a.Result.Projections(cost.Window, cost.Phase))...)
	}
	return ps
}

// Warnings lists what makes the review read as more than it measured, each
// a sentence: a run that ends before the lease sweep's long outage and its
// longest lease have played out, which cuts its leaderless and handover
// figures short and hides the handovers of the longer leases; and an
// overlap policy that buffers, which the arrangements without the
// persistent trigger cannot keep (Arrangement.Apply).
func (rv *Review) Warnings() []string {
	var w []string
	if rv.PerFire != nil { // no lease sweep, no buffering arrangement, no node-count study
		return nil
	}
	if !rv.Ranges.FromMix { // else each run lasts until its outage and lease have played out
		w = shortRun(rv.Tick, rv.Base, "lease sweep", rv.Ranges.Long, rv.Ranges.Leases[len(rv.Ranges.Leases)-1])
	}
	if rv.Base.Buffers() {
		w = append(w, fmt.Sprintf("the plain and fencing arrangements have no persistent trigger, so no queue: there overlap %s skips a slot that falls due while a run still runs",
			model.Overlap.AppendValue(nil, int(rv.Base.Overlap))))
	}
	return append(w, rv.imprecise()...)
}

// imprecise is the warning that the node-count study ran MaxReplicas of
// some configurations without reaching the precision asked, or nothing.
func (rv *Review) imprecise() []string {
	if rv.Precision == 0 {
		return nil
	}
	loose := 0
	for _, s := range rv.Nodes {
		if !s.Precise {
			loose++
		}
	}
	if loose == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the node-count study ran %d of its %d configurations to --max-replicas %d without their missed and double lines a year within ±%s%% (--precision) or ±1 line: their intervals are wider than asked; ask a looser --precision or more --max-replicas",
		loose, len(rv.Nodes), rv.MaxReplicas, strconv.FormatFloat(100*rv.Precision, 'g', 12, 64))}
}

// Warnings lists, as Review.Warnings does, a run too short for the lease
// block's long outage and longest lease; t is the unit to write times in.
func (m Measure) Warnings(t model.Tick) []string {
	if len(m.Leases) == 0 {
		return nil
	}
	return shortRun(t, m.Base, "lease block", m.Outages[0], m.Leases[len(m.Leases)-1])
}

// shortRun is the warning that c's run ends before an outage of outage
// rounds from c.Start and then a lease of lease rounds have played out,
// which cuts a study's figures short, or nothing. An outage that starts
// after the run has a warning of its own (Config.Warnings).
func shortRun(t model.Tick, c model.Config, study string, outage, lease int) []string {
	need := c.Start - 1 + outage + lease
	if need <= c.Rounds || c.Start > c.Rounds {
		return nil
	}
	from := fmt.Sprintf("round %d", c.Start)
	if t != 0 {
		from = t.FormatValue(model.Start, c.Start)
	}
	return []string{fmt.Sprintf("the run lasts %s, but the %s's outage of %s from %s and its longest lease of %s need %s to play out: their figures are cut short; --rounds %s or more shows them whole",
		t.DurationOf(c.Rounds), study, t.DurationOf(outage), from, t.DurationOf(lease), t.DurationOf(need), t.FormatValue(model.Rounds, need))}
}
