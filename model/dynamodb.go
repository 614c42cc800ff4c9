package model

// DynamoDB's lock client frees no lock on a clock of its own: each waiter
// reads the record in acquire calls and takes the lock once its reads
// have seen one version of the record for a lease, on its own clock,
// within one call (docs/model.md, Lock protocols, "Under dynamodb"). The
// holder gives up as etcd's does (protocol.go), and back from calls that
// failed at once renews at its next heartbeat (heartbeatWaits, in
// lockTimers and renewIfDue), so only the handover is this file's: who
// has watched the record's version long enough, and when the next one
// will have.
//
// A waiter's calls follow one another from the round it began calling
// (acquireFrom), each reading lease + AcquireWait rounds and one more, so
// where a waiter is in its calls in any round is a division, and a
// stretch needs no per-node state but the round each node last turned
// reachable (Reachability.upAt) and the round it last stopped believing
// it leads (state.quitAt). The version the record holds is the one the
// last renewal or takeover wrote, in round state.renewed.

// observeAll readies a run under dynamodb: every node reachable from
// round 1, where the first calls begin, and none has given up yet.
func (x *state) observeAll() {
	n := x.c.Nodes
	if cap(x.quitAt) < n {
		x.quitAt = make([]int, n)
	}
	x.quitAt = x.quitAt[:n]
	clear(x.quitAt)
	r := &x.reach
	if cap(r.upAt) < n {
		r.upAt = make([]int, n)
	}
	r.upAt, r.at = r.upAt[:n], 1
	for i := range r.upAt {
		r.upAt[i] = 1
	}
}

// acquireFrom is the round from which node, reachable and not believing
// it leads, has made acquire calls one after another: the later of the
// round it turned reachable and the round it stopped believing.
func (x *state) acquireFrom(node int) int {
	return max(x.reach.upAt[node], x.quitAt[node])
}

// observedAt returns the first round from t on in which node, reachable
// and not believing throughout, may take the lock: the first round of
// its acquire call in which a lease on its own clock has passed since the
// call first saw the record's version, in this call or the next. A call
// begun in round s reads in s … s+D, D = lease + AcquireWait on the
// node's clock, so it sees the version written in round renewed first in
// round max(s, renewed); a call too short for the lease leaves the next
// one, from s+D+1, which sees it at once.
func (x *state) observedAt(node, t int) int {
	from, lease := x.acquireFrom(node), x.leaseOf(node)
	call := x.inRounds(x.c.Lease+x.c.AcquireWait, node) + 1 // the rounds of one call
	s := from + (t-from)/call*call                          // the start of the call in progress in round t
	if o := max(s, x.renewed) + lease; o < s+call {
		return max(o, t)
	}
	return s + call + lease
}

// observation returns, under dynamodb, the first round from t on in
// which a node may take the lock while reachability stays as it is, and
// the lowest-numbered node that may then, the record's leader too once it
// gave up; Never and -1 if none may.
func (x *state) observation(t int) (round, node int) {
	round, node = Never, -1
	for n, down := range x.reach.down {
		if down || n == x.leader && !x.gaveUp {
			continue
		}
		if e := x.observedAt(n, t); e < round {
			round, node = e, n
		}
	}
	return round, node
}
