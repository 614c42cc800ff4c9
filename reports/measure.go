package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

type measureRow struct {
	label string
	stat  model.Stat
}

// WriteMeasure writes the publication's measure table: its three
// arrangements side by side, then the lease block. Of model.Default() it
// is byte for byte the publication's printed table. With a tick, times are
// in seconds and the table says so.
func WriteMeasure(w io.Writer, t model.Tick, m study.Measure) error {
	base, cols, u := m.Base, m.Arrangements, unit{t}
	var b strings.Builder
	if t != 0 {
		fmt.Fprintf(&b, "one round = %s; times in seconds\n", t)
	}
	fmt.Fprintf(&b, "%s\n\n", describe(t, base, m.IncidentFile, m.Incident))
	fmt.Fprintf(&b, "%-24s", "measure")
	for _, v := range study.Arrangements() {
		fmt.Fprintf(&b, "%22s", v.Name)
	}
	b.WriteByte('\n')
	for _, row := range []measureRow{
		{"batches started", model.Started}, {"batches missed", model.Missed},
		{"delayed start rounds", model.DelayedRounds}, {"double-started batches", model.DoubleStarts},
		{"rejected by fencing", model.Rejected}, {"two-leader rounds", model.TwoLeaderRounds},
		{"leaderless rounds", model.LeaderlessRounds}, {"handover rounds", model.HandoverRounds},
	} {
		fmt.Fprintf(&b, "%-24s", u.stat(row.stat, row.label))
		for i := range cols {
			fmt.Fprintf(&b, "%22s", t.AppendStat(nil, row.stat, cols[i].Get(row.stat)))
		}
		b.WriteByte('\n')
	}

	lease := []model.Stat{model.HandoverRounds, model.LeaderlessRounds, model.Missed, model.TwoLeaderRounds, model.DoubleStarts}
	fmt.Fprintf(&b, "\n%6s%50s%50s\n", "", fmt.Sprintf("long outage (%s)", u.span(m.Outages[0])), fmt.Sprintf("short outage (%s)", u.span(m.Outages[1])))
	leaseHead := "lease"
	if t != 0 {
		leaseHead = "lease (s)"
	}
	fmt.Fprintf(&b, "%6s%s\n", leaseHead, strings.Repeat(fmt.Sprintf("%11s%11s%11s%11s%11s", "handover", "leaderless", "missed", "2-leader", "double"), 2))
	for i, st := range m.Block {
		if i%len(m.Outages) == 0 {
			fmt.Fprintf(&b, "%6s", t.AppendValue(nil, model.Lease, m.Leases[i/len(m.Outages)]))
		}
		for _, s := range lease {
			fmt.Fprintf(&b, "%11s", t.AppendStat(nil, s, st.Get(s)))
		}
		if i%len(m.Outages) == len(m.Outages)-1 {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// describe describes c in one line, as the publication's table heads it,
// with its outage event: its group outage, or the incident ws of the file
// name; with a tick, in durations from the run's start.
func describe(t model.Tick, c model.Config, name string, ws model.Windows) string {
	if ws == nil {
		return description(t, c, groupFailing(t, c))
	}
	return description(t, c, incidentFailing(t, name, ws))
}

// incidentFailing says who fails when, and how, in an incident.
func incidentFailing(t model.Tick, name string, ws model.Windows) string {
	u := unit{t}
	var fs []string
	for _, w := range ws {
		fs = append(fs, fmt.Sprintf("node %d %s over %s", w.Node, failedAs(w.Failure), u.during(w.First, w.Last)))
	}
	return fmt.Sprintf("the incident of `%s`: %s", name, strings.Join(fs, ", "))
}

// failedAs says how a node failed, for a sentence.
func failedAs(f model.Failure) string { return f.Kind.Behaviour().Said }

// groupFailing says which nodes the group outage of c cuts off, when.
func groupFailing(t model.Tick, c model.Config) string {
	u := unit{t}
	var failing string
	during := u.during(c.Start, c.Start+c.Outage-1)
	if t == 0 {
		during = "in " + during
	} else {
		during = "over " + during
	}
	switch last := min(c.DownFrom+c.Down, c.Nodes) - 1; {
	case c.Outage == 0 || c.Down == 0 || c.DownFrom >= c.Nodes:
		failing = "no node becomes unreachable"
	case c.Down == 1 && c.DownFrom == 0:
		failing = "the leader node is " + failingKind(t, c) + " " + during
	case last == c.DownFrom:
		failing = fmt.Sprintf("node %d is %s %s", c.DownFrom, failingKind(t, c), during)
	default:
		failing = fmt.Sprintf("nodes %d-%d are %s %s", c.DownFrom, last, failingKind(t, c), during)
	}
	return failing
}

// description describes c in one line, failing saying who fails when.
func description(t model.Tick, c model.Config, failing string) string {
	u := unit{t}
	extra := ""
	if c.RetryPeriod > 1 || t != 0 {
		extra += ", retry period " + u.count(c.RetryPeriod)
	}
	if c.RenewDeadline > 0 {
		extra += ", renew deadline " + u.count(c.RenewDeadline)
	}
	if c.Jitter {
		extra += ", jittered polls"
	}
	if c.BlackHole {
		extra += ", calls hang in an outage"
	}
	if c.Drift != 0 {
		extra += fmt.Sprintf(", the failing nodes' clocks %+d‰", c.Drift)
	}
	if c.Quorum {
		extra += ", quorum handovers"
	}
	if t == 0 {
		return fmt.Sprintf("%d nodes, %d rounds, lease %d, renewal %d%s; %s. %s trigger: %s.",
			c.Nodes, c.Rounds, c.Lease, c.RereadPeriod, extra, failing, capitalize(batchName(t, c)), triggerRounds(t, c))
	}
	reread := ", renewal " + u.count(c.RereadPeriod)
	if c.RereadPeriod == 0 { // only the renew deadline ends a belief
		reread = ""
	}
	return fmt.Sprintf("%d nodes, a run of %s in rounds of %s, lease %s%s%s; %s. %s trigger: %s.",
		c.Nodes, u.span(c.Rounds), t, u.count(c.Lease), reread, extra, failing, capitalize(batchName(t, c)), triggerRounds(t, c))
}

// triggerRounds lists the trigger rounds, or with a tick when they fall
// due (unit.due), eliding the middle of long lists.
func triggerRounds(t model.Tick, c model.Config) string {
	n, u := c.Triggers(), unit{t}
	when := func(r int) string {
		if t == 0 {
			return strconv.Itoa(r)
		}
		return u.due(r)
	}
	switch {
	case n == 0:
		return "none"
	case n <= 8:
		var r []string
		for t := c.Period; t <= c.Rounds; t += c.Period {
			r = append(r, when(t))
		}
		if t == 0 {
			return "rounds " + strings.Join(r, ", ")
		}
		return "at " + strings.Join(r, ", ")
	case t == 0:
		return fmt.Sprintf("every %d rounds, %d, %d, …, %d", c.Period, c.Period, 2*c.Period, n*c.Period)
	}
	return fmt.Sprintf("every %s, at %s, %s, …, %s", u.span(c.Period), when(c.Period), when(2*c.Period), when(n*c.Period))
}
