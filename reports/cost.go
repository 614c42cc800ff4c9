package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

func linesLine(r study.CostResult) string {
	if r.LinesPerBatch == study.PublicationLinesPerBatch {
		return fmt.Sprintf("one batch = %d invoice lines (K01, computed value)\n", r.LinesPerBatch)
	}
	return fmt.Sprintf("one batch = %d invoice lines\n", r.LinesPerBatch)
}

func windowLine(r study.CostResult) string {
	return fmt.Sprintf("model window: leaderless %d/%d = %.4f, two-leader %d/%d = %.4f\n",
		r.Window.Run.LeaderlessRounds, r.Window.Rounds, r.Window.Leaderless,
		r.Window.Run.TwoLeaderRounds, r.Window.Rounds, r.Window.TwoLeader)
}

func phaseLines(r study.CostResult) string {
	c, p := r.Config, r.Phase
	return fmt.Sprintf("phase method: the outage starts at each of the %d phases of lcm(period %d, renewal %d); each run lasts %d rounds from the outage's start\n"+
		"per outage event: missed %.4f, double-started %.4f, delayed start %.4f rounds, rejected %.4f, leaderless %.4f and two-leader %.4f rounds\n",
		p.Phases, c.Period, c.Renewal, p.Horizon, p.Missed+p.Unresolved, p.DoubleStarts, p.DelayedRounds, p.Rejected, p.LeaderlessRounds, p.TwoLeaderRounds)
}

// WriteWindowCost writes the publication's cost table: the window method at each
// rate, then the fenced run and a long lease for comparison. On the
// defaults it is byte for byte the publication's published table.
func WriteWindowCost(w io.Writer, r study.CostResult) error {
	fenced, ls := r.Fenced, r.Long
	var b strings.Builder
	b.WriteString(windowLine(r))
	b.WriteString(linesLine(r))
	fmt.Fprintf(&b, "\n%5s%21s%19s%18s%13s\n", "KK4", "missed batches/yr", "lines not produced", "double batches/yr", "double lines")
	for _, p := range r.Projections(cost.Window) {
		fmt.Fprintf(&b, "%5s%21.2f%19.0f%18.2f%13.0f\n", rate(p.EventsPerYear), p.MissedBatches, p.MissedLines(), p.DoubleBatches, p.DoubleLines())
	}
	fmt.Fprintf(&b, "\nwith fencing + persistent trigger: missed batches %d, double-started batches %d, delayed start %d rounds\n",
		fenced.Missed, fenced.DoubleStarts, fenced.DelayedRounds)
	fmt.Fprintf(&b, "with lease %d (long): handover rounds %d, leaderless rounds %d, two-leader rounds %d\n",
		study.LongLease, ls.HandoverRounds, ls.LeaderlessRounds, ls.TwoLeaderRounds)
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
	b.WriteString(linesLine(r))
	fmt.Fprintf(&b, "\n"+costHead, "handovers/yr", "method", "missed batches/yr", "lines not produced", "double batches/yr", "double lines")
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
}

// WriteRecommend writes the lease ranking and the best lease by each
// measure.
func WriteRecommend(w io.Writer, in RecommendInput, ranks []cost.LeaseRank) error {
	var b strings.Builder
	var mix []string
	for _, e := range in.Mix {
		mix = append(mix, fmt.Sprintf("%d rounds (%.0f%%)", e.Outage, 100*e.Weight))
	}
	c := in.Config
	c.Outage = 0
	fmt.Fprintf(&b, "outage mix: %s\n", strings.Join(mix, ", "))
	fmt.Fprintf(&b, "phase method, %s handovers a year, %d invoice lines per batch; %d nodes, renewal %d, period %d, fencing %t, persistent trigger %t, down %d, quorum %t\n\n",
		rate(in.EventsPerYear), in.LinesPerBatch, c.Nodes, c.Renewal, c.Period, c.Fencing, c.PersistentTrigger, c.Down, c.Quorum)
	fmt.Fprintf(&b, "%5s%22s%19s%19s%19s\n", "lease", "window rounds/event", "missed lines/yr", "double lines/yr", "total lines/yr")
	for _, r := range ranks {
		fmt.Fprintf(&b, "%5d%22.4f%19.1f%19.1f%19.1f\n", r.Lease, r.WindowRounds, r.MissedLines, r.DoubleLines, r.Lines())
	}
	byWindow := cost.Best(ranks, func(r cost.LeaseRank) float64 { return r.WindowRounds })
	byLines := cost.Best(ranks, cost.LeaseRank.Lines)
	fmt.Fprintf(&b, "\nbest lease by leaderless + two-leader rounds per event: %d (%.4f rounds)\n", byWindow.Lease, byWindow.WindowRounds)
	fmt.Fprintf(&b, "best lease by missed + double invoice lines per year: %d (%.1f lines)\n", byLines.Lease, byLines.Lines())
	_, err := io.WriteString(w, b.String())
	return err
}
