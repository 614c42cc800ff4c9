package main

import (
	"slices"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

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
		usage := o.Usage
		if o.Refusal != "" {
			usage = "refused: " + o.Refusal
		}
		fs.Var(input.NewLockOption(settings.LockOptionCheck(o.Name), o.Type), o.Name, usage)
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
