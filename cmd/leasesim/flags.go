package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/candidatelist"
	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// paramValue is a flag holding one value of a model parameter, checked
// against the parameter's range. A time's text is kept as given and read
// once every flag is parsed (resolveTimes), because --tick, which says
// whether it is rounds or a duration, may come after it.
type paramValue struct {
	p    model.Param
	c    *model.Config
	text *string // a time as given, until resolveTimes reads it
}

func (v paramValue) String() string {
	return string(v.p.AppendValue(nil, v.c.Get(v.p)))
}

func (v paramValue) Set(s string) error {
	if err := settings.OneValue(s, "sweep and check take every model flag as a list"); err != nil {
		return err
	}
	if v.p.Time() != model.NotTime {
		*v.text = s
		return nil
	}
	n, err := parse.Value(0, v.p, s)
	if err != nil {
		return err
	}
	v.c.Set(v.p, n)
	return nil
}

func (v paramValue) resolve(t model.Tick) (string, error) {
	if v.p.Time() == model.NotTime {
		return "", nil
	}
	n, err := parse.Value(t, v.p, *v.text)
	if err == nil {
		v.c.Set(v.p, n)
	}
	return *v.text, err
}

func (v paramValue) Type() string {
	switch {
	case v.p.Bool():
		return "bool"
	case v.p.Names() != nil:
		return "name"
	case v.p.Time() != model.NotTime:
		return "time"
	}
	return "int"
}

// addModelFlags registers one flag per model parameter, writing into c,
// except the parameters in skip.
func addModelFlags(fs *pflag.FlagSet, c *model.Config, skip ...model.Param) {
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if slices.Contains(skip, p) {
			continue
		}
		fs.Var(paramValue{p, c, new(string)}, p.Flag(), p.Doc())
		if p.Bool() {
			fs.Lookup(p.Flag()).NoOptDefVal = "true"
		}
	}
}

// listValue is a flag holding a list of values of a model parameter, in
// sweep's list syntax. Like paramValue, a list of times is read once
// every flag is parsed.
type listValue struct {
	p    model.Param
	vals *sweep.List
	text *string
}

func (v listValue) String() string { return v.vals.Format(v.p) }

func (v listValue) Set(s string) error {
	if v.p.Time() != model.NotTime {
		*v.text = s
		return nil
	}
	vals, err := sweep.ParseValues(0, v.p, s)
	if err != nil {
		return err
	}
	*v.vals = vals
	return nil
}

func (v listValue) resolve(t model.Tick) (string, error) {
	if v.p.Time() == model.NotTime {
		return "", nil
	}
	vals, err := sweep.ParseValues(t, v.p, *v.text)
	if err == nil {
		*v.vals = vals
	}
	return *v.text, err
}

func (v listValue) Type() string {
	switch {
	case v.p.Bool():
		return "bools"
	case v.p.Names() != nil:
		return "names"
	case v.p.Time() != model.NotTime:
		return "times"
	}
	return "list"
}

// addGridFlags registers one list flag per model parameter, writing into g.
func addGridFlags(fs *pflag.FlagSet, g *sweep.Grid, params ...model.Param) {
	for _, p := range params {
		fs.Var(listValue{p, &g.Values[p], new(string)}, p.Flag(), p.Doc())
	}
}

// addTickFlag registers --tick and returns where its value goes.
func addTickFlag(fs *pflag.FlagSet) *model.Tick {
	t := new(model.Tick)
	fs.Var(tickFlag(t), "tick", "the real length of one round, e.g. 1s or 100ms: time flags then take durations (15s, 2m, 24h) and outputs give times in seconds")
	return t
}

// timed is a flag whose value is a time, read by resolve once the tick is
// known; it returns the text it read.
type timed interface {
	resolve(t model.Tick) (string, error)
	kind() model.TimeKind
}

func (v paramValue) kind() model.TimeKind { return v.p.Time() }
func (v listValue) kind() model.TimeKind  { return v.p.Time() }

// addJitterSeedFlag registers --seed, the seed of the followers' jitter
// (model.JitterSeed) for commands with no other randomness.
func addJitterSeedFlag(fs *pflag.FlagSet, seed *uint64) {
	fs.Uint64Var(seed, "seed", 0, "seed of the followers' jitter (with --jitter, which --preset turns on for client-go's locks); the same seed gives the same output")
}

// addPresetFlag registers --preset, which sets the lease settings of a
// lock's defaults (settings.Presets) where no flag sets them, and
// --scheduler, which sets the trigger policy of a scheduler's defaults
// (settings.Schedulers) the same way.
func addPresetFlag(fs *pflag.FlagSet) {
	fs.Var(namedFlag(new(settings.Preset), settings.PresetByName, "replay and sweep compare a list of presets"), "preset", presetUsage)
	addLockOptionFlags(fs)
	addSchedulerFlag(fs)
}

// addPresetsFlag is addPresetFlag for a command that compares presets:
// its --preset takes a list, which the command applies itself.
func addPresetsFlag(fs *pflag.FlagSet, presets *[]settings.Preset, usage string) {
	fs.Var(presetsFlag(presets), "preset", usage)
	addLockOptionFlags(fs)
	addSchedulerFlag(fs)
}

// addSchedulerFlag registers --scheduler.
func addSchedulerFlag(fs *pflag.FlagSet) {
	fs.Var(namedFlag(new(settings.Scheduler), settings.SchedulerByName, "a scheduler's settings go to sweep and check as lists of their own flags"), "scheduler", "a scheduler's defaults for persistent-trigger (on), catch-up-once, catch-up-window, idempotency-key and overlap: "+settings.SchedulerNames()+" (temporal's one-year window needs --tick)")
}

// presetUsage is the help of a round-model command's --preset.
const presetUsage = "a lock's defaults: " + "kubernetes, openshift and openshift-sno set client-go's lease, renew-deadline, retry-period, renewal (0) and jitter (on); " +
	"etcd, consul, zookeeper and dynamodb set the lock's protocol, lease, retry-period, lock-delay and acquire-wait from its options (--session-ttl, --lock-delay, --session-timeout, --tick-time, --error-policy; dynamodb's --lease, --heartbeat-period, --refresh-period, --additional-time-to-wait), renew-deadline and renewal 0, jitter off; " +
	"implies the tick of its times (1s; consul 500ms, zookeeper 1ms by default; dynamodb its refresh period, the only tick it takes) unless --tick is given"

// applyScheduler sets the trigger policy of sched, its catch-up window in
// rounds of tick (study.SchedulerValues), on the flags of fs that the
// command line left alone.
func applyScheduler(fs *pflag.FlagSet, sched settings.Scheduler, tick model.Tick) error {
	values, err := study.SchedulerValues(sched, tick)
	if err != nil {
		return err
	}
	setUnset(fs, values, func(model.Param) bool { return false })
	return nil
}

// setUnset sets each model parameter of values on its own flag of fs (not
// another flag that holds its values, such as report's --candidates)
// where the command line left that flag alone, or where override says to
// anyway: a preset's or a scheduler's values where no flag set them.
func setUnset(fs *pflag.FlagSet, values map[model.Param]int, override func(model.Param) bool) {
	fs.VisitAll(func(f *pflag.Flag) {
		var p model.Param
		switch v := f.Value.(type) {
		case paramValue:
			p = v.p
		case listValue:
			p = v.p
		default:
			return
		}
		if f.Name != p.Flag() {
			return
		}
		if v, ok := values[p]; ok && (!f.Changed || override(p)) {
			switch fv := f.Value.(type) {
			case paramValue:
				fv.c.Set(p, v)
			case listValue:
				*fv.vals = sweep.ListOf(v)
			}
		}
	})
}

// resolveTimes reads every time flag given on the command line in the unit
// --tick sets: whole rounds without it, durations with it; then applies
// --preset to the model flags no flag set, a lock's preset with its
// options (presetLock), which also imply the tick. Its error is pflag's,
// naming the flag and what it accepts.
func resolveTimes(fs *pflag.FlagSet) error {
	var tick, implied model.Tick
	var preset settings.Preset
	lockListed := false // a lock's preset, which reads --lock-delay as Consul's option
	if f := fs.Lookup("preset"); f != nil {
		var presets []settings.Preset
		switch v := f.Value.(type) {
		case parsed[settings.Preset]:
			if preset = *v.p; preset.Name != "" {
				presets = []settings.Preset{preset}
			}
		case parsed[[]settings.Preset]: // several, which the command applies itself
			presets = *v.p
		}
		if o := fs.Lookup("session-ttl"); o != nil && isLockOption(o) { // not settings, which has its own
			if err := checkPresetFlags(fs, presets); err != nil {
				return err
			}
		}
		lockListed = slices.ContainsFunc(presets, func(p settings.Preset) bool { return p.Lock != nil })
		if len(presets) > 0 {
			var err error
			if implied, err = presetTick(fs, presets[0]); err != nil {
				return usage(err)
			}
		}
	}
	if f := fs.Lookup("tick"); f != nil {
		t := f.Value.(parsed[model.Tick]).p
		if implied != 0 && !f.Changed {
			*t = implied
		}
		tick = *t
	}
	var err error
	fs.Visit(func(f *pflag.Flag) {
		v, ok := f.Value.(timed)
		if !ok || err != nil || (lockListed && f.Name == model.LockDelay.Flag()) { // Consul's own lock-delay, which the preset reads
			return
		}
		if text, e := v.resolve(tick); e != nil {
			if tick == 0 { // durations were meant, unless the text names a file (h10m.txt), whose line the error names
				e = parse.TickHint(text, e)
			}
			fe := &flagError{flag: f.Name, msg: fmt.Sprintf("invalid argument %q for \"--%s\" flag: %v", text, f.Name, e)}
			var ee *candidatelist.EntryError
			if errors.As(e, &ee) {
				fe.line, fe.hasLine = ee.Line, true
			}
			err = fe
		}
	})
	if err != nil {
		return err
	}
	if f := fs.Lookup("scheduler"); f != nil && f.Changed {
		if err := applyScheduler(fs, *f.Value.(parsed[settings.Scheduler]).p, tick); err != nil {
			return err
		}
	}
	if preset.Name == "" || fs.Lookup("tick") == nil { // settings takes its preset itself
		return nil
	}
	return applyPreset(fs, preset, tick)
}

// realTimeDefaults makes the outage's start and the run's length follow
// the batch's period once a round has a real length (--tick, or a
// preset's), as they do in rounds, where the defaults are start = period
// (6) and four periods a run (24): a period of 24h gives an outage as the
// first nightly batch falls due and a run of four nights that holds it
// and its handover (cost.SettleRounds), not a run of 24 s. A flag given,
// on the command line or in a review file, keeps its value. It returns a
// warning when the period itself was left at the round model's default:
// with a tick that is a batch every 6 ticks, rarely what is meant. A
// grid's lists (sweep, montecarlo) get the warning, not the defaults.
func realTimeDefaults(fs *pflag.FlagSet) []string {
	tf, pf := fs.Lookup("tick"), fs.Lookup(model.Period.Flag())
	if tf == nil || pf == nil || *tf.Value.(parsed[model.Tick]).p == 0 {
		return nil
	}
	tick := *tf.Value.(parsed[model.Tick]).p
	def := model.Default()
	var w []string
	if !pf.Changed && pf.DefValue == strconv.Itoa(def.Period) {
		w = append(w, fmt.Sprintf("--period is not given, so a batch falls due every %s (the round model's %d rounds of %s): give the batch's period, --period 24h for a nightly one", tick.DurationOf(def.Period), def.Period, tick))
	}
	pv, ok := pf.Value.(paramValue)
	if !ok {
		return w
	}
	if derive, _ := realTimeRun(fs); derive != nil {
		derive(pv.c)
	}
	return w
}

// realTimeRun is what realTimeDefaults does to one configuration
// (cost.RealTimeRun): with a tick, the outage's start and the run's
// length follow the period where their flags were not given (a command
// without the flag gives it); nil without a tick. A sweep's grid derives
// them row by row (sweep.Grid.Derive), as its period and settings vary.
func realTimeRun(fs *pflag.FlagSet) (derive func(*model.Config), name string) {
	tf := fs.Lookup("tick")
	if tf == nil || *tf.Value.(parsed[model.Tick]).p == 0 {
		return nil, ""
	}
	return cost.RealTimeRun(fs.Lookup(model.Start.Flag()) == nil || fs.Changed(model.Start.Flag()), fs.Lookup(model.Rounds.Flag()) == nil || fs.Changed(model.Rounds.Flag()))
}

// flagError is a value its flag refuses, found once the length of a round
// is known: the flag's name, so that a value from a review file can be
// traced to its line, pflag's message and, for a value of several lines
// (a candidate list), the line of it that is refused, from 0.
type flagError struct {
	flag, msg string
	line      int
	hasLine   bool
}

func (e *flagError) Error() string { return e.msg }

// applyPreset sets what preset sets where no flag set it (presetUnset,
// which a sweep's grids and a replay's settings read too), in rounds of
// tick, on the model flags of fs that the command line left alone, and a
// lock's preset's lock_delay, which --lock-delay gave as Consul's option.
// A tick that cannot hold a lock's preset is refused with the nearest
// setting of its options that it holds.
func applyPreset(fs *pflag.FlagSet, preset settings.Preset, tick model.Tick) error {
	values, err := presetUnset(fs, preset, tick)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) && ue.err != nil {
			err = ue.err
		}
		if preset.Lock != nil { // the nearest setting of its options the tick holds
			if l, _, e := preset.WithOptions(flagTexts(fs)); e == nil {
				err = fmt.Errorf("%w%s", err, settings.NearestHint(l, tick)) // %w: the flags err names (flagerr)
			}
		}
		return usage(err)
	}
	setUnset(fs, values, func(p model.Param) bool { return preset.Lock != nil && p == model.LockDelay })
	return nil
}

// choiceValue is a flag holding one of a fixed set of words.
type choiceValue struct {
	s       *string
	choices []string
}

func (v choiceValue) String() string { return *v.s }

func (v choiceValue) Set(s string) error {
	if !slices.Contains(v.choices, s) {
		return fmt.Errorf("want one of %s", strings.Join(v.choices, ", "))
	}
	*v.s = s
	return nil
}

func (v choiceValue) Type() string { return "string" }

// outputValue is a flag naming an output file, checked when it is set so
// that a folder, an empty name or a missing folder is refused before any
// work. stdout, if not empty, is the name that means standard output.
type outputValue struct {
	path   *string
	stdout string
}

func (v outputValue) String() string { return *v.path }

func (v outputValue) Set(s string) error {
	if s != v.stdout || s == "" {
		if err := atomicfile.Check(s); err != nil {
			return err
		}
	}
	*v.path = s
	return nil
}

func (v outputValue) Type() string { return "string" }

// addOutputFlag registers an output file flag. With stdout not empty, that
// name (the default) means standard output; otherwise the default "" means
// no file.
func addOutputFlag(fs *pflag.FlagSet, name, stdout, usage string) *string {
	path := stdout
	fs.Var(outputValue{&path, stdout}, name, usage)
	return &path
}

// addCSVFlag registers --csv FILE, the CSV a command writes (by default
// to standard output, "-"), and --out FILE, the contract's name for it in
// sweep and merge (SPEC §3), which scripts use. The function it returns
// refuses both given together.
func addCSVFlag(fs *pflag.FlagSet, usage string) (path *string, check func() error) {
	path = addOutputFlag(fs, "csv", "-", usage)
	return path, addAlias(fs, "csv", "out", "the same as --csv, by the name the contract gave it first")
}

// addAlias registers alias as another name of flag name (the same value),
// and returns the function that refuses both given together.
func addAlias(fs *pflag.FlagSet, name, alias, usage string) func() error {
	fs.Var(fs.Lookup(name).Value, alias, usage)
	fs.Lookup(alias).DefValue = "" // the default is name's
	return func() error {
		if fs.Changed(name) && fs.Changed(alias) {
			return flagUsagef([]string{name, alias}, "--%s and --%s are one flag by two names: give one of them", name, alias)
		}
		return nil
	}
}

// lengthsValue is a flag holding a distribution of period lengths, in
// rounds or, with --tick, in durations: read once every flag is parsed,
// like a time flag.
type lengthsValue struct {
	l    *model.Lengths
	text *string
}

func (v lengthsValue) String() string { return v.l.String() }

func (v lengthsValue) Set(s string) error {
	*v.text = s
	return nil
}

func (v lengthsValue) resolve(t model.Tick) (string, error) {
	l, err := montecarlo.ParseLengths(t, *v.text)
	if err == nil {
		*v.l = l
	}
	return *v.text, err
}

// alsoValue is the repeatable --also flag: a further failure process of
// every node (montecarlo.ParseProcess), read once the tick is known.
type alsoValue struct {
	ps    *[]model.Process
	texts *[]string
}

func (v alsoValue) String() string { return strings.Join(*v.texts, " ") }

func (v alsoValue) Set(s string) error {
	*v.texts = append(*v.texts, s)
	return nil
}

func (v alsoValue) resolve(t model.Tick) (string, error) {
	*v.ps = (*v.ps)[:0]
	for _, text := range *v.texts {
		p, err := montecarlo.ParseProcess(t, text)
		if err != nil {
			return text, err
		}
		*v.ps = append(*v.ps, p)
	}
	return strings.Join(*v.texts, " "), nil
}

func (v alsoValue) kind() model.TimeKind { return model.Duration }

func (v alsoValue) Type() string { return "process" }

func (v lengthsValue) kind() model.TimeKind { return model.Duration }

func (v lengthsValue) Type() string { return "dist" }

// parsed is a flag holding a value of T: parse, the reader of the package
// that owns its syntax, reads it, and format writes it back, as --help
// shows a default.
type parsed[T any] struct {
	p      *T
	parse  func(string) (T, error)
	format func(T) string
	typ    string
}

func (v parsed[T]) String() string { return v.format(*v.p) }

func (v parsed[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

func (v parsed[T]) Type() string { return v.typ }

// tickFlag is --tick, the real length of a round (parse.Tick); none
// shows as nothing.
func tickFlag(t *model.Tick) parsed[model.Tick] {
	return parsed[model.Tick]{t, parse.Tick, func(t model.Tick) string {
		if t == 0 {
			return ""
		}
		return t.String()
	}, "duration"}
}

// namedFlag is a flag holding one of a set of defaults known by name
// (byName): a lock's (--preset) or a scheduler's (--scheduler). lists
// says where a list of names goes instead.
func namedFlag[T fmt.Stringer](v *T, byName func(string) (T, error), lists string) parsed[T] {
	return parsed[T]{v, func(name string) (T, error) {
		if err := settings.OneValue(name, lists); err != nil {
			var zero T
			return zero, err
		}
		return byName(name)
	}, T.String, "name"}
}

// presetsFlag is a flag holding a list of presets, comma-separated, for
// a command that compares them.
func presetsFlag(ps *[]settings.Preset) parsed[[]settings.Preset] {
	return parsed[[]settings.Preset]{ps, func(s string) ([]settings.Preset, error) {
		var ps []settings.Preset
		for _, name := range strings.Split(s, ",") {
			p, err := settings.PresetByName(name)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(ps, func(q settings.Preset) bool { return q.Name == p.Name }) {
				return nil, fmt.Errorf("duplicate value %s", name)
			}
			ps = append(ps, p)
		}
		return ps, nil
	}, func(ps []settings.Preset) string {
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		return strings.Join(names, ",")
	}, "names"}
}

// ratesFlag is a flag holding a list of positive rates (cost.ParseRates).
func ratesFlag(vals *[]float64) parsed[[]float64] {
	return parsed[[]float64]{vals, cost.ParseRates, func(vals []float64) string {
		var b []byte
		for i, f := range vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, f, 'f', -1, 64)
		}
		return string(b)
	}, "rates"}
}

// rateFlag is a flag holding one non-negative number.
func rateFlag(f *float64) parsed[float64] {
	return parsed[float64]{f, func(s string) (float64, error) {
		f, err := strconv.ParseFloat(s, 64)
		if strings.ContainsAny(s, ",:") {
			return 0, fmt.Errorf("want one number from 0 to 1e12, not a list")
		}
		if err != nil || !(f >= 0) || f > 1e12 {
			return 0, fmt.Errorf("want a number from 0 to 1e12")
		}
		return f, nil
	}, formatFloat, "float"}
}

// positiveFlag is a flag holding a positive whole number up to max.
func positiveFlag(n *int, max int) parsed[int] {
	return parsed[int]{n, func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if strings.ContainsAny(s, ",:") {
			return 0, fmt.Errorf("want one whole number from 1 to %d, not a list", max)
		}
		if err != nil || n < 1 || n > max {
			return 0, fmt.Errorf("want a whole number from 1 to %d", max)
		}
		return n, nil
	}, strconv.Itoa, "int"}
}

// shareFlag is a flag holding a share, as 10% or 0.1, below 1
// (--precision, --material).
func shareFlag(p *float64) parsed[float64] {
	return parsed[float64]{p, func(s string) (float64, error) {
		text, percent := strings.CutSuffix(s, "%")
		f, err := strconv.ParseFloat(text, 64)
		if percent {
			f /= 100
		}
		if err != nil || !(f >= 0 && f < 1) {
			return 0, fmt.Errorf("want a share from 0 to 1, as 10%% or 0.1")
		}
		return f, nil
	}, func(f float64) string { return formatFloat(100*f) + "%" }, "share"}
}

// durationFlag is a flag holding a positive duration, read with the
// bounds of a tick: 1ms to 24h in whole milliseconds (settings.ParseDuration).
func durationFlag(d *time.Duration) parsed[time.Duration] {
	return parsed[time.Duration]{d, settings.ParseDuration, time.Duration.String, "duration"}
}

// currencyFlag is a flag holding the name of the prices' currency or
// unit (reports.CheckCurrency).
func currencyFlag(c *string) parsed[string] {
	return parsed[string]{c, func(s string) (string, error) { return s, reports.CheckCurrency(s) }, func(s string) string { return s }, "currency"}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
