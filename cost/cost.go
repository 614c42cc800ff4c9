// Package cost turns runs of the round model into yearly projections of
// missed and double-started batches and invoice lines.
//
// Two methods estimate what one outage event costs:
//
//   - Window, the publication's: the share of the run's rounds spent leaderless
//     (or with two leaders) is taken as the chance that the one trigger of
//     an event falls there.
//   - Phase: the model itself is asked. The outage is started at every
//     phase of lcm(period, re-read period), each run long enough for the
//     system to settle (the phases no batch meets stood for by a few: PhaseMethod),
//     and the batches missed and double-started are averaged; a
//     batch that takes time counts by its parts, a part missed or written
//     twice as 1/batch_len of a batch.
//
// Either way, per year = events per year × per event, and lines = batches ×
// lines per batch.
package cost

import (
	"context"
	"fmt"

	"github.com/leasesim/leasesim/model"
)

// Method names a way of estimating the cost of one outage event.
type Method string

// The methods.
const (
	Window Method = "window"
	Phase  Method = "phase"
)

// PerEvent is the expected cost of one outage event, in batches.
type PerEvent struct {
	Missed float64 // batches never started (missed or left queued)
	Double float64 // extra starts of a batch
}

// Projection is the yearly cost of one method at one rate of events.
type Projection struct {
	Method        Method
	EventsPerYear float64
	LinesPerBatch float64
	MissedBatches float64 // per year
	DoubleBatches float64 // per year
}

// MissedLines is the invoice lines per year never produced.
func (p Projection) MissedLines() float64 { return p.MissedBatches * p.LinesPerBatch }

// DoubleLines is the invoice lines per year produced twice.
func (p Projection) DoubleLines() float64 { return p.DoubleBatches * p.LinesPerBatch }

// Project scales the cost of one event to a year of events.
func Project(m Method, e PerEvent, eventsPerYear, linesPerBatch float64) Projection {
	return Projection{
		Method: m, EventsPerYear: eventsPerYear, LinesPerBatch: linesPerBatch,
		MissedBatches: eventsPerYear * e.Missed, DoubleBatches: eventsPerYear * e.Double,
	}
}

// WindowShares is the publication's measure of a run: the share of its rounds
// spent leaderless and with two leaders.
type WindowShares struct {
	Run        model.Stats
	Rounds     int
	Leaderless float64
	TwoLeader  float64
}

// PerEvent is the window method's cost of one event: one trigger, falling
// into the leaderless or two-leader window with the window's share.
func (w WindowShares) PerEvent() PerEvent {
	return PerEvent{Missed: w.Leaderless, Double: w.TwoLeader}
}

// WindowMethod runs c once, its followers' jitter (if any) drawn from
// seed, and measures its window shares. The outage event is c's group
// outage, or if incident is set its failures (c's outage fields their span,
// as incident.Incident.Apply sets them).
func WindowMethod(c model.Config, seed uint64, incident model.Windows) (WindowShares, error) {
	r := model.Runner{JitterSeed: model.JitterSeed(seed)}
	st, err := RunEvent(&r, c, incident)
	if err != nil {
		return WindowShares{}, err
	}
	return WindowShares{
		Run: st, Rounds: c.Rounds,
		Leaderless: float64(st.LeaderlessRounds) / float64(c.Rounds),
		TwoLeader:  float64(st.TwoLeaderRounds) / float64(c.Rounds),
	}, nil
}

// EventEffect is the phase method's mean effect of one outage event
// (not an incident file: see package incident).
type EventEffect struct {
	Phases  int // lcm(period, re-read period): the outage starts tried
	Horizon int // rounds after the outage's start that each run covers

	Missed           float64
	Unresolved       float64
	DoubleStarts     float64
	Partial          float64 // started batches cut mid-run: some part of them no run wrote (model.Stats.PartialBatches)
	Unwritten        float64 // parts of started batches no run wrote, in batches (parts / batch_len)
	Rewritten        float64 // parts written again by a second run, in batches
	DelayedRounds    float64
	LateRounds       float64 // rounds late batches' last parts came after they were due (model.Stats.LateRounds)
	Rejected         float64
	LeaderlessRounds float64
	TwoLeaderRounds  float64
	Handovers        float64
}

// PhaseLosses is what c's outage event costs at each phase of the phase
// method (PhaseMethod, whose figures are their means), the phases that
// cost alike merged, each with its share of the phases: a year of events
// draws from them (SpreadOf).
func PhaseLosses(ctx context.Context, c model.Config, seed uint64, incident model.Windows) ([]Loss, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var losses []Loss
	_, err := phaseRuns(ctx, c, SettleRounds(c), seed, incident, &losses)
	return losses, err
}

// Loss is what one outage event costs at some of its phases: the batches
// it misses (missed and unresolved batches and the unwritten parts of
// cut ones, in batches, as PerEvent counts them) and doubles (parts
// written twice), the rounds it delays batches (their starts and their
// last parts, as Rank.Delay prices them) and its handovers; Share
// is the share of the phases that cost so.
type Loss struct {
	Missed, Double, Delayed, Handovers float64
	Share                              float64
}

// WindowRounds is the mean leaderless plus two-leader rounds per event, the
// publication's decision measure.
func (in EventEffect) WindowRounds() float64 { return in.LeaderlessRounds + in.TwoLeaderRounds }

// PerEvent is the phase method's cost of one event.
func (in EventEffect) PerEvent() PerEvent {
	return PerEvent{Missed: in.Missed + in.Unresolved + in.Unwritten, Double: in.Rewritten}
}

// PhaseMethod averages the incident statistics of c over every phase of
// the outage event: it begins in round period+1+k for k = 0 … Phases(c)-1,
// after one trigger has passed normally, the outage and the lock
// service's failover, if any, keeping their offset (eventSpan). c.Start,
// c.ServiceFailover and c.Rounds place nothing but that offset; each run
// lasts SettleRounds(c) rounds past the event's first round. With jitter, each phase draws its own from seed (phaseSeed), so
// the average is over the followers' jitter as well as the phase, and the
// same seed gives the same figures. It stops with ctx.Err() when ctx is
// cancelled.
//
// Not every phase is run (phasePlan): a phase whose outage no batch meets
// is stood for by one of its retry and re-read cycle, so that a daily
// batch at one-second rounds costs a few thousand runs, not 86,400.
// Without jitter the figures are those of every phase exactly; with it,
// the phases no batch meets are a sample of at most MaxQuietSample.
//
// The outage event is c's group outage, or if incident is set its
// failures, moved to start where the outage would (c's outage fields their
// span, as incident.Incident.Apply sets them).
func PhaseMethod(ctx context.Context, c model.Config, seed uint64, incident model.Windows) (EventEffect, error) {
	if err := c.Validate(); err != nil {
		return EventEffect{}, err
	}
	return phaseMethod(ctx, c, SettleRounds(c), seed, incident)
}

// atPhase is c with its outage event, whose first round is first
// (eventSpan), moved to begin in round period+1+k, and a run lasting
// horizon rounds past it; shift is how far the event moved. The outage and
// the failover keep their offset; an empty outage's start stays a round
// of the run.
func atPhase(c model.Config, first, k, horizon int) (run model.Config, shift int) {
	run, shift = c, c.Period+1+k-first
	run.Start = max(1, c.Start+shift)
	if c.ServiceFailover > 0 {
		run.ServiceFailover += shift
	}
	run.Rounds = c.Period + 1 + k + horizon
	return run, shift
}

// RunEvent runs c with its outage event: its group outage, or incident's
// failures if set.
func RunEvent(r *model.Runner, c model.Config, incident model.Windows) (model.Stats, error) {
	if incident != nil {
		return r.RunSchedule(c, incident)
	}
	return r.Run(c)
}

// phaseSeed is the Runner.JitterSeed of phase k of a study seeded with
// seed: seed's own for phase 0, then one stream a phase.
func phaseSeed(seed uint64, k int) [2]uint64 {
	s := model.JitterSeed(seed)
	s[1] += uint64(k)
	return s
}

// phaseMethod is PhaseMethod with each run lasting horizon rounds past the
// outage's start.
func phaseMethod(ctx context.Context, c model.Config, horizon int, seed uint64, incident model.Windows) (EventEffect, error) {
	return phaseRuns(ctx, c, horizon, seed, incident, nil)
}

// phaseRuns is phaseMethod, also gathering each phase's Loss into losses
// if it is not nil.
func phaseRuns(ctx context.Context, c model.Config, horizon int, seed uint64, incident model.Windows, losses *[]Loss) (EventEffect, error) {
	phases := Phases(c)
	plan, err := phasePlan(c, phases, horizon)
	if err != nil {
		return EventEffect{}, err
	}
	if longest := c.Period + phases + horizon; longest > model.MaxRounds {
		return EventEffect{}, fmt.Errorf("the phase method needs runs of up to %d rounds (period, phases and the rounds to settle), more than the model's %d", longest, model.MaxRounds)
	}
	in := EventEffect{Phases: phases, Horizon: horizon}
	var r model.Runner
	var moved model.Windows // the incident, moved to the phase's start
	first, _ := eventSpan(c)
	seen := map[Loss]int{} // a loss's place in losses, its Share zero
	i := 0
	for k, w := range plan {
		if i%4096 == 0 && ctx.Err() != nil {
			return EventEffect{}, ctx.Err()
		}
		i++
		run, shift := atPhase(c, first, k, horizon)
		if c.Jitter {
			r.JitterSeed = phaseSeed(seed, k)
		}
		if incident != nil {
			moved = append(moved[:0], incident...)
			for i := range moved {
				moved[i].First += shift
				moved[i].Last += shift
			}
		}
		st, err := RunEvent(&r, run, moved)
		if err != nil {
			return EventEffect{}, err
		}
		if c.Protocol.PerFire() { // its slots may cost with no failure: the event's is what its run costs beyond that
			calm := run
			calm.Outage = 0
			base, err := r.RunSchedule(calm, model.Windows{})
			if err != nil {
				return EventEffect{}, err
			}
			st = beyond(st, base)
		}
		in.Missed += w * float64(st.Missed)
		in.Unresolved += w * float64(st.Unresolved)
		in.DoubleStarts += w * float64(st.DoubleStarts)
		in.Partial += w * float64(st.PartialBatches)
		in.Unwritten += w * float64(st.MissedParts) / float64(c.BatchLen)
		in.Rewritten += w * float64(st.DoubledParts) / float64(c.BatchLen)
		in.DelayedRounds += w * float64(st.DelayedRounds)
		in.LateRounds += w * float64(st.LateRounds)
		in.Rejected += w * float64(st.Rejected)
		in.LeaderlessRounds += w * float64(st.LeaderlessRounds)
		in.TwoLeaderRounds += w * float64(st.TwoLeaderRounds)
		in.Handovers += w * float64(st.Handovers)
		if losses == nil {
			continue
		}
		l := Loss{Missed: float64(st.Missed+st.Unresolved) + float64(st.MissedParts)/float64(c.BatchLen), Double: float64(st.DoubledParts) / float64(c.BatchLen),
			Delayed: float64(st.DelayedRounds + st.LateRounds), Handovers: float64(st.Handovers)}
		j, ok := seen[l]
		if !ok {
			j, seen[l] = len(*losses), len(*losses)
			*losses = append(*losses, l)
		}
		(*losses)[j].Share += w
	}
	n := float64(phases)
	if losses != nil {
		for j := range *losses {
			(*losses)[j].Share /= n
		}
	}
	in.Missed /= n
	in.Unresolved /= n
	in.DoubleStarts /= n
	in.Partial /= n
	in.Unwritten /= n
	in.Rewritten /= n
	in.DelayedRounds /= n
	in.LateRounds /= n
	in.Rejected /= n
	in.LeaderlessRounds /= n
	in.TwoLeaderRounds /= n
	in.Handovers /= n
	return in, nil
}

// beyond is what the run st costs beyond the run base of the same
// configuration without its event, statistic by statistic (an event can
// save a cost, too: a node cut off at its fire runs no second run).
func beyond(st, base model.Stats) model.Stats {
	a, b := st.Values(), base.Values()
	var d [model.NumStats]int
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return model.Stats{Started: d[model.Started], Missed: d[model.Missed], Unresolved: d[model.Unresolved], DelayedRounds: d[model.DelayedRounds],
		LateBatches: d[model.LateBatches], LateRounds: d[model.LateRounds], DoubleStarts: d[model.DoubleStarts], Deduplicated: d[model.Deduplicated],
		Skipped: d[model.Skipped], PartialBatches: d[model.PartialBatches], MissedParts: d[model.MissedParts], DoubledParts: d[model.DoubledParts],
		Rejected: d[model.Rejected], TwoLeaderRounds: d[model.TwoLeaderRounds], LeaderlessRounds: d[model.LeaderlessRounds],
		HandoverRounds: d[model.HandoverRounds], Handovers: d[model.Handovers]}
}

// SettleRounds is how many rounds after its outage event begins (the
// outage's first round, or the lock service's failover where that comes
// first: eventSpan) the model of c needs to settle, so that a run that
// long shows every figure the event causes. Once the event is over, the
// timers a node counts from the last renewal before it, or from its
// return, run out one after another, each at most once: the give-up (a
// retry period and the renew deadline; a ZooKeeper disconnect within the
// lease and Curator's LOST a lease later), a hung call's half of the
// deadline, the lease's end on the service's clock or a waiter's
// (DynamoDB's waiters observe a lease more, within acquire calls of a
// lease and the acquire wait), and Consul's lock-delay; twice the lease,
// the retry period and the renew deadline, with the lock-delay and the
// acquire wait, bound them, stretched by a failing node's slow clock
// (Drift). Followers then poll within a retry period (2.2 with client-go's
// jitter, and as late again to observe the last renewal), stale believers
// drop out at their next re-read, queued batches start, and one more
// period covers a clean trigger after that. Where slots wait for a
// running run (Config.Buffers), the late runs then catch up by period −
// batch_len a period; with a batch as long as its period they never do
// (Config.Warnings says so), and a run counts the delays of its rounds
// only. Too long costs little: a run costs per event, not per round.
func SettleRounds(c model.Config) int {
	first, last := eventSpan(c)
	timers := 2*(c.Lease+c.RetryPeriod+c.RenewDeadline) + c.LockDelay + c.AcquireWait
	if c.Drift < 0 { // a slow clock counts each round as 1 + Drift/1000 of one
		timers = (timers*1000 + 999 + c.Drift) / (1000 + c.Drift)
	}
	n := last - first + 1 + timers + 5*c.RetryPeriod + c.RereadPeriod + c.Period
	if c.Buffers() && c.BatchLen < c.Period { // the backlog drains by period − batch_len a period
		n += (n + c.BatchLen) * c.Period / (c.Period - c.BatchLen)
	}
	return n
}

// eventSpan is the first and last round of c's outage event: the group
// outage (an incident's span, as incident.Incident.Apply sets it) and the
// lock service's failover, if any. With neither, the span is empty: last
// is first − 1.
func eventSpan(c model.Config) (first, last int) {
	first, last = c.Start, c.Start+c.Outage-1
	if c.Outage == 0 || c.Down == 0 {
		last = first - 1
	}
	if f := c.ServiceFailover; f > 0 {
		if last < first {
			return f, f
		}
		first, last = min(first, f), max(last, f)
	}
	return first, last
}

// lcm of two valid periods; at most MaxRounds², which fits an int64.
func lcm(a, b int) int { return a / gcd(a, b) * b }

// Projections projects each method's cost of one event, perEvent[method],
// at each rate of events a year, rate outermost.
func Projections(methods []Method, perEvent map[Method]PerEvent, eventsPerYear []float64, linesPerBatch float64) []Projection {
	var ps []Projection
	for _, rate := range eventsPerYear {
		for _, m := range methods {
			ps = append(ps, Project(m, perEvent[m], rate, linesPerBatch))
		}
	}
	return ps
}

// FailoverIdle reports whether c's lock service fails over where it can
// change nothing: with no outage, or before the last renewal ahead of
// the outage (a retry period before it) or once the outage has settled
// (SettleRounds of c without the failover), while every lease is renewed
// on time and one counted afresh ends no later than it would have. The
// phase method moves the failover with the outage, so only this offset
// decides. Commands warn of it, as a figure it cannot move is no answer.
func FailoverIdle(c model.Config) bool {
	f := c.ServiceFailover
	if f == 0 {
		return false
	}
	c.ServiceFailover = 0
	return c.Outage == 0 || c.Down == 0 || f < c.Start-c.RetryPeriod || f >= c.Start+SettleRounds(c)
}
