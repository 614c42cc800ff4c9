package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
)

// ReplayRow is an incident's run under one of the settings compared.
type ReplayRow struct {
	Name   string // the setting, as "kubernetes, lease 15s"
	Config model.Config
	Stats  model.Stats
	Trace  []byte // the run round by round, if asked for
}

// WriteReplay writes an incident's runs side by side: what it cost under
// each setting, then, where kept, each run round by round.
func WriteReplay(w io.Writer, t model.Tick, in incident.Incident, rows []ReplayRow) error {
	var b strings.Builder
	u := unit{t}
	var failures []string
	for _, f := range in.Failures {
		failures = append(failures, fmt.Sprintf("node %d %s", f.Node, u.during(f.First, f.Last)))
	}
	first, last := in.Span()
	fmt.Fprintf(&b, "incident: %d %s failures, %s: %s\n", len(in.Failures), in.Kind, u.during(first, last), strings.Join(failures, "; "))
	if t != 0 {
		fmt.Fprintf(&b, "one round = %s; times in seconds\n", t)
	}
	width := len("setting")
	for _, r := range rows {
		width = max(width, len(r.Name))
	}
	stats := []model.Stat{model.Missed, model.Unresolved, model.DoubleStarts, model.Deduplicated, model.DelayedRounds, model.LeaderlessRounds, model.TwoLeaderRounds, model.Handovers}
	fmt.Fprintf(&b, "\n%-*s", width, "setting")
	for _, s := range stats {
		fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.StatName(s))
	}
	b.WriteByte('\n')
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s", width, r.Name)
		for _, s := range stats {
			fmt.Fprintf(&b, "  %*s", len(t.StatName(s)), t.AppendStat(nil, s, r.Stats.Get(s)))
		}
		b.WriteByte('\n')
	}
	for _, r := range rows {
		if r.Trace == nil {
			continue
		}
		fmt.Fprintf(&b, "\n%s, a run of %s:\n", r.Name, u.span(r.Config.Rounds))
		b.Write(r.Trace)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
