package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
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
// the options text gives (by flag name), checked as settings checks them:
// an error names the preset and the options given, as settings's does,
// or with entry as a candidate list's entry names them (preset=consul
// session_ttl=5s).
func presetLock(p settings.Preset, text func(flag string) (string, bool), entry bool) (settings.RoundLock, error) {
	_, r, err := presetOptions(p, text, entry)
	return r, err
}

// presetOptions is presetLock with the lock itself, its options set as
// text gives them: with an error, the lock as given (nil if an option
// could not be read), which the library or the round model refuses.
func presetOptions(p settings.Preset, text func(flag string) (string, bool), entry bool) (settings.Lock, settings.RoundLock, error) {
	lock := p.Lock
	given := []string{"--preset " + p.Name}
	if entry {
		given = []string{"preset=" + p.Name}
	}
	var err error
	option := func(name string, set func(string) error) {
		s, ok := text(name)
		if !ok || err != nil {
			return
		}
		key := strings.ReplaceAll(name, "-", "_")
		switch e := set(s); {
		case e != nil && entry:
			err = fmt.Errorf("%s %q: %v", key, s, e)
		case e != nil:
			err = fmt.Errorf("invalid argument %q for \"--%s\" flag: %v", s, name, e)
		case entry:
			given = append(given, key+"="+s)
		default:
			given = append(given, "--"+name+" "+s)
		}
	}
	switch l := lock.(type) {
	case settings.Etcd:
		option("session-ttl", durationValue{&l.SessionTTL}.Set)
		lock = l
	case settings.Consul:
		option("session-ttl", durationValue{&l.SessionTTL}.Set)
		option("lock-delay", func(s string) error {
			if err := parseLockDelay(s); err != nil {
				return err
			}
			return nonNegativeDurationValue{&l.LockDelay}.Set(s)
		})
		lock = l
	case settings.DynamoDB:
		option("lease", func(s string) error {
			if err := oneValue(s, "the DynamoDB lock client's leaseDuration under --preset dynamodb takes one value"); err != nil {
				return err
			}
			return durationValue{&l.LeaseDuration}.Set(s)
		})
		option("heartbeat-period", durationValue{&l.HeartbeatPeriod}.Set)
		option("refresh-period", durationValue{&l.RefreshPeriod}.Set)
		option("additional-time-to-wait", nonNegativeDurationValue{&l.AdditionalWait}.Set)
		lock = l
	case settings.Curator:
		option("session-timeout", durationValue{&l.SessionTimeout}.Set)
		option("tick-time", durationValue{&l.TickTime}.Set)
		option("error-policy", errorPolicyValue{&l.Policy}.Set)
		lock = l
	}
	if err != nil {
		return nil, settings.RoundLock{}, err
	}
	if err := lock.Validate(); err != nil {
		return lock, settings.RoundLock{}, fmt.Errorf("%s: %v", strings.Join(given, " "), err)
	}
	if d, ok := lock.(settings.DynamoDB); ok {
		name := func(o string) string { return "--" + o }
		if entry {
			name = func(o string) string { return strings.ReplaceAll(o, "-", "_") }
		}
		if err := d.RoundError(name); err != nil {
			return lock, settings.RoundLock{}, fmt.Errorf("%s: %v", strings.Join(given, " "), err)
		}
	}
	r, _ := settings.RoundLockOf(lock)
	return lock, r, nil
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

// presetValues is what preset p sets, in rounds of t: client-go's lease
// settings, renewal 0, protocol client-go, no lock-delay or acquire wait
// and jitter; or a lock's protocol and times, r, its renew deadline and
// renewal 0 and no jitter. Its error says which time t cannot hold, or,
// for DynamoDB, that t is not its refresh period.
func presetValues(p settings.Preset, r settings.RoundLock, t model.Tick) (map[model.Param]int, error) {
	times := presetTimes(p)
	times[model.LockDelay], times[model.AcquireWait], times[model.DisconnectDelay] = 0, 0, 0
	vals := map[model.Param]int{model.Jitter: b2i(p.Exact), model.Protocol: int(model.ProtocolClientGo)}
	if p.Lock != nil {
		times = map[model.Param]time.Duration{model.Lease: r.Lease, model.RetryPeriod: r.RetryPeriod, model.LockDelay: r.LockDelay, model.AcquireWait: r.AcquireWait, model.DisconnectDelay: r.DisconnectDelay, model.RenewDeadline: 0, model.RereadPeriod: 0}
		vals[model.Protocol] = int(r.Protocol)
	}
	if r.Protocol == model.ProtocolDynamoDB && time.Duration(t) != r.Refresh {
		return nil, fmt.Errorf("--preset %s reads the record every round, so --tick %s must be its refresh period %s: give --refresh-period %s; without --tick the preset takes %s", p.Name, t, model.Tick(r.Refresh), t, model.Tick(r.Refresh))
	}
	for param := model.Param(0); int(param) < model.NumParams; param++ { // in column order, so a refusal is always the same
		d, ok := times[param]
		if !ok {
			continue
		}
		n, err := parse.Value(t, param, d.String())
		if err != nil {
			hint := ""
			if p.Lock != nil {
				hint = fmt.Sprintf("; without --tick the preset takes %s, where its times are whole", model.Tick(r.Tick()))
			}
			return nil, fmt.Errorf("--preset %s sets %s %s, which --tick %s cannot hold: %v%s", p.Name, param.Flag(), d, t, err, hint)
		}
		vals[param] = n
	}
	return vals, nil
}

// nearestHint is what a refusal of lock at a round of t adds: the
// nearest settings of its options the round model runs it with
// (settings.Nearest), as a candidate list writes them, or nothing
// without a tick or where none is near.
func nearestHint(lock settings.Lock, t model.Tick) string {
	if lock == nil || t == 0 {
		return ""
	}
	near := settings.Nearest(lock, time.Duration(t))
	if len(near) == 0 {
		return ""
	}
	var ss []string
	for _, l := range near[:min(len(near), 3)] {
		ss = append(ss, settings.Setting(l))
	}
	return fmt.Sprintf("; the nearest it takes at a round of %s: %s", t, strings.Join(ss, " or "))
}
