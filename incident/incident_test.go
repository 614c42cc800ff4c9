package incident_test

import (
	"fmt"
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
	for _, tt := range []struct {
		name, text string
		tick       model.Tick
		want       []incident.Failure
	}{
		{"rounds", "# node kind start length\n0, isolate, 6, 5\n\n2 isolate 8 1 # a standby\n", 0,
			[]incident.Failure{{Node: 0, First: 6, Last: 10, Kind: "isolate", Line: 2}, {Node: 2, First: 8, Last: 8, Kind: "isolate", Line: 4}}},
		{"durations, each node its own kind", "0,partition,2m,40s\n1,crash,2m10s,5s\n", model.Tick(time.Second),
			[]incident.Failure{{Node: 0, First: 121, Last: 160, Kind: "partition", Line: 1}, {Node: 1, First: 131, Last: 135, Kind: "crash", Line: 2}}},
		{"timestamps", "1\tpause\t2026-11-30T23:59:10Z\t1m\n", model.Tick(time.Second),
			[]incident.Failure{{Node: 1, First: 71, Last: 130, Kind: "pause", Line: 1}}},
		{"a CSV export's header and byte order mark", "\ufeffnode,kind,start,length\n0,crash,6,5\n", 0,
			[]incident.Failure{{Node: 0, First: 6, Last: 10, Kind: "crash", Line: 2}}},
		{"a header after a comment, in capitals", "# from the post-mortem\nNode, Kind, Start, Length\n1 isolate 3 2\n", 0,
			[]incident.Failure{{Node: 1, First: 3, Last: 4, Kind: "isolate", Line: 3}}},
		{"one node's failures back to back, later first", "0, isolate, 7, 2\n0, isolate, 5, 2\n", 0,
			[]incident.Failure{{Node: 0, First: 7, Last: 8, Kind: "isolate", Line: 1}, {Node: 0, First: 5, Last: 6, Kind: "isolate", Line: 2}}},
	} {
		in, err := incident.Parse(strings.NewReader(tt.text), tt.tick, epoch)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(in.Failures) != len(tt.want) {
			t.Fatalf("%s: %+v, want %+v", tt.name, in.Failures, tt.want)
		}
		for i := range tt.want {
			if in.Failures[i] != tt.want[i] {
				t.Errorf("%s: failure %d is %+v, want %+v", tt.name, i, in.Failures[i], tt.want[i])
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
	in.Apply(&c)
	var r model.Runner
	if got, err := r.RunSchedule(c, in.Schedule()); err != nil || got != want {
		t.Errorf("replayed %+v (%v), the publication's run %+v", got, err, want)
	}
}

// TestSpans: the spans of leaderless and two-leader rounds add up to the
// run's counts, for every kind, on an incident with two nodes down; only a
// graceful stop leaves no round leaderless.
func TestSpans(t *testing.T) {
	for _, kind := range incident.Kinds() {
		in, err := incident.Parse(strings.NewReader("0 "+kind+" 20 15\n2 "+kind+" 25 3\n"), 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		c := model.Default()
		c.Nodes, c.Lease, c.Renewal, c.RenewDeadline, c.RetryPeriod, c.Rounds = 3, 6, 0, 3, 1, 80
		in.Apply(&c)
		var r model.Runner
		leaderless, twoLeaders, st, err := in.Spans(&r, c)
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
		in.Apply(&c)
		leaderless, _, st, err := in.Spans(new(model.Runner), c)
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
	if err != nil || len(in.Failures) != n {
		t.Fatalf("%d failures, %v; want %d", len(in.Failures), err, n)
	}
	if first, last := in.Span(); first != 1 || last != 2*n-1 {
		t.Errorf("span %d-%d, want 1-%d", first, last, 2*n-1)
	}
	_, err = incident.Parse(strings.NewReader(text+"0, isolate, 1001, 2\n"), 0, time.Time{})
	if want := fmt.Sprintf("line %d: node 0 is down already from line %d", n+1, n-500); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an overlap at the end: %v, want %q", err, want)
	}
}
