package clientgo

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/leasesim/leasesim/settings"
	"k8s.io/client-go/tools/leaderelection"
)

// node is one process running an elector; after it stops leading it
// restarts with a new identity, as a controller manager does.
type node struct {
	i      int
	mu     sync.Mutex
	f      fault
	healed chan struct{} // closed when f next changes: a slow API answers
	calls  []time.Time   // when each of its calls to the API started
	cancel context.CancelFunc
	done   chan struct{}
}

func (n *node) called() {
	n.mu.Lock()
	n.calls = append(n.calls, time.Now())
	n.mu.Unlock()
}

// callsBetween returns the starts of n's calls in (from, to], from the
// bubble's start t0.
func (n *node) callsBetween(t0 time.Time, from, to time.Duration) []time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []time.Duration
	for _, c := range n.calls {
		if d := c.Sub(t0); d > from && d <= to {
			out = append(out, d)
		}
	}
	return out
}

func (n *node) fault() fault {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.f
}

func (n *node) set(f fault) {
	n.mu.Lock()
	n.f = f
	if n.healed != nil {
		close(n.healed)
		n.healed = nil
	}
	n.mu.Unlock()
}

// recovered returns a channel closed when n's fault next changes.
func (n *node) recovered() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.healed == nil {
		n.healed = make(chan struct{})
	}
	return n.healed
}

// span is a time a node led, from the bubble's start; end is 0 while it
// still leads.
type span struct {
	node       int
	id         string
	start, end time.Duration
}

// cluster is nodes electing a leader on one store, inside a synctest
// bubble.
type cluster struct {
	t       *testing.T
	s       settings.Settings
	release bool // ReleaseOnCancel
	st      *store
	nodes   []*node
	t0      time.Time

	mu    sync.Mutex
	spans []span
}

// newCluster starts s.Nodes nodes: node 0 first, the others once it leads.
func newCluster(t *testing.T, s settings.Settings, release bool) *cluster {
	c := &cluster{t: t, s: s, release: release, st: &store{writes: make(chan write, 1)}, t0: time.Now()}
	for i := range s.Nodes {
		c.nodes = append(c.nodes, &node{i: i, done: make(chan struct{})})
	}
	c.startNode(c.nodes[0])
	for c.leader() != 0 {
		time.Sleep(time.Millisecond)
	}
	for _, n := range c.nodes[1:] {
		c.startNode(n)
	}
	return c
}

func (c *cluster) now() time.Duration { return time.Since(c.t0) }

func (c *cluster) startNode(n *node) {
	ctx, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	go func() {
		defer close(n.done)
		for life := 0; ctx.Err() == nil; life++ {
			id := fmt.Sprintf("node%d.%d", n.i, life)
			l := &lock{s: c.st, id: id, seen: -1, node: n, callTime: c.s.CallTimeout()}
			le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
				Lock: l, LeaseDuration: c.s.LeaseDuration, RenewDeadline: c.s.RenewDeadline, RetryPeriod: c.s.RetryPeriod,
				ReleaseOnCancel: c.release, Name: "lease",
				Callbacks: leaderelection.LeaderCallbacks{
					OnStartedLeading: func(context.Context) { c.started(n.i, id) },
					OnStoppedLeading: func() { c.stopped(id) },
				},
			})
			if err != nil {
				c.t.Error(err)
				return
			}
			le.Run(ctx)
		}
	}()
}

func (c *cluster) started(node int, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, span{node: node, id: id, start: c.now()})
}

func (c *cluster) stopped(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.spans {
		if c.spans[i].id == id && c.spans[i].end == 0 {
			c.spans[i].end = c.now()
		}
	}
}

// leader is the node leading now, or -1; -2 if two lead.
func (c *cluster) leader() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	who := -1
	for _, s := range c.spans {
		if s.end == 0 {
			if who >= 0 {
				return -2
			}
			who = s.node
		}
	}
	return who
}

// nextRenewal waits for node 0's next successful write and returns its
// time from the bubble's start.
func (c *cluster) nextRenewal() time.Duration {
	for {
		select { // drop a write sent before the call
		case <-c.st.writes:
			continue
		default:
		}
		break
	}
	for {
		w := <-c.st.writes
		if w.id[:6] == "node0." {
			return w.at.Sub(c.t0)
		}
	}
}

// stop ends every node, node 0 with a crash or, with release, gracefully,
// and waits for them.
func (c *cluster) stop() {
	for _, n := range c.nodes {
		if n.cancel != nil {
			n.cancel()
		}
	}
	for _, n := range c.nodes {
		if n.cancel != nil {
			<-n.done
		}
	}
	// Drain a write a stopping elector may have left.
	select {
	case <-c.st.writes:
	default:
	}
}

// record returns the spans so far.
func (c *cluster) record() []span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]span(nil), c.spans...)
}

// overlap is the total time two nodes led at once, up to now.
func overlap(spans []span, now time.Duration) time.Duration {
	var total time.Duration
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			ae, be := a.end, b.end
			if ae == 0 {
				ae = now
			}
			if be == 0 {
				be = now
			}
			if d := min(ae, be) - max(a.start, b.start); d > 0 {
				total += d
			}
		}
	}
	return total
}
