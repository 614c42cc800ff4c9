package model_test

import (
	"strings"
	"testing"

	"github.com/leasesim/leasesim/model"
)

func TestTraceWindow(t *testing.T) {
	d := model.Default() // lease 3, re-read period 3, outage 5 from round 6, period 6, 24 rounds
	tests := []struct {
		name        string
		edit        func(*model.Config)
		first, last int
	}{
		{"short run: whole", func(*model.Config) {}, 1, 24},
		{"200 rounds: whole", func(c *model.Config) { c.Rounds = 200 }, 1, 200},
		{"long run, early outage", func(c *model.Config) { c.Rounds = 1_000_000 }, 1, 6 + 5 + 3 + 3 + 12},
		{"long run, late outage", func(c *model.Config) { c.Rounds, c.Start = 1_000_000, 500_000 }, 500_000 - 12, 500_000 + 5 + 3 + 3 + 12},
		{"outage to the end", func(c *model.Config) { c.Rounds, c.Start, c.Outage = 1_000_000, 999_990, 100 }, 999_978, 1_000_000},
		{"very long outage", func(c *model.Config) { c.Rounds, c.Outage = 1_000_000_000, 900_000_000 }, 1, 10_000},
		{"daily batch, outage near its end", func(c *model.Config) { c.Rounds, c.Period, c.Start, c.Outage = 87_000, 86_400, 86_390, 30 }, 86_390 - 10, 86_390 + 30 + 2*10},
		{"daily batch, long run", func(c *model.Config) { c.Rounds, c.Period, c.Start = 10_000_000, 86_400, 200_000 }, 200_000 - 10, 200_000 + 5 + 2*10},
		{"no outage", func(c *model.Config) { c.Rounds, c.Outage = 1_000_000, 0 }, 1, 1 + 3 + 3 + 12},
		{"outage after the end", func(c *model.Config) { c.Rounds, c.Start = 1000, 5000 }, 1, 1 + 3 + 3 + 12},
	}
	for _, tt := range tests {
		c := d
		tt.edit(&c)
		if first, last := model.TraceWindow(c); first != tt.first || last != tt.last {
			t.Errorf("%s: rounds %d to %d, want %d to %d", tt.name, first, last, tt.first, tt.last)
		}
	}
}

// TestLongRunTrace: a trace of a billion rounds shows the window around
// the outage, says so, and agrees with the run's statistics.
func TestLongRunTrace(t *testing.T) {
	c := model.Default()
	c.Rounds, c.Start = 1_000_000_000, 500_000_000
	b, err := new(model.Runner).AppendTrace(nil, c, c.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if lines[0] != "rounds 499999988 to 500000023 of 1000000000, around the outage; the others are left out" || len(lines) != 2+36 {
		t.Errorf("%d lines, first %q", len(lines), lines[0])
	}
	rounds, st, err := new(model.Runner).TraceRounds(c, c.Schedule())
	if err != nil {
		t.Fatal(err)
	}
	run, _ := model.Run(c)
	leaderless := 0
	for _, r := range rounds {
		if r.Active == 0 {
			leaderless++
		}
	}
	if st != run || leaderless != run.LeaderlessRounds || leaderless == 0 {
		t.Errorf("the window holds %d leaderless rounds; the run has %d (trace stats %+v, run %+v)", leaderless, run.LeaderlessRounds, st, run)
	}
}

// TestTraceCutBatches: the rounds a trace marks as cutting a batch mid-run
// add up to the run's partial batches, each in the first round a part of
// it went unwritten.
func TestTraceCutBatches(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*model.Config)
		windows model.Windows // the schedule, if not the publication's
		want    int           // partial batches
	}{
		{"instant batch", func(*model.Config) {}, nil, 0},
		{"the leader cut off mid-batch", func(c *model.Config) { c.BatchLen, c.Start = 4, 8 }, nil, 1},
		{"the persistent trigger, cut off mid-batch", func(c *model.Config) { c.BatchLen, c.Start, c.PersistentTrigger = 4, 8, true }, nil, 1},
		{"cut off before the batch", func(c *model.Config) { c.BatchLen, c.Start, c.Outage = 4, 2, 2 }, nil, 0},
		// Node 1 takes over in round 17 and starts the queued batch; cut
		// off in round 18, it cuts that batch while node 0, back and
		// still believing, is accepted.
		{"an overlap policy, cut off mid-batch while another node is accepted", func(c *model.Config) {
			c.Nodes, c.Period, c.BatchLen, c.PersistentTrigger, c.Overlap = 2, 3, 2, true, model.OverlapBufferAll
		}, model.Windows{{Node: 0, First: 15, Last: 17}, {Node: 1, First: 18, Last: 19}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := model.Default()
			tt.edit(&c)
			var s model.Schedule = c.Schedule()
			if tt.windows != nil {
				s = tt.windows
			}
			var r model.Runner
			rounds, st, err := r.TraceRounds(c, s)
			if err != nil {
				t.Fatal(err)
			}
			cut := 0
			for _, round := range rounds {
				cut += round.Cut
				if round.Cut > 0 && !strings.Contains(round.Event, "cut mid-run") {
					t.Errorf("round %d cuts %d batches, event %q", round.Round, round.Cut, round.Event)
				}
			}
			if cut != st.PartialBatches || cut != tt.want {
				t.Errorf("the trace cuts %d batches, the run's partial batches %d, want %d", cut, st.PartialBatches, tt.want)
			}
		})
	}
}
