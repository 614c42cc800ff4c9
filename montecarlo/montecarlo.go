// Package montecarlo runs Monte Carlo studies: every configuration of a
// sweep's grid run over many replicas, each node failing independently
// (model.Alternating), summarised by exact integer tallies (Tally, and
// EpisodeTally for the leaderless and two-leader rounds' episodes) with
// their 95% intervals, to a replica count or to a precision. A study can
// run in replica shards (RunShard) that MergeMonteCarlo adds up to the
// unsharded study's CSV byte for byte.
package montecarlo

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// Params are the parameters a Monte Carlo study varies; the
// others (outage, start, down) belong to the publication's fixed schedule.
func Params() []model.Param {
	ps := []model.Param{model.Nodes, model.Lease, model.RereadPeriod, model.RetryPeriod, model.RenewDeadline, model.Rounds, model.Period, model.BatchLen,
		model.Fencing, model.PersistentTrigger, model.CatchUpWindow, model.CatchUpOnce, model.IdempotencyKey, model.Overlap, model.Quorum, model.Jitter, model.Drift}
	return slices.Sorted(slices.Values(append(ps, model.KindToggles()...))) // in parameter order, every kind's toggle among them
}

// MonteCarlo is a study in which every node fails independently: each
// configuration of Grid is run Replicas times, each replica with its own
// random up and down periods.
type MonteCarlo struct {
	Grid     sweep.Grid // only Params() vary
	Up, Down model.Lengths
	Also     []model.Process // further failure processes of every node, each its own kind (model.Alternating)
	Replicas int
	Seed     uint64
	// RoundsPerYear, if positive, turns missed and double batches into
	// yearly figures, with LinesPerBatch invoice lines each.
	RoundsPerYear float64
	LinesPerBatch float64

	// Precision, if positive, asks for precision instead of a replica
	// count: each configuration runs Replicas replicas at a time until
	// every headline figure (Headline) has a 95% interval whose half-width
	// is at most Precision times the figure, or at most Floor, or until
	// MaxReplicas have run. Replicas run in index order, so the output
	// still repeats.
	Precision, Floor float64
	MaxReplicas      int

	// PhaseAverage runs every replica with a trigger each
	// Config.PhasePeriod() rounds instead of each Period, and counts each
	// of them as PhasePeriod/Period of a batch in the yearly figures: the
	// average over the trigger's phase against the same failures. That has
	// the expectation of the configuration's own triggers and a fraction
	// of their noise, for a rare outage then meets triggers in every
	// replica instead of in one of thousands. The per-replica statistics
	// are the denser triggers' (the CSV's trigger_every column). It needs
	// triggers that do not queue: no configuration may have the persistent
	// trigger.
	PhaseAverage bool
}

// Headline returns the figures Precision asks about, each with its
// name: with yearly figures, missed and double invoice lines a year;
// otherwise missed and double-started batches and leaderless and
// two-leader rounds per replica.
func (mc *MonteCarlo) Headline(s *Summary) []Figure {
	if mc.RoundsPerYear > 0 {
		k := mc.LinesPerBatch
		return []Figure{
			{"missed_lines_per_year", s.MissedPerYear * k, s.MissedPerYearCI95.Scale(k)},
			{"double_lines_per_year", s.DoublePerYear * k, s.DoublePerYearCI95.Scale(k)},
		}
	}
	var fs []Figure
	for _, k := range []model.Stat{model.Missed, model.DoubleStarts, model.LeaderlessRounds, model.TwoLeaderRounds} {
		fs = append(fs, Figure{k.Name(), s.Mean[k], s.CI95[k]})
	}
	return fs
}

// Figure is one reported number and its 95% interval.
type Figure struct {
	Name  string
	Value float64
	CI95  Interval
}

// Precise reports whether f meets the study's precision: its half-width
// is at most Precision × its value, or at most Floor.
func (mc *MonteCarlo) Precise(f Figure) bool {
	h := f.CI95.HalfWidth()
	return h <= mc.Precision*math.Abs(f.Value) || h <= mc.Floor
}

// Summary is one configuration's result over all replicas: the tallies of
// every statistic, and what follows from them, means and 95% intervals
// (Tally.Interval95).
type Summary struct {
	Config   model.Config
	Replicas int  // the replicas run: MonteCarlo.Replicas, or with Precision as many as it took
	Precise  bool // with Precision, every headline figure met it; false if MaxReplicas ran first
	Tallies  [model.NumStats]Tally
	Lost     Tally           // per replica, parts of batches missed, left queued or unwritten (a batch is BatchLen parts): the missed figure per year
	Episodes [2]EpisodeTally // of the leaderless and the two-leader rounds (EpisodeStats), whose intervals they give

	Mean [model.NumStats]float64
	CI95 [model.NumStats]Interval
	// Per year, when RoundsPerYear is set: missed (missed or left queued)
	// and double-started batches, mean and 95% interval.
	MissedPerYear, DoublePerYear         float64
	MissedPerYearCI95, DoublePerYearCI95 Interval
}

// EpisodeStats are the statistics whose episodes a run counts
// (model.Episodes), in the order of Summary.Episodes.
func EpisodeStats() [2]model.Stat {
	return [2]model.Stat{model.LeaderlessRounds, model.TwoLeaderRounds}
}

// episodesOf returns a run's episodes of EpisodeStats, in their order.
func episodesOf(st *model.Stats) [2]model.Episodes {
	return [2]model.Episodes{st.LeaderlessEpisodes, st.TwoLeaderEpisodes}
}

// tallies lists every tally of s, in the order a shard writes them: the
// statistics', the lost parts', then of each of EpisodeStats the
// episodes' count and their rounds past the first; a shard writes the
// episodes' cross sums after them (crosses).
func (s *Summary) tallies() []*Tally {
	ts := make([]*Tally, 0, model.NumStats+1+2*len(s.Episodes))
	for k := range s.Tallies {
		ts = append(ts, &s.Tallies[k])
	}
	ts = append(ts, &s.Lost)
	for i := range s.Episodes {
		ts = append(ts, &s.Episodes[i].Count, &s.Episodes[i].Extra)
	}
	return ts
}

// crosses lists the cross sums of s's episodes (EpisodeTally.Cross), in
// the order a shard writes them.
func (s *Summary) crosses() []*[2]uint64 {
	cs := make([]*[2]uint64, len(s.Episodes))
	for i := range s.Episodes {
		cs[i] = &s.Episodes[i].Cross
	}
	return cs
}

// InUnit returns statistic k's mean and 95% interval in the unit of t:
// seconds for a time when t is set, else as counted.
func (s *Summary) InUnit(t model.Tick, k model.Stat) (mean float64, ci95 Interval) {
	if t == 0 || !k.Time() {
		return s.Mean[k], s.CI95[k]
	}
	return t.Seconds(s.Mean[k]), s.CI95[k].Scale(t.Seconds(1))
}

// Periods is the study's expected work: the up and down periods its
// replicas draw, about replicas × nodes × (1 + 2·rounds / (mean up + mean
// down)) per configuration. A replica's run costs per period, not per
// round, so this, not the rounds, is what its time grows with. It is
// computed from the lists, without walking the grid; with Precision, for
// MaxReplicas replicas, the most it may take.
func (mc *MonteCarlo) Periods() float64 {
	cycles := []float64{mc.Up.Mean() + mc.Down.Mean()}
	for _, p := range mc.Also {
		cycles = append(cycles, p.Up.Mean()+p.Down.Mean())
	}
	sum := 0.0 // over nodes × rounds × processes
	for n := range mc.Grid.Values[model.Nodes].All() {
		for r := range mc.Grid.Values[model.Rounds].All() {
			for _, cycle := range cycles {
				sum += float64(n) * (1 + 2*float64(r)/cycle)
			}
		}
	}
	others := 1.0
	for p, vals := range mc.Grid.Values {
		if p != int(model.Nodes) && p != int(model.Rounds) {
			others *= float64(vals.Len())
		}
	}
	replicas := mc.Replicas
	if mc.Precision > 0 {
		replicas = max(replicas, mc.MaxReplicas)
	}
	return float64(replicas) * others * sum
}

// replicaSeed derives replica r's random source from the study's seed,
// the part of the configuration that shapes the failures (the node count
// and the distributions) and the replica index. A replica draws the same
// periods whatever the grid around it and whichever worker runs it, and
// configurations that differ only in policy (lease, re-read period, period,
// fencing, trigger, quorum) meet the very same failures: common random
// numbers, so that their differences are the policy's, not chance's.
func (mc *MonteCarlo) replicaSeed(dists []byte, c *model.Config, r int) [2]uint64 {
	h := splitmix(mc.Seed ^ splitmix(uint64(c.Nodes)))
	for _, b := range dists {
		h = splitmix(h ^ uint64(b))
	}
	h = splitmix(h ^ uint64(r))
	return [2]uint64{h, splitmix(h)}
}

// distributions is the text replicaSeed mixes in for the distributions,
// the same for every replica of the study.
func (mc *MonteCarlo) distributions() []byte {
	b := []byte(mc.Up.String() + mc.Down.String())
	lengths := []model.Lengths{mc.Up, mc.Down}
	if len(mc.Also) > 0 {
		b = append(b, mc.AlsoText(0)...)
		for _, p := range mc.Also {
			lengths = append(lengths, p.Up, p.Down)
		}
	}
	for _, l := range lengths { // an empirical one by its lengths, not only its file's name
		for _, n := range l.Samples {
			b = strconv.AppendInt(append(b, ','), int64(n), 10)
		}
	}
	return b
}

// AlsoText writes the study's further failure processes as the --also
// flag takes them, KIND[@NODES]=UPTIME/DOWNTIME, ;-separated, in the unit
// of t.
func (mc *MonteCarlo) AlsoText(t model.Tick) string {
	var parts []string
	for _, p := range mc.Also {
		kind := p.Failure.String()
		if len(p.Zone) > 0 {
			var nodes []string
			for _, n := range p.Zone {
				nodes = append(nodes, strconv.Itoa(n))
			}
			kind += "@" + strings.Join(nodes, ",")
		}
		parts = append(parts, kind+"="+t.FormatLengths(p.Up)+"/"+t.FormatLengths(p.Down))
	}
	return strings.Join(parts, ";")
}

// splitmix is one step of SplitMix64, a well-mixed hash of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Queues reports whether any configuration of the study has the
// persistent trigger: its queued batches depend on the triggers before
// them, so such a study cannot average over the trigger's phase.
func (mc *MonteCarlo) Queues() bool { return mc.Grid.Values[model.PersistentTrigger].Max() == 1 }

// Run runs the study and calls emit with each configuration's summary, in
// grid order, but for configurations whose settings do not go together
// (model.Config.Validate; Grid.Valid counts them), which it passes over.
// The result does not depend on workers.
func (mc *MonteCarlo) Run(ctx context.Context, workers int, emit func(*Summary) error, progress func(replicas int)) error {
	return mc.run(ctx, workers, 0, mc.Replicas, emit, progress)
}

// run runs replicas from … to-1 of every configuration (with Precision,
// from 0 on, as many as it takes) and calls emit with each configuration's
// summary of them, in grid order.
func (mc *MonteCarlo) run(ctx context.Context, workers, from, to int, emit func(*Summary) error, progress func(replicas int)) error {
	size, err := mc.Grid.Size()
	if err != nil {
		return err
	}
	if mc.PhaseAverage && mc.Queues() {
		return fmt.Errorf("a Monte Carlo study that averages over the trigger's phase needs persistent_trigger false: a queued batch depends on the triggers before it")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	dists := mc.distributions()
	type job struct {
		run         model.Config // the configuration, with its phase period if the study averages over it
		results     []model.Stats
		first, last int // replicas first … last-1, whose results go to results[rep-from]
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var runErr error // the first error of any replica
	for range workers {
		go func() {
			var r model.Runner
			a := model.Alternating{Up: mc.Up, Down: mc.Down, Also: mc.Also, Done: ctx.Done()}
			for j := range jobs {
				for rep := j.first; rep < j.last; rep++ {
					a.Seed = mc.replicaSeed(dists, &j.run, rep)
					r.JitterSeed = [2]uint64{a.Seed[1], a.Seed[0]} // the followers' jitter, apart from the failures
					st, err := r.RunSchedule(j.run, &a)
					if err != nil {
						mu.Lock()
						runErr = cmp.Or(runErr, err)
						mu.Unlock()
					}
					j.results[rep-from] = st
				}
				wg.Done()
			}
		}()
	}
	defer close(jobs)

	const chunk = 16
	var results []model.Stats
	for i := range size {
		c := mc.Grid.Config(i)
		if c.Validate() != nil { // not a configuration (Grid.Valid counts them)
			continue
		}
		run := c
		if mc.PhaseAverage {
			run.Period = c.PhasePeriod()
		}
		var s Summary
		for done, n := from, to; ; {
			results = slices.Grow(results[:done-from], n-done)[:n-from]
			for first := done; first < n; first += chunk {
				wg.Add(1)
				select {
				case jobs <- job{run, results, first, min(first+chunk, n)}:
				case <-ctx.Done():
					wg.Done()
					wg.Wait()
					return ctx.Err()
				}
			}
			wg.Wait()
			if err := cmp.Or(runErr, ctx.Err()); err != nil {
				return err
			}
			if progress != nil {
				progress(n - done)
			}
			s = mc.summarise(c, results)
			if mc.Precision <= 0 || s.Precise || n >= mc.MaxReplicas {
				break
			}
			done, n = n, min(n+mc.Replicas, mc.MaxReplicas)
		}
		if err := emit(&s); err != nil {
			return err
		}
	}
	return nil
}

// summarise tallies the replicas' statistics and summarises them.
func (mc *MonteCarlo) summarise(c model.Config, results []model.Stats) Summary {
	s := Summary{Config: c, Replicas: len(results)}
	for i := range results {
		r := results[i].Values()
		for k, v := range r {
			s.Tallies[k].Add(uint64(v))
		}
		s.Lost.Add(uint64((r[model.Missed]+r[model.Unresolved])*s.Config.BatchLen + r[model.MissedParts]))
		for e, ep := range episodesOf(&results[i]) {
			s.Episodes[e].Add(r[EpisodeStats()[e]], ep)
		}
	}
	mc.Finish(&s)
	return s
}

// Finish computes s's means and intervals from its tallies: per replica,
// and, when RoundsPerYear is set, missed and doubled batches per year, a
// batch that takes time counted by its parts.
func (mc *MonteCarlo) Finish(s *Summary) {
	for k, t := range s.Tallies {
		s.Mean[k], s.CI95[k] = t.Mean(), t.Interval95()
	}
	for e, k := range EpisodeStats() {
		s.CI95[k] = s.Episodes[e].Interval95(s.Tallies[k])
	}
	if mc.RoundsPerYear > 0 { // lost and doubled are counted in parts of batches (model.Config.BatchLen)
		scale := mc.RoundsPerYear / float64(s.Config.Rounds) / float64(s.Config.BatchLen)
		if mc.PhaseAverage {
			scale *= float64(s.Config.PhasePeriod()) / float64(s.Config.Period)
		}
		double := s.Tallies[model.DoubledParts]
		s.MissedPerYear, s.MissedPerYearCI95 = scale*s.Lost.Mean(), s.Lost.Interval95().Scale(scale)
		s.DoublePerYear, s.DoublePerYearCI95 = scale*double.Mean(), double.Interval95().Scale(scale)
	}
	if mc.Precision > 0 {
		s.Precise = true
		for _, f := range mc.Headline(s) {
			s.Precise = s.Precise && mc.Precise(f)
		}
	}
}

// AppendHeader appends the CSV header of a study's summaries. With a
// tick, times are in seconds and named so (model.Tick).
func (mc *MonteCarlo) AppendHeader(b []byte) []byte {
	t := mc.Grid.Tick
	b = t.AppendNames(b, Params()...)
	b = append(b, "uptime,downtime,"...)
	if len(mc.Also) > 0 {
		b = append(b, "also,"...)
	}
	b = append(b, "seed,replicas"...)
	if mc.PhaseAverage {
		b = append(b, ",trigger_every"...)
	}
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		b = fmt.Appendf(b, ",%[1]s_mean,%[1]s_lo95,%[1]s_hi95", t.StatName(s))
	}
	if mc.Precision > 0 {
		b = append(b, ",precision,precision_floor,precise"...)
	}
	if mc.RoundsPerYear > 0 {
		b = append(b, ",rounds_per_year,lines_per_batch"...)
		for _, what := range []string{"missed", "double"} {
			b = fmt.Appendf(b, ",%[1]s_batches_per_year,%[1]s_batches_per_year_lo95,%[1]s_batches_per_year_hi95,%[1]s_lines_per_year,%[1]s_lines_per_year_lo95,%[1]s_lines_per_year_hi95", what)
		}
	}
	return append(b, '\n')
}

// AppendRow appends one summary as a CSV row.
func (mc *MonteCarlo) AppendRow(b []byte, s *Summary) []byte {
	t := mc.Grid.Tick
	for _, p := range Params() {
		b = t.AppendValue(b, p, s.Config.Get(p))
		b = append(b, ',')
	}
	b = fmt.Appendf(b, "%q,%q,", mc.Up.String(), mc.Down.String())
	if len(mc.Also) > 0 {
		b = fmt.Appendf(b, "%q,", mc.AlsoText(0))
	}
	b = fmt.Appendf(b, "%d,%d", mc.Seed, s.Replicas)
	if mc.PhaseAverage {
		b = t.AppendValue(append(b, ','), model.Period, s.Config.PhasePeriod())
	}
	for k := range model.NumStats {
		mean, ci := s.InUnit(t, model.Stat(k))
		for _, v := range []float64{mean, ci.Lo, ci.Hi} {
			b = append(b, ',')
			b = strconv.AppendFloat(b, v, 'f', 6, 64)
		}
	}
	if mc.Precision > 0 {
		b = fmt.Appendf(b, ",%s,%s,%t", strconv.FormatFloat(mc.Precision, 'f', -1, 64), strconv.FormatFloat(mc.Floor, 'f', -1, 64), s.Precise)
	}
	if mc.RoundsPerYear > 0 {
		b = fmt.Appendf(b, ",%s,%s", strconv.FormatFloat(mc.RoundsPerYear, 'f', -1, 64), strconv.FormatFloat(mc.LinesPerBatch, 'f', -1, 64))
		for _, v := range []struct {
			mean float64
			ci   Interval
		}{{s.MissedPerYear, s.MissedPerYearCI95}, {s.DoublePerYear, s.DoublePerYearCI95}} {
			lines := v.ci.Scale(mc.LinesPerBatch)
			b = fmt.Appendf(b, ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", v.mean, v.ci.Lo, v.ci.Hi, v.mean*mc.LinesPerBatch, lines.Lo, lines.Hi)
		}
	}
	return append(b, '\n')
}
