package input

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
)

// flags is a command's flags as a test gives them: registered in order,
// given in the order of set.
type flags struct {
	names  []string
	values map[string]Value
	given  []string
}

func (f *flags) add(name string, v Value) {
	if f.values == nil {
		f.values = map[string]Value{}
	}
	f.names = append(f.names, name)
	f.values[name] = v
}

func (f *flags) set(t *testing.T, name, text string) {
	t.Helper()
	if err := f.values[name].Set(text); err != nil {
		t.Fatalf("--%s %s: %v", name, text, err)
	}
	f.given = append(f.given, name)
}

func (f *flags) Lookup(name string) (Value, bool) {
	return f.values[name], slices.Contains(f.given, name)
}

func (f *flags) Visit(fn func(string, Value)) {
	for _, name := range f.given {
		fn(name, f.values[name])
	}
}

func (f *flags) VisitAll(fn func(string, Value, bool)) {
	for _, name := range f.names {
		fn(name, f.values[name], slices.Contains(f.given, name))
	}
}

// modelFlags is a round-model command's flags: every parameter's, --tick
// and --preset.
func modelFlags(c *model.Config, preset *settings.Preset) *flags {
	f := &flags{}
	for _, p := range model.Params() {
		f.add(p.Flag(), NewParam(p, c))
	}
	f.add("tick", Tick(new(model.Tick)))
	f.add("preset", Named(preset, settings.PresetByName, "a list elsewhere"))
	return f
}

// TestResolve reads the times in the unit of --tick, or of a preset's
// tick, and puts a preset's values where no flag set them.
func TestResolve(t *testing.T) {
	type given struct{ flag, text string }
	for _, c := range []struct {
		name  string
		given []given
		want  map[model.Param]int
		tick  model.Tick
		err   string // the refusal's message, if any
	}{
		{"rounds", []given{{"lease", "5"}}, map[model.Param]int{model.Lease: 5}, 0, ""},
		{"tick after the time", []given{{"lease", "30s"}, {"tick", "10s"}}, map[model.Param]int{model.Lease: 3}, model.Tick(10 * time.Second), ""},
		{"a preset's tick and values", []given{{"preset", "kubernetes"}}, map[model.Param]int{model.Lease: 15, model.RenewDeadline: 10, model.RetryPeriod: 2}, model.Tick(time.Second), ""},
		{"a flag over client-go's preset", []given{{"preset", "kubernetes"}, {"lease", "20s"}}, map[model.Param]int{model.Lease: 20, model.RenewDeadline: 10}, model.Tick(time.Second), ""},
		{"a duration without a tick", []given{{"lease", "15s"}}, nil, 0, `invalid argument "15s" for "--lease" flag: `},
		{"the first refused in the order given", []given{{"retry-period", "1ms"}, {"tick", "1s"}, {"lease", "x"}}, nil, 0, `invalid argument "1ms" for "--retry-period" flag: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := model.Default()
			var preset settings.Preset
			f := modelFlags(&cfg, &preset)
			for _, g := range c.given {
				f.set(t, g.flag, g.text)
			}
			err := Resolve(f)
			if c.err != "" {
				var fe *FlagError
				if !errors.As(err, &fe) || len(fe.Msg) < len(c.err) || fe.Msg[:len(c.err)] != c.err {
					t.Fatalf("Resolve = %v, want a FlagError beginning %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := TickOf(f); got != c.tick {
				t.Errorf("tick %s, want %s", got, c.tick)
			}
			for p, want := range c.want {
				if got := cfg.Get(p); got != want {
					t.Errorf("%s = %d, want %d", p.Flag(), got, want)
				}
			}
		})
	}
}

// TestPresetUnset leaves out what a flag given sets, for client-go's
// presets, and is refused, as a PresetError through Resolve, where the
// tick cannot hold the preset.
func TestPresetUnset(t *testing.T) {
	cfg := model.Default()
	var preset settings.Preset
	f := modelFlags(&cfg, &preset)
	f.set(t, "lease", "20")
	k, _ := settings.PresetByName("kubernetes")
	vals, err := PresetUnset(f, k, model.Tick(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := vals[model.Lease]; ok {
		t.Errorf("PresetUnset sets --lease, which a flag set: %v", vals)
	}
	if vals[model.RenewDeadline] != 10 || vals[model.RetryPeriod] != 2 {
		t.Errorf("PresetUnset = %v, want renew deadline 10 and retry period 2", vals)
	}

	cfg = model.Default()
	f = modelFlags(&cfg, &preset)
	f.set(t, "preset", "kubernetes")
	f.set(t, "tick", "3s") // kubernetes's 10s and 2s are no whole number of 3s ticks
	var pe *PresetError
	if err := Resolve(f); !errors.As(err, &pe) {
		t.Errorf("Resolve with --tick 3s = %v, want a PresetError", err)
	}
}

// TestSetUnset sets only the flags not given, and those override names.
func TestSetUnset(t *testing.T) {
	cfg := model.Default()
	var preset settings.Preset
	f := modelFlags(&cfg, &preset)
	f.set(t, "nodes", "5")
	f.set(t, "fencing", "true")
	SetUnset(f, map[model.Param]int{model.Nodes: 7, model.Fencing: 0, model.Lease: 9}, func(p model.Param) bool { return p == model.Fencing })
	if cfg.Nodes != 5 || cfg.Fencing || cfg.Lease != 9 {
		t.Errorf("nodes %d, fencing %v, lease %d; want 5 (given), false (overridden), 9 (not given)", cfg.Nodes, cfg.Fencing, cfg.Lease)
	}
}

// TestSyntaxHelp explains times where a command has time flags and
// --tick, and lists where it has list flags.
func TestSyntaxHelp(t *testing.T) {
	cfg := model.Default()
	var preset settings.Preset
	withList := modelFlags(&cfg, &preset)
	var l sweep.List
	withList.add("leases", NewList(model.Lease, &l))
	noTick := &flags{}
	noTick.add("lease", NewParam(model.Lease, &cfg))
	for _, c := range []struct {
		f            *flags
		times, lists bool
	}{
		{modelFlags(&cfg, &preset), true, false},
		{withList, true, true},
		{noTick, false, false},
	} {
		got := SyntaxHelp(c.f)
		if strings.Contains(got, "A time flag takes") != c.times || strings.Contains(got, "A list flag takes") != c.lists {
			t.Errorf("SyntaxHelp of %v = %q, want times %v, lists %v", c.f.names, got, c.times, c.lists)
		}
	}
}

// TestResolveScheduler puts a scheduler's trigger policy where no flag
// set it, and passes its refusal on as study.SchedulerValues words it,
// neither a FlagError nor a PresetError.
func TestResolveScheduler(t *testing.T) {
	schedulers := settings.Schedulers()
	var windowed, plain settings.Scheduler
	for _, s := range schedulers {
		if s.CatchUpWindow > 0 {
			windowed = s
		} else {
			plain = s
		}
	}
	if windowed.Name == "" || plain.Name == "" {
		t.Fatal("want a scheduler with a catch-up window and one without")
	}
	cfg := model.Default()
	var preset settings.Preset
	var sched settings.Scheduler
	f := modelFlags(&cfg, &preset)
	f.add("scheduler", Named(&sched, settings.SchedulerByName, ""))
	f.set(t, "scheduler", windowed.Name)
	err := Resolve(f)
	var fe *FlagError
	var pe *PresetError
	if err == nil || errors.As(err, &fe) || errors.As(err, &pe) || !strings.Contains(err.Error(), "needs --tick") {
		t.Errorf("--scheduler %s without --tick: %v, want study.SchedulerValues' refusal", windowed.Name, err)
	}
	cfg = model.Default()
	f = modelFlags(&cfg, &preset)
	f.add("scheduler", Named(&sched, settings.SchedulerByName, ""))
	f.set(t, "scheduler", plain.Name)
	f.set(t, "persistent-trigger", "false")
	if err := Resolve(f); err != nil {
		t.Fatal(err)
	}
	if cfg.PersistentTrigger || cfg.CatchUpOnce != plain.CatchUpOnce {
		t.Errorf("--scheduler %s: persistent trigger %v (given false), catch-up once %v; want false, the scheduler's %v", plain.Name, cfg.PersistentTrigger, cfg.CatchUpOnce, plain.CatchUpOnce)
	}
}
