package main

import (
	"errors"
	"slices"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// The flags' values are input's (input.Param, input.List, …), each
// reading its text through the parser of the package that owns its
// syntax; this file registers them on a command's pflag.FlagSet and hands
// the flags given to input (pflags).

// pflags is fs as input reads it (input.Flags).
type pflags struct{ fs *pflag.FlagSet }

func (f pflags) Lookup(name string) (input.Value, bool) {
	if fl := f.fs.Lookup(name); fl != nil {
		return fl.Value, fl.Changed
	}
	return nil, false
}

func (f pflags) Visit(fn func(string, input.Value)) {
	f.fs.Visit(func(fl *pflag.Flag) { fn(fl.Name, fl.Value) })
}

func (f pflags) VisitAll(fn func(string, input.Value, bool)) {
	f.fs.VisitAll(func(fl *pflag.Flag) { fn(fl.Name, fl.Value, fl.Changed) })
}

// resolveTimes reads the times given once every flag is parsed and
// applies the preset and scheduler (input.Resolve); a preset's refusal is
// bad input.
func resolveTimes(fs *pflag.FlagSet) error {
	err := input.Resolve(pflags{fs})
	if pe := (*input.PresetError)(nil); errors.As(err, &pe) {
		return usage(pe.Err)
	}
	return err
}

// realTimeDefaults is input.RealTimeDefaults on fs.
func realTimeDefaults(fs *pflag.FlagSet) []string {
	def := ""
	if f := fs.Lookup(model.Period.Flag()); f != nil {
		def = f.DefValue
	}
	return input.RealTimeDefaults(pflags{fs}, def)
}

// addModelFlags registers one flag per model parameter, writing into c,
// except the parameters in skip.
func addModelFlags(fs *pflag.FlagSet, c *model.Config, skip ...model.Param) {
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if slices.Contains(skip, p) {
			continue
		}
		fs.Var(input.NewParam(p, c), p.Flag(), p.Doc())
		if p.Bool() {
			fs.Lookup(p.Flag()).NoOptDefVal = "true"
		}
	}
}

// addGridFlags registers one list flag per model parameter, writing into g.
func addGridFlags(fs *pflag.FlagSet, g *sweep.Grid, params ...model.Param) {
	for _, p := range params {
		fs.Var(input.NewList(p, &g.Values[p]), p.Flag(), p.Doc())
	}
}

// addTickFlag registers --tick and returns where its value goes.
func addTickFlag(fs *pflag.FlagSet) *model.Tick {
	t := new(model.Tick)
	fs.Var(input.Tick(t), "tick", "the real length of one round, e.g. 1s or 100ms: time flags then take durations (15s, 2m, 24h) and outputs give times in seconds")
	return t
}

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
	fs.Var(input.Named(new(settings.Preset), settings.PresetByName, "replay and sweep compare a list of presets"), "preset", presetUsage)
	addLockOptionFlags(fs)
	addSchedulerFlag(fs)
}

// addPresetsFlag is addPresetFlag for a command that compares presets:
// its --preset takes a list, which the command applies itself.
func addPresetsFlag(fs *pflag.FlagSet, presets *[]settings.Preset, usage string) {
	fs.Var(input.Presets(presets), "preset", usage)
	addLockOptionFlags(fs)
	addSchedulerFlag(fs)
}

// addSchedulerFlag registers --scheduler.
func addSchedulerFlag(fs *pflag.FlagSet) {
	fs.Var(input.Named(new(settings.Scheduler), settings.SchedulerByName, "a scheduler's settings go to sweep and check as lists of their own flags"), "scheduler", "a scheduler's defaults for persistent-trigger (on), catch-up-once, catch-up-window, idempotency-key and overlap: "+settings.SchedulerNames()+" (temporal's one-year window needs --tick)")
}

// presetUsage is the help of a round-model command's --preset.
const presetUsage = "a lock's defaults: " + "kubernetes, openshift and openshift-sno set client-go's lease, renew-deadline, retry-period, renewal (0) and jitter (on); " +
	"etcd, consul, zookeeper and dynamodb set the lock's protocol, lease, retry-period, lock-delay and acquire-wait from its options (--session-ttl, --lock-delay, --session-timeout, --tick-time, --error-policy; dynamodb's --lease, --heartbeat-period, --refresh-period, --additional-time-to-wait), renew-deadline and renewal 0, jitter off; " +
	"implies the tick of its times (1s; consul 500ms, zookeeper 1ms by default; dynamodb its refresh period, the only tick it takes) unless --tick is given"

// addOutputFlag registers an output file flag (input.Output). With
// stdout not empty, that name (the default) means standard output;
// otherwise the default "" means no file.
func addOutputFlag(fs *pflag.FlagSet, name, stdout, usage string) *string {
	path := new(string)
	fs.Var(input.NewOutput(path, stdout), name, usage)
	return path
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

// currencyFlag is a flag holding the name of the prices' currency or
// unit (reports.CheckCurrency).
func currencyFlag(c *string) input.Parsed[string] {
	return input.Parsed[string]{P: c, Parse: func(s string) (string, error) { return s, reports.CheckCurrency(s) }, Format: func(s string) string { return s }, Typ: "currency"}
}
