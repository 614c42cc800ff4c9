package model

import (
	"errors"
	"fmt"
	"strings"
)

// The bounds of a trace: a run of up to wholeTrace rounds is shown whole;
// a longer one, around its outage, in at most maxTrace rounds.
const (
	wholeTrace = 200
	maxTrace   = 10_000
)

// TraceWindow is the rounds a trace of c shows. A run of up to 200 rounds
// is shown whole. Of a longer one, the trace shows its outage from two
// periods before it to two periods after the model has settled (a lease,
// a renewal, a retry period and a renew deadline after it ends). When that
// is over 10,000 rounds, as with a daily batch in seconds, it zooms to the
// outage instead: from a settling span and a batch before it to two after
// it (at least 10 rounds each), at most 10,000 rounds. So a trace costs
// what the events need, not what the run's length does.
func TraceWindow(c Config) (first, last int) {
	if c.Rounds <= wholeTrace {
		return 1, c.Rounds
	}
	start, outage := c.Start, c.Outage
	if outage == 0 || c.Down == 0 || start > c.Rounds {
		start, outage = 1, 0
	}
	settle := c.Lease + c.RereadPeriod + c.RetryPeriod - 1 + c.RenewDeadline
	first = max(1, start-2*c.Period)
	last = start + outage + settle + 2*c.Period
	if last-first >= maxTrace {
		pad := max(10, settle+c.BatchLen)
		first = max(1, start-pad)
		last = start + outage + 2*pad
	}
	return first, min(c.Rounds, last, first+maxTrace-1)
}

// Event names what happened to the batch in the round, or "" if nothing:
// started or doubled (accepted from two nodes), queued or missed, then
// running batches cancelled or cut mid-run, queued batches dequeued and
// stale work rejected by fencing.
func (v *RoundView) Event() string {
	var ev []string
	switch v.Trigger {
	case TriggerStarted:
		switch {
		case v.Accepted > 1 && v.Deduplicating:
			ev = append(ev, fmt.Sprintf("started, %d deduplicated", v.Accepted-1))
		case v.Accepted > 1:
			ev = append(ev, "doubled")
		default:
			ev = append(ev, "started")
		}
	case TriggerQueued:
		ev = append(ev, "queued")
	case TriggerMissed:
		ev = append(ev, "missed")
	case TriggerSkipped:
		ev = append(ev, "skipped: a run still runs")
	}
	if v.Cancelled > 0 {
		ev = append(ev, fmt.Sprintf("cancelled %d running", v.Cancelled))
	}
	switch {
	case v.Cut == 1:
		ev = append(ev, "cut mid-run")
	case v.Cut > 1:
		ev = append(ev, fmt.Sprintf("%d cut mid-run", v.Cut))
	}
	if v.Dequeued > 0 {
		ev = append(ev, fmt.Sprintf("dequeued %d", v.Dequeued))
	}
	if v.Expired > 0 {
		ev = append(ev, fmt.Sprintf("%d past the catch-up window missed", v.Expired))
	}
	if v.Collapsed > 0 {
		ev = append(ev, fmt.Sprintf("%d collapsed into it and missed", v.Collapsed))
	}
	if v.Skipped > 0 {
		ev = append(ev, fmt.Sprintf("%d queued skipped", v.Skipped))
	}
	if rej := v.Active - v.Accepted; rej > 0 && (v.Trigger != NoTrigger || v.Dequeued > 0) {
		ev = append(ev, fmt.Sprintf("rejected %d", rej))
	}
	return strings.Join(ev, ", ")
}

// TraceRound is one round of a trace, kept: a copy of what its RoundView
// showed.
type TraceRound struct {
	Round     int
	Reachable []bool
	Token     []int // the fencing token each node holds while it believes it leads; 0 if it does not
	Leader    int   // the record's leader
	Record    int   // the record's fencing token
	Handover  bool
	Active    int
	Accepted  int
	Trigger   Outcome
	Dequeued  int
	Cut       int // started batches cut mid-run in this round (RoundView.Cut)
	Reread    bool
	Event     string // what happened to the batch (RoundView.Event)
}

// Keep copies the round into a TraceRound.
func (v *RoundView) Keep() TraceRound {
	r := TraceRound{
		Round: v.Round, Reachable: make([]bool, v.Nodes()), Token: make([]int, v.Nodes()),
		Leader: v.Leader, Record: v.Token, Handover: v.Handover, Active: v.Active,
		Accepted: v.Accepted, Trigger: v.Trigger, Dequeued: v.Dequeued, Cut: v.Cut, Reread: v.Reread, Event: v.Event(),
	}
	for n := range r.Reachable {
		r.Reachable[n] = v.Reachable(n)
		r.Token[n], _ = v.Belief(n)
	}
	return r
}

// TraceRounds runs c with schedule s and returns the rounds of
// TraceWindow(c), and the run's statistics.
func (r *Runner) TraceRounds(c Config, s Schedule) ([]TraceRound, Stats, error) {
	if c.Protocol.PerFire() {
		return nil, Stats{}, errors.New(NoTrace)
	}
	var rounds []TraceRound
	first, last := TraceWindow(c)
	st, err := r.Trace(c, s, first, last, func(v *RoundView) { rounds = append(rounds, v.Keep()) })
	return rounds, st, err
}

// NoTrace is why TraceRounds refuses a per-fire protocol (ShedLock's),
// whose run has no leader, tokens or record to show round by round.
const NoTrace = "a per-fire protocol (shedlock, shedlock-redis) has no leader, token or record to trace round by round: its runs are counted in the statistics"

// AppendTrace runs c with schedule s and appends its trace as text
// (AppendTraceRounds).
func (r *Runner) AppendTrace(b []byte, c Config, s Schedule) ([]byte, error) {
	rounds, _, err := r.TraceRounds(c, s)
	if err != nil {
		return b, err
	}
	return AppendTraceRounds(b, c, rounds), nil
}

// AppendTraceRounds appends the trace of c, kept in rounds (TraceRounds),
// as text: one line per round, after a line saying which rounds are left
// out, if any. In the nodes column each node is one character: '-'
// unreachable, 'o' reachable, and, for a node that believes it leads, the
// last digit of the fencing token it holds (bracketed while it is
// unreachable: it believes, but cannot act).
func AppendTraceRounds(b []byte, c Config, rounds []TraceRound) []byte {
	if first, last := TraceWindow(c); first > 1 || last < c.Rounds {
		b = fmt.Appendf(b, "rounds %d to %d of %d, around the outage; the others are left out\n", first, last, c.Rounds)
	}
	width := max(5, 3*c.Nodes)
	b = fmt.Appendf(b, "%5s  %-*s  %6s  %5s  %6s  %8s  %s\n", "round", width, "nodes", "leader", "token", "active", "accepted", "events")
	var nodes []byte
	for _, r := range rounds {
		nodes = nodes[:0]
		for n, reachable := range r.Reachable {
			switch token := r.Token[n]; {
			case token > 0 && reachable:
				nodes = fmt.Appendf(nodes, " %d ", token%10)
			case token > 0:
				nodes = fmt.Appendf(nodes, "(%d)", token%10)
			case reachable:
				nodes = append(nodes, " o "...)
			default:
				nodes = append(nodes, " - "...)
			}
		}
		var ev []string
		if r.Handover {
			ev = append(ev, fmt.Sprintf("handover to node %d", r.Leader))
		}
		if r.Event != "" {
			ev = append(ev, "batch "+r.Event)
		}
		if r.Reread {
			ev = append(ev, "re-read")
		}
		line := fmt.Sprintf("%5d  %-*s  %6d  %5d  %6d  %8d  %s", r.Round, width, nodes, r.Leader, r.Record, r.Active, r.Accepted, strings.Join(ev, "; "))
		b = append(b, strings.TrimRight(line, " ")+"\n"...)
	}
	return b
}
