package input

import (
	"errors"
	"testing"
	"time"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
)

// TestParamValue reads a parameter's value at Set, or, a time, at
// Resolve in the unit of the tick.
func TestParamValue(t *testing.T) {
	for _, c := range []struct {
		p          model.Param
		set        string
		tick       model.Tick
		want       int
		setErr     bool
		resolveErr bool
	}{
		{model.Nodes, "5", 0, 5, false, false},
		{model.Nodes, "1,2", 0, 0, true, false}, // one value, not a list
		{model.Fencing, "true", 0, 1, false, false},
		{model.Lease, "4", 0, 4, false, false},
		{model.Lease, "15s", model.Tick(time.Second), 15, false, false},
		{model.Lease, "15s", 0, 0, false, true},                          // a duration needs a tick
		{model.Lease, "1500ms", model.Tick(time.Second), 0, false, true}, // not whole ticks
	} {
		cfg := model.Default()
		v := NewParam(c.p, &cfg)
		err := v.Set(c.set)
		if (err != nil) != c.setErr {
			t.Errorf("%s Set(%q) = %v, want error %v", c.p.Flag(), c.set, err, c.setErr)
		}
		if err != nil {
			continue
		}
		text, err := v.Resolve(c.tick)
		if (err != nil) != c.resolveErr {
			t.Errorf("%s %q Resolve(%s) = %v, want error %v", c.p.Flag(), c.set, c.tick, err, c.resolveErr)
		}
		if err == nil && cfg.Get(c.p) != c.want {
			t.Errorf("%s %q with tick %s = %d, want %d", c.p.Flag(), c.set, c.tick, cfg.Get(c.p), c.want)
		}
		if c.p.Time() != model.NotTime && text != c.set {
			t.Errorf("%s Resolve returned text %q, want %q", c.p.Flag(), text, c.set)
		}
	}
}

// TestListValue reads a list at Set, or a list of times at Resolve.
func TestListValue(t *testing.T) {
	for _, c := range []struct {
		p    model.Param
		set  string
		tick model.Tick
		want []int
	}{
		{model.Nodes, "1:3", 0, []int{1, 2, 3}},
		{model.Lease, "2,4", 0, []int{2, 4}},
		{model.Lease, "2s,4s", model.Tick(2 * time.Second), []int{1, 2}},
	} {
		var l sweep.List
		v := NewList(c.p, &l)
		if err := v.Set(c.set); err != nil {
			t.Fatalf("%s Set(%q): %v", c.p.Flag(), c.set, err)
		}
		if _, err := v.Resolve(c.tick); err != nil {
			t.Fatalf("%s %q Resolve: %v", c.p.Flag(), c.set, err)
		}
		var got []int
		for x := range l.All() {
			got = append(got, x)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s %q = %v, want %v", c.p.Flag(), c.set, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s %q = %v, want %v", c.p.Flag(), c.set, got, c.want)
			}
		}
	}
}

// TestParsed reads the numbers, shares and names of Parsed's
// constructors, refusing what they do not take.
func TestParsed(t *testing.T) {
	var f float64
	var n int
	var share float64
	var rates []float64
	var tick model.Tick
	for _, c := range []struct {
		v    Value
		set  string
		want string // the value written back; "" for a refusal
	}{
		{Rate(&f), "2.5", "2.5"},
		{Rate(&f), "-1", ""},
		{Rate(&f), "1,2", ""},
		{Positive(&n, 10), "10", "10"},
		{Positive(&n, 10), "11", ""},
		{Positive(&n, 10), "0", ""},
		{Share(&share), "10%", "10%"},
		{Share(&share), "0.25", "25%"},
		{Share(&share), "1", ""},
		{Rates(&rates), "6,12", "6,12"},
		{Tick(&tick), "100ms", "100ms"},
		{NewChoice(new(string), "csv", "parquet"), "parquet", "parquet"},
		{NewChoice(new(string), "csv", "parquet"), "json", ""},
	} {
		err := c.v.Set(c.set)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s Set(%q) = %s, want a refusal", c.v.Type(), c.set, c.v)
		case c.want != "" && err != nil:
			t.Errorf("%s Set(%q): %v", c.v.Type(), c.set, err)
		case c.want != "" && c.v.String() != c.want:
			t.Errorf("%s Set(%q) writes back %q, want %q", c.v.Type(), c.set, c.v, c.want)
		}
	}
}

// TestFiles lists the files a distribution and a further process read.
func TestFiles(t *testing.T) {
	l := NewLengths(new(model.Lengths))
	l.Set("empirical:up.txt")
	p := NewProcesses(new([]model.Process))
	p.Set("pause=empirical:a.txt/fixed:3")
	p.Set("crash=geometric:50/empirical:b.txt")
	for _, c := range []struct {
		got, want []string
	}{
		{l.Files(), []string{"up.txt"}},
		{p.Files(), []string{"a.txt", "b.txt"}},
		{NewLengths(new(model.Lengths)).Files(), nil},
	} {
		if len(c.got) != len(c.want) {
			t.Errorf("Files() = %q, want %q", c.got, c.want)
			continue
		}
		for i := range c.got {
			if c.got[i] != c.want[i] {
				t.Errorf("Files() = %q, want %q", c.got, c.want)
			}
		}
	}
}

// TestCandidateListResolve echoes the refused entry's text, and reads a
// good list whole.
func TestCandidateListResolve(t *testing.T) {
	var es []candidatelist.Entry
	v := NewCandidateList(&es)
	v.Set("lease=4\nlease=nope")
	text, err := v.Resolve(0)
	var ee *candidatelist.EntryError
	if !errors.As(err, &ee) || text != "lease=nope" {
		t.Errorf("Resolve = %q, %v; want the second entry refused", text, err)
	}
	v.Set("lease=4\nlease=5")
	if _, err := v.Resolve(0); err != nil || len(es) != 2 {
		t.Errorf("Resolve = %v with %d entries, want 2", err, len(es))
	}
}

// TestChoices lists the values of a flag that takes a few named ones.
func TestChoices(t *testing.T) {
	cfg := model.Default()
	var l sweep.List
	var sched settings.Scheduler
	for _, c := range []struct {
		v     Value
		first string // the first value, "" for none
		n     int
	}{
		{NewParam(model.Fencing, &cfg), "false", 2},
		{NewList(model.Fencing, &l), "false", 3},
		{NewParam(model.Nodes, &cfg), "", 0},
		{NewChoice(new(string), "table", "csv", "json"), "table", 3},
		{Named(new(settings.Preset), settings.PresetByName, ""), "kubernetes", len(settings.Presets())},
		{Presets(new([]settings.Preset)), "kubernetes", len(settings.Presets())},
		{Named(&sched, settings.SchedulerByName, ""), settings.Schedulers()[0].Name, len(settings.Schedulers())},
		{Rate(new(float64)), "", 0},
	} {
		got := Choices(c.v)
		if len(got) != c.n || (c.n > 0 && got[0] != c.first) {
			t.Errorf("Choices(%s %s) = %q, want %d beginning %q", c.v.Type(), c.v, got, c.n, c.first)
		}
	}
}

// TestLockOptions checks a lock's option as its lock reads it and keeps
// its text; on settings, a duration shows as Go writes it.
func TestLockOptions(t *testing.T) {
	positive := func(s string) error {
		if d, err := time.ParseDuration(s); err != nil || d <= 0 {
			return errors.New("want a positive duration")
		}
		return nil
	}
	for _, c := range []struct {
		v          Value
		set, shown string
		err        bool
	}{
		{NewLockOption(positive, "duration"), "90s", "90s", false},
		{NewLockOption(positive, "duration"), "1s,2s", "", true}, // one value
		{NewLockOption(positive, "duration"), "-1s", "", true},
		{NewSettingsOption(positive, "duration"), "90s", "1m30s", false},
		{NewSettingsOption(positive, "duration"), "0s", "", true},
	} {
		err := c.v.Set(c.set)
		if (err != nil) != c.err || (err == nil && c.v.String() != c.shown) {
			t.Errorf("%T Set(%q) = %v, shows %q; want error %v, %q", c.v, c.set, err, c.v, c.err, c.shown)
		}
	}
}
