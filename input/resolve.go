package input

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
)

// Flags is what a command was given, flag by flag, as a command-line
// parser holds it: the only thing of the parser this package reads.
type Flags interface {
	// Lookup is the value of the flag name and whether it was given
	// (on the command line or from a review file); v is nil if the
	// command has no such flag.
	Lookup(name string) (v Value, given bool)
	// Visit calls fn for each flag given, in the order given.
	Visit(fn func(name string, v Value))
	// VisitAll calls fn for each of the command's flags, given or not.
	VisitAll(fn func(name string, v Value, given bool))
}

// Given is whether the flag name was given.
func Given(f Flags, name string) bool {
	_, given := f.Lookup(name)
	return given
}

// TickOf is the tick --tick holds, 0 without it (or without the flag).
func TickOf(f Flags) model.Tick {
	if v, _ := f.Lookup("tick"); v != nil {
		return *v.(Parsed[model.Tick]).P
	}
	return 0
}

// Texts is the texts of f's flags as given, by name: a time's as it was
// written, not as it was read; ok is false for a flag not given. It is
// what a lock's preset reads its options from
// (settings.Preset.WithOptions).
func Texts(f Flags) func(name string) (text string, ok bool) {
	return func(name string) (string, bool) {
		v, given := f.Lookup(name)
		if v == nil || !given {
			return "", false
		}
		switch v := v.(type) {
		case Param:
			return *v.text, true
		case List:
			return *v.text, true
		}
		return v.String(), true
	}
}

// FlagError is a value its flag refuses, found once the length of a
// round is known: the flag's name, so that a value from a review file can
// be traced to its line, pflag's message and, for a value of several
// lines (a candidate list), the line of it that is refused, from 0.
type FlagError struct {
	Flag, Msg string
	Line      int
	HasLine   bool
}

// Error is Msg.
func (e *FlagError) Error() string { return e.Msg }

// PresetError is a refusal of a preset or its options (settings'), as
// Err says it.
type PresetError struct{ Err error }

// Error is Err's.
func (e *PresetError) Error() string { return e.Err.Error() }

// Unwrap is Err.
func (e *PresetError) Unwrap() error { return e.Err }

// Resolve reads every time flag given in the unit --tick sets: whole
// rounds without it, durations with it (a preset's tick where --tick is
// not given); then applies --scheduler and --preset to the model flags
// nothing given set, a lock's preset with its options. A value refused
// is a *FlagError, naming the flag and what it accepts; a preset refused
// a *PresetError; a scheduler's refusal is study.SchedulerValues'.
func Resolve(f Flags) error {
	var tick, implied model.Tick
	var preset settings.Preset
	lockListed := false // a lock's preset, which reads --lock-delay as Consul's option
	if v, _ := f.Lookup("preset"); v != nil {
		var presets []settings.Preset
		switch v := v.(type) {
		case Parsed[settings.Preset]:
			if preset = *v.P; preset.Name != "" {
				presets = []settings.Preset{preset}
			}
		case Parsed[[]settings.Preset]: // several, which the command applies itself
			presets = *v.P
		}
		if o, _ := f.Lookup("session-ttl"); o != nil {
			if _, ok := o.(LockOption); ok { // not settings, which has its own
				if err := settings.CheckOptions(func(name string) bool { return Given(f, name) }, presets); err != nil {
					return &PresetError{err}
				}
			}
		}
		lockListed = slices.ContainsFunc(presets, func(p settings.Preset) bool { return p.Lock != nil })
		if len(presets) > 0 {
			var err error
			if implied, err = PresetTick(f, presets[0]); err != nil {
				return &PresetError{err}
			}
		}
	}
	if v, given := f.Lookup("tick"); v != nil {
		t := v.(Parsed[model.Tick]).P
		if implied != 0 && !given {
			*t = implied
		}
		tick = *t
	}
	var err error
	f.Visit(func(name string, v Value) {
		tv, ok := v.(Timed)
		if !ok || err != nil || (lockListed && name == model.LockDelay.Flag()) { // Consul's own lock-delay, which the preset reads
			return
		}
		if text, e := tv.Resolve(tick); e != nil {
			if tick == 0 { // durations were meant, unless the text names a file (h10m.txt), whose line the error names
				e = parse.TickHint(text, e)
			}
			fe := &FlagError{Flag: name, Msg: fmt.Sprintf("invalid argument %q for \"--%s\" flag: %v", text, name, e)}
			var ee *candidatelist.EntryError
			if errors.As(e, &ee) {
				fe.Line, fe.HasLine = ee.Line, true
			}
			err = fe
		}
	})
	if err != nil {
		return err
	}
	if v, given := f.Lookup("scheduler"); v != nil && given {
		values, err := study.SchedulerValues(*v.(Parsed[settings.Scheduler]).P, tick)
		if err != nil {
			return err
		}
		SetUnset(f, values, func(model.Param) bool { return false })
	}
	if v, _ := f.Lookup("tick"); preset.Name == "" || v == nil { // settings takes its preset itself
		return nil
	}
	return applyPreset(f, preset, tick)
}

// SetUnset sets each model parameter of values on its own flag of f (not
// another flag that holds its values, such as report's --candidates)
// where nothing given set that flag, or where override says to anyway:
// a preset's or a scheduler's values where no flag set them.
func SetUnset(f Flags, values map[model.Param]int, override func(model.Param) bool) {
	f.VisitAll(func(name string, v Value, given bool) {
		switch v := v.(type) {
		case Param:
			if x, ok := values[v.P]; ok && name == v.P.Flag() && (!given || override(v.P)) {
				v.C.Set(v.P, x)
			}
		case List:
			if x, ok := values[v.P]; ok && name == v.P.Flag() && (!given || override(v.P)) {
				*v.Vals = sweep.ListOf(x)
			}
		}
	})
}

// applyPreset sets what preset sets where no flag set it (PresetUnset),
// in rounds of tick, on the model flags of f nothing given set, and a
// lock's preset's lock_delay, which --lock-delay gave as Consul's option.
// A tick that cannot hold a lock's preset is refused with the nearest
// setting of its options that it holds.
func applyPreset(f Flags, preset settings.Preset, tick model.Tick) error {
	values, err := PresetUnset(f, preset, tick)
	if err != nil {
		if preset.Lock != nil { // the nearest setting of its options the tick holds
			if l, _, e := preset.WithOptions(Texts(f)); e == nil {
				err = fmt.Errorf("%w%s", err, settings.NearestHint(l, tick)) // %w: the flags err names (flagerr)
			}
		}
		return &PresetError{err}
	}
	SetUnset(f, values, func(p model.Param) bool { return preset.Lock != nil && p == model.LockDelay })
	return nil
}

// PresetTick is the tick a preset implies with the options f gives: the
// lock's settings.RoundLock.Tick, or 1s.
func PresetTick(f Flags, p settings.Preset) (model.Tick, error) {
	if p.Lock == nil {
		return model.Tick(p.Tick()), nil
	}
	_, r, err := p.WithOptions(Texts(f))
	return model.Tick(r.Tick()), err
}

// PresetUnset is what the preset p sets, in rounds of t, with the lock's
// options f gives (settings.Preset.Values), where no flag of f set it: a
// lock's preset sets all of its own, client-go's give way to a flag. A
// sweep's grids and a replay's settings read it too, a preset each.
func PresetUnset(f Flags, p settings.Preset, t model.Tick) (map[model.Param]int, error) {
	var lock settings.RoundLock
	if p.Lock != nil {
		var err error
		if _, lock, err = p.WithOptions(Texts(f)); err != nil {
			return nil, err
		}
	}
	vals, err := p.Values(lock, t)
	if err != nil {
		return nil, err
	}
	takes, _ := p.Takes()
	for param := range vals {
		if p.Lock == nil && slices.Contains(takes, param.Flag()) && Given(f, param.Flag()) {
			delete(vals, param)
		}
	}
	return vals, nil
}

// RealTimeDefaults makes the outage's start and the run's length follow
// the batch's period once a round has a real length (--tick, or a
// preset's), as they do in rounds, where the defaults are start = period
// (6) and four periods a run (24): a period of 24h gives an outage as the
// first nightly batch falls due and a run of four nights that holds it
// and its handover (cost.SettleRounds), not a run of 24 s. A flag given,
// on the command line or in a review file, keeps its value. It returns a
// warning when the period itself was left at the round model's default
// (its flag's default, defValue, the model's): with a tick that is a
// batch every 6 ticks, rarely what is meant. A grid's lists (sweep,
// montecarlo) get the warning, not the defaults.
func RealTimeDefaults(f Flags, periodDefault string) []string {
	tick := TickOf(f)
	pv, pgiven := f.Lookup(model.Period.Flag())
	if tick == 0 || pv == nil {
		return nil
	}
	def := model.Default()
	var w []string
	if !pgiven && periodDefault == strconv.Itoa(def.Period) {
		w = append(w, fmt.Sprintf("--period is not given, so a batch falls due every %s (the round model's %d rounds of %s): give the batch's period, --period 24h for a nightly one", tick.DurationOf(def.Period), def.Period, tick))
	}
	p, ok := pv.(Param)
	if !ok {
		return w
	}
	if derive, _ := RealTimeRun(f); derive != nil {
		derive(p.C)
	}
	return w
}

// RealTimeRun is what RealTimeDefaults does to one configuration
// (cost.RealTimeRun): with a tick, the outage's start and the run's
// length follow the period where their flags were not given (a command
// without the flag gives it); nil without a tick. A sweep's grid derives
// them row by row (sweep.Grid.Derive), as its period and settings vary.
func RealTimeRun(f Flags) (derive func(*model.Config), name string) {
	if TickOf(f) == 0 {
		return nil, ""
	}
	given := func(p model.Param) bool {
		v, given := f.Lookup(p.Flag())
		return v == nil || given
	}
	return cost.RealTimeRun(given(model.Start), given(model.Rounds))
}

// SyntaxHelp explains the syntax of f's time and list flags, if it has
// any, for a command's --help: a time in rounds or, with --tick, a
// duration; a list in sweep's list syntax.
func SyntaxHelp(f Flags) string {
	var lists, times, tick bool
	f.VisitAll(func(name string, v Value, _ bool) {
		_, list := v.(List)
		t, timed := v.(Timed)
		lists = lists || list
		times = times || (timed && t.Kind() != model.NotTime)
		tick = tick || name == "tick"
	})
	var b strings.Builder
	if times && tick {
		b.WriteString("\nA time flag takes whole rounds or, with --tick, a duration such as 15s, 2m or 24h that is a whole number of ticks; start is counted from the run's beginning.\n")
	}
	if lists {
		b.WriteString("\nA list flag takes " + sweep.ListSyntax + "; a bools flag takes false, true or false,true.\n")
	}
	return b.String()
}
