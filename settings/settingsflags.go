package settings

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// WithFlags is the lock of row's preset (named preset) among nodes
// candidates with the options given, as the settings command's flags
// give them: given lists their names in the order of the flags, text
// writes each one's value as its flag shows it. Each is Set in the row's
// order; then the lock is validated. A refusal names the option and its
// value, or the preset and every option given.
func (row LockRow) WithFlags(preset string, nodes int, given []string, text func(name string) string) (Lock, error) {
	lock := row.WithNodes(row.Defaults, nodes)
	for _, o := range row.Flags {
		if !slices.Contains(given, o.Name) {
			continue
		}
		var err error
		if lock, err = o.Set(lock, text(o.Name)); err != nil {
			return nil, fmt.Errorf("--%s %s: %v", o.Name, text(o.Name), err)
		}
	}
	if err := lock.Validate(); err != nil {
		var flags strings.Builder
		for _, f := range given {
			fmt.Fprintf(&flags, " --%s %s", f, text(f))
		}
		return nil, fmt.Errorf("--preset %s%s: %v", preset, flags.String(), err)
	}
	return lock, nil
}

// SettingsOptionCheck is the check of the settings command's option
// name (one of SettingsFlags) as the first lock row that has it reads it
// (LockFlag.Set on the row's defaults).
func SettingsOptionCheck(name string) func(text string) error {
	return optionCheck(SettingsRows(), name)
}

// LockOptionCheck is SettingsOptionCheck for a round-model command's
// lock option (one of LockFlags), among LockRows.
func LockOptionCheck(name string) func(text string) error {
	return optionCheck(LockRows(), name)
}

// optionCheck is the check of the option name by the first of rows that
// has it, nil if none does.
func optionCheck(rows []LockRow, name string) func(string) error {
	for _, row := range rows {
		for _, o := range row.Flags {
			if o.Name == name {
				return func(text string) error { _, err := o.Set(row.Defaults, text); return err }
			}
		}
	}
	return nil
}

// WithPreset is s, client-go's settings as the settings command's flags
// give them, with the preset's lease, renew deadline and retry period
// where their flags (--lease, --renew-deadline, --retry-period) were not
// given (given(flag)), then validated; a refusal names every flag's
// value.
func (s Settings) WithPreset(p Preset, given func(flag string) bool) (Settings, error) {
	for _, f := range []struct {
		flag string
		d    *time.Duration
		v    time.Duration
	}{{"lease", &s.LeaseDuration, p.LeaseDuration}, {"renew-deadline", &s.RenewDeadline, p.RenewDeadline}, {"retry-period", &s.RetryPeriod, p.RetryPeriod}} {
		if !given(f.flag) {
			*f.d = f.v
		}
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("--lease %s --renew-deadline %s --retry-period %s --nodes %d: %v", s.LeaseDuration, s.RenewDeadline, s.RetryPeriod, s.Nodes, err)
	}
	return s, nil
}
