package incident_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/model"
)

// TestParse: lines in rounds, in durations and as timestamps become the
// same rounds; comments and blank lines are skipped.
func TestParse(t *testing.T) {
	epoch := time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC)
	isolate, partition := model.Failure{Kind: model.Isolated}, model.Failure{Kind: model.Partitioned}
	crash, pause := model.Failure{Kind: model.Crashed}, model.Failure{Kind: model.Paused}
	for _, tt := range []struct {
		name, text string
		tick       model.Tick
		want       []incident.Window
	}{
		{"rounds", "# node kind start length\n0, isolate, 6, 5\n\n2 isolate 8 1 # a standby\n", 0,
			[]incident.Window{{Node: 0, First: 6, Last: 10, Kind: isolate, Line: 2}, {Node: 2, First: 8, Last: 8, Kind: isolate, Line: 4}}},
		{"durations, each node its own kind", "0,partition,2m,40s\n1,crash,2m10s,5s\n", model.Tick(time.Second),
			[]incident.Window{{Node: 0, First: 121, Last: 160, Kind: partition, Line: 1}, {Node: 1, First: 131, Last: 135, Kind: crash, Line: 2}}},
		{"timestamps", "1\tpause\t2026-11-30T23:59:10Z\t1m\n", model.Tick(time.Second),
			[]incident.Window{{Node: 1, First: 71, Last: 130, Kind: pause, Line: 1}}},
		{"a CSV export's header and byte order mark", "\ufeffnode,kind,start,length\n0,crash,6,5\n", 0,
			[]incident.Window{{Node: 0, First: 6, Last: 10, Kind: crash, Line: 2}}},
		{"a header after a comment, in capitals", "# from the post-mortem\nNode, Kind, Start, Length\n1 isolate 3 2\n", 0,
			[]incident.Window{{Node: 1, First: 3, Last: 4, Kind: isolate, Line: 3}}},
		{"one node's failures back to back, later first", "0, isolate, 7, 2\n0, isolate, 5, 2\n", 0,
			[]incident.Window{{Node: 0, First: 7, Last: 8, Kind: isolate, Line: 1}, {Node: 0, First: 5, Last: 6, Kind: isolate, Line: 2}}},
	} {
		in, err := incident.Parse(strings.NewReader(tt.text), tt.tick, epoch)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(in.Windows) != len(tt.want) {
			t.Fatalf("%s: %+v, want %+v", tt.name, in.Windows, tt.want)
		}
		for i := range tt.want {
			if in.Windows[i] != tt.want[i] {
				t.Errorf("%s: failure %d is %+v, want %+v", tt.name, i, in.Windows[i], tt.want[i])
			}
		}
	}
}

// TestParseRefuses: a bad line is named, with what was expected there.
func TestParseRefuses(t *testing.T) {
	for _, tt := range []struct {
		text string
		tick model.Tick
		want string
	}{
		{"0, isolate, 6\n", 0, "line 1: 3 fields, want 4: node, kind, start, length"},
		{"\n0, flood, 6, 5\n", 0, `line 2: kind "flood": want one of isolate, black-hole, slow, partition, pause, crash, release`},
		{"0, isolate, 6, 5\n0, isolate, 9, 2\n", 0, "line 2: node 0 is down already from line 1"},
		{"-1, isolate, 6, 5\n", 0, `line 1: node "-1": want a node number from 0`},
		{"0, isolate, 6, 0\n", 0, `line 1: length "0": want`},
		{"0, isolate, 2m, 5\n", 0, `line 1: start "2m": want a whole number`},
		{"0, isolate, 1500ms, 5s\n", model.Tick(time.Second), `line 1: start "1500ms": want a duration`},
		{"0, isolate, 2026-11-30T23:59:10Z, 5s\n", model.Tick(time.Second), `line 1: start "2026-11-30T23:59:10Z": a timestamp needs --epoch`},
		{"# nothing\n", 0, "no failure"},
		{"node,kind,start,length\n", 0, "no failure"},
		{"0, isolate, 6, 5\nnode,kind,start,length\n", 0, `line 2: node "node": want a node number`},
		{"0, isolate, 6, 5\n\ufeff1, isolate, 6, 5\n", 0, `line 2: node "\ufeff1": want a node number`},
		{"0, isolate, 6, 5\n1, isolate, 6, 5 # " + strings.Repeat("x", 70000) + "\n", 0, "line 2: longer than 65536 bytes: want node, kind, start, length"},
		{"0, isolate, 20, 5\n1, isolate, 1, 50\n0, isolate, 1, 30\n0, isolate, 10, 2\n", 0, "line 3: node 0 is down already from line 1"},
	} {
		_, err := incident.Parse(strings.NewReader(tt.text), tt.tick, time.Time{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%.80q: %.200v, want %q", tt.text, err, tt.want)
		}
	}
}

// TestPublicationIncident: the publication's outage written as an
// incident replays as the publication's run, statistic for statistic.
func TestPublicationIncident(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0, isolate, 6, 5\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	want, err := model.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c = in.Apply(c)
	var r model.Runner
	if got, err := r.RunSchedule(c, in.Schedule()); err != nil || got != want {
		t.Errorf("replayed %+v (%v), the publication's run %+v", got, err, want)
	}
}

// TestSpans: the spans of leaderless and two-leader rounds add up to the
// run's counts, for every kind, on an incident with two nodes down; only a
// graceful stop leaves no round leaderless; a clock skew (skew:2), which
// client-go's lease does not read, is refused.
func TestSpans(t *testing.T) {
	for _, b := range model.Kinds() {
		kind := b.Name
		if b.ValueName != "" {
			kind += ":2"
		}
		in, err := incident.Parse(strings.NewReader("0 "+kind+" 20 15\n2 "+kind+" 25 3\n"), 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		c := model.Default()
		c.Nodes, c.Lease, c.RereadPeriod, c.RenewDeadline, c.RetryPeriod, c.Rounds = 3, 6, 0, 3, 1, 80
		c = in.Apply(c)
		var r model.Runner
		run, err := in.Spans(&r, c)
		leaderless, twoLeaders, st := run.Leaderless, run.TwoLeaders, run.Stats
		if b.Does&model.Skews != 0 {
			if err == nil || !strings.Contains(err.Error(), "failure skew:2 needs protocol shedlock, shedlock-redis, quartz or db-scheduler") {
				t.Errorf("%s under client-go: %v, want refused", kind, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sum := func(spans []incident.Span) int {
			n := 0
			for _, s := range spans {
				n += s.Last - s.First + 1
			}
			return n
		}
		if sum(leaderless) != st.LeaderlessRounds || sum(twoLeaders) != st.TwoLeaderRounds {
			t.Errorf("%s: spans %v and %v, counts %d and %d", kind, leaderless, twoLeaders, st.LeaderlessRounds, st.TwoLeaderRounds)
		}
		// A released record is taken at the next poll, here the same round;
		// every other kind leaves the leader's node failed and nobody leading
		// for a while.
		if got := st.LeaderlessRounds == 0; got != (kind == "release") {
			t.Errorf("%s: %d leaderless rounds", kind, st.LeaderlessRounds)
		}
	}
}

// TestBackToBack: two failures of one node, the second beginning the round
// after the first ends, keep it down through both, whichever line comes
// first.
func TestBackToBack(t *testing.T) {
	for _, text := range []string{"0, isolate, 7, 2\n0, isolate, 5, 2\n", "0, isolate, 5, 2\n0, isolate, 7, 2\n"} {
		in, err := incident.Parse(strings.NewReader(text), 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		c := model.Default()
		c.Nodes, c.Rounds, c.Period = 1, 14, 1
		c = in.Apply(c)
		run, err := in.Spans(new(model.Runner), c)
		leaderless, st := run.Leaderless, run.Stats
		if err != nil {
			t.Fatal(err)
		}
		if len(leaderless) != 1 || leaderless[0] != (incident.Span{First: 5, Last: 8}) || st.Missed != 4 {
			t.Errorf("%q: leaderless %v, %d missed; want rounds 5-8, 4 missed", text, leaderless, st.Missed)
		}
	}
}

// TestParseManyLines: a file of 100,000 failures of one node reads in a
// sort, not a comparison of every pair of lines (which took minutes), and
// an overlap among them is still found, at its line.
func TestParseManyLines(t *testing.T) {
	var b strings.Builder
	const n = 100_000
	for i := range n {
		fmt.Fprintf(&b, "0, isolate, %d, 1\n", 1+2*(n-1-i)) // latest first
	}
	text := b.String()
	in, err := incident.Parse(strings.NewReader(text), 0, time.Time{})
	if err != nil || len(in.Windows) != n {
		t.Fatalf("%d failures, %v; want %d", len(in.Windows), err, n)
	}
	if first, last := in.Span(); first != 1 || last != 2*n-1 {
		t.Errorf("span %d-%d, want 1-%d", first, last, 2*n-1)
	}
	_, err = incident.Parse(strings.NewReader(text+"0, isolate, 1001, 2\n"), 0, time.Time{})
	if want := fmt.Sprintf("line %d: node 0 is down already from line %d", n+1, n-500); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an overlap at the end: %v, want %q", err, want)
	}
}

// TestSpread: node 0, the leader, isolated for rounds 5-10 (phase 0) or
// 6-11 (phase 1), two nodes, renewals and re-reads every 2 rounds, lease
// 4, no jitter. Worked by hand: its last renewal is in round 4 either way,
// so node 1 takes over in round 8 (4 rounds unrenewed, a retry round).
// Phase 0 is leaderless in rounds 5-7 and takes over 4 rounds after the
// incident begins; node 0, back in round 11, still believes it leads and
// acts beside node 1 until its re-read at the end of round 12: two
// leaders in rounds 11-12. Phase 1 is leaderless in rounds 6-7, takes over
// after 3 rounds, and node 0, back in round 12, re-reads at its end: one
// two-leader round. In both node 0 believes through rounds 8-12, cut off
// or not: two believers for 5 rounds, two that can act for 2 or 1.
func TestSpread(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0 isolate 5 6\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	c.Nodes, c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline, c.Period, c.Rounds = 2, 4, 2, 2, 0, 100, 30
	c = in.Apply(c)
	if got := incident.Phases(c); got != 2 {
		t.Fatalf("%d phases, want lcm(retry period 2, renewal 2) = 2", got)
	}
	sample := incident.SampleOf(c, 7)
	if sample != (incident.Sample{Phases: 2, Seed: 7, Seeds: 1}) {
		t.Fatalf("sample %+v, want 2 phases of seed 7 alone (no jitter)", sample)
	}
	sp, err := in.Spread(c, sample)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		phase, leaderless, twoLeaders, twoBelievers, takeover int
		spans                                                 []incident.Span
	}{
		{0, 3, 2, 5, 4, []incident.Span{{First: 5, Last: 7}}},
		{1, 2, 1, 5, 3, []incident.Span{{First: 6, Last: 7}}},
	} {
		r := sp.Runs[i]
		if r.Phase != want.phase || r.Seed != 7 || r.Stats.LeaderlessRounds != want.leaderless || r.Stats.TwoLeaderRounds != want.twoLeaders ||
			r.TwoBelieverRounds() != want.twoBelievers || r.Takeover != want.takeover || !slices.Equal(r.Leaderless, want.spans) || r.Stats.Handovers != 1 {
			t.Errorf("run %d: %+v, want %+v", i, r, want)
		}
	}
	for _, tt := range []struct {
		name string
		of   func(incident.Run) (int, bool)
		want incident.Figures
	}{
		{"leaderless", func(r incident.Run) (int, bool) { return r.Stats.LeaderlessRounds, true }, incident.Figures{Min: 2, Median: 2, Max: 3, Runs: 2}},
		{"two leaders", func(r incident.Run) (int, bool) { return r.Stats.TwoLeaderRounds, true }, incident.Figures{Min: 1, Median: 1, Max: 2, Runs: 2}},
		{"two believers", func(r incident.Run) (int, bool) { return r.TwoBelieverRounds(), true }, incident.Figures{Min: 5, Median: 5, Max: 5, Runs: 2}},
		{"takeover", func(r incident.Run) (int, bool) { return r.Takeover, r.Takeover > 0 }, incident.Figures{Min: 3, Median: 3, Max: 4, Runs: 2}},
		{"none", func(r incident.Run) (int, bool) { return 0, false }, incident.Figures{}},
	} {
		if got := sp.Figures(tt.of); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if got := sp.Median(); got.Phase != 1 {
		t.Errorf("median run at phase %d, want 1 (2 leaderless rounds, the lower middle of 2 and 3)", got.Phase)
	}
	if got := sp.Share(func(r incident.Run) bool { return r.Stats.LeaderlessRounds > 2 }); got != 0.5 {
		t.Errorf("share of runs over 2 leaderless rounds %v, want 0.5", got)
	}
	pinned, err := in.Spread(c, incident.Sample{Phase: 1, Phases: 1, Seed: 7, Seeds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(pinned.Runs) != 1 || !reflect.DeepEqual(pinned.Runs[0], sp.Runs[1]) {
		t.Errorf("pinned at phase 1: %+v, want the spread's run %+v", pinned.Runs, sp.Runs[1])
	}
}

// TestSpreadJitter: with jitter a spread tries Seeds seeds at each phase,
// from the seed given; the same seed gives the same runs.
func TestSpreadJitter(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0 partition 20 30\n1 partition 20 30\n2 partition 20 30\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	c.Nodes, c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline, c.Jitter, c.Period, c.Rounds = 3, 15, 0, 2, 10, true, 100, 120
	c = in.Apply(c)
	s := incident.SampleOf(c, 40)
	if s.Phases != 2 || s.Seeds != incident.Seeds || s.Count() != 2*incident.Seeds {
		t.Fatalf("sample %+v, want 2 phases of %d seeds", s, incident.Seeds)
	}
	a, err := in.Spread(c, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := in.Spread(c, s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the same sample gave other runs")
	}
	for i, r := range a.Runs {
		if want := uint64(40 + i%incident.Seeds); r.Seed != want || r.Phase != i/incident.Seeds {
			t.Errorf("run %d: phase %d, seed %d; want phase %d, seed %d", i, r.Phase, r.Seed, i/incident.Seeds, want)
		}
	}
	// The leader gives up 12 rounds after its last renewal, so each run
	// is leaderless from then at least until the partition ends.
	if f := a.Figures(func(r incident.Run) (int, bool) { return r.Stats.LeaderlessRounds, true }); f.Min < 30-12 || f.Max <= f.Min {
		t.Errorf("leaderless %+v: want at least %d rounds, and a spread over the seeds", f, 30-12)
	}
}

// TestSpreadOfBounds: a spread of more than MaxRuns runs, MaxRunRounds
// rounds or MaxRunNodes nodes is refused before any run; Of turns a schedule back into the
// incident it came from.
func TestSpreadOfBounds(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0 partition 20 30\n1 crash 25 5\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if back := incident.Of(in.Schedule()); back.Windows[0].Kind.String() != "partition" || back.Windows[1].Kind.String() != "crash" || back.Windows[1].First != 25 || back.Windows[1].Last != 29 {
		t.Errorf("Of(Schedule()) = %+v", back.Windows)
	}
	for _, tt := range []struct {
		name                  string
		retry, reread, rounds int
		jitter                bool
		nodes                 int
		want                  string
	}{
		{"lcm(2, 50001) phases", 2, 50001, 200, false, 2, "more than 50000 runs: its phases, lcm(retry_period 2, renewal 50001), times its jitter seeds at each, 1"},
		{"32 seeds of 2 phases of a long run", 2, 0, 40_000_000, true, 2, "64 runs of 40000000 rounds or more, more than 1000000000 rounds together"},
		{"32 seeds of 2 phases of 200,000 nodes", 2, 0, 200, true, 200_000, "64 runs of 200000 nodes, more than 10000000 nodes together"},
	} {
		c := model.Default()
		c.Nodes = tt.nodes
		c.Lease, c.RenewDeadline, c.RetryPeriod, c.RereadPeriod, c.Jitter, c.Rounds = 15, 10, tt.retry, tt.reread, tt.jitter, tt.rounds
		c = in.Apply(c)
		if _, err := in.SpreadOf(c, 1); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestTimestampsRefused: a timestamp before the epoch, centuries after it
// (past what a time.Duration holds) or malformed is refused for what it
// is, not as a wrong number of ticks or a bad duration.
func TestTimestampsRefused(t *testing.T) {
	epoch := time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC)
	for _, tt := range []struct{ start, want string }{
		{"2026-11-30T23:00:00Z", `before the epoch 2026-11-30T23:58:00Z: want a moment of the run`},
		{"2400-01-01T00:00:00Z", `centuries after the epoch 2026-11-30T23:58:00Z: want a moment of the run`},
		{"2026-11-30T25:00:00Z", `not an RFC 3339 timestamp, as 2026-11-30T23:58:00Z: parsing time "2026-11-30T25:00:00Z": hour out of range`},
		{"2026-11-30T23:59", `not an RFC 3339 timestamp, as 2026-11-30T23:58:00Z: parsing time "2026-11-30T23:59" as`},
	} {
		_, err := incident.Parse(strings.NewReader("0, isolate, "+tt.start+", 5s\n"), model.Tick(time.Second), epoch)
		if want := `line 1: start "` + tt.start + `": ` + tt.want; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", tt.start, err, want)
		}
	}
}

// TestTrace: the trace of a spread's run is the run of the incident moved
// by its phase, as a file moved by hand (start 6, not 5) gives it, the run
// that much longer.
func TestTrace(t *testing.T) {
	in, err := incident.Parse(strings.NewReader("0 isolate 5 6\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	c.Nodes, c.Lease, c.RereadPeriod, c.RetryPeriod, c.RenewDeadline, c.Period, c.Rounds = 2, 4, 2, 2, 0, 100, 30
	c = in.Apply(c)
	sp, err := in.Spread(c, incident.SampleOf(c, 7))
	if err != nil {
		t.Fatal(err)
	}
	got0, err := in.Trace(c, sp.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	got1, err := in.Trace(c, sp.Runs[1])
	if err != nil {
		t.Fatal(err)
	}
	byHand, err := incident.Parse(strings.NewReader("0 isolate 6 6\n"), 0, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	moved := byHand.Apply(c)
	moved.Rounds = 31
	r := model.Runner{JitterSeed: model.JitterSeed(7)}
	want1, err := r.AppendTrace(nil, moved, byHand.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	if string(got1) != string(want1) {
		t.Errorf("trace of the run at phase 1:\n%s\nwant the incident moved by hand:\n%s", got1, want1)
	}
	if string(got0) == string(got1) {
		t.Errorf("the runs at phases 0 and 1 have the same trace:\n%s", got0)
	}
}
