package model

import (
	"math"
	"math/rand/v2"
)

// JitterFactor is client-go's leaderelection.JitterFactor: a follower
// waits RP·(1 + U[0, JitterFactor)) between polls of the record.
const JitterFactor = 1.2

// JitterSeed is the Runner.JitterSeed of a command's --seed: seed 0 is the
// zero JitterSeed, which every command without --seed uses.
func JitterSeed(seed uint64) [2]uint64 { return [2]uint64{seed, 0} }

// PollGap draws a follower's wait between two polls, RP·(1 + U[0, 1.2)),
// in the unit of rp.
func PollGap(src *rand.PCG, rp float64) float64 { return rp * (1 + JitterFactor*uniform(src)) }

// PollResidual draws the wait from a moment unrelated to a follower's
// polls to its next poll: a point uniform within a gap drawn in proportion
// to its length (the length-biased gap of a renewal process), so that a
// long gap is as likely to hold the moment as its length says. Its mean is
// E[G²] / 2E[G] = 0.8375·RP.
func PollResidual(src *rand.PCG, rp float64) float64 {
	lo, hi := rp, (1+JitterFactor)*rp
	length := math.Sqrt(lo*lo + uniform(src)*(hi*hi-lo*lo)) // density ∝ length on [lo, hi)
	return uniform(src) * length
}

// uniform draws U[0, 1) as rand.Rand.Float64 does, from the source's next
// 53 bits, but from the PCG itself rather than through the Source
// interface a rand.Rand calls: the same numbers (TestUniformIsFloat64),
// without a dynamic call on every poll of a jittered follower.
func uniform(src *rand.PCG) float64 { return float64(src.Uint64()<<11>>11) / (1 << 53) }

// poll is a follower's polling while the record goes unrenewed: the time
// of its next poll, the round it falls in, and the time it observed the
// last renewal, -1 before it has, in rounds as real numbers (round t ends
// at time t). While hung, next is instead the timeout of its call to a
// slow API, sent at time sent, which the API answers if the node is back
// first.
type poll struct {
	next     float64
	round    int // pollRound(next), kept as the watch compares it with rounds at every poll
	observed float64
	hung     bool
	sent     float64
}

// newPoll is a poll whose next is at time τ and that has not yet observed
// the last renewal.
func newPoll(tau float64) poll { return poll{next: tau, round: pollRound(tau), observed: -1} }

// at moves the poll's next to time τ.
func (p *poll) at(tau float64) { p.next, p.round = tau, pollRound(tau) }

// pollRound is the round in which a poll at time τ falls: round t covers
// (t-1, t].
func pollRound(tau float64) int { return int(math.Ceil(tau)) }
