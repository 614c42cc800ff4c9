package model_test

import (
	"math"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

func TestTickText(t *testing.T) {
	sec, ms := model.Tick(time.Second), model.Tick(100*time.Millisecond)
	for _, tc := range []struct {
		tick model.Tick
		p    model.Param
		v    int
		name string
		text string
	}{
		{0, model.Lease, 15, "lease", "15"},
		{sec, model.Lease, 15, "lease_s", "15"},
		{ms, model.Lease, 15, "lease_s", "1.5"},
		{ms, model.Lease, 1, "lease_s", "0.1"},
		{model.Tick(1250 * time.Millisecond), model.Lease, 1, "lease_s", "1.25"},
		{sec, model.Start, 61, "start_s", "60"},
		{sec, model.Nodes, 5, "nodes", "5"},
		{sec, model.Fencing, 1, "fencing", "true"},
	} {
		if got := tc.tick.Name(tc.p); got != tc.name {
			t.Errorf("tick %v: Name(%s) = %q, want %q", tc.tick, tc.p.Name(), got, tc.name)
		}
		if got := string(tc.tick.AppendValue(nil, tc.p, tc.v)); got != tc.text {
			t.Errorf("tick %v: AppendValue(%s, %d) = %q, want %q", tc.tick, tc.p.Name(), tc.v, got, tc.text)
		}
		// What is written reads back as the same value.
		in := tc.text
		if tc.tick != 0 && tc.p.Time() != model.NotTime {
			in += "s"
		}
		if got, err := parse.Value(tc.tick, tc.p, in); err != nil || got != tc.v {
			t.Errorf("tick %v: parse.Value(%s, %q) = %d, %v; want %d", tc.tick, tc.p.Name(), in, got, err, tc.v)
		}
	}
	for _, tc := range []struct {
		tick model.Tick
		s    model.Stat
		v    int
		name string
		text string
	}{
		{0, model.LeaderlessRounds, 7, "leaderless_rounds", "7"},
		{ms, model.LeaderlessRounds, 7, "leaderless_s", "0.7"},
		{ms, model.Missed, 7, "missed", "7"},
		{sec, model.DelayedRounds, 12, "delayed_s", "12"},
	} {
		if got := tc.tick.StatName(tc.s); got != tc.name {
			t.Errorf("tick %v: StatName(%s) = %q, want %q", tc.tick, tc.s.Name(), got, tc.name)
		}
		if got := string(tc.tick.AppendStat(nil, tc.s, tc.v)); got != tc.text {
			t.Errorf("tick %v: AppendStat(%s, %d) = %q, want %q", tc.tick, tc.s.Name(), tc.v, got, tc.text)
		}
	}
}

func TestTickSecondsAndYear(t *testing.T) {
	for _, tc := range []struct {
		tick model.Tick
		n    int
		want string
	}{
		{model.Tick(time.Millisecond), 1, "0.001"},
		{model.Tick(time.Millisecond), -1234, "-1.234"},
		{model.Tick(10 * time.Millisecond), 15, "0.15"},
		{model.MaxTick, 1_000_000_000, "86400000000000"},
		{model.MaxTick, math.MaxInt64 / 1000, "7.968993439842527e+20"}, // past int64 milliseconds: a float
	} {
		if got := string(tc.tick.AppendSeconds(nil, tc.n)); got != tc.want {
			t.Errorf("tick %v: AppendSeconds(%d) = %s, want %s", tc.tick, tc.n, got, tc.want)
		}
	}
	if got := model.Tick(time.Second).RoundsPerYear(); got != 31_556_952 {
		t.Errorf("RoundsPerYear at 1s = %v, want 31556952 (365.2425 days)", got)
	}
	if got := model.Tick(0).RoundsPerYear(); got != 0 {
		t.Errorf("RoundsPerYear of the zero tick = %v, want 0", got)
	}
}

// TestTwoLeaderMargin: the margin is lease − retry period − renew
// deadline, undefined without a deadline; a margin not above zero without
// fencing is warned of, in the tick's unit, with what fixes it, except for
// one node, which has no follower to take over beside it.
func TestTwoLeaderMargin(t *testing.T) {
	sec := model.Tick(time.Second)
	for _, tt := range []struct {
		name                   string
		tick                   model.Tick
		lease, retry, deadline int
		fencing                bool
		nodes                  int // 0: the default's 5
		margin                 int
		ok                     bool
		warning                string
	}{
		{"kubernetes", sec, 15, 2, 10, false, 0, 3, true, ""},
		{"openshift-sno", sec, 270, 60, 240, false, 0, -30, true,
			"two leaders: the lease 4m30s is not longer than the retry period 1m0s and the renew deadline 4m0s together (a two-leader margin of -30s), so a follower can take over as soon as, or before, a leader cut off from the record gives up; lengthen the lease past 5m0s, shorten the renew deadline below 3m30s, or turn on fencing"},
		{"no margin, in rounds", 0, 12, 2, 10, false, 0, 0, true,
			"two leaders: the lease 12 rounds is not longer than the retry period 2 rounds and the renew deadline 10 rounds together (a two-leader margin of 0 rounds), so a follower can take over as soon as, or before, a leader cut off from the record gives up; lengthen the lease past 12 rounds, shorten the renew deadline below 10 rounds, or turn on fencing"},
		{"fencing refuses the stale leader's work", sec, 270, 60, 240, true, 0, -30, true, ""},
		{"one node has no follower to lead beside", sec, 270, 60, 240, false, 1, -30, true, ""},
		{"no renew deadline: no margin is set", 0, 3, 1, 0, false, 0, 0, false, ""},
	} {
		c := model.Default()
		c.Lease, c.RetryPeriod, c.RenewDeadline, c.Fencing = tt.lease, tt.retry, tt.deadline, tt.fencing
		if tt.nodes > 0 {
			c.Nodes = tt.nodes
		}
		if m, ok := c.TwoLeaderMargin(); m != tt.margin || ok != tt.ok {
			t.Errorf("%s: margin %d, %t; want %d, %t", tt.name, m, ok, tt.margin, tt.ok)
		}
		var warning string
		if w := tt.tick.Warnings(c); len(w) > 0 {
			warning = w[0]
		}
		if warning != tt.warning {
			t.Errorf("%s: warning %q\nwant %q", tt.name, warning, tt.warning)
		}
	}
}

// TestFormatDuration: below a day as Go writes it, from a day on in days
// and the rest without its zero units.
func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{1500 * time.Millisecond, "1.5s"},
		{90 * time.Minute, "1h30m0s"},
		{24*time.Hour - time.Second, "23h59m59s"},
		{24 * time.Hour, "1d"},
		{730 * time.Hour, "30d10h"},
		{1095*time.Hour + 43*time.Minute + 39*time.Second, "45d15h43m39s"},
		{48*time.Hour + 5*time.Minute, "2d5m"},
		{48*time.Hour + 10*time.Second, "2d10s"},
		{48*time.Hour + 500*time.Millisecond, "2d500ms"},
		{48*time.Hour + time.Hour + 30*time.Second, "2d1h0m30s"},
		{-(25 * time.Hour), "-1d1h"},
		{8760 * time.Hour, "365d"},
	} {
		if got := model.FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%s) = %s, want %s", tt.d, got, tt.want)
		}
	}
	if got, want := model.Tick(time.Second).DurationOf(3*86400+1), "3d1s"; got != want {
		t.Errorf("DurationOf: %s, want %s", got, want)
	}
	if got, want := model.Tick(time.Second).FormatValue(model.Rounds, 3*86400+1), "72h0m1s"; got != want {
		t.Errorf("FormatValue, as the flags take it: %s, want %s", got, want)
	}
}
