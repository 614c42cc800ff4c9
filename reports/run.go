package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// WriteRunTable writes one run as a two-part table of parameters and
// statistics.
func WriteRunTable(w io.Writer, c model.Config, st model.Stats) error {
	var b strings.Builder
	b.WriteString("parameters\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		fmt.Fprintf(&b, "  %-20s %s\n", p.Name(), sweep.AppendValue(nil, p, c.Get(p)))
	}
	b.WriteString("statistics\n")
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		fmt.Fprintf(&b, "  %-20s %d\n", s.Name(), st.Get(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteRunJSON writes one run as a JSON object: every parameter, then
// every statistic, under their snake_case names.
func WriteRunJSON(w io.Writer, c model.Config, st model.Stats) error {
	b := []byte("{\n")
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		b = fmt.Appendf(b, "  %q: %s,\n", p.Name(), sweep.AppendValue(nil, p, c.Get(p)))
	}
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		b = fmt.Appendf(b, "  %q: %d", s.Name(), st.Get(s))
		if int(s) < model.NumStats-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "}\n"...)
	_, err := w.Write(b)
	return err
}

// WriteRunCSV writes one run as a CSV header and one row.
func WriteRunCSV(w io.Writer, c model.Config, st model.Stats) error {
	_, err := w.Write(sweep.AppendRecord(sweep.AppendHeader(nil), &c, &st))
	return err
}

// TimelineRound is one round of a run, as the timeline shows it.
type TimelineRound struct {
	Round     int
	Reachable []bool
	Token     []int // the fencing token each node holds while it believes it leads; 0 if it does not
	Leader    int   // the record's leader
	Record    int   // the record's fencing token
	Handover  bool
	Active    int
	Accepted  int
	Trigger   model.Outcome
	Dequeued  int
	Reread    bool
}

// Event names what happened to the batch in this round, or "" if nothing.
func (r TimelineRound) Event() string {
	var ev []string
	switch r.Trigger {
	case model.TriggerStarted:
		if r.Accepted > 1 {
			ev = append(ev, "doubled")
		} else {
			ev = append(ev, "started")
		}
	case model.TriggerQueued:
		ev = append(ev, "queued")
	case model.TriggerMissed:
		ev = append(ev, "missed")
	}
	if r.Dequeued > 0 {
		ev = append(ev, fmt.Sprintf("dequeued %d", r.Dequeued))
	}
	if rej := r.Active - r.Accepted; rej > 0 && (r.Trigger != model.NoTrigger || r.Dequeued > 0) {
		ev = append(ev, fmt.Sprintf("rejected %d", rej))
	}
	return strings.Join(ev, ", ")
}

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
func TraceWindow(c model.Config) (first, last int) {
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

// Timeline runs c with failure schedule s and returns the rounds of it
// that TraceWindow(c) names.
func Timeline(c model.Config, s model.Schedule) ([]TimelineRound, model.Stats, error) {
	var rounds []TimelineRound
	var r model.Runner
	first, last := TraceWindow(c)
	st, err := r.Trace(c, s, first, last, func(v *model.RoundView) {
		tr := TimelineRound{
			Round: v.Round, Reachable: make([]bool, v.Nodes()), Token: make([]int, v.Nodes()),
			Leader: v.Leader, Record: v.Token, Handover: v.Handover, Active: v.Active,
			Accepted: v.Accepted, Trigger: v.Trigger, Dequeued: v.Dequeued, Reread: v.Reread,
		}
		for n := range tr.Reachable {
			tr.Reachable[n] = v.Reachable(n)
			tr.Token[n], _ = v.Belief(n)
		}
		rounds = append(rounds, tr)
	})
	return rounds, st, err
}

// WriteTrace writes the timeline of c under schedule s as text, one line
// per round of TraceWindow(c), saying which rounds it leaves out. In the
// nodes column each node is one character: '-' unreachable, 'o' reachable,
// and, for a node that believes it leads, the last digit of the fencing
// token it holds (bracketed while it is unreachable: it believes, but
// cannot act).
func WriteTrace(w io.Writer, c model.Config, s model.Schedule) error {
	rounds, _, err := Timeline(c, s)
	if err != nil {
		return err
	}
	var b strings.Builder
	if first, last := TraceWindow(c); first > 1 || last < c.Rounds {
		fmt.Fprintf(&b, "rounds %d to %d of %d, around the outage; the others are left out\n", first, last, c.Rounds)
	}
	width := max(5, 3*c.Nodes)
	fmt.Fprintf(&b, "%5s  %-*s  %6s  %5s  %6s  %8s  %s\n", "round", width, "nodes", "leader", "token", "active", "accepted", "events")
	for _, r := range rounds {
		var nodes strings.Builder
		for n := range r.Reachable {
			switch {
			case r.Token[n] > 0 && r.Reachable[n]:
				fmt.Fprintf(&nodes, " %d ", r.Token[n]%10)
			case r.Token[n] > 0:
				fmt.Fprintf(&nodes, "(%d)", r.Token[n]%10)
			case r.Reachable[n]:
				nodes.WriteString(" o ")
			default:
				nodes.WriteString(" - ")
			}
		}
		var ev []string
		if r.Handover {
			ev = append(ev, "handover to node "+strconv.Itoa(r.Leader))
		}
		if e := r.Event(); e != "" {
			ev = append(ev, "batch "+e)
		}
		if r.Reread {
			ev = append(ev, "re-read")
		}
		line := fmt.Sprintf("%5d  %-*s  %6d  %5d  %6d  %8d  %s", r.Round, width, nodes.String(), r.Leader, r.Record, r.Active, r.Accepted, strings.Join(ev, "; "))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}
