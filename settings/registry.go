package settings

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/leasesim/leasesim/model"
)

// A LockRow is a lock as data: everything leasesim knows of one library
// besides its Lock methods, read by every consumer that lists the locks
// (the presets, the flags of the round-model commands and of settings,
// the candidate lists' keys, the round model's protocol and times, a
// review's safety figures). Each lock's file states its row; LockRows
// lists them. docs/ARCHITECTURE.md, "A lock protocol", walks through
// adding one.
type LockRow struct {
	// Preset is the lock's --preset name (and a candidate list's preset=).
	Preset string
	// Defaults is the library's defaults among 3 nodes.
	Defaults Lock
	// Flags is the lock's options as the commands' flags, in the order
	// their help lists them and a preset reads them.
	Flags []LockFlag
	// Notes extends the help of round-model flags of the model's own
	// that the lock's preset refuses or reads otherwise.
	Notes []FlagNote
	// WithNodes is the lock l, of this row, among n candidates.
	WithNodes func(l Lock, n int) Lock
	// Round sets, on r, what of the lock l the round model runs beyond
	// its Protocol's lease and renewal (the model's protocol, its
	// lock-delay, acquire wait, refresh and disconnect delay), and
	// reports whether l is this row's lock.
	Round func(l Lock, r *RoundLock) bool
	// Protocols is the model's protocols Round gives.
	Protocols []model.LockProtocol
	// FromConfig is the lock a configuration c under one of Protocols
	// runs, d turning its rounds into time, among nodes candidates: Round
	// read back (study.LockOf).
	FromConfig func(c model.Config, d func(rounds int) time.Duration, nodes int) Lock
	// RoundCheck, where the round model refuses some valid locks, is why
	// it refuses l, naming its options by flag (flag: the option's name
	// as the caller's user gives it), or nil.
	RoundCheck func(l Lock, flag func(option string) string) error
}

// A LockFlag is a lock's option as a flag of the commands: the
// round-model commands (run, sweep, cost, recommend, report, replay), a
// candidate list's key (the flag's name with underscores) and settings.
type LockFlag struct {
	Name string // the flag's name: session-ttl
	Type string // its value's name in the help: duration, policy, bool
	// Usage is its help on the round-model commands: for a flag of the
	// model's own (Model), what the preset adds to the model's help;
	// empty where an earlier row registers the same flag.
	Usage string
	// SettingsUsage is its help on settings; empty where an earlier row
	// (or client-go's options) registers it.
	SettingsUsage string
	// Model: the round-model commands have a flag of this name of the
	// model's own (lease, lock-delay), which the preset reads as the
	// lock's option.
	Model bool
	// OneValue, where the model's flag of the same name takes lists on
	// some commands, is why the preset takes one value (OneValue's where).
	OneValue string
	// Refusal, where the round model cannot run the option, is why it
	// refuses it there (the flag is hidden on those commands).
	Refusal string
	// Set is the lock l, of this row, with the option read from its text.
	Set func(l Lock, text string) (Lock, error)
}

// A FlagNote is what a lock's preset adds to the help of a model flag
// that it does not read as its option.
type FlagNote struct{ Flag, Note string }

// LockRows returns the locks the commands know besides client-go, in the
// order of their presets. It is a function so that the package keeps no
// mutable globals.
func LockRows() []LockRow {
	return []LockRow{etcdRow(), consulRow(), curatorRow(), dynamoDBRow(), redissonRow(), shedlockRow(), postgresRow(), quartzRow(), dbSchedulerRow()}
}

// LockRowOf returns the row of the lock preset called name.
func LockRowOf(name string) (LockRow, bool) {
	for _, r := range LockRows() {
		if r.Preset == name {
			return r, true
		}
	}
	return LockRow{}, false
}

// LockRowFor returns the row of the model's protocol p.
func LockRowFor(p model.LockProtocol) (LockRow, bool) {
	for _, r := range LockRows() {
		if slices.Contains(r.Protocols, p) {
			return r, true
		}
	}
	return LockRow{}, false
}

// FlagNames is the names of the row's flags, but those the round model
// refuses where takes is true (the options a round-model command takes).
func (r LockRow) FlagNames(round bool) []string {
	var ns []string
	for _, f := range r.Flags {
		if !round || f.Refusal == "" {
			ns = append(ns, f.Name)
		}
	}
	return ns
}

// LockFlags is every lock's flag once, by the first row that names it
// with its help, in the order of the rows and their flags.
func LockFlags() []LockFlag { return lockFlagsOf(LockRows()) }

// lockFlagsOf is LockFlags of rows.
func lockFlagsOf(rows []LockRow) []LockFlag {
	var fs []LockFlag
	for _, r := range rows {
		for _, f := range r.Flags {
			if i := slices.IndexFunc(fs, func(g LockFlag) bool { return g.Name == f.Name }); i >= 0 {
				if fs[i].Usage == "" {
					fs[i].Usage = f.Usage
				}
				if fs[i].SettingsUsage == "" {
					fs[i].SettingsUsage = f.SettingsUsage
				}
				continue
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// setField is a LockFlag.Set of a lock of type L: the lock with read
// applied to it.
func setField[L Lock](read func(l *L, text string) error) func(Lock, string) (Lock, error) {
	return func(l Lock, s string) (Lock, error) {
		v := l.(L)
		if err := read(&v, s); err != nil {
			return l, err
		}
		return v, nil
	}
}

// durationField is a LockFlag.Set of a positive duration of a lock of
// type L, as ParseDuration reads it.
func durationField[L Lock](field func(l *L) *time.Duration) func(Lock, string) (Lock, error) {
	return setField(func(l *L, s string) error { return durationInto(field(l))(s) })
}

// nonNegativeField is durationField that also takes 0.
func nonNegativeField[L Lock](field func(l *L) *time.Duration) func(Lock, string) (Lock, error) {
	return setField(func(l *L, s string) error { return nonNegativeInto(field(l))(s) })
}

// withNodes is a LockRow.WithNodes of a lock of type L.
func withNodes[L Lock](field func(l *L) *int) func(Lock, int) Lock {
	return func(l Lock, n int) Lock {
		v := l.(L)
		*field(&v) = n
		return v
	}
}

// SettingsOnlyRows returns the locks whose real-time figures `leasesim
// settings` gives but which the round model does not run: their rows
// have no Round, Protocols, FromConfig or RoundCheck, and the round-model
// commands neither list their presets nor take their options. None is
// left: Quartz's and db-scheduler's, the last, are protocols of the model
// now.
func SettingsOnlyRows() []LockRow { return nil }

// SettingsRows is every lock `leasesim settings` takes: LockRows, then
// SettingsOnlyRows.
func SettingsRows() []LockRow { return append(LockRows(), SettingsOnlyRows()...) }

// SettingsFlags is every lock's flag on `leasesim settings`, once, as
// LockFlags lists LockRows'.
func SettingsFlags() []LockFlag { return lockFlagsOf(SettingsRows()) }

// SettingsPresets is the presets `leasesim settings` takes: Presets, then
// a settings-only lock's defaults each.
func SettingsPresets() []Preset {
	ps := Presets()
	for _, r := range SettingsOnlyRows() {
		ps = append(ps, Preset{Name: r.Preset, Lock: r.Defaults})
	}
	return ps
}

// SettingsPresetByName returns the settings command's preset called name,
// or an error that lists them.
func SettingsPresetByName(name string) (Preset, error) { return byName(SettingsPresets(), name) }

// SettingsPresetNames lists the settings command's presets' names,
// comma-separated.
func SettingsPresetNames() string { return names(SettingsPresets()) }

// SettingsRowOf returns the row of the settings command's lock preset
// called name.
func SettingsRowOf(name string) (LockRow, bool) {
	for _, r := range SettingsRows() {
		if r.Preset == name {
			return r, true
		}
	}
	return LockRow{}, false
}

// countField is a LockFlag.Set of a whole number of a lock of type L.
func countField[L Lock](field func(l *L) *int) func(Lock, string) (Lock, error) {
	return setField(func(l *L, s string) error {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want a whole number")
		}
		*field(l) = n
		return nil
	})
}
