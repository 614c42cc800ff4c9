package main

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// roundLockOptions are the options of the locks the round model runs by
// their own protocols, by the library's names, as settings takes them
// (lockFlags): a round-model command turns them, with the lock's
// --preset, into the model's protocol and times (settings.RoundLockOf).
// --lock-delay is also the model's lock_delay flag: with --preset consul
// it is Consul's LockOptions.LockDelay, which the waiters meet rounded up
// to their 5 s tries; without a preset, the model's lock_delay itself.
// --lease is the model's lease flag too: with --preset dynamodb it is the
// lock client's leaseDuration. --hold-lock-on-service-unavailable is
// there to be refused (holdRefusal).
var roundLockOptions = []string{"session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy",
	"heartbeat-period", "refresh-period", "additional-time-to-wait", holdFlag}

// presetSets is the model flags that a lock's preset sets from its
// options, which a client-go preset lets a flag change instead. A lock's
// preset refuses them, but --lease under dynamodb (its leaseDuration):
// --acquire-wait among them, as --additional-time-to-wait gives it.
var presetSets = []string{"protocol", "lease", "renew-deadline", "retry-period", "renewal", "jitter", "acquire-wait"}

// holdFlag is the DynamoDB lock client's holdLockOnServiceUnavailable,
// which the round model cannot run.
const holdFlag = "hold-lock-on-service-unavailable"

// holdRefusal is why a round-model command refuses holdFlag.
const holdRefusal = "the round model has no failure in which DynamoDB answers some nodes and not others, where holdLockOnServiceUnavailable keeps a holder beside a waiter that took the lock: leasesim settings --preset dynamodb --hold-lock-on-service-unavailable gives its figures"

// lockOptionValue is a lock's option on a round-model command: one value,
// checked as settings checks it, its text kept for presetLock.
type lockOptionValue struct {
	text  *string
	parse func(s string) error
	typ   string
}

func (v lockOptionValue) String() string { return *v.text }

func (v lockOptionValue) Set(s string) error {
	if err := oneValue(s, "a lock's option takes one value; a sweep varies the model's lease and retry period under --protocol instead"); err != nil {
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
		holdFlag:                  func(s string) error { _, err := strconv.ParseBool(s); return err },
	}
}

// parseLockDelay reads Consul's lock-delay as settings does: 0, or a
// duration of whole milliseconds.
func parseLockDelay(s string) error {
	var d time.Duration
	if err := oneValue(s, "Consul's lock-delay under --preset consul takes one value"); err != nil {
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
		{holdFlag, "bool", "refused: " + holdRefusal},
	} {
		fs.Var(lockOptionValue{new(string), parsers[o.name], o.typ}, o.name, o.usage)
	}
	fs.Lookup(holdFlag).NoOptDefVal = "true"
	fs.Lookup(holdFlag).Hidden = true
	if f := fs.Lookup("lock-delay"); f != nil {
		f.Usage += "; with --preset consul, Consul's LockOptions.LockDelay (default 15s), which the waiters meet rounded up to their 5s tries"
	}
	if f := fs.Lookup("lease"); f != nil {
		f.Usage += "; with --preset dynamodb, the lock client's leaseDuration (20s by default), a whole number of --refresh-period"
	}
	if f := fs.Lookup("acquire-wait"); f != nil {
		f.Usage += "; refused with --preset dynamodb, which takes it as --additional-time-to-wait"
	}
}

// ownFlags is what the preset p takes among roundLockOptions and
// presetSets on a round-model command: a lock's own options (but
// holdFlag), or, for a client-go preset, the flags that change its
// values; and the options to name when it refuses another.
func ownFlags(p settings.Preset) (takes, named []string) {
	if p.Lock != nil {
		own := slices.DeleteFunc(slices.Clone(lockFlags[p.Name]), func(f string) bool { return f == holdFlag })
		return own, own
	}
	return presetSets, clientGoFlags
}

// checkPresetFlags refuses, in one line, an option of a lock given with
// presets none of which is that lock (as settings does), a flag a lock's
// preset sets itself, a lock's option without its preset, and holdFlag.
func checkPresetFlags(fs *pflag.FlagSet, presets []settings.Preset) error {
	if fs.Changed(holdFlag) {
		return usagef("--%s is refused here: %s", holdFlag, holdRefusal)
	}
	for _, name := range append(slices.Clone(roundLockOptions), presetSets...) {
		if !fs.Changed(name) {
			continue
		}
		if len(presets) == 0 {
			if name == "lock-delay" || slices.Contains(presetSets, name) {
				continue // the model's own
			}
			var takers []string
			for _, p := range settings.Presets() {
				if p.Lock != nil && slices.Contains(lockFlags[p.Name], name) {
					takers = append(takers, p.Name)
				}
			}
			return usagef("--%s is an option of --preset %s: give the preset, which sets the model's protocol, lease and retry period from it", name, strings.Join(takers, " or "))
		}
		if slices.ContainsFunc(presets, func(p settings.Preset) bool { takes, _ := ownFlags(p); return slices.Contains(takes, name) }) {
			continue
		}
		if len(presets) == 1 {
			_, named := ownFlags(presets[0])
			return usagef("--%s is not an option of --preset %s, which takes --%s", name, presets[0].Name, strings.Join(named, ", --"))
		}
		var ps []string
		for _, p := range presets {
			ps = append(ps, p.Name)
		}
		return usagef("--%s is an option of none of --preset %s", name, strings.Join(ps, ","))
	}
	return nil
}

// presetLock returns the round-model settings of p, a lock's preset, with
// the options text gives (by flag name), checked as settings checks them
// (presetOptions).
func presetLock(p settings.Preset, text func(flag string) (string, bool), entry bool) (settings.RoundLock, error) {
	_, r, err := presetOptions(p, text, entry)
	return r, err
}

// presetOptions is settings.Preset.WithOptions, its error naming the
// preset and the options given as flags (--preset consul --session-ttl
// 5s) or, with entry, as a candidate list's entry names them
// (preset=consul session_ttl=5s).
func presetOptions(p settings.Preset, text func(flag string) (string, bool), entry bool) (settings.Lock, settings.RoundLock, error) {
	lock, r, err := p.WithOptions(text)
	if err != nil && entry {
		var oe *settings.OptionError
		var pe *settings.PresetError
		switch {
		case errors.As(err, &oe):
			err = errors.New(oe.Key())
		case errors.As(err, &pe):
			err = errors.New(pe.Key())
		}
	}
	return lock, r, err
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
	r, err := presetLock(p, flagTexts(fs), false)
	return model.Tick(r.Tick()), err
}
