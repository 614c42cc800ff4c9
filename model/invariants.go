package model

import "fmt"

// CheckInvariants returns an error naming the first invariant that the
// statistics st of a run of c with schedule s break, or nil. The
// invariants hold for every valid configuration and any failure schedule;
// the failing nodes fail as c's kinds say, or as their own windows
// (Windows) or processes (Alternating.Also) say where they give a kind:
//
//   - every trigger is started, missed or left unresolved:
//     started + missed + unresolved = rounds / period;
//   - with fencing or an idempotency key no batch starts twice, and
//     nothing is deduplicated without a key, and no part is written twice
//     unless a cut batch is rerun without a key (OnCut);
//     a partial batch misses 1 to BatchLen parts, an instant batch none, and
//     a part is written again only by a second start's run or a rerun; a
//     batch is late (LateBatches, by a round or more) only when a failing
//     node pauses or a cut batch is rerun or resumed (under shedlock's
//     rules, or a later fire runs it again); with the persistent trigger, every
//     queued slot run, no catch-up window and an overlap policy that skips
//     nothing (allow, buffer-all) none is missed; a slot is skipped only
//     under a policy that skips, and is missed then; and with one
//     run for the queued slots (CatchUpOnce) at most one is left unresolved;
//     without fencing no work is rejected;
//   - no count is negative, no round is both leaderless and two-leader, and
//     every handover waited at least the lease as the fastest clock counts
//     it (Drift), under a service protocol the lease and the lock-delay
//     since the last renewal (the service's clock does not drift), unless
//     the leader released the record as it stopped (Release);
//   - under etcd's, curator's and dynamodb's rules, without drift, no
//     round has two leaders and no batch starts twice: the holder gives up
//     no later than the service frees its lock, or than a waiter has seen
//     its last version for a lease; under dynamodb's, unless some failing
//     node pauses: a holder woken from a pause past its lease's end acts
//     in the round it wakes (it checked its lease before the pause), so
//     under a group outage at most one two-leader round a handover; under consul's, none unless some failing
//     node's calls hang (BlackHole, Slowed), as its holder gives up only
//     when a call fails; under curator's with a disconnect delay, at most
//     that many two-leader rounds a handover, as the holder learns of its
//     disconnect (or, woken, of its loss) that much later;
//   - under redisson's without drift, two leaders only if some failing
//     node pauses (woken past its lease's end, it acts once more) or its
//     work reaches the store while it is cut off (it is never told, and
//     believes until it is back); and then always: a group outage of the
//     holder's zone whose every way leaves its process running, unfrozen
//     and reaching the store makes a two-leader round of every round from
//     the takeover to its end (worksPastLease);
//   - under postgres, quartz and db-scheduler without drift, the same
//     but for the pause (a paused PostgreSQL holder keeps its lock; a
//     woken Quartz or db-scheduler holder gives up before it acts), and
//     under quartz and db-scheduler unless two clocks differ by more than
//     lease − retry_period (a node whose clock is that far ahead of the
//     holder's finds its check-in a lease old before the next); where
//     clocks are the only failure (kind skew), no handover unless they
//     differ by more, never two leaders nor a double start, and without
//     fencing no partial or late batch (the holder taken over is up and
//     its run goes on); every handover waits at least the lease less the
//     most two clocks differ;
//   - under dynamodb without drift, a group outage of the holder's zone
//     whose calls fail at once is survived if and only if the holder's
//     next heartbeat after it comes before its lease's end
//     (heartbeatsAfterOutage);
//   - under curator and curator-session without drift, a group outage of
//     the holder's zone that stops no node is survived if and only if it
//     ends while the holder's session lives: the holder, back then,
//     reconnects and leads again with no handover, whether it was
//     disconnected (SUSPENDED) or not; with a disconnect delay, back
//     before the disconnect's report, it reconnects only after it
//     (reconnectsAfterOutage);
//   - under etcd, consul and curator, a lease the service's failover
//     meets counts afresh from there, so a handover after it waited the
//     rest of the lease more (failoverWait);
//   - with a renew deadline a leader gives up at most the retry period
//     plus the deadline minus the lease after anyone can take over, so a
//     handover makes at most that many two-leader rounds; with a lease at
//     least the retry period plus the deadline, none, and no batch starts
//     twice (the margin client-go's defaults keep); unless failing nodes
//     freeze (Pause), which keeps their deadlines from firing, or their
//     clocks drift;
//   - when failing nodes crash or stop cleanly, no round has two leaders
//     and no batch starts twice: a node that fails forgets that it led
//     (not under shedlock's rules, where a later fire after the lock's end
//     runs the slot again);
//   - under shedlock and shedlock-redis, a node fires once a slot, so at
//     most nodes − 1 double starts a started slot; while no node fails,
//     no slot is partial or late, none is missed if every slot's last
//     run frees the lock before the next slot (fire_spread +
//     max(batch_len, lock_at_least_for) <= period), no two runs go on at once if
//     the batch lasts at most the lease, and then no slot runs twice if
//     the lock is held past the slot's last fire:
//     max(batch_len, lock_at_least_for) > fire_spread;
//   - under shedlock and shedlock-redis, where the only failures are
//     clock skews (kind skew: every node up), no slot is partial or late,
//     and with batch_len <= lease no two runs go on at once if the lock's
//     times are one clock's (using_db_time, or shedlock-redis: a skew
//     moves only the fires), nor, on the nodes' clocks (shedlock), if no
//     two clocks differ by more than lease − batch_len (a node sees the
//     holder's lock_until, written on the holder's clock, pass only as
//     its own clock is that much ahead);
//   - the leaderless and the two-leader rounds fall into episodes of 1 to
//     all of their rounds, whose lengths past the first sum to the rounds
//     less the episodes, those of the long ones alone, whose squares sum
//     to between that sum and its square.
//
// Where failing nodes fail in several ways, a claim holds only if every
// way keeps it (no two leaders only if every one forgets), and a margin
// is given up if any way gives it up (a handover sooner than the lease if
// any stops cleanly, no deadline margin if any freezes).
func CheckInvariants(c Config, s Schedule, st Stats) error {
	f := failingIn(&c, s)
	claim := c.Protocol.traits().twoLeaders
	claimErr := claim.check(&c, f, st)
	waited := shortestLease(c)
	if c.Protocol.traits().serverExpiry {
		waited = c.Lease + c.LockDelay
	}
	if c.Protocol.traits().detectsOnOwnClock { // a detector whose clock is ahead of the holder's finds its check-in a lease old that much sooner
		waited = max(0, c.Lease-f.skewSpread)
	}
	for s := Stat(0); int(s) < NumStats; s++ {
		if st.Get(s) < 0 {
			return fmt.Errorf("%s = %d is negative", s.Name(), st.Get(s))
		}
	}
	perFire := c.Protocol.traits().perFire
	switch {
	case st.Started+st.Missed+st.Unresolved != c.Triggers():
		return fmt.Errorf("started %d + missed %d + unresolved %d != %d trigger rounds", st.Started, st.Missed, st.Unresolved, c.Triggers())
	case c.Fencing && st.DoubleStarts != 0:
		return fmt.Errorf("double_starts = %d with fencing", st.DoubleStarts)
	case c.IdempotencyKey && st.DoubleStarts != 0:
		return fmt.Errorf("double_starts = %d with an idempotency key", st.DoubleStarts)
	case !c.IdempotencyKey && st.Deduplicated != 0:
		return fmt.Errorf("deduplicated = %d without an idempotency key", st.Deduplicated)
	case c.PersistentTrigger && c.CatchUpWindow == 0 && !c.CatchUpOnce && !skips(c) && st.Missed != 0:
		return fmt.Errorf("missed = %d with the persistent trigger, every queued slot run, no catch-up window and no slot skipped", st.Missed)
	case st.Skipped > st.Missed || !skips(c) && st.Skipped != 0:
		return fmt.Errorf("skipped = %d, missed = %d: want at most missed, and none unless overlap %s may skip", st.Skipped, st.Missed, Overlap.AppendValue(nil, int(c.Overlap)))
	case c.PersistentTrigger && c.CatchUpOnce && st.Unresolved > 1:
		return fmt.Errorf("unresolved = %d with one run for the queued slots", st.Unresolved)
	case st.PartialBatches > st.Started || st.MissedParts > st.PartialBatches*c.BatchLen || st.MissedParts < st.PartialBatches:
		return fmt.Errorf("partial_batches %d, missed_parts %d: want at most started %d partial, each missing 1 to batch_len %d parts", st.PartialBatches, st.MissedParts, st.Started, c.BatchLen)
	case (c.Fencing || c.IdempotencyKey) && !reruns(c) && st.DoubledParts != 0:
		return fmt.Errorf("doubled_parts = %d with fencing or an idempotency key", st.DoubledParts)
	case st.LateBatches > st.Started || st.LateRounds < st.LateBatches:
		return fmt.Errorf("late_batches %d, late_rounds %d: want at most started %d late, each by a round or more", st.LateBatches, st.LateRounds, st.Started)
	case !f.pause && c.OnCut == CutNone && !perFire && st.LateBatches != 0:
		return fmt.Errorf("late_batches = %d although no failing node pauses and no cut batch is run again", st.LateBatches)
	case c.BatchLen == 1 && (st.MissedParts != 0 || st.DoubledParts != st.DoubleStarts):
		return fmt.Errorf("an instant batch: missed_parts %d, doubled_parts %d, double_starts %d", st.MissedParts, st.DoubledParts, st.DoubleStarts)
	case !reruns(c) && st.DoubledParts > st.DoubleStarts*c.BatchLen:
		return fmt.Errorf("doubled_parts %d > double_starts %d × batch_len %d", st.DoubledParts, st.DoubleStarts, c.BatchLen)
	case !c.Fencing && st.Rejected != 0:
		return fmt.Errorf("rejected = %d without fencing", st.Rejected)
	case st.TwoLeaderRounds+st.LeaderlessRounds > c.Rounds:
		return fmt.Errorf("two_leader_rounds %d + leaderless_rounds %d > %d rounds", st.TwoLeaderRounds, st.LeaderlessRounds, c.Rounds)
	case !f.release && st.HandoverRounds < st.Handovers*waited:
		if c.LockDelay > 0 {
			return fmt.Errorf("handover_rounds %d < handovers %d × (lease %d + lock_delay %d)", st.HandoverRounds, st.Handovers, c.Lease, c.LockDelay)
		}
		return fmt.Errorf("handover_rounds %d < handovers %d × lease %d", st.HandoverRounds, st.Handovers, waited)
	case claimErr != nil:
		return claimErr
	case perFire && st.DoubleStarts > (c.Nodes-1)*st.Started:
		return fmt.Errorf("double_starts %d > (nodes %d − 1) × started %d under protocol %s: a node fires once a slot", st.DoubleStarts, c.Nodes, st.Started, Protocol.AppendValue(nil, int(c.Protocol)))
	case perFire && f.none && st.PartialBatches+st.LateBatches != 0:
		return fmt.Errorf("partial_batches %d, late_batches %d under protocol %s although no node fails", st.PartialBatches, st.LateBatches, Protocol.AppendValue(nil, int(c.Protocol)))
	case perFire && f.none && c.FireSpread+max(c.BatchLen, c.LockAtLeastFor) <= c.Period && st.Missed != 0:
		return fmt.Errorf("missed %d under protocol %s although no node fails and fire_spread %d + max(batch_len %d, lock_at_least_for %d) <= period %d: every slot's last run frees the lock before the next slot", st.Missed, Protocol.AppendValue(nil, int(c.Protocol)), c.FireSpread, c.BatchLen, c.LockAtLeastFor, c.Period)
	case f.forget && !perFire && st.TwoLeaderRounds+st.DoubleStarts > 0:
		return fmt.Errorf("two_leader_rounds %d, double_starts %d although failing nodes crash or stop", st.TwoLeaderRounds, st.DoubleStarts)
	case c.RenewDeadline > 0 && !f.pause && c.Drift == 0 && st.TwoLeaderRounds > st.Handovers*max(0, c.RetryPeriod+c.RenewDeadline-c.Lease):
		return fmt.Errorf("two_leader_rounds %d > handovers %d × (retry_period %d + renew_deadline %d − lease %d)", st.TwoLeaderRounds, st.Handovers, c.RetryPeriod, c.RenewDeadline, c.Lease)
	case c.RenewDeadline > 0 && !f.pause && c.Drift == 0 && c.Lease >= c.RetryPeriod+c.RenewDeadline && st.TwoLeaderRounds+st.DoubleStarts > 0:
		return fmt.Errorf("two_leader_rounds %d, double_starts %d although lease %d >= retry_period %d + renew_deadline %d", st.TwoLeaderRounds, st.DoubleStarts, c.Lease, c.RetryPeriod, c.RenewDeadline)
	}
	if g, ok := s.(*GroupOutage); ok {
		if claim == claimUnlessPause && c.Drift == 0 && st.TwoLeaderRounds > st.Handovers {
			return fmt.Errorf("two_leader_rounds %d > handovers %d under protocol %s without drift: a holder woken from the outage acts beside its successor in the round it wakes alone", st.TwoLeaderRounds, st.Handovers, Protocol.AppendValue(nil, int(c.Protocol)))
		}
		if err := worksPastLease(&c, g, f, st); err != nil {
			return err
		}
		if err := heartbeatsAfterOutage(&c, g, f, st); err != nil {
			return err
		}
		if err := reconnectsAfterOutage(&c, g, f, st); err != nil {
			return err
		}
		if err := failoverWait(&c, g, f, st); err != nil {
			return err
		}
	}
	for _, e := range []struct {
		name     string
		rounds   int
		episodes Episodes
	}{{"leaderless", st.LeaderlessRounds, st.LeaderlessEpisodes}, {"two-leader", st.TwoLeaderRounds, st.TwoLeaderEpisodes}} {
		if err := e.episodes.check(e.rounds); err != nil {
			return fmt.Errorf("%s rounds: %v", e.name, err)
		}
	}
	return nil
}

// heartbeatsAfterOutage is the invariant of DynamoDB's heartbeats: under
// dynamodb without drift, a group outage of the holder's zone whose calls
// fail at once and that ends within the run, in round b, after the
// holder's last heartbeat in round R (the latest multiple of the retry
// period before the outage), is survived if and only if the holder's next
// heartbeat at or after b, R + k·retry_period, comes before R + lease:
// then nobody takes over; else somebody does, once the run lasts the
// longest observation after the later of R + lease and b.
func heartbeatsAfterOutage(c *Config, g *GroupOutage, f failing, st Stats) error {
	b, p := g.Start+g.Length, c.RetryPeriod
	if !c.Protocol.traits().observes || c.Drift != 0 || g.From != 0 || g.Down == 0 || g.Length == 0 || b > c.Rounds || !f.failsAtOnce {
		return nil
	}
	r := lastRenewalBefore(g.Start, p)
	survived := roundUp(b-r, p) < c.Lease
	switch {
	case survived && st.Handovers != 0:
		return fmt.Errorf("handovers %d under dynamodb although the holder, back in round %d from calls failing at once, heartbeats before its lease ends (last heartbeat %d, retry_period %d, lease %d)", st.Handovers, b, r, p, c.Lease)
	case !survived && max(r+c.Lease, b)+2*c.Lease+c.AcquireWait+1 <= c.Rounds && st.Handovers == 0:
		return fmt.Errorf("no handover under dynamodb although the holder, back in round %d from calls failing at once, has no heartbeat before its lease ends (last heartbeat %d, retry_period %d, lease %d)", b, r, p, c.Lease)
	}
	return nil
}

// reconnectsAfterOutage is the invariant of a ZooKeeper session: under
// curator or curator-session without drift, a group outage of the
// holder's zone that stops no node (its process and session live) and
// ends within the run, in round b, after the holder's last renewal in
// round R (the latest multiple of the retry period before the outage), is
// survived if and only if b comes while its session lives: before the
// service frees the lock, R + lease (a lease after its failover F if that
// came between), and, where the outage's calls fail at once, no later
// than Curator injects LOST, a lease after the disconnect's report (the
// outage's start and the disconnect delay D). Then the holder leads again
// as it is back, given up on SUSPENDED or not, and nobody takes over; else
// somebody does, by the later of the lock's freeing and b, whatever the
// failure's kind. With a failover between R and R + lease and calls that
// hang, LOST's round is left unchecked (it follows the read timeout, which
// may fall after b). With a disconnect delay D, a holder disconnected (at
// the outage's start, at its read timeout R + ⌈2·lease/3⌉ while its calls
// hang, or, frozen, as it wakes past it) comes back, for this claim, no
// sooner than the report, cut + D, under curator-session (it renews then)
// and the round after it under curator (it gives up at the report and
// reconnects).
func reconnectsAfterOutage(c *Config, g *GroupOutage, f failing, st Stats) error {
	if c.Protocol.traits().giveUp != giveUpAtDisconnect || c.Drift != 0 || f.stops || g.From != 0 || g.Down == 0 || g.Length == 0 {
		return nil
	}
	b, r := g.Start+g.Length, lastRenewalBefore(g.Start, c.RetryPeriod)
	from := r
	if fo := c.ServiceFailover; fo > r && fo < r+c.Lease {
		from = fo
	}
	free := from + c.Lease
	ends := free // the session's end; without a failover between, LOST comes after it
	switch {
	case from == r:
	case f.failsAtOnce:
		ends = min(ends, g.Start+c.DisconnectDelay+c.Lease+1) // back in LOST's round, it reconnects first
	default:
		return nil
	}
	if d := c.DisconnectDelay; d > 0 {
		// disconnected as the outage starts, at its read timeout, or,
		// frozen, as it wakes past its read timeout; from the report on it
		// renews (curator-session) or reconnects in the next round
		cut, timeout := g.Start, r+(2*c.Lease+2)/3
		switch {
		case f.pause && b >= timeout:
			cut = b
		case f.pause:
			cut = Never
		case !f.failsAtOnce && b > timeout: // still down at its read timeout
			cut = timeout
		case !f.failsAtOnce:
			cut = Never
		}
		if cut < Never {
			b = max(b, cut+d+b2i(!c.Protocol.traits().afterLost))
		}
	}
	switch {
	case b > c.Rounds:
	case b < ends && st.Handovers != 0:
		return fmt.Errorf("handovers %d under protocol %s although the holder, its process alive, is back in round %d, before its session ends in round %d (last renewal %d, lease %d, service_failover %d)", st.Handovers, Protocol.AppendValue(nil, int(c.Protocol)), b, ends, r, c.Lease, c.ServiceFailover)
	case b >= ends && max(free, b) <= c.Rounds && st.Handovers == 0:
		return fmt.Errorf("no handover under protocol %s although the holder is back in round %d, once its session ended in round %d (last renewal %d, lease %d, service_failover %d)", Protocol.AppendValue(nil, int(c.Protocol)), b, ends, r, c.Lease, c.ServiceFailover)
	}
	return nil
}

// failoverWait is the invariant of a lock service's failover: under a
// protocol whose service ends leases, a group outage of the holder's zone
// from round start, after its last renewal in round R (the latest
// multiple of the retry period before it), and a failover of the service
// in round F between R and R + lease: the service counts the lease afresh
// from F, so the first handover waited F − R more than the lease and the
// lock-delay, unless the holder stopped cleanly (which frees the lock at
// once).
func failoverWait(c *Config, g *GroupOutage, f failing, st Stats) error {
	fo, r := c.ServiceFailover, lastRenewalBefore(g.Start, c.RetryPeriod)
	if !c.Protocol.traits().failoverResets || f.release || g.From != 0 || g.Down == 0 || g.Length == 0 || fo <= r || fo >= r+c.Lease || st.Handovers == 0 {
		return nil
	}
	if want := fo - r + st.Handovers*(c.Lease+c.LockDelay); st.HandoverRounds < want {
		return fmt.Errorf("handover_rounds %d < %d: the service failed over in round %d, after the holder's last renewal in round %d, and counts each lease afresh from there (%d handovers × (lease %d + lock_delay %d) + %d)", st.HandoverRounds, want, fo, r, st.Handovers, c.Lease, c.LockDelay, fo-r)
	}
	return nil
}

// check returns an error naming what of the claim st breaks, a run of c
// whose failing nodes fail as f says, or nil: the claim's part that every
// schedule keeps (worksPastLease and the group outage's cases check the
// rest). Every claim has a case; a claim without one fails every run, so
// a protocol cannot be left out of the invariants.
func (claim twoLeaderClaim) check(c *Config, f failing, st Stats) error {
	two := st.TwoLeaderRounds+st.DoubleStarts > 0
	name := Protocol.AppendValue(nil, int(c.Protocol))
	switch claim {
	case claimByDeadline, claimUnbounded: // the renew deadline's cases; none
		return nil
	case claimNever:
		if c.Drift == 0 && two {
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift", st.TwoLeaderRounds, st.DoubleStarts, name)
		}
		return nil
	case claimDisconnectDelay:
		switch {
		case c.DisconnectDelay == 0 && c.Drift == 0 && two:
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift", st.TwoLeaderRounds, st.DoubleStarts, name)
		case c.Drift == 0 && st.TwoLeaderRounds > st.Handovers*c.DisconnectDelay:
			return fmt.Errorf("two_leader_rounds %d > handovers %d × disconnect_delay %d under protocol %s without drift", st.TwoLeaderRounds, st.Handovers, c.DisconnectDelay, name)
		}
		return nil
	case claimUnlessPause:
		if c.Drift == 0 && !f.pause && two {
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift although no failing node pauses", st.TwoLeaderRounds, st.DoubleStarts, name)
		}
		return nil
	case claimUnlessHang:
		if !f.hang && two {
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s although no failing node's calls hang", st.TwoLeaderRounds, st.DoubleStarts, name)
		}
		return nil
	case claimPastLease:
		if c.Drift == 0 && !f.pause && !f.reachesStore && two {
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift although no failing node pauses or works on while cut off", st.TwoLeaderRounds, st.DoubleStarts, name)
		}
		return nil
	case claimCutOffPastLease:
		if c.Drift == 0 && !f.reachesStore && two {
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift although no failing node works on while cut off (a pause keeps the lock, a crash frees it)", st.TwoLeaderRounds, st.DoubleStarts, name)
		}
		return nil
	case claimRecovered:
		margin := c.Lease - c.RetryPeriod // the most a detector's clock may be ahead of the holder's: it checks in again before the detector finds its check-in a lease old
		switch {
		case c.Drift == 0 && !f.reachesStore && f.skewSpread <= margin && two:
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s without drift although no failing node works on while cut off (a woken holder gives up before it acts, a crashed one forgets) and no two clocks differ by more than lease %d − retry_period %d", st.TwoLeaderRounds, st.DoubleStarts, name, c.Lease, c.RetryPeriod)
		case f.skewOnly && f.skewSpread <= margin && st.Handovers != 0:
			return fmt.Errorf("handovers %d under protocol %s although only clocks are skewed, by at most %d between two nodes, <= lease %d − retry_period %d: the holder checks in before any node finds its check-in a lease old", st.Handovers, name, f.skewSpread, c.Lease, c.RetryPeriod)
		case f.skewOnly && two:
			return fmt.Errorf("two_leader_rounds %d, double_starts %d under protocol %s although only clocks are skewed: a holder taken over is up and leaves off leading at once", st.TwoLeaderRounds, st.DoubleStarts, name)
		case f.skewOnly && !c.Fencing && st.PartialBatches+st.LateBatches != 0:
			return fmt.Errorf("partial_batches %d, late_batches %d under protocol %s without fencing although only clocks are skewed: a holder taken over is up and its run goes on, writing every part on time", st.PartialBatches, st.LateBatches, name)
		}
		return nil
	case claimPerFire:
		oneClock := c.UsingDbTime || !c.Protocol.traits().nodeClocks
		switch {
		case f.skewOnly && oneClock && c.BatchLen <= c.Lease && st.TwoLeaderRounds != 0:
			return fmt.Errorf("two_leader_rounds %d under protocol %s although only clocks are skewed, the lock's times are one clock's (using_db_time %t) and batch_len %d <= lease %d: a skew moves the fires, not the lock's end", st.TwoLeaderRounds, name, c.UsingDbTime, c.BatchLen, c.Lease)
		case f.skewOnly && !oneClock && c.BatchLen <= c.Lease && f.skewSpread <= c.Lease-c.BatchLen && st.TwoLeaderRounds != 0:
			return fmt.Errorf("two_leader_rounds %d under protocol %s although only clocks are skewed, by at most %d between two nodes, <= lease %d − batch_len %d: a node sees the holder's lock_until pass only after its run's end", st.TwoLeaderRounds, name, f.skewSpread, c.Lease, c.BatchLen)
		case f.skewOnly && st.PartialBatches+st.LateBatches != 0:
			return fmt.Errorf("partial_batches %d, late_batches %d under protocol %s although only clocks are skewed: every node is up and works on", st.PartialBatches, st.LateBatches, name)
		case f.none && c.BatchLen <= c.Lease && st.TwoLeaderRounds != 0:
			return fmt.Errorf("two_leader_rounds %d under protocol %s although no node fails and batch_len %d <= lease %d: a later fire finds the lock free only after the run's end", st.TwoLeaderRounds, name, c.BatchLen, c.Lease)
		case f.none && c.BatchLen <= c.Lease && max(c.BatchLen, c.LockAtLeastFor) > c.FireSpread && st.DoubleStarts != 0:
			return fmt.Errorf("double_starts %d under protocol %s although no node fails, batch_len %d <= lease %d and max(batch_len, lock_at_least_for %d) > fire_spread %d: every fire of a slot after the first finds the lock held", st.DoubleStarts, name, c.BatchLen, c.Lease, c.LockAtLeastFor, c.FireSpread)
		}
		return nil
	}
	return fmt.Errorf("protocol %s states a two-leader claim (%d) that CheckInvariants does not check", name, claim)
}

// worksPastLease is the other half of claimPastLease (Redisson's),
// claimCutOffPastLease (PostgreSQL's) and claimRecovered (Quartz's and
// db-scheduler's): a
// group outage of the holder's zone, after its last renewal in round R
// (the latest multiple of the retry period before it), whose every way
// leaves the holder's process running, unfrozen, and its work reaching
// the store (a partition), ending in round b after R + lease, while a
// node outside the zone can take over (a majority of them, with quorum),
// makes a two-leader round of every round from R + lease, when that node
// takes over, to b: the holder is never told, and stops only as it is
// back.
func worksPastLease(c *Config, g *GroupOutage, f failing, st Stats) error {
	b, r := g.Start+g.Length, lastRenewalBefore(g.Start, c.RetryPeriod)
	up := c.Nodes - min(g.Down, c.Nodes) // the nodes outside the zone, one of which takes over as Redis frees the lock
	if claim := c.Protocol.traits().twoLeaders; claim != claimPastLease && claim != claimCutOffPastLease && claim != claimRecovered || c.Drift != 0 || g.From != 0 || g.Down == 0 || g.Length == 0 ||
		f.stops || f.pause || !f.everyReachesStore || up == 0 || c.Quorum && 2*up <= c.Nodes || b <= r+c.Lease {
		return nil
	}
	if want := min(b, c.Rounds+1) - (r + c.Lease); want > 0 && st.TwoLeaderRounds < want {
		return fmt.Errorf("two_leader_rounds %d < %d under protocol %s: the holder, cut off from round %d to %d with its work reaching the store, believes on past its lease's end in round %d (last renewal %d, lease %d)", st.TwoLeaderRounds, want, Protocol.AppendValue(nil, int(c.Protocol)), g.Start, b, r+c.Lease, r, c.Lease)
	}
	return nil
}

// lastRenewalBefore is the round of the leader's last renewal before a
// group outage from round start, when nothing happened before it: the
// latest multiple of the retry period, round 0 included.
func lastRenewalBefore(start, retryPeriod int) int { return (start - 1) / retryPeriod * retryPeriod }

// failing is what the ways a run's nodes fail promise, which its
// invariants test.
type failing struct {
	forget  bool // every way forgets that the node led (a crash, a clean stop)
	release bool // some way stops cleanly, releasing the record at once, or crashes under crashFrees, which frees it as well
	stops   bool // some way stops the node (a crash, a clean stop): its process, and its session, end
	pause   bool // some way freezes the node, so its renew deadline cannot fire
	hang    bool // some way hangs the node's calls (and neither stops nor freezes it)
	// failsAtOnce: every way leaves the node's process running and its
	// calls failing at once (isolated, partitioned without a black hole)
	failsAtOnce bool
	// reachesStore: some way lets a cut-off node's work reach the store
	// (a partition); everyReachesStore: every way does
	reachesStore, everyReachesStore bool
	// none: no node fails at all (an empty schedule, or an outage of no
	// node or no round)
	none bool
	// skewOnly: every way is a failure of kind skew (the node up, its
	// clock off), and there is one; skewSpread: the most two clocks can
	// then differ, max(0, the greatest skew) − min(0, the least), a node
	// outside its windows at 0
	skewOnly   bool
	skewSpread int
	lead, lag  int // the greatest skew ahead and behind, 0 if none
	ways       int
}

// add counts a way of failing, kind, as c's kinds say if it is AsConfigured.
func (f *failing) add(c *Config, kind Failure) {
	does := c.DoesAs(kind.Kind)
	f.forget = does&Stops != 0 && (f.forget || f.ways == 0)
	f.release = f.release || does&Releases != 0 || does&Stops != 0 && c.Protocol.traits().crashFrees
	f.stops = f.stops || does&Stops != 0
	f.pause = f.pause || does&Freezes != 0
	f.hang = f.hang || does&Hangs != 0 && does&(Stops|Freezes) == 0
	f.failsAtOnce = does&(Stops|Freezes|Hangs) == 0 && (f.failsAtOnce || f.ways == 0)
	f.reachesStore = f.reachesStore || does&ReachesStore != 0
	f.everyReachesStore = does&ReachesStore != 0 && (f.everyReachesStore || f.ways == 0)
	f.skewOnly = does&Skews != 0 && (f.skewOnly || f.ways == 0)
	if does&Skews != 0 {
		f.lead, f.lag = max(f.lead, kind.Value), max(f.lag, -kind.Value)
		f.skewSpread = f.lead + f.lag
	}
	f.ways++
}

// failingIn is how the nodes of a run of c with s fail: as each window or
// process says, and as c says where that is AsConfigured.
func failingIn(c *Config, s Schedule) failing {
	var f failing
	switch s := s.(type) {
	case Windows:
		for _, w := range s {
			f.add(c, w.Failure)
		}
	case *Alternating:
		f.add(c, Failure{})
		for _, p := range s.Also {
			f.add(c, p.Failure)
		}
	default:
		f.add(c, Failure{})
	}
	f.none = noneFails(c, s)
	return f
}

// shortestLease is the fewest rounds any node counts as the lease: a
// drifting node's clock counts it faster if it runs fast.
func shortestLease(c Config) int {
	if c.Drift <= 0 || c.Down == 0 {
		return c.Lease
	}
	return drifted(c.Lease, c.Drift)
}

// Check runs c with schedule s and checks CheckInvariants; checks that
// the run, computed stretch by stretch, equals the same run computed round
// by round, and round by round only in its middle third (a trace's
// window); runs it again with fencing turned the other way to check
// that fencing changes none of the rounds and handovers: fencing corrects
// effect, not belief; with batches that take time, runs it under every
// other overlap policy, checked the same way (checkOverlap); and, with the
// persistent trigger, runs it with the other catch-up policy, checked the
// same way (checkOnce); with batches that take time, runs it under every
// other cut policy and place a batch runs in (checkCut). A variant is
// computed round by round again only where it went another way than the
// configuration itself (checkVariant). Under a per-fire protocol it runs
// a group outage as clock skews instead (checkSkews). The schedule
// must give the same failures each time it begins (a random one must be
// reseeded by the caller between runs).
func (r *Runner) Check(c Config, s Schedule) error {
	st, err := r.RunSchedule(c, s)
	if err != nil {
		return err
	}
	if err := CheckInvariants(c, s, st); err != nil {
		return err
	}
	stepped, _ := r.Trace(c, s, 1, c.Rounds, func(*RoundView) {})
	if stepped != st {
		return fmt.Errorf("computed stretch by stretch %+v, round by round %+v", st, stepped)
	}
	first, last := c.Rounds/3, 2*c.Rounds/3
	windowed, _ := r.Trace(c, s, first, last, func(*RoundView) {})
	if windowed != st {
		return fmt.Errorf("computed stretch by stretch %+v, round by round in rounds %d to %d %+v", st, first, last, windowed)
	}
	if c.Protocol.traits().perFire { // ShedLock takes no fencing, overlap policy, cut policy or queue
		return r.checkSkews(c, s)
	}
	if c.Protocol.traits().detectsOnOwnClock {
		if err := r.checkSkews(c, s); err != nil {
			return err
		}
	}
	other := c
	other.Fencing = !c.Fencing
	ot, err := r.RunSchedule(other, s)
	if err != nil {
		return err
	}
	if err := CheckInvariants(other, s, ot); err != nil {
		return err
	}
	if !sameLeadership(st, ot) {
		return fmt.Errorf("fencing changed the rounds or handovers: fencing %t gives %+v, fencing %t gives %+v", c.Fencing, st, other.Fencing, ot)
	}
	if c.BatchLen > 1 {
		if err := r.checkOverlap(c, s, st); err != nil {
			return err
		}
		if err := r.checkCut(c, s, st); err != nil {
			return err
		}
	}
	if c.PersistentTrigger {
		return r.checkOnce(c, s, st)
	}
	return nil
}

// checkSkews checks, under a protocol that reads skews, the group outage
// s (if it is one, of some node and round) as clock skews instead: its
// nodes' clocks ahead or behind by 1 and 2 rounds (under a per-fire
// protocol, those the period holds) or, under detectsOnOwnClock, by the
// margin lease − retry_period and ahead and behind by a round more, each
// run keeping the invariants and, under detectsOnOwnClock, the same
// computed round by round; and skews of 0 the same as no failure.
func (r *Runner) checkSkews(c Config, s Schedule) error {
	g, ok := s.(*GroupOutage)
	if !ok || g.Down == 0 || g.Length == 0 || g.From >= c.Nodes {
		return nil
	}
	calm, err := r.RunSchedule(c, Windows{})
	if err != nil {
		return err
	}
	values := []int{0, -2, -1, 1, 2}
	detects := c.Protocol.traits().detectsOnOwnClock
	if detects {
		m := max(0, c.Lease-c.RetryPeriod)
		values = []int{0, m, m + 1, -m - 1}
	}
	for _, v := range values {
		var ws Windows
		for n := g.From; n < min(g.From+g.Down, c.Nodes); n++ {
			ws = append(ws, Window{Node: n, First: g.Start, Last: g.Start + g.Length - 1, Failure: Failure{Kind: Skewed, Value: v}})
		}
		if c.ValidateSchedule(ws) != nil { // too far apart for the period
			continue
		}
		st, err := r.RunSchedule(c, ws)
		if err != nil {
			return err
		}
		if err := CheckInvariants(c, ws, st); err != nil {
			return fmt.Errorf("the outage as skews of %d: %w", v, err)
		}
		if detects {
			if stepped, _ := r.Trace(c, ws, 1, c.Rounds, func(*RoundView) {}); stepped != st {
				return fmt.Errorf("the outage as skews of %d: computed stretch by stretch %+v, round by round %+v", v, st, stepped)
			}
		}
		if v == 0 && st != calm {
			return fmt.Errorf("the outage as skews of 0 gives %+v, no failure %+v", st, calm)
		}
	}
	return nil
}

// checkOverlap checks a run with batches that take time, st, against the
// same run under every other overlap policy that goes with c (those that
// buffer need the persistent trigger): each keeps the invariants, is the
// same computed round by round, and changes no round and no handover, as
// a policy decides what runs, not who leads.
func (r *Runner) checkOverlap(c Config, s Schedule, st Stats) error {
	for policy := range OverlapPolicy(NumOverlapPolicies) {
		other := c
		other.Overlap = policy
		if policy == c.Overlap || other.Validate() != nil {
			continue
		}
		name := func() string { return "overlap " + string(Overlap.AppendValue(nil, int(policy))) }
		ot, err := r.checkVariant(other, s, name, st)
		if err != nil {
			return err
		}
		if !sameLeadership(st, ot) {
			return fmt.Errorf("%s changed the rounds or handovers: %+v against %+v", name(), ot, st)
		}
	}
	return nil
}

// checkCut checks a run with batches that take time, st, against the
// same run under every other cut policy and place a batch runs in: each
// keeps the invariants, is the same computed round by round, and changes
// no round and no handover. Under overlap allow, where what runs decides
// nothing, each starts, misses and delays the same slots, rerunning or
// resuming a cut batch misses no part that leaving it misses not, and
// neither does a Job where the leader's process runs the batch.
func (r *Runner) checkCut(c Config, s Schedule, st Stats) error {
	runs := [NumCutPolicies][NumRunPlaces]Stats{}
	runs[c.OnCut][c.RunsIn] = st
	for cut := range CutPolicy(NumCutPolicies) {
		for place := range RunPlace(NumRunPlaces) {
			other := c
			other.OnCut, other.RunsIn = cut, place
			if cut == c.OnCut && place == c.RunsIn || other.Validate() != nil { // resume is refused where a recovered batch runs again whole
				continue
			}
			name := func() string { return cutName(cut, place) }
			ot, err := r.checkVariant(other, s, name, st)
			if err != nil {
				return err
			}
			if !sameLeadership(st, ot) {
				return fmt.Errorf("%s changed the rounds or handovers: %+v against %+v", name(), ot, st)
			}
			runs[cut][place] = ot
		}
	}
	if c.Overlap != OverlapAllow {
		return nil
	}
	none := runs[CutNone][RunsInLeader]
	for cut := range CutPolicy(NumCutPolicies) {
		for place := range RunPlace(NumRunPlaces) {
			ot := runs[cut][place]
			if cut == CutResume && c.Protocol.traits().recovers { // refused: not run
				continue
			}
			switch {
			case ot.Started != none.Started || ot.Missed != none.Missed || ot.Unresolved != none.Unresolved || ot.DelayedRounds != none.DelayedRounds:
				return fmt.Errorf("%s started, missed or delayed other slots under overlap allow: %+v against %+v", cutName(cut, place), ot, none)
			case ot.MissedParts > runs[CutNone][place].MissedParts:
				return fmt.Errorf("%s misses %d parts, more than on_cut none's %d", cutName(cut, place), ot.MissedParts, runs[CutNone][place].MissedParts)
			case cut == CutNone && ot.MissedParts > none.MissedParts:
				return fmt.Errorf("%s misses %d parts, more than the leader's process's %d", cutName(cut, place), ot.MissedParts, none.MissedParts)
			}
		}
	}
	return nil
}

// checkOnce checks a run with the persistent trigger, st, against the same
// run with the other catch-up policy: one run for the queued slots changes
// no round and no handover, and it starts, delays and leaves unresolved no
// more than running every slot, nor misses fewer, except under buffer-one
// with batches that take time: there the runs of every queued slot take
// the buffer's one place, so that a later slot is skipped that the one
// run leaves room for (the scenario in testdata/scenarios/overlap.txt).
func (r *Runner) checkOnce(c Config, s Schedule, st Stats) error {
	other := c
	other.CatchUpOnce = !c.CatchUpOnce
	ot, err := r.checkVariant(other, s, func() string { return fmt.Sprintf("catch_up_once %t", other.CatchUpOnce) }, st)
	if err != nil {
		return err
	}
	once, all := st, ot
	if !c.CatchUpOnce {
		once, all = ot, st
	}
	switch {
	case !sameLeadership(once, all):
		return fmt.Errorf("catch_up_once changed the rounds or handovers: %+v against every slot's %+v", once, all)
	case !(c.BatchLen > 1 && c.Overlap.traits().limit > 0) && (once.Started > all.Started || once.DelayedRounds > all.DelayedRounds || once.Unresolved > all.Unresolved || once.Missed < all.Missed):
		return fmt.Errorf("one run for the queued slots %+v against every slot run %+v: more started, delayed or unresolved, or fewer missed", once, all)
	}
	return nil
}

// cutName names the variant of a configuration with cut policy cut and
// batches run in place, in errors.
func cutName(cut CutPolicy, place RunPlace) string {
	return fmt.Sprintf("on_cut %s runs_in %s", OnCut.AppendValue(nil, int(cut)), RunsIn.AppendValue(nil, int(place)))
}

// checkVariant runs other, a variant of a configuration under check named
// by name (called only for an error, as naming takes longer than most
// runs), with schedule s, and checks that it keeps the invariants and,
// unless it counted exactly what the configuration itself counted (st,
// already computed round by round), is the same computed round by round.
// Most variants change nothing (no batch was cut, no slot fell due while
// a run ran), and computing them round by round again took most of
// check's time; the variants that went another way are all traced.
func (r *Runner) checkVariant(other Config, s Schedule, name func() string, st Stats) (Stats, error) {
	ot, err := r.RunSchedule(other, s)
	if err != nil {
		return ot, err
	}
	if err := CheckInvariants(other, s, ot); err != nil {
		return ot, fmt.Errorf("%s: %w", name(), err)
	}
	if ot == st {
		return ot, nil
	}
	if stepped, _ := r.Trace(other, s, 1, other.Rounds, func(*RoundView) {}); stepped != ot {
		return ot, fmt.Errorf("%s: computed stretch by stretch %+v, round by round %+v", name(), ot, stepped)
	}
	return ot, nil
}

// sameLeadership reports whether two runs of one schedule had the same
// two-leader, leaderless and handover rounds and handovers: what fencing
// and the trigger policy must leave alone, as they decide what runs, not
// who leads.
func sameLeadership(a, b Stats) bool {
	return a.TwoLeaderRounds == b.TwoLeaderRounds && a.LeaderlessRounds == b.LeaderlessRounds &&
		a.HandoverRounds == b.HandoverRounds && a.Handovers == b.Handovers
}

// reruns reports whether a cut batch of c may write its parts again: it
// is rerun (CutRerun) without an idempotency key to refuse them.
func reruns(c Config) bool { return c.BatchLen > 1 && c.OnCut == CutRerun && !c.IdempotencyKey }

// skips reports whether c's overlap policy may skip a slot, with batches
// that take time (overlapTraits.skips).
func skips(c Config) bool {
	return c.BatchLen > 1 && c.Overlap.traits().skips
}

// check returns an error if e cannot be the episodes of a count of rounds.
func (e Episodes) check(rounds int) error {
	extra := rounds - e.Count
	switch {
	case e.Count > rounds || rounds > 0 && e.Count == 0:
		return fmt.Errorf("%d episodes of %d rounds", e.Count, rounds)
	case e.Long > e.Count || e.Long > extra || extra > 0 && e.Long == 0:
		return fmt.Errorf("%d of %d episodes longer than a round, with %d rounds past their first", e.Long, e.Count, extra)
	case e.ExtraSq < extra || e.ExtraSq > extra*extra:
		return fmt.Errorf("the squares of %d rounds past the episodes' first sum to %d", extra, e.ExtraSq)
	}
	return nil
}

// noneFails reports whether no node of a run of c with s is ever down:
// the publication's outage of no rounds or no nodes, or no windows.
func noneFails(c *Config, s Schedule) bool {
	switch s := s.(type) {
	case *GroupOutage:
		return s.Length == 0 || s.Down == 0 || s.From >= c.Nodes
	case Windows:
		return len(s) == 0
	}
	return false
}
