package main

import (
	"bufio"
	"context"
	"slices"
	"time"

	"github.com/leasesim/leasesim/incident"
	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

func setupReplay(fs *pflag.FlagSet) func(context.Context, *streams) error {
	c := model.Default()
	// The incident says who fails when, and how: its file, not these flags.
	addModelFlags(fs, &c, append([]model.Param{model.Lease}, incident.Params()...)...)
	fs.Lookup("rounds").DefValue = "the incident and the rounds it needs to settle"
	leases := sweep.ListOf(c.Lease)
	fs.Var(input.NewList(model.Lease, &leases), "lease", "leases to compare: "+sweep.ListSyntax)
	tick := addTickFlag(fs)
	var presets []settings.Preset
	fs.Var(input.Presets(&presets), "preset", "locks whose defaults to compare, comma-separated: "+settings.PresetNames()+"; a lock's options (--session-ttl, --lock-delay, --session-timeout, --tick-time, --error-policy, --heartbeat-period, --refresh-period, --additional-time-to-wait; --lease is also dynamodb's leaseDuration) go to its preset, client-go's flags to client-go's; implies their tick (1s; consul 500ms, zookeeper 1ms by default; dynamodb its refresh period), which must be the same for all, unless --tick is given")
	addLockOptionFlags(fs)
	seed := new(uint64)
	addJitterSeedFlag(fs, seed)
	epoch := fs.String("epoch", "", "the moment the run begins, RFC 3339 (2026-11-30T23:58:00Z): with it, a failure's start may be a timestamp")
	var pin model.Config // its outage field holds --phase, a length of time
	fs.Var(input.NewParam(model.Outage, &pin), "phase", "pin one run: move the incident this much later (rounds, or a duration with a tick) and run it with --seed's jitter alone, for a post-mortem that knows both; without it, each setting's spread over every phase and, with jitter, 32 seeds from --seed")
	trace := fs.Bool("trace", false, "print each setting's drawn run (its spread's median, or the pinned one) round by round after the table")
	png := addOutputFlag(fs, "png", "", "also draw the runs' timeline (each setting's median run, or the pinned one), zoomed to the incident, to this PNG file")
	csvPath := addOutputFlag(fs, "csv", "", "also write the table as CSV to this file: a row a setting, its spread and its drawn run")
	return func(ctx context.Context, std *streams) error {
		if fs.NArg() != 1 {
			if _, err := epochOf(fs, *epoch); err != nil {
				return err
			}
			return usagef("want one incident file: leasesim replay [flags] INCIDENT")
		}
		name := fs.Arg(0)
		for _, p := range presets {
			if err := input.SameTick(pflags{fs}, presets[0], p, *tick, "compare them"); err != nil {
				return usage(err)
			}
		}
		in, err := readIncident(fs, "", name, *tick, *epoch)
		if err != nil {
			return err
		}
		n := max(1, len(presets)) * leases.Len()
		if n > maxReplaySettings {
			return usagef("--preset and --lease give %d settings to compare: replay compares at most %d", n, maxReplaySettings)
		}
		if *trace && n > maxReplayTraces {
			return usagef("--preset and --lease give %d settings: --trace prints each one's run, for at most %d", n, maxReplayTraces)
		}
		if rows := reports.ReplayFigureRows(in, n); *png != "" && rows > maxReplayFigureRows {
			return usagef("--png would draw %d rows (a failing node or a setting each): the figure holds at most %d; want fewer settings (--preset, --lease) or no --png", rows, maxReplayFigureRows)
		}
		settingsOf, err := replaySettings(fs, c, *tick, presets, slices.Collect(leases.All()))
		if err != nil {
			return err
		}
		pinned := -1
		if fs.Changed("phase") {
			pinned = pin.Outage
		}
		rows, skipped, firstBad, err := in.Samples(ctx, settingsOf, fs.Changed("rounds"), name, *tick, *seed, pinned)
		if err != nil {
			return usage(err)
		}
		if err := std.skip("settings", skipped, len(settingsOf), firstBad, *tick); err != nil {
			return err
		}
		for i := range rows {
			if err := ctx.Err(); err != nil {
				return err
			}
			row := &rows[i]
			if row.Spread, err = in.Spread(row.Config, row.Spread.Sample); err != nil {
				return usage(err)
			}
			row.Run = row.Spread.Median()
			if *trace {
				if row.Trace, err = in.Trace(row.Config, row.Run); err != nil {
					return err
				}
			}
		}
		configs := make([]model.Config, len(rows))
		for i, row := range rows {
			configs[i] = row.Config
		}
		std.warnMargins(configs, func(i int) string { return rows[i].Name }, *tick)
		// The PNG and the CSV go in place only once the table is out: all or
		// none.
		var pending []*atomicfile.Pending
		for _, f := range []struct {
			path  string
			write func(w *bufio.Writer) error
		}{
			{*png, func(w *bufio.Writer) error { _, err := reports.ReplayFigure(*tick, in, rows).WriteTo(w); return err }},
			{*csvPath, func(w *bufio.Writer) error { return reports.WriteReplayCSV(w, *tick, rows) }},
		} {
			if f.path == "" {
				continue
			}
			p, err := atomicfile.Prepare(f.path, f.write)
			if err != nil {
				return err
			}
			defer p.Discard()
			pending = append(pending, p)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := reports.WriteReplay(std.out, *tick, in, rows); err != nil {
			return err
		}
		for _, p := range pending {
			if err := p.Commit(); err != nil {
				return err
			}
		}
		return nil
	}
}

// Bounds on a replay, so that its memory stays bounded: a setting's row
// holds its spans, its trace (kept until the table is out) tens of KB or
// more, and a row of the figure about 165 KB of pixels.
const (
	maxReplaySettings   = 10_000
	maxReplayTraces     = 100
	maxReplayFigureRows = 200
)

// epochOf reads --epoch (incident.ParseEpoch); the zero time if it is not
// given.
func epochOf(fs *pflag.FlagSet, epoch string) (time.Time, error) {
	if !fs.Changed("epoch") {
		return time.Time{}, nil
	}
	at, err := incident.ParseEpoch(epoch)
	if err != nil {
		return time.Time{}, flagUsagef([]string{"epoch"}, "invalid argument %q for \"--epoch\" flag: %v", epoch, err)
	}
	return at, nil
}

// readIncident reads the incident file name in the unit of t, its
// timestamps counted from --epoch; its error names the file and line, after
// label (the flag that named the file, if any).
func readIncident(fs *pflag.FlagSet, label, name string, t model.Tick, epoch string) (incident.Incident, error) {
	at, err := epochOf(fs, epoch)
	if err != nil {
		return incident.Incident{}, err
	}
	in, err := incident.ReadFile(name, t, at)
	if err != nil {
		return incident.Incident{}, usagef("%s%v", label, err)
	}
	return in, nil
}

// replaySettings returns the settings to compare (incident.Compare):
// each preset (or the flags alone) with each lease, a preset's values
// giving way to any flag set on the command line (input.PresetUnset).
func replaySettings(fs *pflag.FlagSet, c model.Config, t model.Tick, presets []settings.Preset, leases []int) ([]incident.Compared, error) {
	var values []incident.PresetValues
	for _, p := range presets {
		vals, err := input.PresetUnset(pflags{fs}, p, t)
		if err != nil {
			return nil, usage(err)
		}
		values = append(values, incident.PresetValues{Name: p.Name, Lock: p.Lock != nil, Values: vals})
	}
	return incident.Compare(c, t, values, leases, fs.Changed("lease")), nil
}
