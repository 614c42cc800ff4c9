package main

import (
	"slices"

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

// addLockOptionFlags registers the options of every lock of
// settings.LockRows on the round-model commands, each once, in the rows'
// order, checked at parse as the preset reads them: the lock's own flags,
// hidden where the round model refuses them, and, for a flag of the
// model's own (--lock-delay, --lease) or one a preset refuses
// (--acquire-wait), the preset's note on its help.
func addLockOptionFlags(fs *pflag.FlagSet) {
	for _, o := range settings.LockFlags() {
		if o.Model {
			continue
		}
		row, _ := lockRowNaming(o.Name)
		parse := func(s string) error { _, err := o.Set(row.Defaults, s); return err }
		usage := o.Usage
		if o.Refusal != "" {
			usage = "refused: " + o.Refusal
		}
		fs.Var(lockOptionValue{new(string), parse, o.Type}, o.Name, usage)
		if o.Type == "bool" {
			fs.Lookup(o.Name).NoOptDefVal = "true"
		}
		fs.Lookup(o.Name).Hidden = o.Refusal != ""
	}
	for _, row := range settings.LockRows() {
		notes := slices.Clone(row.Notes)
		for _, o := range row.Flags {
			if o.Model {
				notes = append(notes, settings.FlagNote{Flag: o.Name, Note: o.Usage})
			}
		}
		for _, n := range notes {
			if f := fs.Lookup(n.Flag); f != nil {
				f.Usage += n.Note
			}
		}
	}
}

// lockRowNaming returns the first lock row with the flag name.
func lockRowNaming(name string) (settings.LockRow, bool) {
	for _, row := range settings.LockRows() {
		if slices.Contains(row.FlagNames(false), name) {
			return row, true
		}
	}
	return settings.LockRow{}, false
}

// checkPresetFlags refuses, in one line, an option of a lock given with
// presets none of which is that lock, a flag a lock's preset sets itself,
// a lock's option without its preset, and an option the round model
// cannot run (settings.CheckOptions).
func checkPresetFlags(fs *pflag.FlagSet, presets []settings.Preset) error {
	if err := settings.CheckOptions(fs.Changed, presets); err != nil {
		return usage(err)
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
