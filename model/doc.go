// Package model is the round model of lease-based leader election for a
// singleton batch job: a port of the publication's model, with the
// bookkeeping of its code corrected (docs/model.md).
//
// Nodes share a durable record that holds the leader, the round of its
// last renewal and a fencing token. Time runs in rounds t = 1 … Rounds,
// and in each round:
//
//  1. Renew: a retry period after its last renewal, and every retry
//     period after that, the record's leader renews if it can reach the
//     record and has not given up.
//  2. Handover: in a retry round (a multiple of RetryPeriod; with Jitter,
//     at each follower's own polls) once the lease has gone unrenewed for
//     Lease rounds, the lowest-numbered other reachable node (any, if the
//     leader gave up) takes over with the next token (with Quorum, only
//     while a strict majority of all nodes is reachable).
//  3. Count believers: a node that took over believes it leads until it
//     re-reads the record; reachable believers are active.
//  4. Fence: with Fencing, work carrying a token older than the record's is
//     refused.
//  5. Trigger: in every multiple of Period the batch must start; if no work
//     is accepted it is missed or, with PersistentTrigger, queued for the
//     first round whose work is accepted (missed after all if its slot is
//     older than CatchUpWindow by then).
//  6. Re-read: every RereadPeriod rounds (never if 0), active believers that
//     are not the record's leader stop believing.
//
// With a RenewDeadline, a believer whose last renewal was in round R gives
// up in round R+RetryPeriod+RenewDeadline, as client-go's renew loop does.
//
// A Config is one configuration: a Policy, what a deployment sets, and a
// Scenario, the failures its run meets and its length. A Schedule says
// when nodes cannot reach the record (GroupOutage, the publication's and
// the Scenario's; Windows, hand-written; Alternating, random up and down
// periods). A Runner runs a configuration
// under a schedule and counts Stats, allocation-free once warm; Trace shows
// the rounds one by one; CheckInvariants and Runner.Check are the one
// definition of a correct run. A run costs per event, not per round: it is
// computed stretch by stretch, each stretch a run of rounds in which
// nothing changes.
//
// The package is pure: no I/O, no package state, randomness only from the
// seed a schedule is given.
package model
