package study_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
)

// lockConfig is a lock's settings as the round model runs them
// (settings.RoundLockOf), on nodes nodes, at the lock's own tick.
func lockConfig(t *testing.T, lock settings.Lock, nodes int) (model.Config, model.Tick) {
	t.Helper()
	r, ok := settings.RoundLockOf(lock)
	if !ok {
		t.Fatalf("%s: no round lock", lock.Title())
	}
	tick := r.Tick()
	c := model.Default()
	c.Protocol, c.Nodes, c.RereadPeriod, c.Jitter = r.Protocol, nodes, 0, false
	c.Lease, c.RetryPeriod, c.LockDelay, c.AcquireWait = int(r.Lease/tick), int(r.RetryPeriod/tick), int(r.LockDelay/tick), int(r.AcquireWait/tick)
	return c, model.Tick(tick)
}

// TestSafetyOfEachLock: a candidate's safety figures are its library's
// (settings' Figures, not computed again): every lock's defaults, read
// back from the round model's times, give the figures "leasesim settings
// --preset P" prints; the skew tolerated is the margin over the give-up
// it follows; a lock without margin is NoMargin unless fenced or alone.
func TestSafetyOfEachLock(t *testing.T) {
	session := settings.CuratorDefaults()
	session.Policy = settings.SessionPolicy
	for _, tt := range []struct {
		lock     settings.Lock
		margin   float64 // least, s
		crash    [3]float64
		noMargin bool
	}{
		{settings.EtcdDefaults(), -1, [3]float64{60, 60.25, 60.5}, true},
		{settings.ConsulDefaults(), math.Inf(-1), [3]float64{45, 45, 45}, true},
		{settings.DynamoDBDefaults(), 0, [3]float64{20, 25.151, 40}, true},
		{settings.CuratorDefaults(), 13.234, [3]float64{40, 41, 42}, false},
		{session, -26.766, [3]float64{40, 41, 42}, true},
	} {
		c, tick := lockConfig(t, tt.lock, 3)
		s, err := study.SafetyOf(context.Background(), c, tick, 1)
		want := tt.lock.Figures()
		if err != nil || !s.Known || s.Margin.Min != want[5].Min || s.Crash.Min != want[3].Min || s.Crash.Max != want[3].Max || s.BlackHole.Max != want[2].Max || s.FastFail.Max != want[1].Max {
			t.Errorf("%s: SafetyOf = %+v, %v; want the lock's figures %+v", tt.lock.Title(), s, err, want)
		}
		if math.Abs(s.Margin.Min-tt.margin) > 1e-3 || math.Abs(s.Crash.Median-tt.crash[1]) > 1e-3 {
			t.Errorf("%s: margin %g, crash takeover median %g; want %g, %g", tt.lock.Title(), s.Margin.Min, s.Crash.Median, tt.margin, tt.crash[1])
		}
		if got := study.NoMargin(c, s); got != tt.noMargin {
			t.Errorf("%s: NoMargin %t, want %t", tt.lock.Title(), got, tt.noMargin)
		}
		c.Fencing = true
		if study.NoMargin(c, s) {
			t.Errorf("%s: fenced, yet NoMargin", tt.lock.Title())
		}
		c.Fencing, c.Nodes = false, 1
		if s, _ := study.SafetyOf(context.Background(), c, tick, 1); study.NoMargin(c, s) || !s.OneNode {
			t.Errorf("%s: one node, yet NoMargin (or not OneNode: %+v)", tt.lock.Title(), s)
		}
	}

	// client-go: the kubernetes preset, 3 s of margin over a 12 s give-up.
	c := model.Default()
	c.Lease, c.RenewDeadline, c.RetryPeriod, c.RereadPeriod, c.Jitter, c.Nodes = 15, 10, 2, 0, true, 3
	s, err := study.SafetyOf(context.Background(), c, model.Tick(time.Second), 1)
	if err != nil || s.Margin.Min != 3 || s.Skew != 0.25 || s.GiveUp.Max != 12 || s.Crash.Min != 15 || s.FastFail.Min != 8 || s.BlackHole.Min != 5 {
		t.Errorf("kubernetes: SafetyOf = %+v, %v; want margin 3, skew 25%%, give-up 12, crash from 15, outages from 8 and 5", s, err)
	}
	c.Lease = 12 // margin 0
	if s, _ := study.SafetyOf(context.Background(), c, model.Tick(time.Second), 1); !study.NoMargin(c, s) || s.Skew != 0 {
		t.Errorf("12s/10s/2s: NoMargin false or skew %g: %+v", s.Skew, s)
	}
	// The publication's round model: no library, no figures.
	if s, _ := study.SafetyOf(context.Background(), model.Default(), 0, 1); s.Known {
		t.Errorf("the round model: figures %+v", s)
	}
}
