package study_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
)

// fencedLockReview is a priced review, at 1 s rounds, of 3 fenced nodes
// running a lock preset's settings: a batch every 5 minutes, outages of
// outage seconds, 12 a year; edit changes the options before the review.
func fencedLockReview(t *testing.T, preset string, outage int, edit func(*study.ReviewOptions, *model.Config)) *study.Review {
	t.Helper()
	p, err := settings.PresetByName(preset)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := p.Round()
	if !ok {
		t.Fatalf("%s: not a lock of its own", preset)
	}
	c := model.Default()
	c.RereadPeriod = 0
	c.Protocol, c.Lease, c.RetryPeriod = r.Protocol, int(r.Lease/time.Second), int(r.RetryPeriod/time.Second)
	c.LockDelay, c.AcquireWait = int(r.LockDelay/time.Second), int(r.AcquireWait/time.Second)
	c.Nodes, c.Period, c.Outage, c.Start, c.Rounds, c.Fencing = 3, 300, outage, 301, 1500, true
	opt := study.DefaultReviewOptions(c)
	opt.Tick = model.Tick(time.Second)
	opt.RoundsPerYear, opt.Replicas = opt.Tick.RoundsPerYear(), 2
	opt.Mix = []cost.MixEntry{{Outage: outage, Weight: 1}}
	opt.Weights = cost.Weights{MissedLine: 1, DoubleLine: 5, Handover: 1}
	if edit != nil {
		edit(&opt, &c)
	}
	opt.Up, opt.Down = study.DeploymentFailures(c, opt)
	rv, err := study.NewReview(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// TestHungCalls: a review that leaves black_hole unset prices its
// decision again with hung calls, over the same outages, among the
// current settings, the recommended ones and those nearest it in cost.
// An etcd election cut off for 20 s gives up at its session's expiry
// however its calls fail: the decision, a 15 s session, holds, 806.0
// a year against 1,600.0 for the current 60 s. A Consul lock's holder
// gives up at its first failed call but never while a call hangs: with
// calls failing a lease of 10 s costs 1,686.0 a year against the
// current 30 s's 3,286.0, but with calls hanging the current settings
// ride the 20 s out, 1,600.0 a year, and the decision flips to keeping
// them. Pinned (black_hole given, or black-hole failures in the mix), or
// with failures that make no calls (pauses), nothing is priced again.
func TestHungCalls(t *testing.T) {
	for _, tt := range []struct {
		name    string
		preset  string
		edit    func(*study.ReviewOptions, *model.Config)
		mode    study.CallMode
		flips   bool
		topWas  int     // the recommended lease with calls failing, in rounds
		topNow  int     // with calls hanging
		keepNow bool    // the decision with calls hanging keeps the current settings
		curWas  float64 // the current settings' cost a year with calls failing
		curNow  float64 // with calls hanging
		costNow float64 // the decision's top with calls hanging
	}{
		{name: "etcd holds", preset: "etcd", mode: study.CallsPriced, topWas: 15, topNow: 15, curWas: 1600, curNow: 1600, costNow: 806},
		{name: "consul flips", preset: "consul", mode: study.CallsPriced, flips: true, topWas: 10, topNow: 30, keepNow: true, curWas: 3286, curNow: 1600, costNow: 1600},
		{name: "pinned", preset: "consul", mode: study.CallsPinned, edit: func(o *study.ReviewOptions, _ *model.Config) { o.BlackHoleGiven = true }},
		{name: "pauses", preset: "consul", mode: study.CallsUnmade, edit: func(_ *study.ReviewOptions, c *model.Config) { c.Pause = true }},
		{name: "black-hole failures", preset: "consul", mode: study.CallsPinned, edit: func(o *study.ReviewOptions, _ *model.Config) {
			o.Mix[0].Kind, o.Mix[0].Scope = model.BlackHoled, cost.ScopeLeader
		}},
		{name: "paused failures", preset: "consul", mode: study.CallsUnmade, edit: func(o *study.ReviewOptions, _ *model.Config) {
			o.Mix[0].Kind, o.Mix[0].Scope = model.Paused, cost.ScopeLeader
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rv := fencedLockReview(t, tt.preset, 20, tt.edit)
			if got := rv.CallMode(); got != tt.mode {
				t.Fatalf("call mode %d, want %d", got, tt.mode)
			}
			h := rv.HungCalls
			if tt.mode != study.CallsPriced {
				if h != nil {
					t.Errorf("priced again with hung calls: %+v", h)
				}
				return
			}
			was, _ := rv.Decide(rv.Recommendation)
			cur := h.Current(rv.Current().Candidate)
			now := h.Decision
			if was.Top.Lease != tt.topWas || now.Top.Lease != tt.topNow || now.Keep != tt.keepNow || (was.Top.Candidate != now.Top.Candidate) != tt.flips {
				t.Errorf("top %+v, with hung calls %+v (keep %t); want leases %d then %d, keep %t", was.Top.Candidate, now.Top.Candidate, now.Keep, tt.topWas, tt.topNow, tt.keepNow)
			}
			for _, f := range []struct {
				what      string
				got, want float64
			}{{"current, calls failing", rv.Current().Cost(rv.Weights), tt.curWas}, {"current, calls hanging", cur.Cost(rv.Weights), tt.curNow}, {"top, calls hanging", now.Top.Cost(rv.Weights), tt.costNow}} {
				if math.Abs(f.got-f.want) > 0.05 {
					t.Errorf("%s: %.2f a year, want %.1f", f.what, f.got, f.want)
				}
			}
			// At most HungCallCandidates, the current and recommended
			// among them, each priced as cost.Recommend prices it with
			// black_hole on.
			var ks []cost.Candidate
			for _, r := range h.Ranks {
				ks = append(ks, r.Candidate)
			}
			if len(ks) != study.HungCallCandidates || !slices.Contains(ks, rv.Current().Candidate) || !slices.Contains(ks, was.Top.Candidate) {
				t.Errorf("priced again %v", ks)
			}
			base := rv.Base
			base.BlackHole = true
			want, err := cost.Recommend(context.Background(), base, rv.Seed, ks, rv.Mix, rv.EventsPerYear[0], float64(rv.LinesPerBatch))
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range want {
				if got := h.Ranks[i]; got.MissedLines != r.MissedLines || got.DoubleLines != r.DoubleLines || got.Handovers != r.Handovers {
					t.Errorf("%+v with hung calls: %+v, want %+v", r.Candidate, got, r)
				}
			}
		})
	}
}
