// Package incident reads an incident as a person writes it from a
// post-mortem, one failure a line, and turns it into a failure schedule of
// the round model, so that leasesim replay can run it under any settings.
//
// A line is "node, kind, start, length": the node (0 is the first leader),
// the kind of failure, when it began and how long it lasted. Without a
// tick, start is a round (1 is the first) and length a number of rounds;
// with one they are durations (start from the run's beginning), or start
// is an RFC 3339 timestamp counted from an epoch. Blank lines and lines
// from # on are skipped; commas, tabs or spaces separate the fields. The
// first line may be a header, "node, kind, start, length", and the file
// may begin with a UTF-8 byte order mark, as spreadsheets' CSV exports
// do. The lines may come in any order; the failures of one node must not
// overlap, though one may begin the round after another ends. A line is
// at most 64 KiB.
package incident

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
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

// maxLine is the longest line Parse reads, in bytes: bufio.Scanner's.
const maxLine = bufio.MaxScanTokenSize

// header is the line that may head a file, its fields' names.
var header = []string{"node", "kind", "start", "length"}

// Parse reads an incident whose times are in the unit of t, timestamps
// counted from epoch (the zero time: timestamps are refused). Its error
// names the line and what it expected there.
func Parse(r io.Reader, t model.Tick, epoch time.Time) (Incident, error) {
	var in Incident
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	line, first := 0, true // first: no line with fields yet, so a header may come
	for sc.Scan() {
		line++
		raw := sc.Text()
		if line == 1 {
			raw = strings.TrimPrefix(raw, "\ufeff") // a byte order mark
		}
		text, _, _ := strings.Cut(raw, "#")
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) == 0 {
			continue
		}
		if first && slices.EqualFunc(fields, header, strings.EqualFold) {
			first = false
			continue
		}
		first = false
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
		start, err := parseStart(fields[2], t, epoch)
		if err != nil {
			return fail("start %q: %v%s", fields[2], err, needsTick(t, fields[2]))
		}
		length, err := t.ParseValue(model.Outage, fields[3])
		if err != nil || length < 1 {
			return fail("length %q: want %s, at least one round%s", fields[3], t.Accepts(model.Outage), needsTick(t, fields[3]))
		}
		in.Failures = append(in.Failures, Failure{Node: node, First: start, Last: start + length - 1, Kind: kind, Line: line})
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return Incident{}, fmt.Errorf("line %d: longer than %d bytes: want node, kind, start, length", line+1, maxLine)
	} else if err != nil {
		return Incident{}, err
	}
	if len(in.Failures) == 0 {
		return Incident{}, fmt.Errorf("no failure: want lines of node, kind, start, length")
	}
	if f, g, ok := in.overlap(); ok {
		return Incident{}, fmt.Errorf("line %d: node %d is down already from line %d: the failures of one node must not overlap", f.Line, f.Node, g.Line)
	}
	return in, nil
}

// overlap finds two failures of one node that overlap, if any: f, on the
// later line, and g. Sorted by node and first round, a failure overlaps an
// earlier one if and only if it begins before the latest end so far of its
// node's; of the pairs so found it returns the one whose later line comes
// first.
func (in Incident) overlap() (f, g Failure, found bool) {
	byStart := slices.Clone(in.Failures)
	slices.SortFunc(byStart, func(a, b Failure) int {
		return cmp.Or(cmp.Compare(a.Node, b.Node), cmp.Compare(a.First, b.First), cmp.Compare(a.Line, b.Line))
	})
	for i, reach := 1, byStart[0]; i < len(byStart); i++ {
		cur := byStart[i]
		switch {
		case cur.Node != reach.Node:
			reach = cur
			continue
		case cur.First <= reach.Last:
			later, earlier := cur, reach
			if later.Line < earlier.Line {
				later, earlier = earlier, later
			}
			if !found || later.Line < f.Line {
				f, g, found = later, earlier, true
			}
		}
		if cur.Last > reach.Last {
			reach = cur
		}
	}
	return f, g, found
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
