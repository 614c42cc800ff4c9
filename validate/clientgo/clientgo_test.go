package clientgo

import (
	"flag"
	"io"
	"math"
	"os"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/settings"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for flag, value := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "stderrthreshold": "FATAL", "v": "0"} {
		if err := fs.Set(flag, value); err != nil {
			panic(err)
		}
	}
	klog.SetOutput(io.Discard)
	if url := os.Getenv(pausedNodeEnv); url != "" { // TestPause's node 0
		runPausedNode(url)
	}
	os.Exit(m.Run())
}

// cases are the settings checked: client-go's three presets and two of
// our own, with three nodes.
func cases(t *testing.T) map[string]settings.Settings {
	out := map[string]settings.Settings{}
	for _, name := range []string{"kubernetes", "openshift", "openshift-sno"} {
		p, err := settings.PresetByName(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = settings.Settings{LeaseDuration: p.LeaseDuration, RenewDeadline: p.RenewDeadline, RetryPeriod: p.RetryPeriod, Nodes: 3}
	}
	s := time.Second
	out["20s/12s/5s"] = settings.Settings{LeaseDuration: 20 * s, RenewDeadline: 12 * s, RetryPeriod: 5 * s, Nodes: 3}
	out["4s/3s/1s"] = settings.Settings{LeaseDuration: 4 * s, RenewDeadline: 3 * s, RetryPeriod: 1 * s, Nodes: 3}
	return out
}

// outage runs one API outage of node 0 of the given kind, from phase after
// one of its renewals, lasting length, and returns when node 0 stopped
// leading after that renewal (0 if it did not), the renewal's time, and
// the spans of the run, which goes on until every takeover has had time.
func outage(t *testing.T, s settings.Settings, kind fault, phase, length time.Duration) (stop, renewed time.Duration, spans []span) {
	c := newCluster(t, s, false)
	renewed = c.nextRenewal()
	time.Sleep(phase)
	c.nodes[0].set(kind)
	time.Sleep(length)
	c.nodes[0].set(healthy)
	time.Sleep(s.LeaseDuration + 5*s.RetryPeriod + s.RenewDeadline)
	spans = c.record()
	for _, sp := range spans {
		if sp.node == 0 && sp.end != 0 && sp.end > renewed {
			stop = sp.end
		}
	}
	c.stop()
	return stop, renewed, spans
}

// TestGiveUp: a leader whose calls fail stops leading exactly retry period
// + renew deadline after its last renewal, as settings.GiveUp and the round
// model say; two nodes lead at once only as long as the two-leader margin
// is short (openshift-sno's is -30s: its lease, 270s, is shorter than
// 60s + 240s).
func TestGiveUp(t *testing.T) {
	for name, s := range cases(t) {
		for _, kind := range []fault{fastFail, blackHole} {
			synctest.Test(t, func(t *testing.T) {
				stop, renewed, spans := outage(t, s, kind, time.Millisecond, 3*s.LeaseDuration)
				if got := stop - renewed; got != s.GiveUp() {
					t.Errorf("%s, fault %d: node 0 stopped leading %v after its last renewal; settings.GiveUp says %v", name, kind, got, s.GiveUp())
				}
				// Two nodes lead at once only if the lease is shorter than
				// retry period + deadline, and then at most by the shortfall.
				margin := s.RecordLease() - s.GiveUp()
				if d := overlap(spans, stop+3*s.LeaseDuration); d > max(0, -margin) {
					t.Errorf("%s, fault %d: two nodes led at once for %v, margin %v: %+v", name, kind, d, margin, spans)
				}
			})
		}
		// The round model, one round a second, gives up at the same time.
		tick := model.Tick(time.Second)
		c := model.Default()
		c.Nodes, c.RereadPeriod, c.Rounds, c.Start, c.Outage = 3, 0, 2000, 301, 1000
		c.Lease, c.RenewDeadline, c.RetryPeriod = rounds(t, tick, s.LeaseDuration), rounds(t, tick, s.RenewDeadline), rounds(t, tick, s.RetryPeriod)
		lastRenewal := (c.Start - 1) / c.RetryPeriod * c.RetryPeriod
		var r model.Runner
		gaveUp := 0
		st, err := r.Trace(c, c.Schedule(), 1, c.Rounds, func(v *model.RoundView) {
			if _, believes := v.Belief(0); !believes && gaveUp == 0 && v.Round > lastRenewal {
				gaveUp = v.Round
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Duration(gaveUp-lastRenewal) * time.Second; got != s.GiveUp() {
			t.Errorf("%s: the round model gives up %v after the last renewal, client-go %v", name, got, s.GiveUp())
		}
		// Its takeover, without the followers' jitter, falls within
		// client-go's range, at the short end.
		crash := settingsFigures(t, s)[3]
		if took := float64(st.HandoverRounds); st.Handovers != 1 || took < crash.Min || took > crash.Max {
			t.Errorf("%s: the round model hands over %d times, %vs after the last renewal; client-go takes over %v to %vs after it", name, st.Handovers, took, crash.Min, crash.Max)
		}
	}
}

func rounds(t *testing.T, tick model.Tick, d time.Duration) int {
	n, err := parse.Value(tick, model.Lease, d.String())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRenewCalls: during an outage the leader's calls start exactly when
// settings.LastCall's schedule says: retries a retry period apart when
// calls fail at once (each an update and a read at the same instant); an
// update and then a read, each cut after the call timeout, when they hang. An outage that ends a millisecond before the
// last of them is ridden out, whatever its phase.
//
// One call is left out of the comparison: one at the very instant of the
// deadline. client-go creates its deadline's context before the retry
// ticker (and a hanging call's timeout starts after the call does), so in
// real time the deadline comes first and no such call is made; synctest's
// fake clock fires both at once and lets either go first.
func TestRenewCalls(t *testing.T) {
	ms := time.Millisecond
	for name, s := range cases(t) {
		for _, kind := range []fault{fastFail, blackHole} {
			timeout := time.Duration(0)
			if kind == blackHole {
				timeout = s.CallTimeout()
			}
			var want []time.Duration // after the last renewal
			for a := s.RetryPeriod; a < s.GiveUp(); a = max(a+s.RetryPeriod, a+2*timeout) {
				want = append(want, a)
				if timeout > 0 && a+timeout < s.GiveUp() {
					want = append(want, a+timeout)
				}
			}
			if last := s.LastCall(timeout); want[len(want)-1] != last {
				t.Fatalf("%s: LastCall %v, the schedule ends at %v", name, last, want[len(want)-1])
			}
			synctest.Test(t, func(t *testing.T) {
				c := newCluster(t, s, false)
				renewed := c.nextRenewal()
				time.Sleep(ms)
				c.nodes[0].set(kind)
				time.Sleep(s.GiveUp() + s.LeaseDuration)
				var got []time.Duration
				for _, d := range c.nodes[0].callsBetween(c.t0, renewed, renewed+s.GiveUp()-1) {
					got = append(got, d-renewed)
				}
				got = slices.Compact(got) // a failed update and its read start together
				c.stop()
				if !slices.Equal(got, want) {
					t.Errorf("%s, fault %d: calls at %v after the last renewal, settings says %v", name, kind, got, want)
				}
			})
			for _, phase := range []time.Duration{ms, s.RetryPeriod - ms} {
				synctest.Test(t, func(t *testing.T) {
					last := s.LastCall(timeout)
					stop, _, _ := outage(t, s, kind, phase, last-ms-phase)
					if stop != 0 {
						t.Errorf("%s, fault %d: an outage from %v to %v after a renewal, ending before the last call at %v, was not ridden out", name, kind, phase, last-ms, last)
					}
				})
			}
		}
	}
}

// TestTakeover: after a crash just after a renewal, a follower takes over
// within settings' range of the renewal; after a graceful stop, within its
// range of the release. Ten runs each, the jitter drawn by client-go.
func TestTakeover(t *testing.T) {
	for name, s := range cases(t) {
		figures := map[string]settings.Figure{}
		for _, f := range settingsFigures(t, s) {
			figures[f.Metric] = f
		}
		for _, release := range []bool{false, true} {
			want := figures["takeover_after_crash"]
			if release {
				want = figures["takeover_after_release"]
			}
			lo, hi := time.Duration(want.Min*float64(time.Second)), time.Duration(want.Max*float64(time.Second))
			var seen []time.Duration
			for range 10 {
				synctest.Test(t, func(t *testing.T) {
					c := newCluster(t, s, release)
					from := c.nextRenewal()
					time.Sleep(time.Millisecond)
					if release {
						from = c.now() // the release is written as node 0 stops
					}
					c.nodes[0].cancel()
					<-c.nodes[0].done
					time.Sleep(s.LeaseDuration + 5*s.RetryPeriod)
					var took time.Duration
					for _, sp := range c.record() {
						if sp.node != 0 && took == 0 {
							took = sp.start - from
						}
					}
					c.stop()
					seen = append(seen, took)
					if took < lo || took > hi {
						t.Errorf("%s, release %t: a follower took over %v after, settings says %v to %v", name, release, took, lo, hi)
					}
				})
			}
			t.Logf("%s, release %t: takeovers %v (settings: %v to %v)", name, release, seen, lo, hi)
		}
	}
}

// TestTakeoverMedian: over 200 crashes each, the median takeover delay of
// real electors is settings' drawn median, within 4%, for Kubernetes' and
// OpenShift's defaults. The followers have polled for twenty retry periods
// before the crash, so their polls are as unrelated to it as settings
// assumes. (client-go draws its jitter from math/rand, unseeded: a miss by
// more than 4% is five standard errors of the median away.)
func TestTakeoverMedian(t *testing.T) {
	for _, name := range []string{"kubernetes", "openshift"} {
		s := cases(t)[name]
		want := settingsFigures(t, s)[3]
		var seen []float64
		for range 200 {
			synctest.Test(t, func(t *testing.T) {
				c := newCluster(t, s, false)
				time.Sleep(20 * s.RetryPeriod)
				from := c.nextRenewal()
				time.Sleep(time.Millisecond)
				c.nodes[0].cancel()
				<-c.nodes[0].done
				time.Sleep(s.LeaseDuration + 5*s.RetryPeriod)
				for _, sp := range c.record() {
					if sp.node != 0 {
						seen = append(seen, (sp.start - from).Seconds())
						break
					}
				}
				c.stop()
			})
		}
		slices.Sort(seen)
		got := seen[len(seen)/2]
		if want.Metric != "takeover_after_crash" || math.Abs(got-want.Median) > 0.04*want.Median {
			t.Errorf("%s: median takeover %.2fs over %d crashes, settings' %s median %.2fs", name, got, len(seen), want.Metric, want.Median)
		}
		t.Logf("%s: median takeover %.2fs (%.2fs to %.2fs) over %d crashes; settings %.2fs", name, got, seen[0], seen[len(seen)-1], len(seen), want.Median)
	}
}

// jitteredLeaderLoss is the round model at 100 ms rounds with client-go's
// settings s and followers: 3 nodes, the leader failing for four leases
// from the round after its 50th renewal, the run ending a lease after.
func jitteredLeaderLoss(t *testing.T, s settings.Settings) (model.Tick, model.Config) {
	tick := model.Tick(100 * time.Millisecond)
	c := model.Default()
	c.Nodes, c.RereadPeriod, c.Jitter, c.Down = 3, 0, true, 1
	c.Lease, c.RenewDeadline, c.RetryPeriod = rounds(t, tick, s.LeaseDuration), rounds(t, tick, s.RenewDeadline), rounds(t, tick, s.RetryPeriod)
	c.Start = 50*c.RetryPeriod + 1
	c.Outage = 4 * c.Lease
	c.Rounds, c.Period = c.Start+c.Outage+c.Lease, c.Start+c.Outage+c.Lease
	return tick, c
}

// TestRoundModelJitter: the round model with jitter, one round a tenth of
// a second, takes over after a crash with the median settings draws and
// real electors show (TestTakeoverMedian), within 2%, and within settings'
// range, over 2,000 seeds.
func TestRoundModelJitter(t *testing.T) {
	for _, name := range []string{"kubernetes", "openshift"} {
		s := cases(t)[name]
		want := settingsFigures(t, s)[3]
		tick, c := jitteredLeaderLoss(t, s)
		var r model.Runner
		var seen []float64
		for seed := range uint64(2000) {
			r.JitterSeed = model.JitterSeed(seed)
			st, err := r.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if st.Handovers != 1 {
				t.Fatalf("%s, seed %d: %d handovers", name, seed, st.Handovers)
			}
			took := tick.Seconds(float64(st.HandoverRounds))
			if took < want.Min || took > want.Max+0.1 {
				t.Errorf("%s, seed %d: the round model takes over %vs after the last renewal, settings %v to %v", name, seed, took, want.Min, want.Max)
			}
			seen = append(seen, took)
		}
		slices.Sort(seen)
		got := seen[len(seen)/2]
		if math.Abs(got-want.Median) > 0.02*want.Median {
			t.Errorf("%s: the round model's median takeover %.2fs, settings' %.2fs", name, got, want.Median)
		}
		t.Logf("%s: the round model's median takeover %.2fs (%.2fs to %.2fs) over %d seeds; settings %.2fs", name, got, seen[0], seen[len(seen)-1], len(seen), want.Median)
	}
}

// TestRoundModelRelease: the round model with jitter, one round a tenth of
// a second, its leader stopping cleanly just after a renewal (release),
// takes over within settings' range of the release, which real electors
// keep (TestTakeover), and with settings' median, within 2% and a round,
// over 20,000 seeds.
func TestRoundModelRelease(t *testing.T) {
	for _, name := range []string{"kubernetes", "openshift"} {
		s := cases(t)[name]
		want := settingsFigures(t, s)[4]
		tick, c := jitteredLeaderLoss(t, s)
		c.Release = true // in round Start, just after a renewal: (Start-1)·tick from the run's start
		var r model.Runner
		var seen []float64
		for seed := range uint64(20000) {
			r.JitterSeed = model.JitterSeed(seed)
			st, err := r.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if st.Handovers != 1 || st.TwoLeaderRounds != 0 {
				t.Fatalf("%s, seed %d: %d handovers, %d two-leader rounds", name, seed, st.Handovers, st.TwoLeaderRounds)
			}
			// The release came as round Start began, just after the
			// renewal that ended the round before; the takeover's poll fell
			// within its round, which ends HandoverRounds rounds after the
			// renewal: take the round's middle.
			took := tick.Seconds(float64(st.HandoverRounds) - 0.5)
			if took < want.Min || took > want.Max {
				t.Errorf("%s, seed %d: the round model takes over %vs after the release, settings %v to %v", name, seed, took, want.Min, want.Max)
			}
			seen = append(seen, took)
		}
		slices.Sort(seen)
		got := seen[len(seen)/2]
		if math.Abs(got-want.Median) > 0.02*want.Median+tick.Seconds(1) {
			t.Errorf("%s: the round model's median takeover after a release %.2fs, settings' %.2fs", name, got, want.Median)
		}
		t.Logf("%s: the round model's median takeover after a release %.2fs (%.2fs to %.2fs) over %d seeds; settings %.2fs", name, got, seen[0], seen[len(seen)-1], len(seen), want.Median)
	}
}

// TestRoundModelOutageSurvived: the round model, one round half a second,
// rides out an outage of its leader exactly when client-go's call schedule
// (TestRenewCalls) says: back by its last call before the deadline, it
// renews; a round later, it gives up. For calls that fail at once and for
// calls that hang (black_hole).
func TestRoundModelOutageSurvived(t *testing.T) {
	tick := model.Tick(500 * time.Millisecond)
	for name, s := range cases(t) {
		for _, blackHole := range []bool{false, true} {
			timeout := time.Duration(0)
			if blackHole {
				timeout = s.CallTimeout()
			}
			c := model.Default()
			c.Nodes, c.RereadPeriod, c.BlackHole, c.Down = 3, 0, blackHole, 1
			c.Lease, c.RenewDeadline, c.RetryPeriod = rounds(t, tick, s.LeaseDuration), rounds(t, tick, s.RenewDeadline), rounds(t, tick, s.RetryPeriod)
			renewed := 10 * c.RetryPeriod
			c.Start = renewed + 1
			c.Rounds, c.Period = c.Start+4*c.Lease, c.Start+4*c.Lease
			last := rounds(t, tick, s.LastCall(timeout))
			for _, tt := range []struct {
				back     int // the round node 0 is reachable again
				survives bool
			}{{renewed + last, true}, {renewed + last + 1, false}} {
				c.Outage = tt.back - c.Start
				st, err := model.Run(c)
				if err != nil {
					t.Fatal(err)
				}
				if survived := st.Handovers == 0; survived != tt.survives {
					t.Errorf("%s, black hole %t: back %v after its last renewal, the round model survived %t, client-go's last call is at %v", name, blackHole, tick.Seconds(float64(tt.back-renewed)), survived, s.LastCall(timeout))
				}
			}
		}
	}
}

// TestBrownout: an API outage of every node at once (95 s, calls failing
// at once), as the README's incident has it. The leader gives up its
// renew deadline after its last renewal; after the outage a follower takes
// over at its first poll if it saw the last renewal before the outage,
// else it sees that renewal as a change and waits a whole lease: within a
// lease and two jittered polls of the outage's end. The round model, at
// 1 s rounds over 200 seeds, takes over within the same bounds, and both
// see the long wait.
func TestBrownout(t *testing.T) {
	s := cases(t)["kubernetes"]
	const length = 95 * time.Second
	bound := s.LeaseDuration + time.Duration(2*(1+model.JitterFactor)*float64(s.RetryPeriod))
	var waits []time.Duration
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			c := newCluster(t, s, false)
			renewed := c.nextRenewal()
			time.Sleep(time.Millisecond)
			for _, n := range c.nodes {
				n.set(fastFail)
			}
			time.Sleep(length - time.Millisecond)
			end := c.now()
			for _, n := range c.nodes {
				n.set(healthy)
			}
			time.Sleep(bound + s.RetryPeriod)
			var took time.Duration
			for _, sp := range c.record() {
				if sp.node == 0 && sp.end != 0 && sp.end-renewed != s.GiveUp() {
					t.Errorf("node 0 stopped leading %v after its last renewal, want %v", sp.end-renewed, s.GiveUp())
				}
				if sp.start > end && took == 0 {
					took = sp.start - end
				}
			}
			c.stop()
			if took == 0 || took > bound {
				t.Errorf("a follower took over %v after the outage's end, want within %v", took, bound)
			}
			waits = append(waits, took)
		})
	}
	slices.Sort(waits)
	tick := model.Tick(time.Second)
	cfg := model.Default()
	cfg.Nodes, cfg.RereadPeriod, cfg.Jitter, cfg.Down, cfg.Rounds, cfg.Period = 3, 0, true, 3, 400, 400
	cfg.Lease, cfg.RenewDeadline, cfg.RetryPeriod = rounds(t, tick, s.LeaseDuration), rounds(t, tick, s.RenewDeadline), rounds(t, tick, s.RetryPeriod)
	cfg.Start, cfg.Outage = 101, int(length/time.Second)
	var model95 []float64
	for seed := range uint64(200) {
		r := model.Runner{JitterSeed: model.JitterSeed(seed)}
		var took int
		_, err := r.Trace(cfg, cfg.Schedule(), 1, cfg.Rounds, func(v *model.RoundView) {
			if v.Handover && took == 0 {
				took = v.Round
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		wait := time.Duration(took-(cfg.Start+cfg.Outage-1)) * time.Second
		if wait <= 0 || wait > bound+time.Second {
			t.Errorf("the round model, seed %d: takeover %v after the outage's end, want within %v", seed, wait, bound)
		}
		model95 = append(model95, wait.Seconds())
	}
	slices.Sort(model95)
	t.Logf("client-go: takeover %v to %v after the end (median %v); round model %vs to %vs (median %vs)", waits[0], waits[len(waits)-1], waits[len(waits)/2], model95[0], model95[len(model95)-1], model95[len(model95)/2])
}

// settingsFigures is settings.Figures for s with jitter seed 1, as the command
// computes them.
func settingsFigures(t *testing.T, s settings.Settings) []settings.Figure {
	t.Helper()
	f, err := settings.Figures(t.Context(), s, 1)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
