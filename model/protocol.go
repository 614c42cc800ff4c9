package model

// A lock protocol says who ends a lease that is no longer renewed, how a
// waiting candidate learns that the lock is free, and when a holder cut
// off from the lock service stops believing it leads (docs/model.md, Lock
// protocols). ProtocolClientGo is the round model of steps 1 to 6; etcd,
// Consul and Curator are lock services that end a lease on their own
// clock and tell the next candidate by a watch; under DynamoDB's lock
// client nobody ends a lease and each waiter counts it itself, from when
// it saw the record's version change, within its acquire call. Each holder
// gives up by its library's rule. settings gives the same protocols in
// real time.

// LockProtocol is a value of Config.Protocol: the lock's protocol.
type LockProtocol int

// The protocols, in the order of their Param values; each is a row of
// protocolTable.
const (
	ProtocolClientGo       LockProtocol = iota // client-go's leaderelection: followers poll and count the lease
	ProtocolEtcd                               // etcd's concurrency election: the holder gives up a lease after its last renewal
	ProtocolConsul                             // Consul's api.Lock: the holder gives up at its first failed call; a lock-delay after an expiry
	ProtocolCurator                            // Curator on ZooKeeper, standard error policy: the holder gives up as it is disconnected
	ProtocolCuratorSession                     // the same under SessionConnectionStateErrorPolicy: a lease after it is disconnected
	ProtocolDynamoDB                           // the DynamoDB lock client: no service ends a lease; each waiter counts it while the record's version stays unchanged
	ProtocolRedisson                           // Redisson's RLock with its watchdog: Redis ends the lease; the holder is never told, and stops only as it reaches Redis again
	ProtocolShedLock                           // ShedLock's JDBC provider: no leader; each node takes the lock at its own fire, for a lease, and frees it at its run's end if still its own
	ProtocolShedLockRedis                      // ShedLock's Redis and Mongo providers: the same, but a run's end frees the lock whoever holds it
	ProtocolPostgres                           // PostgreSQL's session advisory lock: the server ends a vanished holder's session by TCP keepalive, a crashed one's at once, a paused one's never; the holder is never told
	ProtocolQuartz                             // Quartz's clustered JDBC job store: the other nodes declare the holder failed a lease after its last check-in and recover its running firing; the holder is never told
	ProtocolDBScheduler                        // db-scheduler: the other schedulers find the execution dead a lease after its last heartbeat and revive it; the old executor is never told
	NumProtocols           int          = iota // how many protocols there are
)

// giveUpRule is when a believer cut off from the lock service stops
// believing it leads.
type giveUpRule int

const (
	// giveUpByDeadline: client-go's renew deadline and re-reads.
	giveUpByDeadline giveUpRule = iota
	// giveUpAtLease: a lease after its last renewal, on its own clock (etcd).
	giveUpAtLease
	// giveUpAtFailedCall: in the first round it is down failing its calls
	// at once; never while they hang (Consul).
	giveUpAtFailedCall
	// giveUpAtDisconnect: in the first round it is down failing its calls at
	// once, or ⌈2·lease/3⌉ after its last renewal while they hang, on its
	// own clock (the ZooKeeper client's read timeout), plus afterLost.
	giveUpAtDisconnect
	// giveUpWhenBack: never while it is cut off, whatever its calls do
	// and however long: nothing tells it (Redisson's watchdog only logs a
	// failed renewal); it stops as it reaches the service again, or
	// wakes, and finds the lock gone (Redisson).
	giveUpWhenBack
)

// protocolTraits is what a protocol does, a row of protocolTable.
type protocolTraits struct {
	name string // its Param value name
	// serverExpiry: the service frees the lock a lease after its last
	// renewal, on its own clock, and waiters learn at once (a watch);
	// otherwise each follower counts the lease at its polls (client-go).
	serverExpiry bool
	giveUp       giveUpRule
	afterLost    bool // with giveUpAtDisconnect, a further lease on the believer's clock (Curator's LOST)
	lockDelay    bool // the service may hold a freed lock for LockDelay after an expiry (Consul)
	// observes: no service ends a lease; each waiter reads the record every
	// round in acquire calls of lease + AcquireWait rounds and takes the
	// lock once its reads have seen one version for a lease, on its own
	// clock, within one call (DynamoDB's lock client)
	observes bool
	// actsAsItWakes: the application checks its lease itself, on its own
	// clock, before it acts, and no call tells it it lost the lock, so a
	// stale holder woken from a pause acts once more, the act it checked
	// before the pause, in the round it wakes, and gives up in the next
	// round it is not frozen (DynamoDB's lock client: LockItem.isExpired;
	// sendHeartbeat's failure only stops the heartbeats; Redisson's RLock:
	// nothing checks the lock, and its watchdog paused with it)
	actsAsItWakes bool
	// failoverResets: a leader change of the lock service grants every
	// lease a fresh expiry (service_failover; etcd, Consul, ZooKeeper)
	failoverResets bool
	// crashFrees: a holder whose process stops frees the lock at once,
	// as a clean stop does: its kernel closes its connection and the
	// service ends its session (PostgreSQL)
	crashFrees bool
	// pauseKeeps: the service keeps a frozen holder's lease for the whole
	// pause, however long: its kernel, not its process, renews it
	// (PostgreSQL: the holder's kernel answers the keepalive probes)
	pauseKeeps bool
	// recovers: the node that takes the lock over recovers the batch its
	// predecessor was running, whose run lives on unfinished beside it:
	// under a cut policy the batch is cut at the takeover, as if its run
	// had ended, and run again (or resumed) at once (Quartz's recovery of
	// a failed node's firing that requestsRecovery, db-scheduler's
	// ReviveDeadExecution)
	recovers bool
	// perFire: no leader; each node fires the batch itself and runs it if
	// it takes the lock (ShedLock, shedlock.go), the engine's leader,
	// believers and handovers left out
	perFire bool
	// releasesAny: with perFire, a run's end frees the lock whoever holds
	// it (ShedLock's Redis and Mongo providers)
	releasesAny bool
	// nodeClocks: with perFire, lock_until is written on the taker's clock
	// and compared with each node's own, unless UsingDbTime (ShedLock's
	// JDBC provider, SqlStatementsSource's :now; the Redis provider's key
	// expires on Redis's clock)
	nodeClocks bool
	// twoLeaders is what the lock promises of two leaders while no clock
	// drifts, which CheckInvariants holds it to.
	twoLeaders twoLeaderClaim
}

// twoLeaderClaim is what a lock promises of two leaders, and of batches
// started twice, while no clock drifts. Every row of protocolTable states
// one, none of them claimUnstated (TestProtocolTableStatesClaims), so that
// a protocol added to the table cannot be left out of the invariants.
type twoLeaderClaim int

const (
	claimUnstated twoLeaderClaim = iota
	// claimByDeadline: as the renew deadline, retry period and lease
	// bound them (client-go; CheckInvariants' renew-deadline cases)
	claimByDeadline
	// claimNever: none (etcd: the holder gives up at its lease's end on
	// its own clock, before the service frees the lock on its)
	claimNever
	// claimUnlessHang: none unless a failing node's calls hang (Consul: a
	// failed call gives up at once, a hung one only as it times out)
	claimUnlessHang
	// claimUnlessPause: none unless a failing node pauses, and under a
	// group outage at most a round a handover (DynamoDB: a woken holder
	// acts once, actsAsItWakes)
	claimUnlessPause
	// claimDisconnectDelay: at most DisconnectDelay rounds a handover,
	// none without one (Curator's standard error policy: SUSPENDED is
	// reported that much after the disconnect)
	claimDisconnectDelay
	// claimUnbounded: no bound (Curator's session error policy: a holder
	// believes until LOST, a lease after its disconnect's report, on its
	// own clock, which may be after the service freed the lock)
	claimUnbounded
	// claimPastLease: two leaders whenever a holder works on past its
	// lease: a holder cut off for longer than the lease whose work still
	// reaches the store leads beside its successor until it is back, and
	// one woken from a pause past it acts once more; none otherwise
	// (Redisson: giveUpWhenBack)
	claimPastLease
	// claimCutOffPastLease: two leaders whenever a holder cut off for
	// longer than the lease works on reaching the store, until it is back;
	// none otherwise: a pause keeps the lock and a crash frees it
	// (PostgreSQL: giveUpWhenBack, pauseKeeps, crashFrees)
	claimCutOffPastLease
	// claimRecovered: two leaders whenever a holder cut off for longer
	// than the lease works on reaching the store, until it is back; none
	// otherwise: a woken holder gives up before it acts, and a crashed one
	// forgets; its batch, recovered at the takeover, may run twice beside
	// it, which on_cut says (Quartz, db-scheduler: giveUpWhenBack,
	// recovers)
	claimRecovered
	// claimPerFire: none while no node fails, the batch lasts at most the
	// lease and a run holds the lock past the last fire of its slot
	// (ShedLock: max(batch_len, lock_at_least_for) > fire_spread)
	claimPerFire
)

// protocolTable is the protocols' traits, indexed by LockProtocol.
func protocolTable() [NumProtocols]protocolTraits {
	var table [NumProtocols]protocolTraits
	for p := range table {
		table[p] = LockProtocol(p).traits()
	}
	return table
}

// lockProtocolNames returns the protocols' names, indexed by
// LockProtocol (Protocol.Names).
func lockProtocolNames() []string {
	names := make([]string, NumProtocols)
	for p, t := range protocolTable() {
		names[p] = t.name
	}
	return names
}

// traits returns p's traits, its row of protocolTable. It is a switch,
// not a table, so that the package keeps no mutable globals and the run
// loop's calls build only the row they read, not all twelve.
func (p LockProtocol) traits() protocolTraits {
	switch p {
	case ProtocolClientGo:
		return protocolTraits{name: "client-go", twoLeaders: claimByDeadline}
	case ProtocolEtcd:
		return protocolTraits{name: "etcd", serverExpiry: true, giveUp: giveUpAtLease, failoverResets: true, twoLeaders: claimNever}
	case ProtocolConsul:
		return protocolTraits{name: "consul", serverExpiry: true, giveUp: giveUpAtFailedCall, lockDelay: true, failoverResets: true, twoLeaders: claimUnlessHang}
	case ProtocolCurator:
		return protocolTraits{name: "curator", serverExpiry: true, giveUp: giveUpAtDisconnect, failoverResets: true, twoLeaders: claimDisconnectDelay}
	case ProtocolCuratorSession:
		return protocolTraits{name: "curator-session", serverExpiry: true, giveUp: giveUpAtDisconnect, afterLost: true, failoverResets: true, twoLeaders: claimUnbounded}
	case ProtocolDynamoDB:
		return protocolTraits{name: "dynamodb", giveUp: giveUpAtLease, observes: true, actsAsItWakes: true, twoLeaders: claimUnlessPause}
	case ProtocolRedisson:
		return protocolTraits{name: "redisson", serverExpiry: true, giveUp: giveUpWhenBack, actsAsItWakes: true, twoLeaders: claimPastLease}
	case ProtocolShedLock:
		return protocolTraits{name: "shedlock", perFire: true, nodeClocks: true, twoLeaders: claimPerFire}
	case ProtocolShedLockRedis:
		return protocolTraits{name: "shedlock-redis", perFire: true, releasesAny: true, twoLeaders: claimPerFire}
	case ProtocolPostgres:
		return protocolTraits{name: "postgres", serverExpiry: true, giveUp: giveUpWhenBack, crashFrees: true, pauseKeeps: true, twoLeaders: claimCutOffPastLease}
	case ProtocolQuartz:
		return protocolTraits{name: "quartz", serverExpiry: true, giveUp: giveUpWhenBack, recovers: true, twoLeaders: claimRecovered}
	case ProtocolDBScheduler:
		return protocolTraits{name: "db-scheduler", serverExpiry: true, giveUp: giveUpWhenBack, recovers: true, twoLeaders: claimRecovered}
	}
	panic("model: a LockProtocol past NumProtocols")
}

// loseLocks is the give-up of docs/model.md's lock protocols in round t,
// before step 1, under a service protocol, after curator's reconnect of
// a leader back that gave up as it was disconnected (reconnect): the
// record's leader by its row's rule or as it reaches the service (or
// wakes) at or after its lease's end, a node that crashes or stops as it
// goes down (after a timer due in that round, as client-go's deadline
// comes first), and a stale believer by the rule or as it reaches the
// service or wakes. A frozen node's timers stand still.
func (x *state) loseLocks(t int) {
	if x.suspended && !x.reach.down[x.leader] {
		x.reconnect(t)
	}
	if !x.gaveUp && x.losesLock(t) {
		x.giveUp(t)
	}
	if x.reach.may&Stops != 0 {
		x.crash(t)
	}
	kept := x.believers[:0]
	for _, b := range x.believers {
		if !x.staleGivesUp(&b, t) {
			kept = append(kept, b)
			continue
		}
		if x.observes { // its acquire calls begin
			x.quitAt[b.node] = t
		}
		if x.c.BatchLen > 1 {
			x.stopRuns(b.node, -1)
		}
	}
	x.believers = kept
}

// losesLock reports whether the record's leader, believing, gives up in
// round t: reaching the service at or after its lease's end, or woken
// then; cut off, by its row's rule, or by its own clock as it stops or a
// freeze begins. Under pauseKeeps, woken, its lease was renewed every
// retry period of the pause. Under curator's rule it records the round it is
// disconnected in (cut), and, back, that it is connected again. With a
// disconnect delay (curator's rules) the disconnect is reported that many
// rounds later, reachable or not (a stop or a freeze aside): the standard
// policy gives up then, and a leader woken past its session's end gives
// up then under both.
func (x *state) losesLock(t int) bool {
	c, n, r := &x.c, x.leader, x.renewed
	woke := x.overdue && x.slept // it was frozen at the end of the latest stretch
	lock := c.Protocol.traits()
	if woke && lock.pauseKeeps { // its kernel kept the lease through the pause, renewing it every retry period
		x.renew(r + (t-r)/c.RetryPeriod*c.RetryPeriod)
		woke, r = false, x.renewed
	}
	if x.reporting() && !(x.reach.down[n] && x.fails(n, Stops|Freezes)) {
		switch {
		case t < x.cut+x.noticeDelay: // not reported yet (or, under actsAsItWakes, in the round it woke and acts in)
			return false
		case x.sessionGone || !lock.afterLost:
			x.suspended = !x.sessionGone
			return true
		}
	}
	switch {
	case !x.reach.down[n]: // before its lease's end it renews
		if woke && c.DisconnectDelay > 0 && x.cut <= r && t >= x.readTimeout(n, r) || woke && lock.actsAsItWakes && t >= x.leaseEnd() {
			return x.wakesLate(t)
		}
		x.cut = r
		return t >= x.leaseEnd()
	case x.fails(n, Stops):
		return t >= x.lockDue() || woke && t >= x.leaseEnd()
	case x.fails(n, Freezes): // not after its act as it woke (actsAsItWakes): it gives up as it wakes again
		return !woke && t >= x.lockDue() && !(lock.actsAsItWakes && x.reporting())
	case woke && t >= x.leaseEnd():
		return x.reporting() || x.wakesLate(t)
	}
	if lock.giveUp == giveUpAtDisconnect && x.cut <= r && x.disconnects(n, r, t) {
		x.cut = t
		if !lock.afterLost && c.DisconnectDelay == 0 {
			x.suspended = true
			return true
		}
	}
	return lock.giveUp == giveUpAtFailedCall && !x.fails(n, Hangs) || t >= x.lockDue()
}

// reporting reports whether, with a disconnect delay, the record's leader
// was disconnected since its last renewal (cut): its report is still to
// come, or, under curator-session, came, and its LOST is to come.
func (x *state) reporting() bool { return x.noticeDelay > 0 && x.cut > x.renewed }

// wakesLate is whether the record's leader, woken in round t past its
// session's end (or, back, past its read timeout), gives up at once:
// without a disconnect delay; with one, its client is disconnected now
// and it gives up at the report, under both policies if its session has
// ended (late), else as the standard policy does. Under actsAsItWakes,
// woken past its lease's end, it acts in round t, renewing nothing and
// holding nobody off, and gives up in the next round it is not frozen
// (noticeDelay, reporting).
func (x *state) wakesLate(t int) bool {
	if x.noticeDelay == 0 {
		return true
	}
	x.cut, x.sessionGone = t, t >= x.leaseEnd()
	return false
}

// reconnect is, in round t, the return of the record's leader that gave
// up as it was disconnected (suspended) under curator's rule: its session
// lives until the service frees the lock, and until Curator injects LOST,
// a lease after the disconnect's report (cut + DisconnectDelay) on its
// own clock (back in that
// round, it reconnects first, as under curator-session), so back before
// both it reconnects with the same session, finds its own node still
// first and leads again at once, its lease counted afresh from the
// reconnect, with no takeover and the same token
// (LeaderLatch.handleStateChange on RECONNECTED); back from then on, its
// session has ended and it takes the lock, if at all, as any other node.
func (x *state) reconnect(t int) {
	x.suspended = false
	if t < x.lockFree() && t <= x.cut+x.c.DisconnectDelay+x.leaseOf(x.leader) {
		x.gaveUp = false
		x.renew(t)
	}
}

// staleGivesUp reports whether the stale believer b gives up in round t:
// as it reaches the service or wakes (its lock was taken over, so its
// lease has ended), when its own clock's rule fires (b.giveUp), or, cut
// off, by its row's rule; under curator's rules it records, as it is
// disconnected (b.cut), the round it gives up: its LOST's under
// curator-session's, and with a disconnect delay the report's under
// curator's, before which it believes on, reachable or not, as it does
// for that delay after it wakes; under actsAsItWakes, woken, it believes
// (and acts) through the round it wakes in, recorded as its cut, and gives
// up in the next round it is not frozen, acting no more: its next check
// of its lease finds it expired. One that stops is dropped by crash.
func (x *state) staleGivesUp(b *believer, t int) bool {
	n, d := b.node, x.c.DisconnectDelay
	down := x.reach.down[n]
	lock := x.c.Protocol.traits()
	acts := false // woken, it acts in this round (actsAsItWakes)
	// Woken: disconnected now, if not since its last renewal; under
	// actsAsItWakes, acting now if it has not since.
	if b.slept && !(down && x.fails(n, Freezes)) {
		b.slept = false
		if b.cut == 0 {
			b.cut, b.giveUp = t, min(b.giveUp, t+d)
			if lock.actsAsItWakes {
				acts, b.giveUp = true, t+1
			}
		}
	}
	switch {
	case down && x.fails(n, Stops):
		return true
	case down && x.fails(n, Freezes), acts:
		return false
	case b.cut > 0 && t < b.cut+d: // its disconnect not reported yet
		return false
	case !down || t >= b.giveUp:
		return true
	}
	switch lock.giveUp {
	case giveUpAtFailedCall:
		return !x.fails(n, Hangs)
	case giveUpAtDisconnect:
		if b.giveUp == Never && x.disconnects(n, b.renewed, t) {
			b.cut, b.giveUp = t, t+d
			if lock.afterLost {
				b.giveUp += x.leaseOf(n)
			}
			return t >= b.giveUp
		}
	}
	return false
}

// leaseEnd is the round from which the record's leader, reaching the
// service or woken, finds its lease ended: a lease after its last
// renewal; under curator's rules the end of its session, the round the
// service frees the lock (lockFree: a failover of the service moves it),
// as its reconnection is answered by the service.
func (x *state) leaseEnd() int {
	if x.c.Protocol.traits().giveUp == giveUpAtDisconnect {
		return x.lockFree()
	}
	return x.renewed + x.c.Lease
}

// lockDue is the round in which the record's leader, cut off, gives up by
// its own clock under a service protocol: a lease after its last renewal
// (etcd), or a lease after its disconnect was reported (curator-session,
// once it was disconnected), or, with a disconnect delay under curator or
// woken past its session's end, at the report; Never if no such timer
// runs.
func (x *state) lockDue() int {
	switch lock := x.c.Protocol.traits(); {
	case lock.giveUp == giveUpAtLease && !x.reporting():
		return x.renewed + x.leaseOf(x.leader)
	case lock.afterLost && x.cut > x.renewed && !x.sessionGone:
		return x.cut + x.c.DisconnectDelay + x.leaseOf(x.leader)
	case x.reporting():
		return x.cut + x.noticeDelay
	}
	return Never
}

// disconnects reports whether node, down in round t and neither stopped
// nor frozen, with its last renewal in round r, is disconnected by the
// ZooKeeper client: at once if its calls fail at once, else once its
// read timeout, ⌈2·lease/3⌉ on its own clock, has passed.
func (x *state) disconnects(node, r, t int) bool {
	return !x.fails(node, Hangs) || t >= x.readTimeout(node, r)
}

// readTimeout is the round in which node's ZooKeeper client, with its
// last renewal in round r, has heard nothing for its read timeout,
// ⌈2·lease/3⌉ on its own clock.
func (x *state) readTimeout(node, r int) int { return r + x.inRounds((2*x.c.Lease+2)/3, node) }

// lockFree is the round in which the service frees the lock after an
// expiry: a lease after the last renewal, on its own clock, or after its
// failover if that came before the lease ended (every lease counts afresh
// then), and the lock-delay (0 but under consul).
func (x *state) lockFree() int {
	from := x.renewed
	if f := x.c.ServiceFailover; f > from && f < from+x.c.Lease {
		from = f
	}
	return from + x.c.Lease + x.c.LockDelay
}

// lockTaker returns, under a protocol other than client-go's, the node
// that takes the lock in round t, or -1, and the first round from t on in
// which one may while reachability stays as it is: once the service has
// freed the lock (at lockFree, or as its holder stopped cleanly or, under
// crashFrees, crashed; never while it is frozen under pauseKeeps), the
// lowest-numbered reachable node, the old holder too once it gave up;
// under dynamodb, where nobody frees it, the lowest-numbered whose
// observation is complete (observation).
func (x *state) lockTaker(t int) (node, free int) {
	switch {
	case x.released:
		free = t
	case x.keptFrozen():
		return -1, Never
	case x.observes:
		if free, node = x.observation(t); free > t {
			node = -1
		}
		return node, free
	default:
		if free = x.lockFree(); t < free {
			return -1, free
		}
	}
	return x.lowestTaker(), free
}

// keptFrozen reports whether the record's leader, believing, is frozen
// under pauseKeeps: the service keeps its lease while it stays so.
func (x *state) keptFrozen() bool {
	l := x.leader
	return x.c.Protocol.traits().pauseKeeps && !x.gaveUp && x.reach.down[l] && x.fails(l, Freezes)
}

// lockTimers ends a stretch from round t under a service protocol before
// the next round in which a believer cut off gives up or is disconnected
// by its own clock, and returns its new last round. It notes what the
// next stretch needs: whether the leader is down, believing (overdue:
// back, it renews at once), and frozen (slept: it wakes then); a frozen
// stale believer gives up in the first round it is not frozen (with a
// disconnect delay, or under actsAsItWakes, it marks it slept: it is
// disconnected, or acts once more, as it wakes). Under
// dynamodb a leader whose heartbeats failed at once (heartbeatWaits) stays
// overdue once back, until its next heartbeat renews or its lease ends,
// where the stretch ends.
func (x *state) lockTimers(t, last int) int {
	c, l := &x.c, x.leader
	if x.reach.down[l] {
		x.overdue = !x.gaveUp
		x.slept = x.overdue && x.fails(l, Freezes)
		x.heartbeatWaits = x.observes && !x.slept && !x.fails(l, Hangs)
		if x.overdue && !x.slept {
			last = x.lockCut(l, x.renewed, x.lockDue(), t, last)
		}
	} else {
		x.overdue = x.overdue && x.heartbeatWaits && !x.gaveUp && x.renewed < t
		x.slept = false
		if x.overdue { // its next heartbeat, or its lease's end
			last = min(last, x.renewed+min(roundUp(t-x.renewed, c.RetryPeriod), c.Lease)-1)
		}
		switch {
		case x.reporting() && !x.gaveUp: // back before its disconnect's report: it renews only after it
			x.overdue = true
			last = min(last, max(x.cut+x.noticeDelay-1, t))
		case x.suspended: // suspended at the report while back: it reconnects in the next round
			last = t
		}
	}
	for i := range x.believers {
		b := &x.believers[i]
		switch {
		case !x.reach.down[b.node] || !x.fails(b.node, Freezes): // stale believers are down but while their disconnect's report is to come: those that reach the service gave up
			due := b.giveUp
			if b.cut > 0 && b.cut+c.DisconnectDelay > t { // its disconnect's report, reachable or not
				due = min(due, b.cut+c.DisconnectDelay)
			}
			last = x.lockCut(b.node, b.renewed, due, t, last)
		case c.DisconnectDelay > 0 || x.c.Protocol.traits().actsAsItWakes:
			b.slept = true
		default:
			b.giveUp = min(b.giveUp, t)
		}
	}
	return last
}

// lockCut is last, or the round before node, cut off and not frozen from
// round t with its last renewal in round r and its own clock's give-up
// in round due, gives up or, hanging under curator's rule, is
// disconnected, if that is sooner.
func (x *state) lockCut(node, r, due, t, last int) int {
	if x.c.Protocol.traits().giveUp == giveUpAtDisconnect && due == Never && x.fails(node, Hangs) {
		due = x.readTimeout(node, r)
	}
	if due > t {
		last = min(last, due-1)
	}
	return last
}
