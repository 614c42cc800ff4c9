package main

import (
	"slices"
	"strconv"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// lockOptionValue is a lock's option on a round-model command: one value,
// checked as settings checks it, its text kept for presetLock.
type lockOptionValue struct {
	text  *string
	parse func(s string) error
	typ   string
}

func (v lockOptionValue) String() string { return *v.text }

func (v lockOptionValue) Set(s string) error {
	if err := settings.OneValue(s, "a lock's option takes one value; a sweep varies the model's lease and retry period under --protocol instead"); err != nil {
		return err
	}
	if err := v.parse(s); err != nil {
		return err
	}
	*v.text = s
	return nil
}

func (v lockOptionValue) Type() string { return v.typ }

// isLockOption reports whether f is a round-model command's lock option.
func isLockOption(f *pflag.Flag) bool {
	_, ok := f.Value.(lockOptionValue)
	return ok
}

// lockOptionParsers are the parsers of the lock options, as settings's
// flags parse them; each writes into a throwaway value.
func lockOptionParsers() map[string]func(string) error {
	var d time.Duration
	var p settings.ErrorPolicy
	return map[string]func(string) error{
		"session-ttl":             durationValue{&d}.Set,
		"lock-delay":              parseLockDelay,
		"session-timeout":         durationValue{&d}.Set,
		"tick-time":               durationValue{&d}.Set,
		"error-policy":            errorPolicyValue{&p}.Set,
		"heartbeat-period":        durationValue{&d}.Set,
		"refresh-period":          durationValue{&d}.Set,
		"additional-time-to-wait": nonNegativeDurationValue{&d}.Set,
		settings.HoldOption:       func(s string) error { _, err := strconv.ParseBool(s); return err },
		"lock-at-most-for":        durationValue{&d}.Set,
	}
}

// parseLockDelay reads Consul's lock-delay as settings does: 0, or a
// duration of whole milliseconds.
func parseLockDelay(s string) error {
	var d time.Duration
	if err := settings.OneValue(s, "Consul's lock-delay under --preset consul takes one value"); err != nil {
		return err
	}
	return nonNegativeDurationValue{&d}.Set(s)
}

// addLockOptionFlags registers the lock options of the round-model
// commands but --lock-delay, the model's own flag, whose help it extends.
func addLockOptionFlags(fs *pflag.FlagSet) {
	parsers := lockOptionParsers()
	for _, o := range []struct{ name, typ, usage string }{
		{"session-ttl", "duration", "with --preset etcd or consul: the session TTL (etcd's concurrency.WithTTL, default 60s; consul's LockOptions.SessionTTL, default 15s), which sets the model's lease and retry period"},
		{"session-timeout", "duration", "with --preset zookeeper: the session timeout Curator asks for (sessionTimeoutMs, default 60s), which the server negotiates to 2 to 20 --tick-time"},
		{"tick-time", "duration", "with --preset zookeeper: the server's tickTime (default 2s)"},
		{"error-policy", "policy", "with --preset zookeeper: Curator's ConnectionStateErrorPolicy, standard (protocol curator) or session (protocol curator-session)"},
		{"heartbeat-period", "duration", "with --preset dynamodb: the lock client's heartbeatPeriod (default 5s), the model's retry period; a whole number of --refresh-period"},
		{"refresh-period", "duration", "with --preset dynamodb: acquireLock's refreshPeriod (default 1s), between a waiter's reads: the round, so the tick"},
		{"additional-time-to-wait", "duration", "with --preset dynamodb: acquireLock's additionalTimeToWaitForLock (default 1s), the model's acquire wait; a whole number of --refresh-period"},
		{settings.HoldOption, "bool", "refused: " + settings.HoldRefusal},
		{"lock-at-most-for", "duration", "with --preset shedlock: ShedLock's lockAtMostFor (the preset's 10m, the README's example), the model's lease"},
	} {
		fs.Var(lockOptionValue{new(string), parsers[o.name], o.typ}, o.name, o.usage)
	}
	fs.Lookup(settings.HoldOption).NoOptDefVal = "true"
	fs.Lookup(settings.HoldOption).Hidden = true
	if f := fs.Lookup("lock-delay"); f != nil {
		f.Usage += "; with --preset consul, Consul's LockOptions.LockDelay (default 15s), which the waiters meet rounded up to their 5s tries"
	}
	if f := fs.Lookup("lease"); f != nil {
		f.Usage += "; with --preset dynamodb, the lock client's leaseDuration (20s by default), a whole number of --refresh-period"
	}
	for _, name := range []string{"lock-at-least-for", "fire-spread"} {
		if f := fs.Lookup(name); f != nil {
			f.Usage += "; with --preset shedlock, read as a duration (the preset's: lockAtLeastFor 0s, fire spread 1s)"
		}
	}
	if f := fs.Lookup("acquire-wait"); f != nil {
		f.Usage += "; refused with --preset dynamodb, which takes it as --additional-time-to-wait"
	}
}

// checkPresetFlags refuses, in one line, an option of a lock given with
// presets none of which is that lock, a flag a lock's preset sets itself,
// a lock's option without its preset, and the DynamoDB lock's
// holdLockOnServiceUnavailable (settings.CheckOptions).
func checkPresetFlags(fs *pflag.FlagSet, presets []settings.Preset) error {
	if err := settings.CheckOptions(fs.Changed, presets); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// presetLock returns the round-model settings of p, a lock's preset, with
// the options fs gives, checked as settings checks them
// (settings.Preset.WithOptions).
func presetLock(p settings.Preset, fs *pflag.FlagSet) (settings.RoundLock, error) {
	_, r, err := p.WithOptions(flagTexts(fs))
	return r, err
}

// flagTexts returns the texts of fs's flags as given, for presetLock.
func flagTexts(fs *pflag.FlagSet) func(string) (string, bool) {
	return func(name string) (string, bool) {
		f := fs.Lookup(name)
		if f == nil || !f.Changed {
			return "", false
		}
		switch v := f.Value.(type) {
		case paramValue:
			return *v.text, true
		case listValue:
			return *v.text, true
		}
		return f.Value.String(), true
	}
}

// presetTick is the tick a preset implies with the options fs gives:
// the lock's RoundLock.Tick, or 1s.
func presetTick(fs *pflag.FlagSet, p settings.Preset) (model.Tick, error) {
	if p.Lock == nil {
		return model.Tick(p.Tick()), nil
	}
	r, err := presetLock(p, fs)
	return model.Tick(r.Tick()), err
}

// presetUnset is what the preset p sets, in rounds of t, with the lock's
// options fs gives (settings.Preset.Values), where no flag of fs set it:
// a lock's preset sets all of its own, client-go's give way to a flag.
func presetUnset(fs *pflag.FlagSet, p settings.Preset, t model.Tick) (map[model.Param]int, error) {
	var lock settings.RoundLock
	if p.Lock != nil {
		var err error
		if lock, err = presetLock(p, fs); err != nil {
			return nil, usage(err)
		}
	}
	vals, err := p.Values(lock, t)
	if err != nil {
		return nil, usage(err)
	}
	takes, _ := p.Takes()
	for param := range vals {
		if p.Lock == nil && slices.Contains(takes, param.Flag()) && fs.Changed(param.Flag()) {
			delete(vals, param)
		}
	}
	return vals, nil
}
