package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
)

// Arrangement is one arrangement the seed compares: plain, fencing, and fencing
// with the persistent trigger.
type Arrangement struct {
	Name              string
	Fencing           bool
	PersistentTrigger bool
}

// Arrangements returns the publication's three arrangements, in the publication's order.
func Arrangements() []Arrangement {
	return []Arrangement{{"plain", false, false}, {"fencing", true, false}, {"fencing+trigger", true, true}}
}

// Apply returns c with the variant's toggles.
func (v Arrangement) Apply(c model.Config) model.Config {
	c.Fencing, c.PersistentTrigger = v.Fencing, v.PersistentTrigger
	return c
}

// The publication's lease block: these leases against a long and a short outage.
var (
	publicationLeases  = [...]int{2, 3, 5, 8}
	publicationOutages = [...]int{5, 2}
)

// LeaseBlock returns the configurations behind the publication's lease block:
// base with every lease of 2, 3, 5, 8 and outage 5 and 2, lease outermost.
func LeaseBlock(base model.Config) []model.Config {
	var cs []model.Config
	for _, lease := range publicationLeases {
		for _, outage := range publicationOutages {
			c := base
			c.Lease, c.Outage, c.Fencing, c.PersistentTrigger = lease, outage, false, false
			cs = append(cs, c)
		}
	}
	return cs
}

type measureRow struct {
	label string
	stat  model.Stat
}

// WriteMeasure writes the publication's measure table for base: its three
// arrangements side by side, then the lease block. On model.Default() it
// is byte for byte the publication's published table.
func WriteMeasure(w io.Writer, base model.Config) error {
	var cols [3]model.Stats
	for i, v := range Arrangements() {
		st, err := model.Run(v.Apply(base))
		if err != nil {
			return err
		}
		cols[i] = st
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", Scenario(base))
	fmt.Fprintf(&b, "%-24s", "measure")
	for _, v := range Arrangements() {
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
	fmt.Fprintf(&b, "\n%6s%50s%50s\n", "", fmt.Sprintf("long outage (%d rounds)", publicationOutages[0]), fmt.Sprintf("short outage (%d rounds)", publicationOutages[1]))
	fmt.Fprintf(&b, "%6s%s\n", "lease", strings.Repeat(fmt.Sprintf("%11s%11s%11s%11s%11s", "handover", "leaderless", "missed", "2-leader", "double"), 2))
	configs := LeaseBlock(base)
	for i, c := range configs {
		if i%len(publicationOutages) == 0 {
			fmt.Fprintf(&b, "%6d", c.Lease)
		}
		st, err := model.Run(c)
		if err != nil {
			return err
		}
		for _, s := range lease {
			fmt.Fprintf(&b, "%11d", st.Get(s))
		}
		if i%len(publicationOutages) == len(publicationOutages)-1 {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Scenario describes base in one line, as the publication's table heads it.
func Scenario(c model.Config) string {
	var failing string
	switch {
	case c.Outage == 0 || c.Down == 0:
		failing = "no node becomes unreachable"
	case c.Down == 1:
		failing = fmt.Sprintf("the leader node is unreachable in rounds %d-%d", c.Start, c.Start+c.Outage-1)
	default:
		failing = fmt.Sprintf("nodes 0-%d are unreachable in rounds %d-%d", min(c.Down, c.Nodes)-1, c.Start, c.Start+c.Outage-1)
	}
	quorum := ""
	if c.Quorum {
		quorum = ", quorum handovers"
	}
	return fmt.Sprintf("%d nodes, %d rounds, lease %d, renewal %d%s; %s. End-of-day batch trigger: %s.",
		c.Nodes, c.Rounds, c.Lease, c.Renewal, quorum, failing, triggerRounds(c))
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
