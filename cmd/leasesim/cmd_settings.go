package main

import (
	"context"
	"github.com/leasesim/leasesim/reports"
	"slices"
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
	shed := settings.ShedLockDefaults()
	fs.Var(durationValue{&shed.LockAtMostFor}, "lock-at-most-for", "shedlock's lockAtMostFor (required in ShedLock; the preset takes the README's 10m)")
	fs.Var(nonNegativeDurationValue{&shed.LockAtLeastFor}, "lock-at-least-for", "shedlock's lockAtLeastFor (default 0s)")
	fs.BoolVar(&shed.KeepAlive, "keep-alive", false, "shedlock: the provider wrapped in KeepAliveLockProvider")
	fs.BoolVar(&shed.UsingDbTime, "using-db-time", true, "shedlock: the JDBC provider's usingDbTime(), the database's clock deciding; false: the nodes' clocks")
	fs.Var(nonNegativeDurationValue{&shed.FireSpread}, "fire-spread", "shedlock: the deployment's spread of one slot's fires over the nodes, clock skew and scheduler delay (default 1s)")
	fs.Var(durationValue{&shed.Task}, "task-length", "shedlock: how long the task runs (default 1m)")
	s.Nodes = 3
	fs.Var(positiveValue{&s.Nodes, 1000}, "nodes", "candidates, the leader among them")
	seed := fs.Uint64("seed", 1, "seed of client-go's followers' jitter for the medians (the other locks' medians are exact)")
	format := "table"
	fs.Var(choiceValue{&format, []string{"table", "csv", "json"}}, "format", "output format: table, csv or json")
	for _, name := range []string{"lease", "renew-deadline", "retry-period", "session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy", "heartbeat-period", "refresh-period", "additional-time-to-wait", "lock-at-most-for", "lock-at-least-for", "fire-spread", "task-length"} {
		fs.Lookup(name).DefValue = "the preset's"
	}
	return func(ctx context.Context, std *streams) error {
		own, isLock := settings.LockOptions[preset.Name]
		if !isLock {
			own = settings.ClientGoOptions
		}
		var given []string
		for _, f := range append(slices.Clone(settings.ClientGoOptions), "session-ttl", "lock-delay", "session-timeout", "tick-time", "error-policy", "heartbeat-period", "refresh-period", "additional-time-to-wait", "hold-lock-on-service-unavailable", "lock-at-most-for", "lock-at-least-for", "keep-alive", "using-db-time", "fire-spread", "task-length") {
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
		case "shedlock":
			shed.Nodes = s.Nodes
			lock = shed
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
		return reports.SettingsCSV(std.out, figures)
	case "json":
		return reports.SettingsJSON(std.out, s, seed, figures)
	}
	return reports.SettingsTable(std.out, s, preset, changed, seed, figures)
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
