package settings

import "time"

// Preset is a widely used lock's default settings in client-go's terms,
// for the round model's commands (run, sweep, cost, recommend, report,
// replay): LeaseDuration is how long after the leader's last renewal the
// others wait before they may take over, RetryPeriod how often the leader
// renews, and RetryPeriod + RenewDeadline when, after its last renewal, it
// gives up if it cannot renew. For a lock other than client-go's these are
// a mapping (docs/settings.md, "In the round model"); leasesim settings
// computes such a lock by its own protocol instead (Lock).
type Preset struct {
	Name                                      string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	Exact                                     bool          // client-go itself; otherwise a mapping
	Tick                                      time.Duration // the round that holds its numbers: 1s, or 500ms for Consul's 7.5s
}

// Presets returns the presets, client-go's first.
func Presets() []Preset {
	s := time.Second
	return []Preset{
		{"kubernetes", 15 * s, 10 * s, 2 * s, true, s},
		{"openshift", 137 * s, 107 * s, 26 * s, true, s},
		{"openshift-sno", 270 * s, 240 * s, 60 * s, true, s},
		{"etcd", 60 * s, 40 * s, 20 * s, false, s},
		{"consul", 45 * s, s / 2, 15 * s / 2, false, s / 2},
		{"zookeeper", 60 * s, 20 * s, 20 * s, false, s},
		{"dynamodb", 20 * s, 15 * s, 5 * s, false, s},
	}
}

// PresetByName returns the preset called name, or an error that lists the
// presets.
func PresetByName(name string) (Preset, error) { return byName(Presets(), name) }

// PresetNames lists the presets' names, comma-separated.
func PresetNames() string { return names(Presets()) }

// String is the preset's name.
func (p Preset) String() string { return p.Name }
