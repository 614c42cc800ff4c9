package study

import (
	"context"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// The settings figures a candidate's safety is read from, in the order
// settings.Figures and every settings.Lock give them.
const (
	figGiveUp = iota
	figFastFail
	figBlackHole
	figCrash
	figRelease
	figMargin
)

// LockOf is the library's settings that a candidate's configuration c
// runs, t long a round (a second without a tick): client-go's durations,
// or, under a lock protocol of its own, its Lock read back from the
// model's times (settings.RoundLockOf's inverse). The lock is set by the
// option that sets the lease (etcd's and Consul's session TTL, Curator's
// negotiated session timeout, DynamoDB's lease duration), with its own
// renewal, whatever retry period the candidate has. Curator's server
// tickTime is its default, 2 s, or what the session timeout needs to be
// negotiated as it is (2 to 20 ticks); DynamoDB's refresh period is the
// round. At least two nodes compete: the figures of one node are those a
// follower would meet. ok is false for the publication's round model
// (client-go without a renew deadline), which no library sets.
func LockOf(c model.Config, t model.Tick) (lock settings.Lock, cg settings.Settings, ok bool) {
	if t == 0 {
		t = model.Tick(time.Second)
	}
	d := func(n int) time.Duration { return time.Duration(n) * time.Duration(t) }
	nodes := max(2, c.Nodes)
	if c.Protocol == model.ProtocolClientGo {
		if c.RenewDeadline == 0 {
			return nil, settings.Settings{}, false
		}
		return nil, settings.Settings{LeaseDuration: d(c.Lease), RenewDeadline: d(c.RenewDeadline), RetryPeriod: d(c.RetryPeriod), Nodes: nodes}, true
	}
	if row, ok := settings.LockRowFor(c.Protocol); ok {
		return row.FromConfig(c, d, nodes), settings.Settings{}, true
	}
	return nil, settings.Settings{}, false
}

// SafetyOf is the safety figures of configuration c, t long a round,
// from its library's settings (LockOf): in seconds with a tick, in rounds
// without one. client-go's medians are drawn from seed.
func SafetyOf(ctx context.Context, c model.Config, t model.Tick, seed uint64) (cost.Safety, error) {
	lock, cg, ok := LockOf(c, t)
	if !ok {
		return cost.Safety{}, nil
	}
	var fs []settings.Figure
	if lock != nil {
		fs = lock.Figures()
	} else {
		var err error
		if fs, err = settings.Figures(ctx, cg, seed); err != nil {
			return cost.Safety{}, err
		}
	}
	span := func(i int) cost.Span { return cost.Span{Min: fs[i].Min, Median: fs[i].Median, Max: fs[i].Max} }
	s := cost.Safety{Known: true, OneNode: c.Nodes == 1, GiveUp: span(figGiveUp), FastFail: span(figFastFail), BlackHole: span(figBlackHole),
		Crash: span(figCrash), Margin: span(figMargin)}
	if s.Margin.Min > 0 && s.Crash.Min > s.Margin.Min {
		s.Skew = s.Margin.Min / (s.Crash.Min - s.Margin.Min) // as "leasesim settings" gives it
	}
	return s, nil
}

// NoMargin reports whether candidate configuration c can have two leaders
// write by its lock's own figures: a follower to take over, a least
// two-leader margin not above zero, and no fencing. Without figures (the
// publication's round model) it is model.Config.NoMargin.
func NoMargin(c model.Config, s cost.Safety) bool {
	if !s.Known {
		return c.NoMargin()
	}
	return !s.OneNode && !c.Fencing && !(s.Margin.Min > 0)
}
