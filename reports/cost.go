package reports

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// publication reports whether r is the publication's own question: its
// scenario in rounds, its 4,000 lines a batch (the estimate it calls
// K01) and its 6 and 12 outage events a year (the assumption it calls
// KK4, "handovers per year"). Its table is then printed byte for byte,
// labels and all, as the contract asks; every other uses plain words.
func publication(r study.CostResult) bool {
	return r.Tick == 0 && r.Incident == nil && r.Config == model.Default() &&
		r.LinesPerBatch == study.PublicationLinesPerBatch && slices.Equal(r.EventsPerYear, []float64{6, 12})
}

// linesLine says how many lines a batch makes; in the publication's own
// table (pub), with its label.
func linesLine(r study.CostResult, pub bool) string {
	if pub {
		return fmt.Sprintf("one batch = %d invoice lines (K01, computed value)\n", r.LinesPerBatch)
	}
	return fmt.Sprintf("one batch = %d invoice lines\n", r.LinesPerBatch)
}

// ratesHead heads the column of outage events a year: the publication's
// KK4 in its own table, else what the number is.
func ratesHead(r study.CostResult) string {
	if publication(r) {
		return "KK4"
	}
	return "outages/yr"
}

// count formats a number of rounds in the unit of t: "5", or "5s" with a
// tick.
func count(t model.Tick, n int) string {
	if t == 0 {
		return strconv.Itoa(n)
	}
	return string(t.AppendSeconds(nil, n)) + "s"
}

// mean formats an average number of rounds to four decimals in the unit
// of t: "2.5000 rounds", or "2.5000s" with a tick.
func mean(t model.Tick, x float64) string {
	if t == 0 {
		return fmt.Sprintf("%.4f rounds", x)
	}
	return fmt.Sprintf("%.4fs", t.Seconds(x))
}

func windowLine(r study.CostResult) string {
	t := r.Tick
	return fmt.Sprintf("model window: leaderless %s/%s = %.4f, two-leader %s/%s = %.4f\n",
		count(t, r.Window.Run.LeaderlessRounds), count(t, r.Window.Rounds), r.Window.Leaderless,
		count(t, r.Window.Run.TwoLeaderRounds), count(t, r.Window.Rounds), r.Window.TwoLeader)
}

func phaseLines(r study.CostResult) string {
	c, p, t := r.Config, r.Phase, r.Tick
	phases := fmt.Sprintf("lcm(period %d, renewal %d)", c.Period, c.RereadPeriod)
	if c.RetryPeriod > 1 || c.RereadPeriod == 0 {
		phases = fmt.Sprintf("lcm(period %d, renewal %d, retry period %d)", c.Period, c.RereadPeriod, c.RetryPeriod)
	}
	lasts := fmt.Sprintf("%d rounds", p.Horizon)
	if t != 0 {
		phases, lasts = phases+" rounds of "+t.String(), t.DurationOf(p.Horizon)
	}
	if cost.PhasesOnePeriod(c) {
		phases = "one period, as " + phases + fmt.Sprintf(" is over %d: the first period's starts stand for every period's", cost.MaxPhases)
	}
	jitter := ""
	if c.Jitter {
		jitter = fmt.Sprintf(", its followers' jitter its own, drawn from seed %d", r.Seed)
	}
	event := "outage"
	if r.Incident != nil {
		event = "incident"
	}
	return fmt.Sprintf("phase method: the "+event+" starts at each of the %d phases of %s; each run lasts %s from the "+event+"'s start%s\n"+
		"per outage event: missed %.4f, double-started %.4f, delayed start %s, rejected %.4f, leaderless %s and two-leader %s\n",
		p.Phases, phases, lasts, jitter, p.Missed+p.Unresolved, p.DoubleStarts, mean(t, p.DelayedRounds), p.Rejected, strings.TrimSuffix(mean(t, p.LeaderlessRounds), " rounds"), mean(t, p.TwoLeaderRounds))
}

// WriteWindowCost writes the publication's cost table: the window method at each
// rate, then the fenced run and a long lease for comparison. On the
// defaults it is byte for byte the publication's published table.
func WriteWindowCost(w io.Writer, r study.CostResult) error {
	fenced, ls := r.Fenced, r.Long
	var b strings.Builder
	b.WriteString(windowLine(r))
	b.WriteString(linesLine(r, publication(r)))
	width := max(5, len(ratesHead(r))) // the publication's five
	fmt.Fprintf(&b, "\n%*s%21s%19s%18s%13s\n", width, ratesHead(r), "missed batches/yr", "lines not produced", "double batches/yr", "double lines")
	for _, p := range r.Projections(cost.Window) {
		fmt.Fprintf(&b, "%*s%21.2f%19.0f%18.2f%13.0f\n", width, rate(p.EventsPerYear), p.MissedBatches, p.MissedLines(), p.DoubleBatches, p.DoubleLines())
	}
	if t := r.Tick; t != 0 {
		fmt.Fprintf(&b, "\nwith fencing + persistent trigger: missed batches %d, double-started batches %d, delayed start %s\n",
			fenced.Missed, fenced.DoubleStarts, count(t, fenced.DelayedRounds))
		fmt.Fprintf(&b, "with lease %s (long): renewal to takeover %s, leaderless %s, two-leader %s\n",
			t.DurationOf(study.LongLeaseOf(r.Config)), count(t, ls.HandoverRounds), count(t, ls.LeaderlessRounds), count(t, ls.TwoLeaderRounds))
	} else {
		fmt.Fprintf(&b, "\nwith fencing + persistent trigger: missed batches %d, double-started batches %d, delayed start %d rounds\n",
			fenced.Missed, fenced.DoubleStarts, fenced.DelayedRounds)
		fmt.Fprintf(&b, "with lease %d (long): handover rounds %d, leaderless rounds %d, two-leader rounds %d\n",
			study.LongLeaseOf(r.Config), ls.HandoverRounds, ls.LeaderlessRounds, ls.TwoLeaderRounds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

const costHead = "%12s  %-12s%19s%20s%19s%14s\n"

// WritePhaseCost writes the phase method's table.
func WritePhaseCost(w io.Writer, r study.CostResult) error {
	return writeCostTable(w, r, cost.Phase)
}

// WriteBothCost writes both methods side by side, with the ratio of the
// phase method's figure to the window method's.
func WriteBothCost(w io.Writer, r study.CostResult) error {
	return writeCostTable(w, r, cost.Window, cost.Phase)
}

func writeCostTable(w io.Writer, r study.CostResult, methods ...cost.Method) error {
	var b strings.Builder
	if len(methods) > 1 {
		b.WriteString(windowLine(r))
	}
	b.WriteString(phaseLines(r))
	b.WriteString(linesLine(r, false))
	fmt.Fprintf(&b, "\n"+costHead, "outages/yr", "method", "missed batches/yr", "lines not produced", "double batches/yr", "double lines")
	ps := r.Projections(methods...)
	for i, p := range ps {
		fmt.Fprintf(&b, "%12s  %-12s%19.2f%20.0f%19.2f%14.0f\n", rate(p.EventsPerYear), p.Method, p.MissedBatches, p.MissedLines(), p.DoubleBatches, p.DoubleLines())
		if len(methods) == 2 && i%2 == 1 {
			win := ps[i-1]
			row := fmt.Sprintf(costHead, "", "phase/window", ratio(p.MissedBatches, win.MissedBatches), "", ratio(p.DoubleBatches, win.DoubleBatches), "")
			b.WriteString(strings.TrimRight(row, " \n") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func rate(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// ratio formats a/b to two decimals, or "-" when b is zero.
func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64)
}

// RecommendInput is what a lease recommendation is asked for.
type RecommendInput struct {
	Config        model.Config
	Leases        []int
	Mix           []cost.MixEntry
	EventsPerYear float64
	LinesPerBatch int
	Tick          model.Tick   // the length of a round, for outputs in seconds
	Seed          uint64       // the seed of the followers' jitter
	Weights       cost.Weights // the price of each yearly measure; all zero: none given
}

// WriteRecommend writes the lease ranking, then the answer: the cheapest
// lease under the weights, ties named as ties, or without weights the
// Pareto front to choose from; and the publication's measure beside it.
func WriteRecommend(w io.Writer, in RecommendInput, ranks []cost.Rank) error {
	var b strings.Builder
	t := in.Tick
	var mix []string
	for _, e := range in.Mix {
		mix = append(mix, fmt.Sprintf("%s (%.0f%%)", t.DurationOf(e.Outage), 100*e.Weight))
	}
	c := in.Config
	c.Outage = 0
	fmt.Fprintf(&b, "outage mix: %s\n", strings.Join(mix, ", "))
	timing := fmt.Sprintf("renewal %d, period %d", c.RereadPeriod, c.Period)
	if t != 0 {
		timing = fmt.Sprintf("renewal %s, retry period %s, renew deadline %s, period %s", t.DurationOf(c.RereadPeriod), t.DurationOf(c.RetryPeriod), t.DurationOf(c.RenewDeadline), t.DurationOf(c.Period))
	} else if c.RetryPeriod > 1 || c.RenewDeadline > 0 {
		timing = fmt.Sprintf("renewal %d, retry period %d, renew deadline %d, period %d", c.RereadPeriod, c.RetryPeriod, c.RenewDeadline, c.Period)
	}
	for _, o := range []struct {
		name string
		n    int
	}{{"lock delay", c.LockDelay}, {"acquire wait", c.AcquireWait}, {"disconnect delay", c.DisconnectDelay}} { // a lock's own, with its protocol
		if o.n > 0 && t != 0 {
			timing += fmt.Sprintf(", %s %s", o.name, t.DurationOf(o.n))
		} else if o.n > 0 {
			timing += fmt.Sprintf(", %s %d", o.name, o.n)
		}
	}
	fmt.Fprintf(&b, "phase method, %s outage events a year, %d invoice lines per batch; %d nodes, protocol %s, %s, fencing %t, persistent trigger %t, down %d, quorum %t\n\n",
		rate(in.EventsPerYear), in.LinesPerBatch, c.Nodes, model.Protocol.Names()[c.Protocol], timing, c.Fencing, c.PersistentTrigger, c.Down, c.Quorum)
	unit, scale := "rounds", 1.0
	delayUnit, delayScale := "delayed rounds/yr", 1.0
	if t != 0 {
		unit, scale = "s", t.Seconds(1)
		delayUnit, delayScale = "delay h/yr", t.Seconds(1)/3600
	}
	width := 5
	if t != 0 {
		width = 7
	}
	priced := in.Weights != cost.Weights{}
	last := "Pareto"
	if priced {
		last = "cost/yr"
	}
	front := cost.Pareto(ranks)
	fmt.Fprintf(&b, "%*s%22s%19s%19s%19s%14s%12s\n", width, t.Name(model.Lease), "window "+unit+"/event", "missed lines/yr", "double lines/yr", delayUnit, "handovers/yr", last)
	for i, r := range ranks {
		mark := ""
		switch {
		case priced:
			mark = strconv.FormatFloat(r.Cost(in.Weights), 'f', 1, 64)
		case front[i]:
			mark = "yes"
		}
		fmt.Fprintf(&b, "%*s%22.4f%19.1f%19.1f%19.2f%14.2f%12s\n", width, t.AppendValue(nil, model.Lease, r.Lease), scale*r.WindowRounds, r.MissedLines, r.DoubleLines, delayScale*r.DelayedRounds, r.Handovers, mark)
	}
	b.WriteString("\n")
	var none []cost.Rank
	for _, r := range ranks {
		if r.NoMargin {
			none = append(none, r)
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(&b, "no two-leader margin, so never chosen: %s (a leader cut off from the record gives up %s after its last renewal, no sooner than a follower takes over, and nothing fences; see leasesim settings)\n",
			leaseList(t, none), t.DurationOf(c.RetryPeriod+c.RenewDeadline))
	}
	switch cheapest := cost.Cheapest(ranks, in.Weights, 0.05); { // as shown, to 0.1
	case len(none) == len(ranks):
		b.WriteString("no lease is safe: lengthen the lease past the retry period and the renew deadline, shorten the deadline, or turn on fencing\n")
	case priced:
		if len(cheapest) == 1 {
			fmt.Fprintf(&b, "cheapest lease: %s, %.1f a year\n", t.Count(cheapest[0].Lease), cheapest[0].Cost(in.Weights))
		} else {
			fmt.Fprintf(&b, "cheapest leases, tied at %.1f a year: %s\n", cheapest[0].Cost(in.Weights), leaseList(t, cheapest))
		}
	default:
		var onFront []cost.Rank
		for i, r := range ranks {
			if front[i] {
				onFront = append(onFront, r)
			}
		}
		fmt.Fprintf(&b, "on the Pareto front (no other lease is as good in missed and double lines, delay and handovers, and better in one): %s\n", leaseList(t, onFront))
		b.WriteString("price them to pick one: --cost-missed-line, --cost-double-line, --cost-delay-hour (with --tick), --cost-handover\n")
	}
	byWindow := cost.Best(ranks, func(r cost.Rank) float64 { return r.WindowRounds })
	word := "rounds"
	if t != 0 {
		word = "seconds"
	}
	fmt.Fprintf(&b, "the publication's measure, leaderless + two-leader %s per event, is least at lease %s (%.4f %s)\n", word, t.Count(byWindow.Lease), scale*byWindow.WindowRounds, unit)
	_, err := io.WriteString(w, b.String())
	return err
}

// leaseList names the leases of ranks, comma-separated.
func leaseList(t model.Tick, ranks []cost.Rank) string {
	var names []string
	for _, r := range ranks {
		names = append(names, t.Count(r.Lease))
	}
	return strings.Join(names, ", ")
}

// WriteCalmRuns writes, under a per-fire lock (ShedLock) whose slots run
// more than once with no failure, the double batches that costs beside
// the events': per slot, and with a tick per year of 365 days; nothing
// otherwise. The phase method's figures are then each event's beyond it.
func WriteCalmRuns(w io.Writer, c model.Config, t model.Tick, linesPerBatch int) error {
	runs := c.CalmRuns()
	if runs <= 1 {
		return nil
	}
	batches := "batches"
	if runs == 2 {
		batches = "batch"
	}
	line := fmt.Sprintf("\nwith no failure at all, every slot runs %d times under protocol %s: %d double %s a slot", runs, model.Protocol.AppendValue(nil, int(c.Protocol)), runs-1, batches)
	if t != 0 {
		slots := float64(365*24*time.Hour) / (float64(t) * float64(c.Period))
		line += fmt.Sprintf(", %.0f a year of %.0f slots (%.0f double lines), on top of the events' above, which count only what an event adds", slots*float64(runs-1), slots, slots*float64(runs-1)*float64(linesPerBatch))
	}
	_, err := io.WriteString(w, line+"\n")
	return err
}
