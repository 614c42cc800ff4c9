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
func PollGap(r *rand.Rand, rp float64) float64 { return rp * (1 + JitterFactor*r.Float64()) }

// PollResidual draws the wait from a moment unrelated to a follower's
// polls to its next poll: a point uniform within a gap drawn in proportion
// to its length (the length-biased gap of a renewal process), so that a
// long gap is as likely to hold the moment as its length says. Its mean is
// E[G²] / 2E[G] = 0.8375·RP.
func PollResidual(r *rand.Rand, rp float64) float64 {
	lo, hi := rp, (1+JitterFactor)*rp
	length := math.Sqrt(lo*lo + r.Float64()*(hi*hi-lo*lo)) // density ∝ length on [lo, hi)
	return r.Float64() * length
}

// poll is a follower's polling while the record goes unrenewed: the time
// of its next poll and the time it observed the last renewal, -1 before
// it has, in rounds as real numbers (round t ends at time t).
type poll struct {
	next, observed float64
}

// pollRound is the round in which a poll at time τ falls: round t covers
// (t-1, t].
func pollRound(tau float64) int { return int(math.Ceil(tau)) }
