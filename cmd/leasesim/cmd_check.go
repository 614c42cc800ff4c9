package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// errViolations is check's failure: the violations are already printed.
type errViolations struct{ configs, checked int }

func (e errViolations) Error() string {
	return fmt.Sprintf("%d of %d configurations break an invariant", e.configs, e.checked)
}

func setupCheck(fs *pflag.FlagSet) func(context.Context, *streams) error {
	g, protocols := sweep.CheckGrid(), sweep.ProtocolCheckGrid()
	addGridFlags(fs, &g, model.Params()...)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	addJitterSeedFlag(fs, &g.Seed)
	incident := addIncidentFlags(fs, "check every configuration against this incident (leasesim replay's file: one failure a line, each node its own kind) instead of its group outage")
	workers := runtime.NumCPU()
	fs.Var(positiveValue{&workers, 1024}, "workers", "configurations checked in parallel; the output is the same for any number")
	fs.Lookup("workers").DefValue = "all cores"
	return func(ctx context.Context, std *streams) error {
		g.Tick = *tick
		if err := incident.useOn(fs, &g); err != nil {
			return err
		}
		size, err := g.Size()
		if err != nil {
			return usage(err)
		}
		if valid, firstBad := g.Valid(); valid == 0 { // nothing to check; skipped ones are counted in the last line
			return std.skip("configurations", size, size, firstBad, g.Tick)
		}
		grids := []*sweep.Grid{&g}
		if defaultGrid(fs) { // the service protocols' values beside client-go's
			protocols.Seed = g.Seed
			grids = append(grids, &protocols)
			more, _ := protocols.Size()
			size += more
		}
		progress := func(int) {}
		if bar := progressBar(std.err, size, "check"); bar != nil {
			progress = func(n int) { bar.Add(n) }
			defer bar.Finish()
		}
		bad, checked, refused := 0, 0, 0
		for _, grid := range grids {
			c, r, err := sweep.Check(ctx, grid, sweep.CheckOptions{Workers: workers}, func(c model.Config, violation error) error {
				bad++
				_, err := fmt.Fprintf(std.out, "violation: %s: %v\n", reproduce(c, g.Tick, g.Seed, *incident.file, *incident.epoch), violation)
				return err
			}, progress)
			checked, refused = checked+c, refused+r
			if err != nil {
				return err
			}
		}
		if bad > 0 {
			return errViolations{bad, checked}
		}
		skipped := ""
		if refused > 0 {
			skipped = fmt.Sprintf(" (and skipped %d whose settings do not go together)", refused)
		}
		_, err = fmt.Fprintf(std.out, "checked %d configurations%s: every invariant holds\n", checked, skipped)
		return err
	}
}

// defaultGrid reports whether check runs its default space: no flag set a
// parameter's list, a preset, a scheduler, a tick or an incident. Only
// then does it check sweep.ProtocolCheckGrid beside sweep.CheckGrid; a
// space given by flags is one grid.
func defaultGrid(fs *pflag.FlagSet) bool {
	for _, p := range model.Params() {
		if fs.Changed(p.Flag()) {
			return false
		}
	}
	for _, name := range []string{"preset", "scheduler", "tick", "incident"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			return false
		}
	}
	return true
}

// reproduce writes the command that runs c as check ran it: leasesim run
// with every parameter or, against an incident, leasesim replay of it with
// every parameter the incident leaves free, at the phase it is written in,
// times in the tick's unit, and the jitter's seed if it is not 0.
func reproduce(c model.Config, tick model.Tick, seed uint64, incidentFile, epoch string) string {
	b := []byte("leasesim run")
	if incidentFile != "" {
		b = []byte("leasesim replay --trace")
	}
	if tick != 0 {
		b = fmt.Appendf(b, " --tick=%s", tick)
	}
	if epoch != "" {
		b = fmt.Appendf(b, " --epoch=%s", epoch)
	}
	if seed != 0 {
		b = fmt.Appendf(b, " --seed=%d", seed)
	}
	if incidentFile != "" { // the incident as written, not replay's spread over its phases
		b = fmt.Appendf(b, " --phase=%s", tick.FormatValue(model.Outage, 0))
	}
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		if incidentFile == "" || !slices.Contains(incidentParams, p) {
			b = fmt.Appendf(b, " --%s=%s", p.Flag(), tick.FormatValue(p, c.Get(p)))
		}
	}
	if incidentFile != "" {
		b = fmt.Appendf(b, " %s", incidentFile)
	}
	return string(b)
}
