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
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// Kinds are the kinds of failure a line may name: isolate (the node
// reaches neither the record nor the store, the publication's outage) and
// the model's failure kinds (model.Failure), a kind that takes a value
// named as KIND:VALUE (skew:2).
func Kinds() []string {
	var names []string
	for _, b := range model.Kinds() {
		names = append(names, b.Name)
	}
	return names
}

// Window is one line: a node unreachable in rounds First … Last, failing
// the way Kind says (read once, as the line is parsed).
type Window struct {
	Node, First, Last int
	Kind              model.Failure
	Line              int // its line in the file, for messages
}

// Incident is a whole file: its failures, each node failing its own way.
type Incident struct {
	Windows []Window
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
		kind, err := parse.Failure(fields[1])
		if err != nil {
			return fail("%v", err)
		}
		start, err := parseStart(fields[2], t, epoch)
		if err != nil {
			return fail("start %q: %v%s", fields[2], err, needsTick(t, fields[2]))
		}
		length, err := parse.Value(t, model.Outage, fields[3])
		if err != nil || length < 1 {
			return fail("length %q: want %s, at least one round%s", fields[3], parse.Accepts(t, model.Outage), needsTick(t, fields[3]))
		}
		in.Windows = append(in.Windows, Window{Node: node, First: start, Last: start + length - 1, Kind: kind, Line: line})
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return Incident{}, fmt.Errorf("line %d: longer than %d bytes: want node, kind, start, length", line+1, maxLine)
	} else if err != nil {
		return Incident{}, err
	}
	if len(in.Windows) == 0 {
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
func (in Incident) overlap() (f, g Window, found bool) {
	byStart := slices.Clone(in.Windows)
	slices.SortFunc(byStart, func(a, b Window) int {
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
	ts, err := time.Parse(time.RFC3339, s)
	switch {
	case err == nil:
		if epoch.IsZero() {
			return 0, flagerr.Errorf([]string{"epoch"}, "a timestamp needs --epoch, the moment the run begins")
		}
		if t == 0 {
			return 0, flagerr.Errorf([]string{"tick"}, "a timestamp needs --tick")
		}
		if ts.Before(epoch) {
			return 0, fmt.Errorf("before the epoch %s: want a moment of the run", epoch.Format(time.RFC3339))
		}
		d := ts.Sub(epoch)
		if d == math.MaxInt64 { // Sub saturates some 292 years on
			return 0, fmt.Errorf("centuries after the epoch %s: want a moment of the run", epoch.Format(time.RFC3339))
		}
		if d%time.Duration(t) != 0 {
			return 0, fmt.Errorf("%s after the epoch: want a whole number of ticks of %s", d, t)
		}
		s = d.String()
	case looksLikeTimestamp(s):
		return 0, fmt.Errorf("not an RFC 3339 timestamp, as 2026-11-30T23:58:00Z: %v", err)
	}
	first, err := parse.Value(t, model.Start, s)
	if err != nil {
		return 0, fmt.Errorf("want %s", parse.Accepts(t, model.Start))
	}
	return first, nil
}

// looksLikeTimestamp reports whether s begins as a date does (2026-11-30T…),
// so that a malformed timestamp is refused as one, not as a duration.
func looksLikeTimestamp(s string) bool {
	if len(s) < 11 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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
	for _, f := range in.Windows {
		ws = append(ws, model.Window{Node: f.Node, First: f.First, Last: f.Last, Failure: f.Kind})
	}
	return ws
}

// Beyond returns the first failure of a node a run of nodes nodes does
// not have, if any: the window schedule would pass it by in silence.
func (in Incident) Beyond(nodes int) (Window, bool) {
	for _, f := range in.Windows {
		if f.Node >= nodes {
			return f, true
		}
	}
	return Window{}, false
}

// Span is the first and last round any node is down.
func (in Incident) Span() (first, last int) { return in.Schedule().Span() }

// Apply is c with its outage fields set to the incident's span, which is
// what a trace zooms to: the schedule, not these fields, says who fails
// when and how (each failure its own kind, whatever c's toggles).
func (in Incident) Apply(c model.Config) model.Config {
	first, last := in.Span()
	c.Start, c.Outage, c.Down, c.DownFrom = first, last-first+1, 1, 0
	return c
}

// Span is the rounds First … Last.
type Span struct{ First, Last int }

// Moved is the incident with every failure k rounds later.
func (in Incident) Moved(k int) Incident {
	out := Incident{Windows: slices.Clone(in.Windows)}
	for i := range out.Windows {
		out.Windows[i].First += k
		out.Windows[i].Last += k
	}
	return out
}

// Run is one run of an incident in a spread: the incident moved Phase
// rounds later (and the run with it), the followers' jitter drawn from
// Seed.
type Run struct {
	Phase int
	Seed  uint64
	Stats model.Stats

	Leaderless, TwoLeaders []Span // rounds with no node that can act as leader, and with two or more that can
	TwoBelievers           []Span // rounds in which two or more nodes believe they lead, whether or not they can act
	Takeover               int    // rounds from the moved incident's start to the end of the first handover's round at or after it; 0 if none
}

// TwoBelieverRounds is the rounds in which two or more nodes believe they
// lead.
func (r Run) TwoBelieverRounds() int {
	n := 0
	for _, s := range r.TwoBelievers {
		n += s.Last - s.First + 1
	}
	return n
}

// Spans runs c with the incident (c as Apply left it) and returns its run:
// the spans of rounds in which no node could act as leader, in which two
// or more could, and in which two or more believed they led. A node can
// act while it believes and its work reaches the store (model.RoundView's
// Active): a frozen, isolated or black-holed believer believes but cannot.
func (in Incident) Spans(r *model.Runner, c model.Config) (Run, error) {
	add := func(spans []Span, t int) []Span {
		if n := len(spans); n > 0 && spans[n-1].Last == t-1 {
			spans[n-1].Last = t
			return spans
		}
		return append(spans, Span{t, t})
	}
	var run Run
	var leaders []int // every node the record has named: only they can believe they lead, so a round costs no more with many nodes
	first, _ := in.Span()
	st, err := r.Trace(c, in.Schedule(), 1, c.Rounds, func(v *model.RoundView) {
		switch {
		case v.Active == 0:
			run.Leaderless = add(run.Leaderless, v.Round)
		case v.Active > 1:
			run.TwoLeaders = add(run.TwoLeaders, v.Round)
		}
		if v.Handover && run.Takeover == 0 && v.Round >= first {
			run.Takeover = v.Round - first + 1
		}
		if !slices.Contains(leaders, v.Leader) {
			leaders = append(leaders, v.Leader)
		}
		believers := v.Active // each of them believes
		if believers < 2 {
			believers = 0
			for _, n := range leaders {
				if _, ok := v.Belief(n); ok {
					believers++
				}
			}
		}
		if believers > 1 {
			run.TwoBelievers = add(run.TwoBelievers, v.Round)
		}
	})
	run.Stats = st
	return run, err
}

// Seeds is how many seeds of the followers' jitter a spread tries at each
// phase when their polls are jittered: seed, seed+1, … seed+Seeds−1.
const Seeds = 32

// MaxRuns bounds the runs of the spreads replay compares, over all its
// settings together: at a thousand rounds a run, about a second's work.
const MaxRuns = 50_000

// MaxRunRounds bounds the rounds of those runs, summed: a run costs about
// 30 ns a round when every round is observed, so this is half a minute's
// work at most, and one run of the model's longest is still allowed.
const MaxRunRounds = model.MaxRounds

// MaxRunNodes bounds the nodes of those runs, summed: a run sets up each
// node (its reachability, a jittered follower's polls), about 170 ns
// each, so this is a couple of seconds' work at most.
const MaxRunNodes = 10_000_000

// Phases is how many phases of the incident a spread tries under c: the
// rounds after which the leader's renew attempts (every retry period) and
// the believers' re-reads (every renewal) repeat, lcm(retry period,
// renewal), the renewal left out when it is 0. Those decide who leads and
// when; the batch's period is not among them, so a spread's leaderless,
// two-leader and takeover times are the incident's, whenever the batch
// falls due. Above MaxRuns it returns MaxRuns+1: too many anyway.
func Phases(c model.Config) int {
	n := max(1, c.RetryPeriod)
	if c.RereadPeriod > 0 {
		a, b := n, c.RereadPeriod
		for b != 0 {
			a, b = b, a%b
		}
		n = n / a * c.RereadPeriod // at most MaxRounds², which fits an int
	}
	return min(n, MaxRuns+1)
}

// Sample names the runs of a spread: the incident moved Phase, Phase+1, …
// Phase+Phases−1 rounds later, each with the jitter seeds Seed, Seed+1, …
// Seed+Seeds−1.
type Sample struct {
	Phase, Phases int
	Seed          uint64
	Seeds         int
}

// SampleOf is the whole spread of c from seed: every phase (Phases), each
// with Seeds seeds if c's followers are jittered, else with seed alone.
func SampleOf(c model.Config, seed uint64) Sample {
	s := Sample{Phases: Phases(c), Seed: seed, Seeds: 1}
	if c.Jitter {
		s.Seeds = Seeds
	}
	return s
}

// Count is the number of runs in s.
func (s Sample) Count() int { return s.Phases * s.Seeds }

// Spread is an incident's runs under one setting: its Sample, phase by
// phase, seed by seed.
type Spread struct {
	Sample
	Runs []Run
}

// Trace is the trace, round by round (model.Runner.AppendTrace), of one
// run of a spread of c (Spread): the incident moved run.Phase rounds later,
// the run that much longer, the followers' jitter drawn from run.Seed.
func (in Incident) Trace(c model.Config, run Run) ([]byte, error) {
	moved := in.Moved(run.Phase)
	cfg := moved.Apply(c)
	cfg.Rounds = c.Rounds + run.Phase
	r := model.Runner{JitterSeed: model.JitterSeed(run.Seed)}
	return r.AppendTrace(nil, cfg, moved.Schedule())
}

// Spread runs c (as Apply left it, c.Rounds long for the incident where
// it is) with the incident at each phase and seed of s. Each run is moved
// whole: it lasts c.Rounds plus its phase, so every run has as many rounds
// after the incident.
func (in Incident) Spread(c model.Config, s Sample) (Spread, error) {
	sp := Spread{Sample: s}
	var r model.Runner
	for k := s.Phase; k < s.Phase+s.Phases; k++ {
		moved := in.Moved(k)
		run := moved.Apply(c)
		run.Rounds = c.Rounds + k
		for j := range s.Seeds {
			seed := s.Seed + uint64(j)
			r.JitterSeed = model.JitterSeed(seed)
			one, err := moved.Spans(&r, run)
			if err != nil {
				return Spread{}, err
			}
			one.Phase, one.Seed = k, seed
			sp.Runs = append(sp.Runs, one)
		}
	}
	return sp, nil
}

// Median is the spread's median run by leaderless time: its runs ordered
// by leaderless rounds, then two-leader rounds, takeover, phase and seed,
// the middle one (the lower of the two middle ones of an even count).
func (sp Spread) Median() Run {
	runs := slices.Clone(sp.Runs)
	slices.SortFunc(runs, func(a, b Run) int {
		return cmp.Or(cmp.Compare(a.Stats.LeaderlessRounds, b.Stats.LeaderlessRounds), cmp.Compare(a.Stats.TwoLeaderRounds, b.Stats.TwoLeaderRounds),
			cmp.Compare(a.Takeover, b.Takeover), cmp.Compare(a.Phase, b.Phase), cmp.Compare(a.Seed, b.Seed))
	})
	return runs[(len(runs)-1)/2]
}

// Figures is the spread of one figure over a spread's runs, in rounds:
// its least, median (the lower of the two middle values of an even count)
// and greatest value over Runs runs.
type Figures struct{ Min, Median, Max, Runs int }

// Figures is the spread of of(run) over the runs for which it is defined
// (ok); Runs is 0 if it is defined for none.
func (sp Spread) Figures(of func(Run) (v int, ok bool)) Figures {
	var vs []int
	for _, r := range sp.Runs {
		if v, ok := of(r); ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return Figures{}
	}
	slices.Sort(vs)
	return Figures{vs[0], vs[(len(vs)-1)/2], vs[len(vs)-1], len(vs)}
}

// Share is the share of the spread's runs for which is holds.
func (sp Spread) Share(is func(Run) bool) float64 {
	n := 0
	for _, r := range sp.Runs {
		n += b2i(is(r))
	}
	return float64(n) / float64(len(sp.Runs))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Of is the incident whose schedule is ws, each window a failure of its
// own kind (a schedule Schedule returned).
func Of(ws model.Windows) Incident {
	var in Incident
	for _, w := range ws {
		in.Windows = append(in.Windows, Window{Node: w.Node, First: w.First, Last: w.Last, Kind: w.Failure})
	}
	return in
}

// SpreadOf is the whole spread of the incident under c (as Apply left it)
// from seed (SampleOf), refused above MaxRuns runs, MaxRunRounds rounds
// or MaxRunNodes nodes.
func (in Incident) SpreadOf(c model.Config, seed uint64) (Spread, error) {
	s := SampleOf(c, seed)
	if s.Count() > MaxRuns {
		return Spread{}, fmt.Errorf("the incident's spread would be more than %d runs: its phases, lcm(retry_period %d, renewal %d), times its jitter seeds at each, %d", MaxRuns, c.RetryPeriod, c.RereadPeriod, s.Seeds)
	}
	if n := s.Count() * (c.Rounds + s.Phases); n > MaxRunRounds {
		return Spread{}, fmt.Errorf("the incident's spread would be %d runs of %d rounds or more, more than %d rounds together: give fewer rounds", s.Count(), c.Rounds, MaxRunRounds)
	}
	if n := s.Count() * c.Nodes; n > MaxRunNodes {
		return Spread{}, fmt.Errorf("the incident's spread would be %d runs of %d nodes, more than %d nodes together: give fewer nodes", s.Count(), c.Nodes, MaxRunNodes)
	}
	return in.Spread(c, s)
}
