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
// is byte for byte the publication's printed table.
func WriteMeasure(w io.Writer, m study.Measure) error {
	base, cols := m.Base, m.Arrangements
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", Scenario(base))
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
		fmt.Fprintf(&b, "%-24s", row.label)
		for i := range cols {
			fmt.Fprintf(&b, "%22d", cols[i].Get(row.stat))
		}
		b.WriteByte('\n')
	}

	lease := []model.Stat{model.HandoverRounds, model.LeaderlessRounds, model.Missed, model.TwoLeaderRounds, model.DoubleStarts}
	fmt.Fprintf(&b, "\n%6s%50s%50s\n", "", fmt.Sprintf("long outage (%d rounds)", m.Outages[0]), fmt.Sprintf("short outage (%d rounds)", m.Outages[1]))
	fmt.Fprintf(&b, "%6s%s\n", "lease", strings.Repeat(fmt.Sprintf("%11s%11s%11s%11s%11s", "handover", "leaderless", "missed", "2-leader", "double"), 2))
	for i, st := range m.Block {
		if i%len(m.Outages) == 0 {
			fmt.Fprintf(&b, "%6d", m.Leases[i/len(m.Outages)])
		}
		for _, s := range lease {
			fmt.Fprintf(&b, "%11d", st.Get(s))
		}
		if i%len(m.Outages) == len(m.Outages)-1 {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Scenario describes base in one line, as the publication's table heads it.
func Scenario(c model.Config) string {
	var failing string
	switch last := min(c.DownFrom+c.Down, c.Nodes) - 1; {
	case c.Outage == 0 || c.Down == 0 || c.DownFrom >= c.Nodes:
		failing = "no node becomes unreachable"
	case c.Down == 1 && c.DownFrom == 0:
		failing = fmt.Sprintf("the leader node is unreachable in rounds %d-%d", c.Start, c.Start+c.Outage-1)
	case last == c.DownFrom:
		failing = fmt.Sprintf("node %d is unreachable in rounds %d-%d", c.DownFrom, c.Start, c.Start+c.Outage-1)
	default:
		failing = fmt.Sprintf("nodes %d-%d are unreachable in rounds %d-%d", c.DownFrom, last, c.Start, c.Start+c.Outage-1)
	}
	extra := ""
	if c.RetryPeriod > 1 {
		extra += fmt.Sprintf(", retry period %d", c.RetryPeriod)
	}
	if c.Jitter {
		extra += ", jittered polls"
	}
	if c.BlackHole {
		extra += ", calls hang in an outage"
	}
	if c.Quorum {
		extra += ", quorum handovers"
	}
	return fmt.Sprintf("%d nodes, %d rounds, lease %d, renewal %d%s; %s. End-of-day batch trigger: %s.",
		c.Nodes, c.Rounds, c.Lease, c.Renewal, extra, failing, triggerRounds(c))
}

// triggerRounds lists the trigger rounds, eliding the middle of long lists.
func triggerRounds(c model.Config) string {
	n := c.Triggers()
	switch {
	case n == 0:
		return "none"
	case n <= 8:
		var r []string
		for t := c.Period; t <= c.Rounds; t += c.Period {
			r = append(r, strconv.Itoa(t))
		}
		return "rounds " + strings.Join(r, ", ")
	}
	return fmt.Sprintf("every %d rounds, %d, %d, …, %d", c.Period, c.Period, 2*c.Period, n*c.Period)
}
