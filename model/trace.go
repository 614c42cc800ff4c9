package model

import (
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
// is shown whole. Of a longer one, the trace shows its outage and the
// rounds the model needs to settle after it (a lease, a renewal and two
// periods), from two periods before it, at most 10,000 rounds: so a trace
// costs what the events need, not what the run's length does.
func TraceWindow(c Config) (first, last int) {
	if c.Rounds <= wholeTrace {
		return 1, c.Rounds
	}
	start, outage := c.Start, c.Outage
	if outage == 0 || c.Down == 0 || start > c.Rounds {
		start, outage = 1, 0
	}
	first = max(1, start-2*c.Period)
	last = min(c.Rounds, start+outage+c.Lease+c.Renewal+2*c.Period, first+maxTrace-1)
	return first, last
}

// Event names what happened to the batch in the round, or "" if nothing:
// started or doubled (accepted from two nodes), queued or missed, then
// queued batches dequeued and stale work rejected by fencing.
func (v *RoundView) Event() string {
	var ev []string
	switch v.Trigger {
	case TriggerStarted:
		if v.Accepted > 1 {
			ev = append(ev, "doubled")
		} else {
			ev = append(ev, "started")
		}
	case TriggerQueued:
		ev = append(ev, "queued")
	case TriggerMissed:
		ev = append(ev, "missed")
	}
	if v.Dequeued > 0 {
		ev = append(ev, fmt.Sprintf("dequeued %d", v.Dequeued))
	}
	if rej := v.Active - v.Accepted; rej > 0 && (v.Trigger != NoTrigger || v.Dequeued > 0) {
		ev = append(ev, fmt.Sprintf("rejected %d", rej))
	}
	return strings.Join(ev, ", ")
}

// AppendTrace runs c with schedule s and appends its trace as text: one
// line per round of TraceWindow(c), after a line saying which rounds are
// left out, if any. In the nodes column each node is one character: '-'
// unreachable, 'o' reachable, and, for a node that believes it leads, the
// last digit of the fencing token it holds (bracketed while it is
// unreachable: it believes, but cannot act).
func AppendTrace(b []byte, c Config, s Schedule) ([]byte, error) {
	first, last := TraceWindow(c)
	if first > 1 || last < c.Rounds {
		b = fmt.Appendf(b, "rounds %d to %d of %d, around the outage; the others are left out\n", first, last, c.Rounds)
	}
	width := max(5, 3*c.Nodes)
	b = fmt.Appendf(b, "%5s  %-*s  %6s  %5s  %6s  %8s  %s\n", "round", width, "nodes", "leader", "token", "active", "accepted", "events")
	var r Runner
	var nodes []byte
	_, err := r.Trace(c, s, first, last, func(v *RoundView) {
		nodes = nodes[:0]
		for n := range v.Nodes() {
			token, believes := v.Belief(n)
			switch reachable := v.Reachable(n); {
			case believes && reachable:
				nodes = fmt.Appendf(nodes, " %d ", token%10)
			case believes:
				nodes = fmt.Appendf(nodes, "(%d)", token%10)
			case reachable:
				nodes = append(nodes, " o "...)
			default:
				nodes = append(nodes, " - "...)
			}
		}
		var ev []string
		if v.Handover {
			ev = append(ev, fmt.Sprintf("handover to node %d", v.Leader))
		}
		if e := v.Event(); e != "" {
			ev = append(ev, "batch "+e)
		}
		if v.Reread {
			ev = append(ev, "re-read")
		}
		line := fmt.Sprintf("%5d  %-*s  %6d  %5d  %6d  %8d  %s", v.Round, width, nodes, v.Leader, v.Token, v.Active, v.Accepted, strings.Join(ev, "; "))
		b = append(b, strings.TrimRight(line, " ")+"\n"...)
	})
	return b, err
}
