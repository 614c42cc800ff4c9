package reports

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/montecarlo"
)

// MonteCarloHead writes the line that opens montecarlo's table.
func MonteCarloHead(w io.Writer, mc *montecarlo.MonteCarlo, rounds int) error {
	t := mc.Grid.Tick
	length, up := fmt.Sprintf("%d rounds", rounds), mc.Up.String()+" rounds"
	if t != 0 {
		length, up = fmt.Sprintf("%s (%d rounds of %s; times in seconds)", t.DurationOf(rounds), rounds, t), t.FormatLengths(mc.Up)
	}
	replicas := fmt.Sprintf("%d replicas of %s", mc.Replicas, length)
	if mc.Precision > 0 {
		replicas = fmt.Sprintf("replicas of %s, %d at a time up to %d, until every headline figure's 95%% interval is within ±%s%% of it (or ±%s)",
			length, mc.Replicas, mc.MaxReplicas, strconv.FormatFloat(100*mc.Precision, 'f', -1, 64), strconv.FormatFloat(mc.Floor, 'f', -1, 64))
	}
	also := ""
	if len(mc.Also) > 0 {
		also = "; and besides, " + strings.ReplaceAll(mc.AlsoText(t), ";", "; ")
	}
	lock := ""
	if c := mc.Grid.Config(0); c.Protocol != model.ProtocolClientGo {
		lock = fmt.Sprintf("; the lock's protocol %s", model.Protocol.Names()[c.Protocol])
		if c.LockDelay > 0 {
			lock += fmt.Sprintf(", lock-delay %s", t.FormatValue(model.LockDelay, c.LockDelay))
		}
		if c.AcquireWait > 0 {
			lock += fmt.Sprintf(", acquire wait %s", t.FormatValue(model.AcquireWait, c.AcquireWait))
		}
		if c.DisconnectDelay > 0 {
			lock += fmt.Sprintf(", disconnect delay %s", t.FormatValue(model.DisconnectDelay, c.DisconnectDelay))
		}
	}
	_, err := fmt.Fprintf(w, "every node up for %s, then down for %s%s, independently; %s, seed %d%s\n",
		up, t.FormatLengths(mc.Down), also, replicas, mc.Seed, lock)
	return err
}

// MonteCarloSummary writes one configuration's block of the table.
func MonteCarloSummary(w io.Writer, mc *montecarlo.MonteCarlo, s *montecarlo.Summary) error {
	var b strings.Builder
	c, t := s.Config, mc.Grid.Tick
	timing := ""
	if c.RetryPeriod > 1 || c.RenewDeadline > 0 {
		timing = fmt.Sprintf(", retry period %s, renew deadline %s", t.Count(c.RetryPeriod), t.Count(c.RenewDeadline))
	}
	for _, p := range []model.Param{model.Jitter, model.BlackHole, model.Partition, model.Crash, model.Release, model.Pause} {
		if c.Get(p) != 0 { // said only when on, so a study without them reads as before
			timing += ", " + strings.ReplaceAll(p.Name(), "_", " ")
		}
	}
	if c.Drift != 0 {
		timing += fmt.Sprintf(", drift %+d‰", c.Drift)
	}
	trigger := ""
	if c.BatchLen > 1 {
		trigger += ", batch length " + t.Count(c.BatchLen)
	}
	if c.CatchUpWindow > 0 {
		trigger += ", catch-up window " + t.Count(c.CatchUpWindow)
	}
	for _, p := range []model.Param{model.CatchUpOnce, model.IdempotencyKey} {
		if c.Get(p) != 0 {
			trigger += ", " + strings.ReplaceAll(p.Name(), "_", " ")
		}
	}
	if c.Overlap != model.OverlapAllow {
		trigger += ", overlap " + string(model.Overlap.AppendValue(nil, int(c.Overlap)))
	}
	fmt.Fprintf(&b, "\nnodes %d, lease %s, renewal %s%s, period %s%s, fencing %t, persistent trigger %t, quorum %t\n",
		c.Nodes, t.Count(c.Lease), t.Count(c.RereadPeriod), timing, t.Count(c.Period), trigger, c.Fencing, c.PersistentTrigger, c.Quorum)
	if mc.Precision > 0 {
		var loose []string
		format := "%s %.3f ±%.3f (want ±%.3f)" // as the table below gives them: per replica, or lines a year
		if mc.RoundsPerYear > 0 {
			format = "%s %.1f ±%.1f (want ±%.1f)"
		}
		for _, f := range mc.Headline(s) {
			if !mc.Precise(f) {
				// In the figure's unit, not as a share of it: a figure of
				// zero is imprecise only against the floor.
				want := max(mc.Precision*math.Abs(f.Value), mc.Floor)
				loose = append(loose, fmt.Sprintf(format, f.Name, f.Value, f.CI95.HalfWidth(), want))
			}
		}
		if s.Precise {
			fmt.Fprintf(&b, "  precise after %d replicas\n", s.Replicas)
		} else {
			fmt.Fprintf(&b, "  not precise at --max-replicas %d: %s\n", s.Replicas, strings.Join(loose, ", "))
		}
	}
	if step := c.PhasePeriod(); mc.PhaseAverage && step < c.Period { // else the period's own triggers are the densest
		fmt.Fprintf(&b, "  averaged over the trigger's phase: a trigger every %s instead of %s, each counting as %s of a batch in the per-year figures\n",
			t.Count(step), t.Count(c.Period), strconv.FormatFloat(float64(step)/float64(c.Period), 'g', 4, 64))
	}
	fmt.Fprintf(&b, "  %-22s%16s  %s\n", "per replica", "mean", "95% interval")
	for k := model.Stat(0); int(k) < model.NumStats; k++ {
		mean, ci := s.InUnit(t, k)
		fmt.Fprintf(&b, "  %-22s%16.3f  [%.3f, %.3f]\n", t.StatName(k), mean, ci.Lo, ci.Hi)
	}
	if mc.RoundsPerYear > 0 {
		fmt.Fprintf(&b, "  per year (%s rounds, %s lines a batch):\n", strconv.FormatFloat(mc.RoundsPerYear, 'f', -1, 64), strconv.FormatFloat(mc.LinesPerBatch, 'f', -1, 64))
		for _, row := range []struct {
			what string
			mean float64
			ci   montecarlo.Interval
		}{{"missed batches", s.MissedPerYear, s.MissedPerYearCI95}, {"double batches", s.DoublePerYear, s.DoublePerYearCI95}} {
			lines := row.ci.Scale(mc.LinesPerBatch)
			fmt.Fprintf(&b, "  %-22s%16.3f  [%.3f, %.3f]  = %.1f [%.1f, %.1f] lines\n", row.what, row.mean, row.ci.Lo, row.ci.Hi, row.mean*mc.LinesPerBatch, lines.Lo, lines.Hi)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
