package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// durationValue is a flag holding a positive duration.
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string { return v.d.String() }

func (v durationValue) Set(s string) error {
	if err := oneValue(s, "sweep and check take every model flag as a list"); err != nil {
		return err
	}
	t, err := model.ParseTick(s) // the same bounds as a tick: 1ms to 24h in whole milliseconds
	if err != nil {
		return err
	}
	*v.d = time.Duration(t)
	return nil
}

func (v durationValue) Type() string { return "duration" }

func setupSettings(fs *pflag.FlagSet) func(context.Context, *streams) error {
	preset, _ := settings.PresetByName("kubernetes")
	fs.Var(namedValue[settings.Preset]{&preset, settings.PresetByName, "replay compares a list of presets"}, "preset", "start from a lock's defaults: "+settings.PresetNames())
	var s settings.Settings
	fs.Var(durationValue{&s.LeaseDuration}, "lease", "lease duration (client-go's LeaseDuration)")
	fs.Var(durationValue{&s.RenewDeadline}, "renew-deadline", "renew deadline (client-go's RenewDeadline)")
	fs.Var(durationValue{&s.RetryPeriod}, "retry-period", "retry period (client-go's RetryPeriod)")
	s.Nodes = 3
	fs.Var(positiveValue{&s.Nodes, 1000}, "nodes", "candidates, the leader among them")
	seed := fs.Uint64("seed", 1, "seed of the followers' jitter for the medians")
	format := "table"
	fs.Var(choiceValue{&format, []string{"table", "csv", "json"}}, "format", "output format: table, csv or json")
	for _, name := range []string{"lease", "renew-deadline", "retry-period"} {
		fs.Lookup(name).DefValue = "the preset's"
	}
	return func(_ context.Context, std *streams) error {
		// Explicit flags override the preset.
		for _, f := range []struct {
			flag string
			d    *time.Duration
			v    time.Duration
		}{{"lease", &s.LeaseDuration, preset.LeaseDuration}, {"renew-deadline", &s.RenewDeadline, preset.RenewDeadline}, {"retry-period", &s.RetryPeriod, preset.RetryPeriod}} {
			if !fs.Changed(f.flag) {
				*f.d = f.v
			}
		}
		if err := s.Validate(); err != nil && !preset.Exact && !fs.Changed("lease") && !fs.Changed("renew-deadline") && !fs.Changed("retry-period") {
			// settings' figures are client-go's: a lock that gives up sooner
			// than client-go's validation allows has none of them.
			return usagef("--preset %s is not client-go's, and its mapping fails client-go's validation (%v): settings computes client-go's timings; run, sweep, cost, recommend and report take the preset", preset.Name, err)
		} else if err != nil {
			return usagef("--lease %s --renew-deadline %s --retry-period %s --nodes %d: %v", s.LeaseDuration, s.RenewDeadline, s.RetryPeriod, s.Nodes, err)
		}
		figures := settings.Figures(s, *seed)
		switch format {
		case "csv":
			return writeSettingsCSV(std, figures)
		case "json":
			return writeSettingsJSON(std, s, *seed, figures)
		}
		return writeSettingsTable(std, s, preset, fs.Changed("lease") || fs.Changed("renew-deadline") || fs.Changed("retry-period"), *seed, figures)
	}
}

// seconds formats a figure's value: at most three decimals, none if whole.
func seconds(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

func writeSettingsTable(std *streams, s settings.Settings, p settings.Preset, changed bool, seed uint64, figures []settings.Figure) error {
	var b strings.Builder
	from := "preset " + p.Name
	if changed {
		from += ", changed by flags"
	}
	fmt.Fprintf(&b, "client-go leader election: lease %ss, renew deadline %ss, retry period %ss, %d nodes (%s)\n",
		seconds(s.LeaseDuration.Seconds()), seconds(s.RenewDeadline.Seconds()), seconds(s.RetryPeriod.Seconds()), s.Nodes, from)
	if !changed && !p.Exact {
		fmt.Fprintf(&b, "%s, mapped onto client-go's settings (docs/settings.md)\n", p.What)
	}
	fmt.Fprintf(&b, "in seconds; min and max over the followers' jitter and the fault's phase, median of draws with seed %d\n\n", seed)
	fmt.Fprintf(&b, "%-28s%9s%9s%9s%12s\n", "figure", "min", "median", "max", "library-go")
	var flagged []string
	for _, f := range figures {
		mark := ""
		if f.Disagrees() {
			mark = " *"
			code := f.Min
			if f.ComparedWith == "max" {
				code = f.Max
			}
			flagged = append(flagged, fmt.Sprintf("%s: library-go's %s gives %ss; the code's %s is %ss", f.Metric, f.PublishedFormula, seconds(f.Published), f.ComparedWith, seconds(code)))
		}
		fmt.Fprintf(&b, "%-28s%9s%9s%9s%12s%s\n", f.Metric, seconds(f.Min), seconds(f.Median), seconds(f.Max), seconds(f.Published), mark)
	}
	if margin := figures[5]; margin.Metric == "two_leader_margin" && margin.Min > 0 {
		fmt.Fprintf(&b, "\nThe margin absorbs leader and follower clocks running at rates up to %.1f%% apart (lease / (retry period + renew deadline) − 1),\nor a pause of the leader of up to %ss.\n",
			100*(s.RecordLease().Seconds()/s.GiveUp().Seconds()-1), seconds(figures[6].Min))
	} else {
		b.WriteString("\nNo margin: a follower may take over as soon as, or before, the leader gives up, so a leader cut off from the record\nand back just before its deadline, or paused, or with a slow clock, leads beside its successor.\n")
	}
	if len(flagged) > 0 {
		b.WriteString("\n* disagrees with library-go's published formula:\n")
		for _, l := range flagged {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	b.WriteString("\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s: %s\n", f.Metric, f.Doc)
	}
	_, err := fmt.Fprint(std.out, b.String())
	return err
}

// writeSettingsJSON writes the settings and their figures as one JSON
// object: the durations and nodes compared, the seed of the medians, and
// each figure with the CSV's fields, in seconds to the millisecond, a
// figure library-go publishes no formula for having a null published_s.
func writeSettingsJSON(std *streams, s settings.Settings, seed uint64, figures []settings.Figure) error {
	type figure struct {
		Metric           string   `json:"metric"`
		Min              float64  `json:"min_s"`
		Median           float64  `json:"median_s"`
		Max              float64  `json:"max_s"`
		Published        *float64 `json:"published_s"`
		PublishedFormula string   `json:"published_formula,omitempty"`
		Doc              string   `json:"doc"`
	}
	ms := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	out := struct {
		Lease   float64  `json:"lease_duration_s"`
		Renew   float64  `json:"renew_deadline_s"`
		Retry   float64  `json:"retry_period_s"`
		Nodes   int      `json:"nodes"`
		Seed    uint64   `json:"seed"`
		Figures []figure `json:"figures"`
	}{ms(s.LeaseDuration.Seconds()), ms(s.RenewDeadline.Seconds()), ms(s.RetryPeriod.Seconds()), s.Nodes, seed, nil}
	for _, f := range figures {
		g := figure{Metric: f.Metric, Min: ms(f.Min), Median: ms(f.Median), Max: ms(f.Max), PublishedFormula: f.PublishedFormula, Doc: f.Doc}
		if !math.IsNaN(f.Published) {
			p := ms(f.Published)
			g.Published = &p
		}
		out.Figures = append(out.Figures, g)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = std.out.Write(append(b, '\n'))
	return err
}

func writeSettingsCSV(std *streams, figures []settings.Figure) error {
	var b strings.Builder
	b.WriteString("metric,min_s,median_s,max_s,published_s\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\n", f.Metric, seconds(f.Min), seconds(f.Median), seconds(f.Max), seconds(f.Published))
	}
	_, err := fmt.Fprint(std.out, b.String())
	return err
}
