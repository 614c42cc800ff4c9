package settings

import (
	"fmt"
	"slices"
	"strings"
)

// RoundOptions are the options of the locks the round model runs by
// their own protocols, by their flag names, in LockRows' order: a
// round-model command turns them, with the lock's preset, into the
// model's protocol and times (Preset.WithOptions). lock-delay is also the
// model's lock_delay: with the consul preset it is Consul's
// LockOptions.LockDelay; without a preset, the model's lock_delay itself.
// lease, the model's lease, is in PresetSets: with the dynamodb preset it
// is the lock client's leaseDuration. An option the round model cannot
// run (LockFlag.Refusal) is there to be refused.
var RoundOptions = roundOptions(LockRows())

// roundOptions is RoundOptions, read from rows.
func roundOptions(rows []LockRow) []string {
	var os []string
	for _, f := range lockFlagsOf(rows) {
		if !slices.Contains(PresetSets, f.Name) {
			os = append(os, f.Name)
		}
	}
	return os
}

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

// ClientGoOptions are client-go's own, by their flag names.
var ClientGoOptions = []string{"lease", "renew-deadline", "retry-period"}

// Takes is what the preset takes among RoundOptions and PresetSets on a
// round-model command: a lock's own options (but those it refuses, LockFlag.Refusal), or, for a
// client-go preset, the flags that change its values; and the options
// to name when it refuses another.
func (p Preset) Takes() (takes, named []string) {
	if row, ok := LockRowOf(p.Name); ok && p.Lock != nil {
		own := row.FlagNames(true)
		return own, own
	}
	return PresetSets, ClientGoOptions
}

// OptionRefusal is an option of a lock given where it is not taken: with
// presets none of which is that lock, as a flag a lock's preset sets
// itself, without its preset, or one the round model cannot run.
type OptionRefusal struct {
	Option  string   // its flag name
	Refusal string   // why the round model cannot run it (LockFlag.Refusal), or ""
	Presets []string // the presets given
	Takers  []string // without a preset, the presets that take it
	Takes   []string // with one preset, what it takes
}

// Error names the option and presets as flags: --session-ttl is an
// option of --preset etcd or consul: ….
func (e *OptionRefusal) Error() string {
	return e.text(func(o string) string { return "--" + o }, "--preset ", "give the preset", ", ")
}

// FlagNames is the flags Error names, without their "--": the option, the
// preset (a refusal is of the option with it) and, with one preset, the
// options it takes.
func (e *OptionRefusal) FlagNames() []string {
	names := []string{e.Option, "preset"}
	if e.Refusal == "" && len(e.Presets) == 1 {
		names = append(names, e.Takes...)
	}
	return names
}

// Key names them as a candidate list's entry names its keys:
// session_ttl is an option of preset=etcd or consul: ….
func (e *OptionRefusal) Key() string {
	return e.text(func(o string) string { return strings.ReplaceAll(o, "-", "_") }, "preset=", "give preset=", ", ")
}

func (e *OptionRefusal) text(name func(string) string, preset, give, sep string) string {
	switch {
	case e.Refusal != "":
		return fmt.Sprintf("%s is refused here: %s", name(e.Option), e.Refusal)
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
// one the round model cannot run (first), an option of a lock given with presets none of which is
// that lock, a flag a lock's preset sets itself, a lock's option without
// its preset.
func CheckOptions(given func(option string) bool, presets []Preset) error {
	for _, f := range LockFlags() {
		if f.Refusal != "" && given(f.Name) {
			return &OptionRefusal{Option: f.Name, Refusal: f.Refusal}
		}
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
			if name == "lock-delay" || name == "lock-at-least-for" || name == "fire-spread" || name == "using-db-time" || slices.Contains(PresetSets, name) {
				continue // the model's own
			}
			var takers []string
			for _, r := range LockRows() {
				if slices.Contains(r.FlagNames(false), name) {
					takers = append(takers, r.Preset)
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
