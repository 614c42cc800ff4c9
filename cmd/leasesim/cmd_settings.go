package main

import (
	"context"
	"slices"
	"strings"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

func setupSettings(fs *pflag.FlagSet) func(context.Context, *streams) error {
	preset, _ := settings.PresetByName("kubernetes")
	fs.Var(input.Named(&preset, settings.SettingsPresetByName, "replay and sweep compare a list of presets"), "preset", "start from a lock's defaults: "+settings.SettingsPresetNames())
	var s settings.Settings
	fs.Var(input.Duration(&s.LeaseDuration), "lease", "lease duration (client-go's LeaseDuration; dynamodb's leaseDuration)")
	fs.Var(input.Duration(&s.RenewDeadline), "renew-deadline", "renew deadline (client-go's RenewDeadline)")
	fs.Var(input.Duration(&s.RetryPeriod), "retry-period", "retry period (client-go's RetryPeriod)")
	all := slices.Clone(settings.ClientGoOptions) // every option, in the help's order
	for _, o := range settings.SettingsFlags() {
		if fs.Lookup(o.Name) != nil {
			continue
		}
		all = append(all, o.Name)
		if o.Type == "bool" {
			fs.Bool(o.Name, false, o.SettingsUsage)
			continue
		}
		fs.Var(input.NewSettingsOption(settings.SettingsOptionCheck(o.Name), o.Type), o.Name, o.SettingsUsage)
	}
	s.Nodes = 3
	fs.Var(input.Positive(&s.Nodes, 1000), "nodes", "candidates, the leader among them")
	seed := fs.Uint64("seed", 1, "seed of client-go's followers' jitter for the medians (the other locks' medians are exact)")
	format := "table"
	fs.Var(input.NewChoice(&format, "table", "csv", "json"), "format", "output format: table, csv or json")
	for _, name := range all {
		if f := fs.Lookup(name); f.Value.Type() != "bool" {
			f.DefValue = "the preset's"
		}
	}
	return func(ctx context.Context, std *streams) error {
		row, isLock := settings.SettingsRowOf(preset.Name)
		own := settings.ClientGoOptions
		if isLock {
			own = row.FlagNames(false)
		}
		var given []string
		for _, f := range all {
			if !fs.Changed(f) {
				continue
			} else if !slices.Contains(own, f) {
				return usagef("--%s is not an option of --preset %s, which takes --%s", f, preset.Name, strings.Join(own, ", --"))
			}
			given = append(given, f)
		}
		if !isLock {
			return clientGoSettings(ctx, std, fs, s, preset, *seed, format, len(given) > 0)
		}
		if fs.Changed("seed") {
			return usagef("--seed: the medians of --preset %s are exact, drawn from no seed", preset.Name)
		}
		lock, err := row.WithFlags(preset.Name, s.Nodes, given, func(name string) string { return fs.Lookup(name).Value.String() })
		if err != nil {
			return usage(err)
		}
		figures := lock.Figures()
		switch format {
		case "csv":
			return reports.SettingsCSV(std.out, figures)
		case "json":
			return reports.LockJSON(std.out, preset.Name, lock, figures)
		}
		return reports.LockTable(std.out, preset.Name, lock, len(given) > 0, figures)
	}
}

// clientGoSettings computes and writes client-go's figures, the preset's
// durations giving way to the flags given.
func clientGoSettings(ctx context.Context, std *streams, fs *pflag.FlagSet, s settings.Settings, preset settings.Preset, seed uint64, format string, changed bool) error {
	s, err := s.WithPreset(preset, fs.Changed)
	if err != nil {
		return usage(err)
	}
	figures, err := settings.Figures(ctx, s, seed)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return reports.SettingsCSV(std.out, figures)
	case "json":
		return reports.SettingsJSON(std.out, s, seed, figures)
	}
	return reports.SettingsTable(std.out, s, preset, changed, seed, figures)
}
