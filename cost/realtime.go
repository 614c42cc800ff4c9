package cost

import "github.com/leasesim/leasesim/model"

// RealTimeRun is how a run in real time (a tick given) follows its
// batch's period, as it does in rounds, where the defaults are start =
// period and four periods a run: the outage's start at the period where
// start is not given, and a run of four periods, or as long as the
// outage and its handover need (SettleRounds), where rounds is not. It
// returns nil when both were given, and otherwise names what it derives
// ("start,rounds", "start" or "rounds"), for a grid's fingerprint
// (sweep.Grid.Derive, DeriveName).
func RealTimeRun(startGiven, roundsGiven bool) (derive func(*model.Config), name string) {
	start, rounds := !startGiven, !roundsGiven
	switch {
	case start && rounds:
		name = "start,rounds"
	case start:
		name = "start"
	case rounds:
		name = "rounds"
	default:
		return nil, ""
	}
	return func(c *model.Config) {
		if start {
			c.Start = c.Period
		}
		if rounds {
			c.Rounds = min(model.MaxRounds, max(4*c.Period, c.Start-1+SettleRounds(*c)))
		}
	}, name
}
