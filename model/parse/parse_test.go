package parse_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

// TestValue: a value in rounds or in a tick's durations, and what its
// error says.
func TestValue(t *testing.T) {
	sec, ms := model.Tick(time.Second), model.Tick(100*time.Millisecond)
	for _, tc := range []struct {
		tick    model.Tick
		p       model.Param
		in      string
		want    int
		wantErr string
	}{
		{0, model.Lease, "15", 15, ""},
		{0, model.Lease, "15s", 0, "want a whole number from 1 to 1000000000"},
		{sec, model.Lease, "15s", 15, ""},
		{sec, model.Lease, "2m", 120, ""},
		{sec, model.Period, "24h", 86400, ""},
		{ms, model.Lease, "1.5s", 15, ""},
		{sec, model.Start, "0s", 1, ""},   // round 1 begins at the run's start
		{sec, model.Start, "60s", 61, ""}, // 60 ticks later
		{sec, model.Outage, "0s", 0, ""},
		{sec, model.Nodes, "3", 3, ""}, // not a time: a count
		{sec, model.Lease, "1500ms", 0, "1500ms is not a whole number of ticks: want a duration from 1s to 277777h46m40s in whole ticks of 1s"},
		{sec, model.Lease, "15", 0, "want a duration from 1s to 277777h46m40s in whole ticks of 1s"},
		{sec, model.Lease, "0s", 0, "want a duration from 1s to 277777h46m40s"},
		{sec, model.Lease, "-5s", 0, "want a duration from 1s"},
		{model.Tick(24 * time.Hour), model.Rounds, "2562048h", 0, "want a duration from 24h0m0s to 2562024h0m0s"}, // capped where durations end
	} {
		got, err := parse.Value(tc.tick, tc.p, tc.in)
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("tick %v: Value(%s, %q) = %d, %v; want %d", tc.tick, tc.p.Name(), tc.in, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
			t.Errorf("tick %v: Value(%s, %q) error = %v; want one starting %q", tc.tick, tc.p.Name(), tc.in, err, tc.wantErr)
		}
	}
}

// TestTick: a tick is a whole number of milliseconds from 1ms to 24h.
func TestTick(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    model.Tick
		wantErr bool
	}{
		{"1s", model.Tick(time.Second), false},
		{"100ms", model.Tick(100 * time.Millisecond), false},
		{"24h", model.MaxTick, false},
		{"25h", 0, true},
		{"500us", 0, true},
		{"1.0005s", 0, true},
		{"1", 0, true},
	} {
		got, err := parse.Tick(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("Tick(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestFailure reads every kind back from its name (KIND:VALUE for one
// that takes a value, skew:-2), and refuses a parameter given to a kind
// that takes none, a kind that takes one without it, and a name that is
// no kind.
func TestFailure(t *testing.T) {
	for _, b := range model.Kinds() {
		f := model.Failure{Kind: b.Kind}
		if b.ValueName != "" {
			f.Value = -2
		}
		if got, err := parse.Failure(f.String()); err != nil || got != f {
			t.Errorf("Failure(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
	}
	for _, tt := range []struct{ text, err string }{
		{"pause:3", `kind "pause:3": pause takes no parameter`},
		{"skew", `kind "skew": want skew:VALUE, VALUE the rounds its clock is ahead of the others' (behind if negative)`},
		{"skew:2s", `kind "skew:2s": want skew:VALUE, VALUE the rounds its clock is ahead of the others' (behind if negative)`},
		{"freeze", `kind "freeze": want one of isolate, black-hole, slow, partition, pause, crash, release, skew`},
	} {
		if _, err := parse.Failure(tt.text); err == nil || err.Error() != tt.err {
			t.Errorf("Failure(%q): %v, want %s", tt.text, err, tt.err)
		}
	}
}

// TestLengthsInTicks: with a tick, a distribution takes durations.
func TestLengthsInTicks(t *testing.T) {
	sec := model.Tick(time.Second)
	for _, tc := range []struct {
		tick model.Tick
		in   string
		want string // Lengths.String, in rounds; "" for an error
	}{
		{0, "geometric:2000", "geometric:2000"},
		{sec, "geometric:72h", "geometric:259200"},
		{model.Tick(100 * time.Millisecond), "fixed:2s", "fixed:20"},
		{sec, "lognormal:1s,0.5", "lognormal:0,0.5"}, // a median of one round: mu 0
		{sec, "fixed:1500ms", ""},
		{sec, "geometric:500ms", ""}, // a mean below one round
		{sec, "geometric:2000", ""},  // no unit
		{sec, "weibull:3s", ""},
	} {
		l, err := parse.Lengths(tc.tick, tc.in)
		got := ""
		if err == nil {
			got = l.String()
		}
		if got != tc.want {
			t.Errorf("tick %v: Lengths(%q) = %q, %v; want %q", tc.tick, tc.in, got, err, tc.want)
		}
	}
}

// TestLengths: a distribution in rounds, and what its error says.
func TestLengths(t *testing.T) {
	tests := []struct{ in, want, wantErr string }{
		{"fixed:5", "fixed:5", ""},
		{"geometric:2000", "geometric:2000", ""},
		{"geometric:1.5", "geometric:1.5", ""},
		{"lognormal:1.2,0.6", "lognormal:1.2,0.6", ""},
		{"fixed:0", "", "want a whole number of rounds from 1"},
		{"fixed:2.5", "", "want a whole number of rounds"},
		{"geometric:0.5", "", "want a mean from 1"},
		{"lognormal:1", "", "want fixed:N, geometric:MEAN or lognormal:MU,SIGMA"},
		{"lognormal:1,-1", "", "SIGMA from 0 to 10"},
		{"lognormal:99,1", "", "want MU up to"},
		{"weibull:2", "", "want fixed:N"},
		{"geometric:NaN", "", "want fixed:N"},
		{"", "", "want fixed:N"},
	}
	for _, tt := range tests {
		l, err := parse.Lengths(0, tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Lengths(0, %q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || l.String() != tt.want {
			t.Errorf("Lengths(0, %q) = %v, %v", tt.in, l, err)
		}
	}
}

// FuzzLengths: an accepted distribution reads back the same from its
// String.
func FuzzLengths(f *testing.F) {
	for _, s := range []string{"fixed:5", "geometric:2000", "lognormal:1.2,0.6", "fixed:0", "geometric:0.5", "lognormal:1", "lognormal:20.7,10", "weibull:2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parse.Lengths(0, s)
		if err != nil {
			return
		}
		again, err := parse.Lengths(0, l.String())
		if err != nil || again.Kind != l.Kind || again.A != l.A || again.B != l.B {
			t.Fatalf("%q reads back from %q as %+v, %v", s, l.String(), again, err)
		}
	})
}

func ExampleLengths() {
	for _, s := range []string{"geometric:2000", "lognormal:1.2,0.6", "weibull:2"} {
		l, err := parse.Lengths(0, s)
		fmt.Println(l, err)
	}
	// Output:
	// geometric:2000 <nil>
	// lognormal:1.2,0.6 <nil>
	// fixed:0 "weibull:2": want fixed:N, geometric:MEAN or lognormal:MU,SIGMA (rounds)
}
