package settings_test

import (
	"errors"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/settings"
)

// TestWithOptions: a lock's preset with options given by flag name, and
// its refusals named as flags (Error) and as a candidate list's keys
// (Key).
func TestWithOptions(t *testing.T) {
	tests := []struct {
		preset  string
		options map[string]string
		lease   string // the round lock's lease, when taken
		flag    string // the refusal as flags
		key     string // and as keys
	}{
		{preset: "etcd", options: map[string]string{"session-ttl": "30s"}, lease: "30s"},
		{preset: "consul", options: map[string]string{"session-ttl": "5x"},
			flag: `invalid argument "5x" for "--session-ttl" flag: want a duration from 1ms to 24h, a whole number of milliseconds, e.g. 100ms or 1s`,
			key:  `session_ttl "5x": want a duration from 1ms to 24h, a whole number of milliseconds, e.g. 100ms or 1s`},
		{preset: "consul", options: map[string]string{"lock-delay": "1s,2s"},
			flag: `invalid argument "1s,2s" for "--lock-delay" flag: want one value here, not a list (Consul's lock-delay under --preset consul takes one value)`,
			key:  `lock_delay "1s,2s": want one value here, not a list (Consul's lock-delay under --preset consul takes one value)`},
		{preset: "dynamodb", options: map[string]string{"lease": "2500ms"},
			flag: "--preset dynamodb --lease 2500ms: heartbeat period 5s: want it shorter than the lease 2.5s, or the lock expires between heartbeats",
			key:  "preset=dynamodb lease=2500ms: heartbeat period 5s: want it shorter than the lease 2.5s, or the lock expires between heartbeats"},
		{preset: "dynamodb", options: map[string]string{"lease": "20500ms"},
			flag: "--preset dynamodb --lease 20500ms: --lease 20.5s is not a whole number of --refresh-period 1s: the round model's waiters read the record every round, which is the refresh period, so it takes a multiple of it (20s, 21s, …)",
			key:  "preset=dynamodb lease=20500ms: lease 20.5s is not a whole number of refresh_period 1s: the round model's waiters read the record every round, which is the refresh period, so it takes a multiple of it (20s, 21s, …)"},
	}
	for _, tt := range tests {
		p, err := settings.PresetByName(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		_, r, err := p.WithOptions(func(o string) (string, bool) { v, ok := tt.options[o]; return v, ok })
		if tt.flag == "" {
			if err != nil || r.Lease.String() != tt.lease {
				t.Errorf("%s %v: lease %s, %v; want %s", tt.preset, tt.options, r.Lease, err, tt.lease)
			}
			continue
		}
		var key interface{ Key() string }
		var oe *settings.OptionError
		var pe *settings.PresetError
		switch {
		case errors.As(err, &oe):
			key = oe
		case errors.As(err, &pe):
			key = pe
		default:
			t.Errorf("%s %v: error %v, want an OptionError or a PresetError", tt.preset, tt.options, err)
			continue
		}
		if err.Error() != tt.flag || key.Key() != tt.key {
			t.Errorf("%s %v:\n got %s\n     %s\nwant %s\n     %s", tt.preset, tt.options, err, key.Key(), tt.flag, tt.key)
		}
	}
}

// TestPresetValues: what a preset sets in rounds of a tick, and its
// refusal of a tick that cannot hold a time.
func TestPresetValues(t *testing.T) {
	k, _ := settings.PresetByName("kubernetes")
	vals, err := k.Values(settings.RoundLock{}, model.Tick(1e9))
	if err != nil || vals[model.Lease] != 15 || vals[model.RenewDeadline] != 10 || vals[model.RetryPeriod] != 2 || vals[model.Jitter] != 1 || vals[model.Protocol] != int(model.ProtocolClientGo) {
		t.Errorf("kubernetes at 1s: %v, %v", vals, err)
	}
	d, _ := settings.PresetByName("dynamodb")
	r, _ := d.Round()
	if _, err := d.Values(r, model.Tick(2e9)); err == nil || err.Error() != "--preset dynamodb reads the record every round, so --tick 2s must be its refresh period 1s: give --refresh-period 2s; without --tick the preset takes 1s" {
		t.Errorf("dynamodb at 2s: %v", err)
	}
}

// TestCheckOptions: an option the presets do not take, refused and
// named as a flag (Error) and as a candidate list's key (Key).
func TestCheckOptions(t *testing.T) {
	etcd, _ := settings.PresetByName("etcd")
	k8s, _ := settings.PresetByName("kubernetes")
	tests := []struct {
		option    string
		presets   []settings.Preset
		flag, key string
	}{
		{"session-ttl", []settings.Preset{etcd}, "", ""},
		{"lock-delay", nil, "", ""}, // the model's own
		{"session-ttl", nil,
			"--session-ttl is an option of --preset etcd or consul: give the preset, which sets the model's protocol, lease and retry period from it",
			"session_ttl is an option of preset=etcd or consul: give preset=, which sets the model's protocol, lease and retry period from it"},
		{"retry-period", []settings.Preset{etcd},
			"--retry-period is not an option of --preset etcd, which takes --session-ttl",
			"retry_period is not an option of preset=etcd, which takes session_ttl"},
		{"tick-time", []settings.Preset{etcd, k8s},
			"--tick-time is an option of none of --preset etcd,kubernetes",
			"tick_time is an option of none of preset=etcd,kubernetes"},
		{settings.HoldOption, []settings.Preset{etcd},
			"--hold-lock-on-service-unavailable is refused here: " + settings.HoldRefusal,
			"hold_lock_on_service_unavailable is refused here: " + settings.HoldRefusal},
	}
	for _, tt := range tests {
		err := settings.CheckOptions(func(o string) bool { return o == tt.option }, tt.presets)
		if tt.flag == "" {
			if err != nil {
				t.Errorf("%s with %v: %v, want it taken", tt.option, tt.presets, err)
			}
			continue
		}
		var r *settings.OptionRefusal
		if !errors.As(err, &r) || r.Error() != tt.flag || r.Key() != tt.key {
			t.Errorf("%s with %v: %v, want\n%s\n%s", tt.option, tt.presets, err, tt.flag, tt.key)
		}
	}
}

// TestPresetOnCut: a lock preset sets on_cut where its library handles a
// cut batch by default: db-scheduler's ReviveDeadExecution runs it again
// (rerun); Quartz's job requests no recovery by default and the other
// locks' leaders lose it, so their presets leave the flag's none.
func TestPresetOnCut(t *testing.T) {
	for _, tt := range []struct {
		preset string
		want   int
		sets   bool
	}{
		{"db-scheduler", int(model.CutRerun), true},
		{"quartz", 0, false},
		{"etcd", 0, false},
	} {
		p, err := settings.PresetByName(tt.preset)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := p.Round()
		if !ok {
			t.Fatalf("%s: no round-model lock", tt.preset)
		}
		vals, err := p.Values(r, model.Tick(r.Tick()))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := vals[model.OnCut]; ok != tt.sets || got != tt.want {
			t.Errorf("%s sets on_cut %v (%d), want %v (%d)", tt.preset, ok, got, tt.sets, tt.want)
		}
	}
}
