package settings

import (
	"fmt"
	"time"

	"github.com/leasesim/leasesim/model"
)

// ErrorPolicy is Curator's ConnectionStateErrorPolicy: which connection
// states end leadership in LeaderLatch and LeaderSelector.
type ErrorPolicy int

const (
	// StandardPolicy (StandardConnectionStateErrorPolicy, the default):
	// SUSPENDED and LOST.
	StandardPolicy ErrorPolicy = iota
	// SessionPolicy (SessionConnectionStateErrorPolicy): LOST only.
	SessionPolicy
)

// String is the policy's name on the command line.
func (p ErrorPolicy) String() string {
	if p == SessionPolicy {
		return "session"
	}
	return "standard"
}

// ParseErrorPolicy reads "standard" or "session".
func ParseErrorPolicy(s string) (ErrorPolicy, error) {
	switch s {
	case "standard":
		return StandardPolicy, nil
	case "session":
		return SessionPolicy, nil
	}
	return 0, fmt.Errorf("want standard (StandardConnectionStateErrorPolicy) or session (SessionConnectionStateErrorPolicy)")
}

// Curator is leader election by Apache Curator's LeaderLatch or
// LeaderSelector on ZooKeeper among Nodes candidates: each holds an
// ephemeral sequential node of its session, the lowest leads, and each
// other watches the one before it.
//
// The session timeout the client asks for is clamped by the server to
// 2 … 20 ticks (ZooKeeperServer.processConnectRequest, minSessionTimeout
// and maxSessionTimeout defaults). The client pings when it has sent
// nothing for readTimeout/2 and disconnects when it has heard nothing for
// readTimeout = 2/3 of the negotiated timeout (ClientCnxn.SendThread.run,
// onConnected); Curator posts SUSPENDED on the disconnect and, if no
// reconnection comes within the negotiated timeout, injects the session's
// expiration, LOST (ConnectionStateManager.processEvents,
// checkSessionExpiration). The server expires the session the negotiated
// timeout after it last heard the client, rounded up to its next tick
// (ExpiryQueue.roundToNextInterval), deletes the ephemeral node, and the
// next candidate's watch fires.
type Curator struct {
	SessionTimeout time.Duration // CuratorFrameworkFactory's sessionTimeoutMs; DEFAULT_SESSION_TIMEOUT_MS 60 s
	TickTime       time.Duration // the server's tickTime; 2 s in conf/zoo_sample.cfg
	Policy         ErrorPolicy
	Nodes          int
}

// DisconnectDelay is how long the ZooKeeper client takes to report a
// disconnect: its default NIO socket sleeps 100 ms as it closes the
// connection (ClientCnxnSocketNIO.cleanup), before ClientCnxn fails the
// pending calls and queues Disconnected, so SUSPENDED, and the LOST Curator
// counts from it, come that much later, and a holder woken from a pause
// learns its loss that much later.
const DisconnectDelay = 100 * time.Millisecond

// CuratorDefaults is Curator's 60 s session on a server with the sample
// configuration's 2 s tick, under the default error policy.
func CuratorDefaults() Curator {
	return Curator{SessionTimeout: 60 * time.Second, TickTime: 2 * time.Second, Policy: StandardPolicy, Nodes: 3}
}

// Negotiated is the session timeout the server grants, in whole
// milliseconds as the protocol carries it: the one asked for, clamped to
// 2 … 20 ticks.
func (c Curator) Negotiated() time.Duration {
	ms := func(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }
	return min(max(ms(c.SessionTimeout), 2*ms(c.TickTime)), 20*ms(c.TickTime))
}

// ReadTimeout is how long the client waits, hearing nothing, before it
// disconnects: negotiatedSessionTimeout * 2 / 3 in integer milliseconds.
func (c Curator) ReadTimeout() time.Duration {
	return time.Duration(c.Negotiated().Milliseconds()*2/3) * time.Millisecond
}

// Ping is the idle time after which the client pings: readTimeout / 2 in
// integer milliseconds.
func (c Curator) Ping() time.Duration {
	return time.Duration(c.ReadTimeout().Milliseconds()/2) * time.Millisecond
}

// Title names the recipe, the session and the policy.
func (c Curator) Title() string {
	return fmt.Sprintf("Curator LeaderLatch/LeaderSelector on ZooKeeper: session timeout %s (negotiated %s with tickTime %s), %s error policy, %d nodes",
		dur(c.SessionTimeout), dur(c.Negotiated()), dur(c.TickTime), c.Policy, c.Nodes)
}

// Protocol is a server-side session, pinged when idle, watched.
func (c Curator) Protocol() Protocol {
	return Protocol{Expiry: ServerExpiry, Notice: Watch, Renewal: c.Ping(), Expires: c.Negotiated(),
		GiveUp: Disconnect, GiveUpAfter: c.ReadTimeout(), LeaderChangeResets: true}
}

// Validate refuses a session timeout or a tick under a millisecond.
func (c Curator) Validate() error {
	switch {
	case c.SessionTimeout < time.Millisecond:
		return fmt.Errorf("session timeout %s: want at least 1ms", c.SessionTimeout)
	case c.TickTime < time.Millisecond:
		return fmt.Errorf("tickTime %s: want at least 1ms", c.TickTime)
	}
	return checkNodes(c.Nodes)
}

// Figures follow the ZooKeeper client and Curator's policy. Times are from
// the last packet the server heard from the holder (a ping, answered at
// once).
func (c Curator) Figures() []Figure {
	t, read, ping, tick := c.Negotiated().Seconds(), c.ReadTimeout().Seconds(), c.Ping().Seconds(), c.TickTime.Seconds()
	// The server's expiry: t, rounded up to its next tick, at a phase of its
	// own.
	expiry := uniform(t, t+tick)
	// The outage starts between the last ping and the next. Under either
	// policy the holder back while its session lives leads on: the
	// session policy's never stopped, the standard policy's stopped on
	// SUSPENDED and leads again on RECONNECTED, as LeaderLatch re-reads
	// the children and finds its node still first
	// (LeaderLatch.handleStateChange). The session lives until the server
	// expires it and until Curator injects LOST, a timeout after SUSPENDED
	// (ConnectionStateManager.checkSessionExpiration). Calls failing at
	// once: SUSPENDED at the outage's start, so t + min(0, b − φ) for the
	// expiry's phase b and the outage's φ, whose median is
	// t + min(0, median(b − φ)).
	// Every disconnect is reported DisconnectDelay d later: SUSPENDED,
	// and LOST, which counts from it, so the session lives to
	// t + min(b − φ, d + t) after the last ping.
	d := DisconnectDelay.Seconds()
	fastFail := span{t - ping, t + min(d, (tick-ping)/2), t + min(d, tick)}
	// Hanging calls: SUSPENDED comes at the read timeout and d, so only
	// the server's expiry counts.
	blackHole := span{t - ping, t + tick/2 - ping/2, t + tick}
	var giveUp, margin span
	if c.Policy == StandardPolicy {
		giveUp = uniform(d, ping+d)       // a failed call disconnects at once: SUSPENDED d later
		margin = expiry.plus(-(read + d)) // the read timeout's SUSPENDED before the expiry
	} else {
		giveUp = uniform(t+d, t+ping+d)       // SUSPENDED d after the failed call, LOST a negotiated timeout later
		margin = expiry.plus(-(read + d + t)) // LOST a timeout after the read timeout's SUSPENDED
	}
	// A holder woken from a pause is disconnected (its read timeout has
	// passed) and learns whether its session lives d later: it must wake
	// d before the expiry.
	pause := span{t - ping - d, t + tick/2 - ping/2 - d, t + tick - d}
	return lockFigures(giveUp, fastFail, blackHole, expiry, exact(0), margin, pause, [7]string{
		fmt.Sprintf("calls failing at once: the client disconnects as the outage starts (0 to %s after its last ping) and, %s later (the NIO client's sleep in ClientCnxnSocketNIO.cleanup), Curator posts SUSPENDED; %s", dur(c.Ping()), dur(DisconnectDelay), c.lostNote()),
		fmt.Sprintf("the longest outage, its calls failing at once, after which the holder leads with no handover: one that ends before the server expires the session and before Curator injects LOST, a negotiated timeout after SUSPENDED, %s after the outage's start; %s", dur(DisconnectDelay), c.surviveNote()),
		fmt.Sprintf("the same when calls hang: the client disconnects after %s of silence (2/3 of the negotiated timeout) and Curator posts SUSPENDED %s later, LOST a negotiated timeout after that, so only the server's expiry counts", dur(c.ReadTimeout()), dur(DisconnectDelay)),
		"from the holder's last ping: the server expires the session the negotiated timeout later, at its next tick, deletes the ephemeral node, and the next candidate's watch fires at once",
		"LeaderLatch.close or the end of takeLeadership deletes the node, and the next candidate's watch fires at once",
		fmt.Sprintf("from the holder's give-up when its calls hang (%s) to the earliest takeover", c.hungGiveUp()),
		fmt.Sprintf("the longest stop-the-world pause of the holder after which it cannot act beside its successor, by when between pings it starts: woken, it is disconnected and learns whether its session lives %s later, leading until then", dur(DisconnectDelay)),
	})
}

// lostNote says when leadership ends under the policy.
func (c Curator) lostNote() string {
	if c.Policy == StandardPolicy {
		return "the standard policy ends leadership on SUSPENDED"
	}
	return "the session policy ends it only on LOST, which Curator injects a negotiated timeout after SUSPENDED"
}

// surviveNote says how the holder rides an outage out under the policy,
// and what it costs.
func (c Curator) surviveNote() string {
	if c.Policy == StandardPolicy {
		return "SUSPENDED ends leadership as the outage starts, and RECONNECTED with the same session gives it back (LeaderLatch re-reads the children and finds its node first): leaderless for the outage and the reconnection (0.06 to 1.6s measured), no handover"
	}
	return "the session policy leads on through SUSPENDED: no leaderless time but the outage's own"
}

// hungGiveUp says when a holder whose calls hang gives up.
func (c Curator) hungGiveUp() string {
	if c.Policy == StandardPolicy {
		return fmt.Sprintf("SUSPENDED %s after the read timeout", dur(DisconnectDelay))
	}
	return fmt.Sprintf("LOST, a negotiated timeout after SUSPENDED %s after the read timeout", dur(DisconnectDelay))
}

// NoMargin: under the session policy the holder outlives its session.
func (c Curator) NoMargin() string {
	return fmt.Sprintf("under the session policy a holder cut off from ZooKeeper keeps leading until Curator injects LOST, %s after its last ping, while the server expired its session and the next candidate took over from %s",
		dur(c.ReadTimeout()+DisconnectDelay+c.Negotiated()), dur(c.Negotiated()))
}

// curatorRow is Curator's row of LockRows, under the preset zookeeper.
func curatorRow() LockRow {
	return LockRow{
		Preset: "zookeeper", Defaults: CuratorDefaults(), WithNodes: withNodes(func(c *Curator) *int { return &c.Nodes }),
		Flags: []LockFlag{
			{Name: "session-timeout", Type: "duration",
				Usage:         "with --preset zookeeper: the session timeout Curator asks for (sessionTimeoutMs, default 60s), which the server negotiates to 2 to 20 --tick-time",
				SettingsUsage: "zookeeper: the session timeout Curator asks for (sessionTimeoutMs)",
				Set:           durationField(func(c *Curator) *time.Duration { return &c.SessionTimeout })},
			{Name: "tick-time", Type: "duration",
				Usage:         "with --preset zookeeper: the server's tickTime (default 2s)",
				SettingsUsage: "zookeeper: the server's tickTime, which bounds the session timeout to 2 to 20 ticks",
				Set:           durationField(func(c *Curator) *time.Duration { return &c.TickTime })},
			{Name: "error-policy", Type: "policy",
				Usage:         "with --preset zookeeper: Curator's ConnectionStateErrorPolicy, standard (protocol curator) or session (protocol curator-session)",
				SettingsUsage: "zookeeper: Curator's ConnectionStateErrorPolicy, standard (Standard…, leadership ends on SUSPENDED) or session (Session…, on LOST)",
				Set: setField(func(c *Curator, s string) error {
					p, err := ParseErrorPolicy(s)
					if err == nil {
						c.Policy = p
					}
					return err
				})},
		},
		Round: func(l Lock, r *RoundLock) bool {
			c, ok := l.(Curator)
			r.Protocol, r.DisconnectDelay = model.ProtocolCurator, DisconnectDelay
			if c.Policy == SessionPolicy {
				r.Protocol = model.ProtocolCuratorSession
			}
			return ok
		},
		Protocols: []model.LockProtocol{model.ProtocolCurator, model.ProtocolCuratorSession},
		// The server's tickTime is its default, 2 s, or what the session
		// timeout needs to be negotiated as it is (2 to 20 ticks).
		FromConfig: func(c model.Config, d func(int) time.Duration, nodes int) Lock {
			timeout := d(c.Lease)
			tick := min(max(CuratorDefaults().TickTime, (timeout+19)/20), timeout/2)
			policy := StandardPolicy
			if c.Protocol == model.ProtocolCuratorSession {
				policy = SessionPolicy
			}
			return Curator{SessionTimeout: timeout, TickTime: max(time.Millisecond, tick), Policy: policy, Nodes: nodes}
		},
	}
}
