package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWatchHungPolls: a follower's polls while its calls hang, worked by
// hand. Lease 10, renew deadline 6 (a call hangs 3), retry period 2; node
// 1 polls at 1.5 (or, observed already at 0.5, at 10 or 11) while cut off,
// and gap is the first jittered wait the watch draws. Black-holed, its
// call hangs to 4.5, whenever it is back, and it polls next at 4.5 + gap;
// to a slow API, its call is answered as it is back in round 4 (at time
// 3, round 4's start: it observes then) or, still cut off, times out at
// 4.5; an answer takes over only if the lease had run out when the call
// was sent (10 + gap no, 11 yes, answered in round 13).
func TestWatchHungPolls(t *testing.T) {
	at3 := math.Nextafter(3, math.Inf(1))
	var g rand.PCG
	g.Seed(7, 9)
	gap := PollGap(&g, 2)
	tests := []struct {
		name     string
		kind     Kind
		sent     float64 // node 1's poll, observed at 0.5 if over 5
		back     int     // the round node 1 is back, 0 for never
		rounds   []int   // the rounds the watch runs
		next     float64 // node 1's next poll after them
		observed float64
		took     bool // node 1 takes over in the last round
	}{
		{"black-holed, back in round 4", BlackHoled, 1.5, 4, []int{2, 4}, 4.5 + gap, -1, false},
		{"isolated, back in round 4", Isolated, 1.5, 4, []int{2, 4}, 1.5 + gap, -1, false},
		{"slow, back in round 4", Slowed, 1.5, 4, []int{2, 4}, at3 + gap, at3, false},
		{"slow, still cut off", Slowed, 1.5, 0, []int{2, 5}, 4.5 + gap, -1, false},
		{"slow, sent before the lease ran out", Slowed, 10, 13, []int{10, 13}, 12 + gap, 0.5, false}, // its timeout, 13, in the round too,
		{"slow, sent after", Slowed, 11, 13, []int{11, 13}, 12 + gap, 0.5, true},
	}
	for _, tt := range tests {
		var x state
		x.c = Config{Policy: Policy{Nodes: 2, Lease: 10, RenewDeadline: 6, RetryPeriod: 2, Period: 100, BatchLen: 1, Jitter: true}, Scenario: Scenario{Rounds: 100}}
		x.reach.reset(2)
		k := readKinds()
		x.reach.failAs(&k, x.c.toggles())
		x.reach.Fail(0, Failure{Kind: Isolated})
		x.reach.Fail(1, Failure{Kind: tt.kind})
		x.watching = true
		x.polls = []poll{newPoll(math.Inf(1)), newPoll(tt.sent)}
		if tt.sent > 5 {
			x.polls[1].observed = 0.5
		}
		x.seed([2]uint64{7, 9})
		took := -1
		for _, r := range tt.rounds {
			if r == tt.back {
				x.reach.SetReachable(1, true)
			}
			took = x.watch(r)
		}
		p := x.polls[1]
		if math.Abs(p.next-tt.next) > 1e-9 || p.observed != tt.observed || (took == 1) != tt.took {
			t.Errorf("%s: next poll %v, observed %v, took over %t; want %v, %v, %t", tt.name, p.next, p.observed, took == 1, tt.next, tt.observed, tt.took)
		}
	}
}
