package settings

import (
	"fmt"
	"slices"
	"strings"
)

// RoundOptions are the options of the locks the round model runs by
// their own protocols, by their flag names: a round-model command turns
// them, with the lock's preset, into the model's protocol and times
// (Preset.WithOptions). lock-delay is also the model's lock_delay: with
// the consul preset it is Consul's LockOptions.LockDelay; without a
// preset, the model's lock_delay itself. lease is the model's lease too:
// with the dynamodb preset it is the lock client's leaseDuration.
// HoldOption is there to be refused (HoldRefusal).
// lock-at-least-for and fire-spread are the model's own too: with the
// shedlock preset they are ShedLock's lockAtLeastFor and the deployment's
// fire spread, read as durations, the same values.
var RoundOptions = []string{"session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy",
	"heartbeat-period", "refresh-period", "additional-time-to-wait", HoldOption, "lock-at-most-for", "lock-at-least-for", "fire-spread"}

// settingsOnly are the shedlock preset's options that only settings
// takes: the round model runs ShedLock without KeepAliveLockProvider, on
// one clock, and takes the task's length as batch-len.
var settingsOnly = []string{"keep-alive", "using-db-time", "task-length"}

// PresetSets is the model's flags that a lock's preset sets from its
// options, which a client-go preset lets a flag change instead. A lock's
// preset refuses them, but lease under dynamodb (its leaseDuration):
// acquire-wait among them, as additional-time-to-wait gives it.
var PresetSets = []string{"protocol", "lease", "renew-deadline", "retry-period", "renewal", "jitter", "acquire-wait"}

// HoldOption is the DynamoDB lock client's holdLockOnServiceUnavailable,
// which the round model cannot run.
const HoldOption = "hold-lock-on-service-unavailable"

// HoldRefusal is why a round-model command refuses HoldOption.
const HoldRefusal = "the round model has no failure in which DynamoDB answers some nodes and not others, where holdLockOnServiceUnavailable keeps a holder beside a waiter that took the lock: leasesim settings --preset dynamodb --hold-lock-on-service-unavailable gives its figures"

// LockOptions are the options of each lock other than client-go, by
// preset, by their flag names: the library's own option names.
var LockOptions = map[string][]string{
	"etcd":      {"session-ttl"},
	"consul":    {"session-ttl", "lock-delay"},
	"zookeeper": {"session-timeout", "tick-time", "error-policy"},
	"dynamodb":  {"lease", "heartbeat-period", "refresh-period", "additional-time-to-wait", HoldOption},
	"shedlock":  {"lock-at-most-for", "lock-at-least-for", "keep-alive", "using-db-time", "fire-spread", "task-length"},
}

// ClientGoOptions are client-go's own, by their flag names.
var ClientGoOptions = []string{"lease", "renew-deadline", "retry-period"}

// Takes is what the preset takes among RoundOptions and PresetSets on a
// round-model command: a lock's own options (but HoldOption), or, for a
// client-go preset, the flags that change its values; and the options
// to name when it refuses another.
func (p Preset) Takes() (takes, named []string) {
	if p.Lock != nil {
		own := slices.DeleteFunc(slices.Clone(LockOptions[p.Name]), func(f string) bool { return f == HoldOption || slices.Contains(settingsOnly, f) })
		return own, own
	}
	return PresetSets, ClientGoOptions
}

// OptionRefusal is an option of a lock given where it is not taken: with
// presets none of which is that lock, as a flag a lock's preset sets
// itself, without its preset, or HoldOption.
type OptionRefusal struct {
	Option  string   // its flag name
	Presets []string // the presets given
	Takers  []string // without a preset, the presets that take it
	Takes   []string // with one preset, what it takes
}

// Error names the option and presets as flags: --session-ttl is an
// option of --preset etcd or consul: ….
func (e *OptionRefusal) Error() string {
	return e.text(func(o string) string { return "--" + o }, "--preset ", "give the preset", ", ")
}

// Key names them as a candidate list's entry names its keys:
// session_ttl is an option of preset=etcd or consul: ….
func (e *OptionRefusal) Key() string {
	return e.text(func(o string) string { return strings.ReplaceAll(o, "-", "_") }, "preset=", "give preset=", ", ")
}

func (e *OptionRefusal) text(name func(string) string, preset, give, sep string) string {
	switch {
	case e.Option == HoldOption:
		return fmt.Sprintf("%s is refused here: %s", name(e.Option), HoldRefusal)
	case len(e.Presets) == 0:
		return fmt.Sprintf("%s is an option of %s%s: %s, which sets the model's protocol, lease and retry period from it", name(e.Option), preset, strings.Join(e.Takers, " or "), give)
	case len(e.Presets) == 1:
		var ns []string
		for _, o := range e.Takes {
			ns = append(ns, name(o))
		}
		return fmt.Sprintf("%s is not an option of %s%s, which takes %s", name(e.Option), preset, e.Presets[0], strings.Join(ns, sep))
	}
	return fmt.Sprintf("%s is an option of none of %s%s", name(e.Option), preset, strings.Join(e.Presets, ","))
}

// CheckOptions refuses, as an *OptionRefusal, the first option given
// (in RoundOptions' then PresetSets' order) that the presets do not take:
// HoldOption, an option of a lock given with presets none of which is
// that lock, a flag a lock's preset sets itself, a lock's option without
// its preset.
func CheckOptions(given func(option string) bool, presets []Preset) error {
	if given(HoldOption) {
		return &OptionRefusal{Option: HoldOption}
	}
	var names []string
	for _, p := range presets {
		names = append(names, p.Name)
	}
	for _, name := range append(slices.Clone(RoundOptions), PresetSets...) {
		if !given(name) {
			continue
		}
		if len(presets) == 0 {
			if name == "lock-delay" || name == "lock-at-least-for" || name == "fire-spread" || slices.Contains(PresetSets, name) {
				continue // the model's own
			}
			var takers []string
			for _, p := range Presets() {
				if p.Lock != nil && slices.Contains(LockOptions[p.Name], name) {
					takers = append(takers, p.Name)
				}
			}
			return &OptionRefusal{Option: name, Takers: takers}
		}
		if slices.ContainsFunc(presets, func(p Preset) bool { takes, _ := p.Takes(); return slices.Contains(takes, name) }) {
			continue
		}
		r := &OptionRefusal{Option: name, Presets: names}
		if len(presets) == 1 {
			_, r.Takes = presets[0].Takes()
		}
		return r
	}
	return nil
}
