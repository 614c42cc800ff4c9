package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// durationValue is a flag holding a positive duration.
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string { return v.d.String() }

func (v durationValue) Set(s string) error {
	d, err := settings.ParseDuration(s) // the same bounds as a tick: 1ms to 24h in whole milliseconds
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

func (v durationValue) Type() string { return "duration" }

func setupSettings(fs *pflag.FlagSet) func(context.Context, *streams) error {
	preset, _ := settings.PresetByName("kubernetes")
	fs.Var(namedValue[settings.Preset]{&preset, settings.PresetByName, "replay and sweep compare a list of presets"}, "preset", "start from a lock's defaults: "+settings.PresetNames())
	var s settings.Settings
	fs.Var(durationValue{&s.LeaseDuration}, "lease", "lease duration (client-go's LeaseDuration; dynamodb's leaseDuration)")
	fs.Var(durationValue{&s.RenewDeadline}, "renew-deadline", "renew deadline (client-go's RenewDeadline)")
	fs.Var(durationValue{&s.RetryPeriod}, "retry-period", "retry period (client-go's RetryPeriod)")
	etcd, consul, curator, dynamo := settings.EtcdDefaults(), settings.ConsulDefaults(), settings.CuratorDefaults(), settings.DynamoDBDefaults()
	var sessionTTL time.Duration
	fs.Var(durationValue{&sessionTTL}, "session-ttl", "session TTL (etcd's concurrency.WithTTL, default 60s; consul's LockOptions.SessionTTL, default 15s)")
	fs.Var(nonNegativeDurationValue{&consul.LockDelay}, "lock-delay", "consul's LockOptions.LockDelay")
	fs.Var(durationValue{&curator.SessionTimeout}, "session-timeout", "zookeeper: the session timeout Curator asks for (sessionTimeoutMs)")
	fs.Var(durationValue{&curator.TickTime}, "tick-time", "zookeeper: the server's tickTime, which bounds the session timeout to 2 to 20 ticks")
	fs.Var(errorPolicyValue{&curator.Policy}, "error-policy", "zookeeper: Curator's ConnectionStateErrorPolicy, standard (Standard…, leadership ends on SUSPENDED) or session (Session…, on LOST)")
	fs.Var(durationValue{&dynamo.HeartbeatPeriod}, "heartbeat-period", "dynamodb's heartbeatPeriod")
	fs.Var(durationValue{&dynamo.RefreshPeriod}, "refresh-period", "dynamodb: acquireLock's refreshPeriod, between a waiter's reads")
	fs.Var(nonNegativeDurationValue{&dynamo.AdditionalWait}, "additional-time-to-wait", "dynamodb: acquireLock's additionalTimeToWaitForLock, an acquire call lasting the lease and this")
	fs.BoolVar(&dynamo.HoldOnUnavailable, "hold-lock-on-service-unavailable", false, "dynamodb's holdLockOnServiceUnavailable")
	s.Nodes = 3
	fs.Var(positiveValue{&s.Nodes, 1000}, "nodes", "candidates, the leader among them")
	seed := fs.Uint64("seed", 1, "seed of client-go's followers' jitter for the medians (the other locks' medians are exact)")
	format := "table"
	fs.Var(choiceValue{&format, []string{"table", "csv", "json"}}, "format", "output format: table, csv or json")
	for _, name := range []string{"lease", "renew-deadline", "retry-period", "session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy", "heartbeat-period", "refresh-period", "additional-time-to-wait"} {
		fs.Lookup(name).DefValue = "the preset's"
	}
	return func(ctx context.Context, std *streams) error {
		own, isLock := settings.LockOptions[preset.Name]
		if !isLock {
			own = settings.ClientGoOptions
		}
		var given []string
		for _, f := range append(slices.Clone(settings.ClientGoOptions), "session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy", "heartbeat-period", "refresh-period", "additional-time-to-wait", "hold-lock-on-service-unavailable") {
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
		var lock settings.Lock
		switch preset.Name {
		case "etcd":
			if fs.Changed("session-ttl") {
				etcd.SessionTTL = sessionTTL
			}
			etcd.Nodes, lock = s.Nodes, etcd
		case "consul":
			if fs.Changed("session-ttl") {
				consul.SessionTTL = sessionTTL
			}
			consul.Nodes, lock = s.Nodes, consul
		case "zookeeper":
			curator.Nodes, lock = s.Nodes, curator
		case "dynamodb":
			if fs.Changed("lease") {
				dynamo.LeaseDuration = s.LeaseDuration
			}
			dynamo.Nodes, lock = s.Nodes, dynamo
		}
		if err := lock.Validate(); err != nil {
			flags := make([]string, len(given))
			for i, f := range given {
				flags[i] = "--" + f + " " + fs.Lookup(f).Value.String()
			}
			return usagef("--preset %s%s: %v", preset.Name, strings.Join(append([]string{""}, flags...), " "), err)
		}
		figures := lock.Figures()
		switch format {
		case "csv":
			return writeSettingsCSV(std, figures)
		case "json":
			return writeLockJSON(std, preset.Name, lock, figures)
		}
		return writeLockTable(std, preset.Name, lock, len(given) > 0, figures)
	}
}

// clientGoSettings computes and writes client-go's figures, the preset's
// durations giving way to the flags given.
func clientGoSettings(ctx context.Context, std *streams, fs *pflag.FlagSet, s settings.Settings, preset settings.Preset, seed uint64, format string, changed bool) error {
	for _, f := range []struct {
		flag string
		d    *time.Duration
		v    time.Duration
	}{{"lease", &s.LeaseDuration, preset.LeaseDuration}, {"renew-deadline", &s.RenewDeadline, preset.RenewDeadline}, {"retry-period", &s.RetryPeriod, preset.RetryPeriod}} {
		if !fs.Changed(f.flag) {
			*f.d = f.v
		}
	}
	if err := s.Validate(); err != nil {
		return usagef("--lease %s --renew-deadline %s --retry-period %s --nodes %d: %v", s.LeaseDuration, s.RenewDeadline, s.RetryPeriod, s.Nodes, err)
	}
	figures, err := settings.Figures(ctx, s, seed)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return writeSettingsCSV(std, figures)
	case "json":
		return writeSettingsJSON(std, s, seed, figures)
	}
	return writeSettingsTable(std, s, preset, changed, seed, figures)
}

// nonNegativeDurationValue is a flag holding a duration of 0 or more:
// 0, or what a tick may be.
type nonNegativeDurationValue struct{ d *time.Duration }

func (v nonNegativeDurationValue) String() string { return v.d.String() }

func (v nonNegativeDurationValue) Set(s string) error {
	d, err := settings.ParseNonNegativeDuration(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

func (v nonNegativeDurationValue) Type() string { return "duration" }

// errorPolicyValue is a flag holding Curator's error policy.
type errorPolicyValue struct{ p *settings.ErrorPolicy }

func (v errorPolicyValue) String() string { return v.p.String() }

func (v errorPolicyValue) Set(s string) error {
	p, err := settings.ParseErrorPolicy(s)
	if err == nil {
		*v.p = p
	}
	return err
}

func (v errorPolicyValue) Type() string { return "policy" }

// seconds formats a figure's value: at most three decimals, none if whole.
func seconds(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
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
	return writeIndentedJSON(std, out)
}

// writeSettingsCSV writes the figures as CSV, in seconds to the
// millisecond; a value that is none (a figure library-go publishes no
// formula for, a figure without a bound) is an empty cell, where JSON
// writes null.
func writeSettingsCSV(std *streams, figures []settings.Figure) error {
	cell := func(v float64) string {
		if math.IsInf(v, 0) {
			return ""
		}
		return seconds(v)
	}
	var b strings.Builder
	b.WriteString("metric,min_s,median_s,max_s,published_s\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\n", f.Metric, cell(f.Min), cell(f.Median), cell(f.Max), cell(f.Published))
	}
	_, err := fmt.Fprint(std.out, b.String())
	return err
}

// writeLockTable writes a lock's figures: its title and protocol, the
// figures, the margin's reading (a warning when there is none) and what
// each figure is.
func writeLockTable(std *streams, preset string, lock settings.Lock, changed bool, figures []settings.Figure) error {
	var b strings.Builder
	from := "preset " + preset
	if changed {
		from += ", changed by flags"
	}
	fmt.Fprintf(&b, "%s (%s)\n%s\n", lock.Title(), from, lock.Protocol())
	b.WriteString("in seconds, from the holder's last renewal the service saw; min and max over the fault's phase and the library's loops, median over them (exact)\n\n")
	fmt.Fprintf(&b, "%-28s%9s%9s%9s\n", "figure", "min", "median", "max")
	for _, f := range figures {
		fmt.Fprintf(&b, "%-28s%9s%9s%9s\n", f.Metric, seconds(f.Min), seconds(f.Median), seconds(f.Max))
	}
	if margin, crash := figures[5], figures[3]; margin.Metric == "two_leader_margin" && margin.Min > 0 {
		fmt.Fprintf(&b, "\nThe margin absorbs the holder's clock running slow, against the service's or the waiters', by up to %.1f%% (margin / the give-up it follows),\nor a pause of the holder of up to %ss.\n",
			100*margin.Min/(crash.Min-margin.Min), seconds(figures[6].Min))
	} else {
		fmt.Fprintf(&b, "\nNo margin: %s.\n", lock.NoMargin())
	}
	b.WriteString("\n")
	for _, f := range figures {
		fmt.Fprintf(&b, "%s: %s\n", f.Metric, f.Doc)
	}
	_, err := fmt.Fprint(std.out, b.String())
	return err
}

// writeLockJSON writes a lock's figures as one JSON object: the preset,
// its title and protocol, the nodes, and each figure with the CSV's
// fields, in seconds to the millisecond; a figure without a bound has a
// null value and no_bound set (−∞ for two_leader_margin, +∞ otherwise).
func writeLockJSON(std *streams, preset string, lock settings.Lock, figures []settings.Figure) error {
	type figure struct {
		Metric    string   `json:"metric"`
		Min       *float64 `json:"min_s"`
		Median    *float64 `json:"median_s"`
		Max       *float64 `json:"max_s"`
		Published *float64 `json:"published_s"`
		NoBound   bool     `json:"no_bound,omitempty"`
		Doc       string   `json:"doc"`
	}
	out := struct {
		Lock     string   `json:"lock"`
		Title    string   `json:"title"`
		Protocol string   `json:"protocol"`
		Figures  []figure `json:"figures"`
	}{preset, lock.Title(), lock.Protocol().String(), nil}
	for _, f := range figures {
		g := figure{Metric: f.Metric, Doc: f.Doc}
		for _, v := range []struct {
			to **float64
			v  float64
		}{{&g.Min, f.Min}, {&g.Median, f.Median}, {&g.Max, f.Max}} {
			if math.IsInf(v.v, 0) {
				g.NoBound = true
				continue
			}
			ms := math.Round(v.v*1000) / 1000
			*v.to = &ms
		}
		out.Figures = append(out.Figures, g)
	}
	return writeIndentedJSON(std, out)
}

// writeIndentedJSON writes v as indented JSON and a newline.
func writeIndentedJSON(std *streams, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = std.out.Write(append(b, '\n'))
	return err
}
