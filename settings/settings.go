// Package settings is client-go's leader election in real time: for one
// set of settings (lease duration, renew deadline, retry period), the
// figures an SRE asks about — when a leader gives up, which API outages it
// survives, how long a takeover takes, how much margin keeps two leaders
// apart — each with its range over the followers' jitter and the phase of
// the fault, and, where OpenShift's library-go publishes a formula for it,
// the formula's value beside it.
//
// The figures follow client-go's code (k8s.io/client-go v0.37,
// tools/leaderelection), not its comments:
//
//   - the leader renews a retry period after its last success
//     (wait.UntilWithContext, sliding) and then retries every retry period
//     (wait.PollUntilContextTimeout) until the renew deadline has passed
//     since that first attempt: it gives up retry period + renew deadline
//     after its last renewal;
//   - a follower polls every retry period stretched by jitter,
//     RP·(1 + U[0, 1.2)) (wait.JitterUntil, sliding), and counts the lease
//     from when it observed the record change, with the record's lease
//     duration truncated to whole seconds;
//   - each renewal attempt is an optimistic update and, if that fails, a
//     read and an update; a call that hangs (a black-hole outage) is cut
//     after max(1 s, renew deadline / 2), the timeout
//     resourcelock.NewFromKubeconfig sets;
//   - a graceful release (ReleaseOnCancel) empties the record, and a
//     follower takes over at its next poll.
//
// Calls that fail take no time and calls that succeed take none either:
// API latency is left out.
package settings

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Settings are client-go's leader-election durations and the number of
// nodes that compete.
type Settings struct {
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	Nodes                                     int // candidates, the leader among them
}

// Validate returns the error client-go's NewLeaderElector gives for these
// durations, or nil; and an error for fewer than 2 nodes, which leave no
// follower to take over.
func (s Settings) Validate() error {
	switch {
	case s.LeaseDuration <= s.RenewDeadline:
		return fmt.Errorf("lease duration %s must be longer than renew deadline %s (client-go: leaseDuration must be greater than renewDeadline)", s.LeaseDuration, s.RenewDeadline)
	case s.RenewDeadline <= time.Duration(model.JitterFactor*float64(s.RetryPeriod)):
		return fmt.Errorf("renew deadline %s must be longer than 1.2 × retry period %s (client-go: renewDeadline must be greater than retryPeriod*JitterFactor)", s.RenewDeadline, s.RetryPeriod)
	case s.RetryPeriod <= 0:
		return fmt.Errorf("retry period %s must be positive", s.RetryPeriod)
	case s.LeaseDuration < time.Second:
		return fmt.Errorf("lease duration %s must be at least 1s: the record holds whole seconds", s.LeaseDuration)
	case s.Nodes < 2 || s.Nodes > 1000:
		return fmt.Errorf("nodes %d: want 2 to 1000, a leader and at least one follower", s.Nodes)
	}
	return nil
}

// RecordLease is the lease followers count: the record's
// LeaseDurationSeconds, the lease duration truncated to whole seconds.
func (s Settings) RecordLease() time.Duration { return s.LeaseDuration.Truncate(time.Second) }

// CallTimeout is how long a call that hangs waits before it fails:
// max(1s, renew deadline / 2), as resourcelock.NewFromKubeconfig sets.
func (s Settings) CallTimeout() time.Duration { return max(time.Second, s.RenewDeadline/2) }

// GiveUp is when a leader that cannot renew stops leading, after its last
// renewal: a retry period, then the renew deadline.
func (s Settings) GiveUp() time.Duration { return s.RetryPeriod + s.RenewDeadline }

// LastCall is the latest moment, after the last renewal, at which the
// leader still starts a call that can renew: the outage must be over by
// then. Calls hang for timeout each (0 for calls that fail at once); an
// attempt is an update and, if it fails, a read; attempts start a retry
// period apart, or when the previous one ends if it ran longer; none starts
// at or after the deadline.
//
// The attempts start a step apart, the retry period or two timeouts if
// longer, from a retry period after the renewal; the last is the latest
// that starts before the deadline, and its read counts if it starts before
// the deadline too.
func (s Settings) LastCall(timeout time.Duration) time.Duration {
	start, deadline := s.RetryPeriod, s.RetryPeriod+s.RenewDeadline
	step := max(s.RetryPeriod, 2*timeout)
	last := start + (s.RenewDeadline-1)/step*step // the last attempt: the latest start + k·step < deadline
	if read := last + timeout; timeout > 0 && read < deadline {
		return read
	}
	return last
}

// Figure is one figure of the settings, in seconds: its range over the
// jitter and the phase of the fault, and the value of library-go's formula
// for it, if there is one.
type Figure struct {
	Metric           string
	Doc              string
	Min, Median, Max float64
	Published        float64 // NaN if library-go publishes no formula
	PublishedFormula string
	ComparedWith     string // "min" or "max": which end the formula claims
}

// Disagrees reports whether library-go's formula gives another value than
// the code for the end it claims, by more than a millisecond.
func (f Figure) Disagrees() bool {
	if math.IsNaN(f.Published) {
		return false
	}
	v := f.Min
	if f.ComparedWith == "max" {
		v = f.Max
	}
	return math.Abs(v-f.Published) > 1e-3
}

// samples is how many draws of the followers' jitter make a median.
const samples = 20001

// Figures returns the figures of s, medians drawn with the seed, or ctx's
// error if ctx ends first. s must be valid. Its work is bounded whatever
// the durations: at most samples × (nodes − 1) × settled gaps of a
// follower's polls (takeover).
func Figures(ctx context.Context, s Settings, seed uint64) ([]Figure, error) {
	sec := func(d time.Duration) float64 { return d.Seconds() }
	rp, rd, lease := sec(s.RetryPeriod), sec(s.RenewDeadline), sec(s.RecordLease())
	nan := math.NaN()
	rng := rand.NewPCG(seed, 0x1ea5e)
	span := func(last time.Duration) (lo, mid, hi float64) { // an outage starting at a uniform phase in (0, RP]
		return sec(last) - rp, sec(last) - rp/2, sec(last)
	}
	fastLo, fastMid, fastHi := span(s.LastCall(0))
	holeLo, holeMid, holeHi := span(s.LastCall(s.CallTimeout()))
	followers := s.Nodes - 1
	crash, err := median(ctx, rng, func(r *rand.PCG) float64 { return takeoverAfterCrash(r, rp, lease, followers) })
	if err != nil {
		return nil, err
	}
	release, err := median(ctx, rng, func(r *rand.PCG) float64 { return firstPoll(r, rp, followers) })
	if err != nil {
		return nil, err
	}
	margin := lease - sec(s.GiveUp())
	return []Figure{
		{Metric: "give_up_after_renewal", Doc: "a leader that cannot renew stops leading this long after its last renewal (retry period + renew deadline)",
			Min: sec(s.GiveUp()), Median: sec(s.GiveUp()), Max: sec(s.GiveUp()), Published: nan},
		{Metric: "fast_fail_outage_survived", Doc: "the longest API outage, its calls failing at once, that the leader rides out; by the phase of the outage after a renewal",
			Min: fastLo, Median: fastMid, Max: fastHi,
			Published: math.Floor(rd/rp)*rp - rp, PublishedFormula: "floor(RD/RP)·RP − RP", ComparedWith: "min"},
		{Metric: "black_hole_outage_survived", Doc: fmt.Sprintf("the same when calls hang until their %s timeout", s.CallTimeout()),
			Min: holeLo, Median: holeMid, Max: holeHi, Published: nan},
		{Metric: "takeover_after_crash", Doc: fmt.Sprintf("from the crashed leader's last renewal to a takeover by the first of %d followers", followers),
			Min: lease, Median: crash, Max: lease + 2*(1+model.JitterFactor)*rp,
			Published: lease + rp, PublishedFormula: "LD + RP", ComparedWith: "max"},
		{Metric: "takeover_after_release", Doc: fmt.Sprintf("from a graceful release to a takeover by the first of %d followers", followers),
			Min: 0, Median: release, Max: (1 + model.JitterFactor) * rp,
			Published: rp, PublishedFormula: "RP", ComparedWith: "max"},
		{Metric: "two_leader_margin", Doc: "the time between the leader giving up and the earliest takeover: a clock-rate skew or a pause of the leader that eats it gives two leaders",
			Min: margin, Median: margin, Max: margin,
			Published: sec(s.LeaseDuration) - rd, PublishedFormula: "LD − RD (\"clock skew tolerance\")", ComparedWith: "min"},
		{Metric: "leader_pause_tolerated", Doc: "the longest stop-the-world pause of the leader after which it cannot act as a second leader, by when in its retry period the pause starts",
			Min: lease - rp, Median: lease - rp/2, Max: lease, Published: nan},
	}, nil
}

// takeoverAfterCrash draws the time from the leader's last renewal to the
// first takeover by one of n followers (takeover).
func takeoverAfterCrash(r *rand.PCG, rp, lease float64, n int) float64 {
	best := math.Inf(1)
	for range n {
		t, _ := takeover(r, rp, lease)
		best = min(best, t)
	}
	return best
}

// settled is the lease, in retry periods, past which a follower's polls
// have forgotten when it observed the renewal: the wait from the lease's
// end to the poll that takes over is then drawn from its limit, the wait
// to the next poll from a moment unrelated to the polls
// (model.PollResidual), instead of poll by poll. It nears the limit
// geometrically, each 4 retry periods about 8 times closer: at 8 the two
// distributions are 0.005 apart at most (Kolmogorov–Smirnov), at 20 about
// 1e-5, some 300 times below the sampling noise of a median of samples
// draws (TestTakeoverSettles). So a lease of a day over a retry period of
// 1 ms is as quick to draw as one of 20 retry periods.
const settled = 20

// takeover draws one follower's time from the leader's last renewal to its
// takeover: it observes the renewal at its first poll after it, then
// takes over at its first poll a lease later. It returns the gaps between
// polls it drew, at most settled.
func takeover(r *rand.PCG, rp, lease float64) (t float64, gaps int) {
	observed := model.PollResidual(r, rp)
	if lease >= settled*rp {
		return observed + lease + model.PollResidual(r, rp), 0
	}
	for t = observed; t < observed+lease; gaps++ {
		t += model.PollGap(r, rp)
	}
	return t, gaps
}

// firstPoll draws the time to the first poll of one of n followers.
func firstPoll(r *rand.PCG, rp float64, n int) float64 {
	best := math.Inf(1)
	for range n {
		best = min(best, model.PollResidual(r, rp))
	}
	return best
}

// median draws samples of draw and returns their median, or ctx's error
// if it ends first.
func median(ctx context.Context, r *rand.PCG, draw func(*rand.PCG) float64) (float64, error) {
	xs := make([]float64, samples)
	for i := range xs {
		if i%256 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		xs[i] = draw(r)
	}
	slices.Sort(xs)
	return xs[samples/2], nil
}
