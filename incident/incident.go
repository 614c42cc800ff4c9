// Package incident reads an incident as a person writes it from a
// post-mortem, one failure a line, and turns it into a failure schedule of
// the round model, so that leasesim replay can run it under any settings.
//
// A line is "node, kind, start, length": the node (0 is the first leader),
// the kind of failure, when it began and how long it lasted. Without a
// tick, start is a round (1 is the first) and length a number of rounds;
// with one they are durations (start from the run's beginning), or start
// is an RFC 3339 timestamp counted from an epoch. Blank lines and lines
// from # on are skipped; commas, tabs or spaces separate the fields.
package incident

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
)

// Kinds are the kinds of failure a line may name: isolate (the node
// reaches neither the record nor the store, the publication's outage) and
// the model's failure kinds (model.Failure).
func Kinds() []string {
	var names []string
	for f := model.Isolated; f <= model.Released; f++ {
		names = append(names, f.String())
	}
	return names
}

// Failure is one line: a node unreachable in rounds First … Last, failing
// the way Kind names.
type Failure struct {
	Node, First, Last int
	Kind              string
	Line              int // its line in the file, for messages
}

// Incident is a whole file: its failures, each node failing its own way.
type Incident struct {
	Failures []Failure
}

// Parse reads an incident whose times are in the unit of t, timestamps
// counted from epoch (the zero time: timestamps are refused). Its error
// names the line and what it expected there.
func Parse(r io.Reader, t model.Tick, epoch time.Time) (Incident, error) {
	var in Incident
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) == 0 {
			continue
		}
		fail := func(format string, args ...any) (Incident, error) {
			return Incident{}, fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
		}
		if len(fields) != 4 {
			return fail("%d fields, want 4: node, kind, start, length", len(fields))
		}
		node, err := strconv.Atoi(fields[0])
		if err != nil || node < 0 || node >= model.MaxNodes {
			return fail("node %q: want a node number from 0 to %d", fields[0], model.MaxNodes-1)
		}
		kind := fields[1]
		if _, err := model.ParseFailure(kind); err != nil {
			return fail("%v", err)
		}
		first, err := parseStart(fields[2], t, epoch)
		if err != nil {
			return fail("start %q: %v%s", fields[2], err, needsTick(t, fields[2]))
		}
		length, err := t.ParseValue(model.Outage, fields[3])
		if err != nil || length < 1 {
			return fail("length %q: want %s, at least one round%s", fields[3], t.Accepts(model.Outage), needsTick(t, fields[3]))
		}
		f := Failure{Node: node, First: first, Last: first + length - 1, Kind: kind, Line: line}
		for _, g := range in.Failures {
			if g.Node == f.Node && g.First <= f.Last && f.First <= g.Last {
				return fail("node %d is down already from line %d: the failures of one node must not overlap", node, g.Line)
			}
		}
		in.Failures = append(in.Failures, f)
	}
	if err := sc.Err(); err != nil {
		return Incident{}, err
	}
	if len(in.Failures) == 0 {
		return Incident{}, fmt.Errorf("no failure: want lines of node, kind, start, length")
	}
	return in, nil
}

// parseStart reads when a failure began: a round or a duration in the unit
// of t (model.Start), or a timestamp after epoch.
func parseStart(s string, t model.Tick, epoch time.Time) (int, error) {
	if ts, err := time.Parse(time.RFC3339, s); err == nil {
		if epoch.IsZero() {
			return 0, fmt.Errorf("a timestamp needs --epoch, the moment the run begins")
		}
		if t == 0 {
			return 0, fmt.Errorf("a timestamp needs --tick")
		}
		d := ts.Sub(epoch)
		if d < 0 || d%time.Duration(t) != 0 {
			return 0, fmt.Errorf("%s after the epoch: want a whole number of ticks of %s, not before it", d, t)
		}
		s = d.String()
	}
	first, err := t.ParseValue(model.Start, s)
	if err != nil {
		return 0, fmt.Errorf("want %s", t.Accepts(model.Start))
	}
	return first, nil
}

// needsTick is the hint that a duration was given where rounds were
// wanted, or "".
func needsTick(t model.Tick, s string) string {
	if _, err := time.ParseDuration(s); t == 0 && err == nil && s != "0" {
		return " (rounds); durations such as " + s + " need --tick"
	}
	return ""
}

// Schedule is the incident as the model's failure schedule.
func (in Incident) Schedule() model.Windows {
	var ws model.Windows
	for _, f := range in.Failures {
		failure, _ := model.ParseFailure(f.Kind) // Parse checked it
		ws = append(ws, model.Window{Node: f.Node, First: f.First, Last: f.Last, Failure: failure})
	}
	return ws
}

// Beyond returns the first failure of a node a run of nodes nodes does
// not have, if any: the window schedule would pass it by in silence.
func (in Incident) Beyond(nodes int) (Failure, bool) {
	for _, f := range in.Failures {
		if f.Node >= nodes {
			return f, true
		}
	}
	return Failure{}, false
}

// Span is the first and last round any node is down.
func (in Incident) Span() (first, last int) { return in.Schedule().Span() }

// Apply sets c's outage fields to the incident's span, which is what a
// trace zooms to: the schedule, not these fields, says who fails when and
// how (each failure its own kind, whatever c's toggles).
func (in Incident) Apply(c *model.Config) {
	first, last := in.Span()
	c.Start, c.Outage, c.Down, c.DownFrom = first, last-first+1, 1, 0
}

// Span is the rounds First … Last.
type Span struct{ First, Last int }

// Spans runs c with the incident (c as Apply left it) and returns the
// spans of rounds in which no node led and in which two or more did.
func (in Incident) Spans(r *model.Runner, c model.Config) (leaderless, twoLeaders []Span, st model.Stats, err error) {
	add := func(spans []Span, t int) []Span {
		if n := len(spans); n > 0 && spans[n-1].Last == t-1 {
			spans[n-1].Last = t
			return spans
		}
		return append(spans, Span{t, t})
	}
	st, err = r.Trace(c, in.Schedule(), 1, c.Rounds, func(v *model.RoundView) {
		switch {
		case v.Active == 0:
			leaderless = add(leaderless, v.Round)
		case v.Active > 1:
			twoLeaders = add(twoLeaders, v.Round)
		}
	})
	return leaderless, twoLeaders, st, err
}
