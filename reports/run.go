package reports

import (
	"fmt"
	"io"
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
		fmt.Fprintf(&b, "  %-20s %s\n", p.Name(), p.AppendValue(nil, c.Get(p)))
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
		b = fmt.Appendf(b, "  %q: %s,\n", p.Name(), p.AppendValue(nil, c.Get(p)))
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
	Event     string // what happened to the batch (model.RoundView.Event)
}

// Timeline runs c with failure schedule s and returns the rounds of it
// that model.TraceWindow(c) names.
func Timeline(c model.Config, s model.Schedule) ([]TimelineRound, model.Stats, error) {
	var rounds []TimelineRound
	var r model.Runner
	first, last := model.TraceWindow(c)
	st, err := r.Trace(c, s, first, last, func(v *model.RoundView) {
		tr := TimelineRound{
			Round: v.Round, Reachable: make([]bool, v.Nodes()), Token: make([]int, v.Nodes()),
			Leader: v.Leader, Record: v.Token, Handover: v.Handover, Active: v.Active,
			Accepted: v.Accepted, Trigger: v.Trigger, Dequeued: v.Dequeued, Reread: v.Reread, Event: v.Event(),
		}
		for n := range tr.Reachable {
			tr.Reachable[n] = v.Reachable(n)
			tr.Token[n], _ = v.Belief(n)
		}
		rounds = append(rounds, tr)
	})
	return rounds, st, err
}

// WriteTrace writes the trace of c under schedule s as text
// (model.AppendTrace).
func WriteTrace(w io.Writer, c model.Config, s model.Schedule) error {
	b, err := model.AppendTrace(nil, c, s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
