package etcd

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// ttl is the session TTL of every test: the least the embedded server
// grants at its default election timeout (settings.Etcd.Granted), so that
// each trial takes seconds.
const ttl = 2 * time.Second

// trials is how many holders each test runs, each with its own election,
// against one server: as parallel subtests, as many at once as -parallel
// allows (GOMAXPROCS).
const trials = 4

// The tolerances, in real time on a machine that may be busy. early is
// how much sooner than settings' least figure a measurement may come: it
// is measured from when the test's goroutine received the holder's last
// keep-alive answer, which comes after the server renewed the lease and
// after the client's lessor set its deadline, by the answer's latency and
// a goroutine's wake-up (milliseconds; 0.5 s is a hundred times that).
// late is how much later than settings' greatest figure it may come: the
// timers of etcd's loops, the raft commit (with an fsync) of the revoke or
// of the deletion, the watch's delivery and the test's goroutines may each
// be delayed on a busy machine, so the larger of 1 s and a quarter of the
// figure.
const early = 500 * time.Millisecond

func late(max time.Duration) time.Duration { return maxDur(time.Second, max/4) }

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// figure returns settings' figure of a metric for etcd at ttl, two nodes.
func figure(t *testing.T, metric string) settings.Figure {
	t.Helper()
	e := settings.Etcd{SessionTTL: ttl, Nodes: 2}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if e.Granted() != ttl {
		t.Fatalf("settings grants %s for a TTL of %s; the tests assume %s", e.Granted(), ttl, ttl)
	}
	for _, f := range e.Figures() {
		if f.Metric == metric {
			return f
		}
	}
	t.Fatalf("settings has no figure %s for etcd", metric)
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

// server starts an embedded single-member etcd on localhost and returns
// its client address.
func server(t *testing.T) string {
	t.Helper()
	cfg := embed.NewConfig()
	cfg.Dir = t.TempDir()
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	local := func() url.URL { return url.URL{Scheme: "http", Host: "127.0.0.1:" + freePort(t)} }
	client, peer := local(), local()
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(time.Minute):
		t.Fatal("embedded etcd not ready after a minute")
	}
	return client.Host
}

// freePort returns a localhost port free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// dial returns a client of the server at addr, closed at the test's end.
func dial(t *testing.T, addr string) *clientv3.Client {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{addr}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// candidate is one node: its client, its Session of ttl and its Election.
type candidate struct {
	client   *clientv3.Client
	session  *concurrency.Session
	election *concurrency.Election
}

func newCandidate(t *testing.T, c *clientv3.Client, prefix string) candidate {
	t.Helper()
	s, err := concurrency.NewSession(c, concurrency.WithTTL(int(ttl/time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	return candidate{c, s, concurrency.NewElection(s, prefix)}
}

// lead is when a Campaign returned, and its error.
type lead struct {
	at  time.Time
	err error
}

// contest makes holder the leader of prefix and starts next campaigning
// behind it. It returns when next's key is in place, and the channel on
// which next's Campaign reports when it returned.
func contest(t *testing.T, holder, next candidate, prefix string) <-chan lead {
	t.Helper()
	ctx := context.Background()
	if err := holder.election.Campaign(ctx, "holder"); err != nil {
		t.Fatal(err)
	}
	led := make(chan lead, 1)
	go func() {
		err := next.election.Campaign(ctx, "next")
		led <- lead{time.Now(), err}
	}()
	for {
		resp, err := next.client.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
		if err != nil {
			t.Fatal(err)
		}
		if resp.Count == 2 {
			return led
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// answers returns a channel of the times at which the holder's client
// received its lease's keep-alive answers: another KeepAlive on the
// Session's lease, which the client's lessor answers with the Session's.
func answers(t *testing.T, holder candidate) <-chan time.Time {
	t.Helper()
	ch, err := holder.client.KeepAlive(holder.session.Ctx(), holder.session.Lease())
	if err != nil {
		t.Fatal(err)
	}
	at := make(chan time.Time, 16)
	go func() {
		for range ch {
			at <- time.Now()
		}
		close(at)
	}()
	return at
}

// wait returns when the next candidate leads, failing the test if its
// Campaign fails or has not returned after a minute.
func wait(t *testing.T, led <-chan lead, what string) time.Time {
	t.Helper()
	select {
	case l := <-led:
		if l.err != nil {
			t.Fatalf("%s: the next candidate's Campaign: %v", what, l.err)
		}
		return l.at
	case <-time.After(time.Minute):
		t.Fatalf("%s: no takeover within a minute", what)
		return time.Time{}
	}
}

// TestCrash: the holder's process dies right after a keep-alive answer,
// its client closed without revoking the lease; the server expires the
// lease TTL after that keep-alive and the next candidate's watch on the
// deleted key makes it the leader.
func TestCrash(t *testing.T) {
	addr := server(t)
	got := parallel(t, func(t *testing.T, i int) time.Duration {
		prefix := fmt.Sprintf("/crash/%d/", i)
		holder, next := newCandidate(t, dial(t, addr), prefix), newCandidate(t, dial(t, addr), prefix)
		led := contest(t, holder, next, prefix)
		at := answers(t, holder)
		<-at
		last := <-at
		holder.client.Close()
		return wait(t, led, prefix).Sub(last)
	})
	within(t, figure(t, "takeover_after_crash"), "takeover after a crash, from the last keep-alive", got)
}

// TestResign: the holder resigns and the next candidate leads at once.
func TestResign(t *testing.T) {
	addr := server(t)
	got := parallel(t, func(t *testing.T, i int) time.Duration {
		prefix := fmt.Sprintf("/resign/%d/", i)
		holder, next := newCandidate(t, dial(t, addr), prefix), newCandidate(t, dial(t, addr), prefix)
		led := contest(t, holder, next, prefix)
		start := time.Now()
		if err := holder.election.Resign(context.Background()); err != nil {
			t.Fatal(err)
		}
		return wait(t, led, prefix).Sub(start)
	})
	within(t, figure(t, "takeover_after_release"), "takeover after Resign, from the call", got)
}

// TestCutOff: the holder reaches the server through a proxy, which drops
// its connections and refuses new ones right after a keep-alive answer.
// The holder's Session.Done closes TTL after that answer, at the client's
// deadline loop's next look; the server expires the lease TTL after the
// keep-alive, at its revoke loop's next look, and the next candidate
// leads. Between the two is the two-leader margin.
func TestCutOff(t *testing.T) {
	addr := server(t)
	var mu sync.Mutex
	var giveUps, takeovers, margins []time.Duration
	parallel(t, func(t *testing.T, i int) time.Duration {
		prefix := fmt.Sprintf("/cutoff/%d/", i)
		p := newProxy(t, addr)
		holder, next := newCandidate(t, dial(t, p.addr()), prefix), newCandidate(t, dial(t, addr), prefix)
		led := contest(t, holder, next, prefix)
		at := answers(t, holder)
		<-at
		last := <-at
		p.cut()
		select {
		case <-holder.session.Done():
		case <-time.After(time.Minute):
			t.Fatalf("%s: the holder's Session.Done still open a minute after the cut", prefix)
		}
		gaveUp := time.Now()
		took := wait(t, led, prefix)
		mu.Lock()
		giveUps = append(giveUps, gaveUp.Sub(last))
		takeovers = append(takeovers, took.Sub(last))
		margins = append(margins, took.Sub(gaveUp))
		mu.Unlock()
		return 0
	})
	within(t, figure(t, "give_up_after_renewal"), "the holder's Session.Done, from its last keep-alive answer", giveUps)
	within(t, figure(t, "takeover_after_crash"), "takeover after the cut, from the last keep-alive", takeovers)
	// The margin is the takeover less the give-up: either may be late by
	// late(ttl), so it is widened by as much on both sides.
	margin := figure(t, "two_leader_margin")
	lo, hi := seconds(margin.Min)-late(ttl), seconds(margin.Max)+late(ttl)
	t.Logf("two-leader margin: measured %v; settings' %g … %g s (median %g), allowed %s … %s", margins, margin.Min, margin.Max, margin.Median, lo, hi)
	for _, m := range margins {
		if m < lo || m > hi {
			t.Errorf("two-leader margin %s, outside settings' %g … %g s widened to %s … %s", m, margin.Min, margin.Max, lo, hi)
		}
	}
}

// parallel runs trials of f at once and returns their measurements.
func parallel(t *testing.T, f func(t *testing.T, i int) time.Duration) []time.Duration {
	t.Helper()
	got := make([]time.Duration, trials)
	t.Run("trials", func(t *testing.T) {
		for i := range trials {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				got[i] = f(t, i)
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	return got
}

// proxy forwards TCP connections to a server until it is cut: then it
// closes every connection and refuses new ones, as a network partition
// between one client and the server does.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
}

// newProxy is a proxy to target, listening at a port of its own.
func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	t.Cleanup(p.cut)
	go p.serve()
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			s.Close()
			return
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go pipe(c, s)
		go pipe(s, c)
	}
}

// pipe copies from one connection to the other and closes both at the end.
func pipe(dst, src net.Conn) {
	io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// cut closes the listener and every connection.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
}
