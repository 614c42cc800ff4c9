package consul

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/hashicorp/consul/api"
	"github.com/leasesim/leasesim/settings"
)

// The session of every test: a TTL of 1 s, below the 10 s Consul's
// servers accept (session_ttl_min), which the agent here allows so that a
// trial takes seconds, and a lock-delay of 1 s, which api.Lock's waiter
// meets at its 5 s retry (DefaultLockRetryTime). settings' formulas take
// the TTL as a number; the lock is the same at 1 s as at 10.
const (
	ttl       = time.Second
	lockDelay = time.Second
)

// trials is how many holders each test runs, each against an agent of its
// own, as parallel subtests.
const trials = 4

// The tolerances, in real time on a machine that may be busy, as
// validate/etcd has them: a measurement may come early by an answer's
// latency and a goroutine's wake-up (milliseconds; 0.5 s is a hundred
// times that), and late by the larger of 1 s and a quarter of the figure
// (the agent's timers, the client's HTTP round trips and the test's
// goroutines late on a busy machine).
const early = 500 * time.Millisecond

func late(max time.Duration) time.Duration { return maxDur(time.Second, max/4) }

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// lock is the settings of every test. It is not Validate'd: its TTL is
// below Consul's least, which the agent here allows.
func lock() settings.Consul { return settings.Consul{SessionTTL: ttl, LockDelay: lockDelay, Nodes: 2} }

// figure returns settings' figure of a metric for the tests' lock.
func figure(t *testing.T, metric string) settings.Figure {
	t.Helper()
	for _, f := range lock().Figures() {
		if f.Metric == metric {
			return f
		}
	}
	t.Fatalf("settings has no figure %s for consul", metric)
	return settings.Figure{}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// within fails the test unless every measurement lies in the figure's
// range, widened by the tolerances, and logs them beside it.
func within(t *testing.T, f settings.Figure, what string, got []time.Duration) {
	t.Helper()
	lo, hi := seconds(f.Min)-early, seconds(f.Max)+late(seconds(f.Max))
	t.Logf("%s: measured %v; settings' %s %g … %g s (median %g), allowed %s … %s", what, got, f.Metric, f.Min, f.Max, f.Median, lo, hi)
	for _, d := range got {
		if d < lo || d > hi {
			t.Errorf("%s: %s, outside settings' %s %g … %g s widened to %s … %s", what, d, f.Metric, f.Min, f.Max, lo, hi)
		}
	}
}

// newLock is a candidate's api.Lock on the agent at addr, with a client
// of its own token, with the tests' session.
func newLock(t *testing.T, addr, token string) *api.Lock {
	t.Helper()
	l, err := client(t, addr, token).LockOpts(&api.LockOptions{Key: "service/leader", SessionTTL: ttl.String(), LockDelay: lockDelay})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// lead is when a candidate's Lock returned, and its leader channel.
type lead struct {
	at  time.Time
	ch  <-chan struct{}
	err error
}

// campaign calls l.Lock in a goroutine of its own and tells when it
// returns; the test's end stops it.
func campaign(t *testing.T, l *api.Lock) <-chan lead {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	led := make(chan lead, 1)
	go func() {
		ch, err := l.Lock(stop)
		led <- lead{time.Now(), ch, err}
	}()
	return led
}

// wait returns the lead of a campaign, failing the test after a minute.
func wait(t *testing.T, led <-chan lead, what string) lead {
	t.Helper()
	select {
	case l := <-led:
		if l.err != nil || l.ch == nil {
			t.Fatalf("%s: Lock returned %v, %v", what, l.ch, l.err)
		}
		return l
	case <-time.After(time.Minute):
		t.Fatalf("%s: no lead after a minute", what)
	}
	return lead{}
}

// contest starts an agent, lets a holder take the lock and a waiter
// campaign behind it for a TTL, and returns them.
func contest(t *testing.T) contestants {
	a, addr := newAgent(t)
	c := contestants{agent: a, lock: newLock(t, addr, "holder")}
	c.holder = wait(t, campaign(t, c.lock), "holder")
	c.next = campaign(t, newLock(t, addr, "waiter"))
	select {
	case l := <-c.next:
		t.Fatalf("the waiter took the lock at %s beside the holder", l.at)
	case <-time.After(ttl):
	}
	return c
}

// contestants are an agent, the holder's lock and lead, and the waiter's
// campaign.
type contestants struct {
	agent  *agent
	lock   *api.Lock
	holder lead
	next   <-chan lead
}

// TestCutOff cuts the holder's calls off right after a renewal, failing at
// once: its monitor's query fails and it gives up at once
// (give_up_after_renewal, whose least is this phase), and the waiter takes
// the lock once the agent invalidated the session at 2·TTL and its
// lock-delay is over, at its retry (takeover_after_crash: a crash looks
// the same to the agent).
func TestCutOff(t *testing.T) {
	gaveUp, tookOver := make([]time.Duration, trials), make([]time.Duration, trials)
	parallel(t, func(t *testing.T, i int) {
		c := contest(t)
		a := c.agent
		a.afterRenewal("holder", "cut")
		select {
		case <-c.holder.ch:
		case <-time.After(time.Minute):
			t.Fatal("the cut-off holder still believes after a minute")
		}
		gone := time.Now()
		waiter := wait(t, c.next, "waiter")
		last := a.lastRenewal("holder")
		gaveUp[i], tookOver[i] = gone.Sub(last), waiter.at.Sub(last)
	})
	giveUp := figure(t, "give_up_after_renewal")
	within(t, settings.Figure{Metric: giveUp.Metric, Min: giveUp.Min, Max: giveUp.Min, Median: giveUp.Min}, "give-up, cut off right after a renewal", gaveUp)
	within(t, figure(t, "takeover_after_crash"), "takeover", tookOver)
}

// TestHang hangs the holder's calls right after a renewal: its monitor's
// query gets no answer and it believes on, while the agent invalidates
// its session and the waiter takes the lock (takeover_after_crash); a
// second later it still believes: two leaders, as settings' margin of
// -inf says.
func TestHang(t *testing.T) {
	if m := figure(t, "two_leader_margin"); !math.IsInf(m.Max, -1) {
		t.Fatalf("settings' two-leader margin for consul is %g … %g, not -inf", m.Min, m.Max)
	}
	tookOver := make([]time.Duration, trials)
	parallel(t, func(t *testing.T, i int) {
		c := contest(t)
		a := c.agent
		a.afterRenewal("holder", "hang")
		waiter := wait(t, c.next, "waiter")
		tookOver[i] = waiter.at.Sub(a.lastRenewal("holder"))
		select {
		case <-c.holder.ch:
			t.Errorf("the holder whose calls hang gave up, %s after its last renewal", time.Since(a.lastRenewal("holder")))
		case <-time.After(time.Second):
		}
	})
	within(t, figure(t, "takeover_after_crash"), "takeover", tookOver)
}

// TestShortHang hangs the holder's calls right after a renewal for half
// the time the agent gives its session (2·TTL), then lets them through:
// the renewal that hung lands in time, and the holder keeps the lock with
// the waiter still waiting 2·TTL later (black_hole_outage_survived, whose
// greatest, 2·TTL, is this phase).
func TestShortHang(t *testing.T) {
	survived := figure(t, "black_hole_outage_survived")
	outage := seconds(survived.Max) / 2
	parallel(t, func(t *testing.T, i int) {
		c := contest(t)
		a := c.agent
		a.afterRenewal("holder", "hang")
		time.Sleep(outage)
		a.heal("holder")
		select {
		case l := <-c.next:
			t.Errorf("the waiter took the lock %s after the holder's last renewal, after a hang of %s", l.at.Sub(a.lastRenewal("holder")), outage)
		case <-c.holder.ch:
			t.Errorf("the holder gave up after a hang of %s", outage)
		case <-time.After(2 * seconds(survived.Max)):
		}
	})
	t.Logf("a hang of %s, half settings' black_hole_outage_survived greatest %g s: survived %d of %d", outage, survived.Max, trials, trials)
}

// TestUnlock measures the takeover after the holder's Unlock, from the
// call: the key is released with no lock-delay and the waiter's blocking
// query returns at once (takeover_after_release).
func TestUnlock(t *testing.T) {
	tookOver := make([]time.Duration, trials)
	parallel(t, func(t *testing.T, i int) {
		c := contest(t)
		at := time.Now()
		if err := c.lock.Unlock(); err != nil {
			t.Fatal(err)
		}
		tookOver[i] = wait(t, c.next, "waiter").at.Sub(at)
	})
	within(t, figure(t, "takeover_after_release"), "takeover after Unlock", tookOver)
}

// parallel runs trials of f at once.
func parallel(t *testing.T, f func(t *testing.T, i int)) {
	t.Helper()
	t.Run("trials", func(t *testing.T) {
		for i := range trials {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				f(t, i)
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}
}
