package main

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestLockPresetsAgreeWithSettings: for each lock the round model runs by
// its own protocol, at its defaults and with other options, what the
// model does with the preset's settings (presetLock, settings.Preset.Values) falls
// within settings' min … max for the same lock, widened by a tick each
// way (the model counts whole rounds; settings counts the libraries'
// loops): the takeover after the leader crashes and after it releases,
// the give-up after the last renewal with its calls failing at once, the
// longest outage survived with its calls failing at once and hanging
// (longestSurvived), and
// the two-leader margin (the takeover less the give-up) with its calls
// hanging (no bound for Consul, whose holder believes until its calls
// answer: then it must not give up within the outage). The leader goes
// down 1, 2, half a retry period, a retry period less one and a retry
// period of rounds after its last renewal, for an outage of four leases
// and the lock-delay, long enough for all of it to happen within it. It
// needs the engine to run the protocols (docs/model.md, Lock protocols):
// under client-go's rounds nobody gives up without a renew deadline, and
// the takeovers wait for the followers' polls.
func TestLockPresetsAgreeWithSettings(t *testing.T) {
	t.Parallel()
	s := time.Second
	locks := []struct {
		name string
		lock settings.Lock
	}{
		{"etcd", settings.EtcdDefaults()},
		{"etcd", settings.Etcd{SessionTTL: 9 * s, Nodes: 3}},
		{"consul", settings.ConsulDefaults()},
		{"consul", settings.Consul{SessionTTL: 10 * s, LockDelay: 12 * s, Nodes: 3}},
		{"consul", settings.Consul{SessionTTL: 11 * s, LockDelay: 0, Nodes: 3}},
		{"zookeeper", settings.CuratorDefaults()},
		{"zookeeper", settings.Curator{SessionTimeout: 30 * s, TickTime: 2 * s, Policy: settings.StandardPolicy, Nodes: 3}},
		{"zookeeper", settings.Curator{SessionTimeout: 30 * s, TickTime: 2 * s, Policy: settings.SessionPolicy, Nodes: 3}},
		{"zookeeper", settings.Curator{SessionTimeout: 60 * s, TickTime: 2 * s, Policy: settings.SessionPolicy, Nodes: 3}},
		{"dynamodb", settings.DynamoDBDefaults()},
		{"dynamodb", settings.DynamoDB{LeaseDuration: 10 * s, HeartbeatPeriod: 3 * s, RefreshPeriod: s, AdditionalWait: 0, Nodes: 3}},
		{"dynamodb", settings.DynamoDB{LeaseDuration: 30 * s, HeartbeatPeriod: 10 * s, RefreshPeriod: 2 * s, AdditionalWait: 4 * s, Nodes: 3}},
	}
	for _, l := range locks {
		t.Run(l.lock.Title(), func(t *testing.T) {
			t.Parallel()
			r, ok := settings.RoundLockOf(l.lock)
			if !ok {
				t.Fatalf("no round lock")
			}
			tick := model.Tick(r.Tick())
			vals, err := settings.Preset{Name: l.name, Lock: l.lock}.Values(r, tick)
			if err != nil {
				t.Fatal(err)
			}
			base := model.Default()
			for p, v := range vals {
				base.Set(p, v)
			}
			base.Nodes, base.Down, base.DownFrom = 3, 1, 0
			lease, retry := base.Lease, base.RetryPeriod
			base.Outage = 4*lease + base.LockDelay
			base.Period = model.MaxRounds / 2 // no batch: the runs are about the lock
			figures := map[string]settings.Figure{}
			for _, f := range l.lock.Figures() {
				figures[f.Metric] = f
			}
			sec := tick.Seconds(1)
			seen := map[string][2]float64{} // the least and greatest measured, by metric
			within := func(what string, rounds int, f settings.Figure) {
				t.Helper()
				got := float64(rounds) * sec
				m, ok := seen[f.Metric]
				if !ok {
					m = [2]float64{got, got}
				}
				seen[f.Metric] = [2]float64{min(m[0], got), max(m[1], got)}
				if got < f.Min-sec-1e-9 || got > f.Max+sec+1e-9 {
					t.Errorf("%s: %s %gs, want %gs … %gs (settings' %s, a tick either way)", what, f.Metric, got, f.Min, f.Max, f.Metric)
				}
			}
			phases := []int{1, 2, retry / 2, retry - 1, retry}
			slices.Sort(phases)
			for _, ph := range slices.Compact(phases) {
				if ph < 1 {
					continue
				}
				// The leader renews every retry period from round 0, and is
				// down from round start, ph rounds after its last renewal.
				start, last := 2*retry+ph, 2*retry
				run := func(kind string) (takeover, giveUp int) {
					c := base
					c.Start = start
					c.Rounds = start + c.Outage + lease + c.LockDelay
					switch kind {
					case "crash":
						c.Crash = true
					case "release":
						c.Release = true
					case "hang":
						c.BlackHole = true
					}
					takeover, giveUp = -1, -1
					var runner model.Runner
					if _, err := runner.Trace(c, c.Schedule(), start, c.Rounds, func(v *model.RoundView) {
						if v.Handover && takeover < 0 {
							takeover = v.Round
						}
						if _, believes := v.Belief(0); !believes && giveUp < 0 {
							giveUp = v.Round
						}
					}); err != nil {
						t.Fatalf("%s: %v", kind, err)
					}
					if takeover < 0 {
						t.Fatalf("phase %d, %s: no takeover in %d rounds", ph, kind, c.Rounds)
					}
					return takeover, giveUp
				}
				at := fmt.Sprintf("down %d rounds after the last renewal", start-last)
				crash, _ := run("crash")
				within(at+", crashed", crash-last, figures["takeover_after_crash"])
				release, _ := run("release")
				within(at+", released", release-start, figures["takeover_after_release"])
				_, giveUp := run("fail")
				if giveUp < 0 {
					t.Errorf("%s, calls failing: the holder never gave up", at)
				} else {
					within(at+", calls failing", giveUp-last, figures["give_up_after_renewal"])
				}
				within(at+", calls failing", longestSurvived(t, base, start, false), figures["fast_fail_outage_survived"])
				within(at+", calls hanging", longestSurvived(t, base, start, true), figures["black_hole_outage_survived"])
				takeover, hungGiveUp := run("hang")
				// settings' margin is to the earliest takeover; where the
				// takeover spreads over the waiters' phase (DynamoDB's acquire
				// calls, which the model begins in round 1), so does the
				// margin the model measures at its one phase.
				margin, spread := figures["two_leader_margin"], figures["takeover_after_crash"]
				margin.Max += spread.Max - spread.Min
				switch {
				case math.IsInf(margin.Max, -1): // it gives up only when its calls answer, as the outage ends
					if hungGiveUp >= 0 && hungGiveUp < start+base.Outage {
						t.Errorf("%s, calls hanging: gave up in round %d, within the outage (%d … %d), want no bound", at, hungGiveUp, start, start+base.Outage-1)
					} else if ph == 1 {
						t.Logf("%s: two_leader_margin: no bound: the holder, its calls hanging, believed for the whole outage, %gs, beside its successor from %gs after its last renewal", l.lock.Title(), float64(base.Outage)*sec, float64(takeover-last)*sec)
					}
				case hungGiveUp < 0:
					t.Errorf("%s, calls hanging: the holder never gave up", at)
				default:
					within(at+", calls hanging", takeover-hungGiveUp, margin)
				}
			}
			for _, m := range []string{"takeover_after_crash", "takeover_after_release", "give_up_after_renewal", "fast_fail_outage_survived", "black_hole_outage_survived", "two_leader_margin"} {
				if got, ok := seen[m]; ok {
					t.Logf("%s: %s: the model %g … %gs, settings %g … %gs", l.lock.Title(), m, got[0], got[1], figures[m].Min, figures[m].Max)
				}
			}
		})
	}
}

// longestSurvived is the longest outage of base's failing zone from round
// start, its calls hanging or failing at once, after which nobody has
// taken over: the run lasts long enough for a takeover to come, and a
// longer outage survived only if every shorter one is, so a bisection
// over 0 … four leases finds it.
func longestSurvived(t *testing.T, base model.Config, start int, hang bool) int {
	t.Helper()
	survives := func(outage int) bool {
		c := base
		c.Start, c.Outage, c.BlackHole = start, outage, hang
		c.Rounds = start + outage + 3*c.Lease + c.LockDelay + c.AcquireWait
		st, err := model.Run(c)
		if err != nil {
			t.Fatalf("outage %d: %v", outage, err)
		}
		return st.Handovers == 0
	}
	lo, hi := 0, 4*base.Lease // lo survived; hi not, or the bound
	for lo+1 < hi {
		if mid := (lo + hi) / 2; survives(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
