package settings

import "time"

// Preset is a widely used lock's default settings, for the round model's
// commands (run, sweep, cost, recommend, report, replay). A client-go
// preset is its LeaseDuration (how long after the leader's last renewal
// the others wait before they may take over), RetryPeriod (how often the
// leader renews) and RenewDeadline (RetryPeriod + RenewDeadline after its
// last renewal it gives up if it cannot renew). A lock the round model
// runs by its own protocol (etcd, Consul, Curator, the DynamoDB lock
// client) is its Lock, the library's defaults, which RoundLockOf turns
// into the model's protocol and times.
type Preset struct {
	Name                                      string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration // client-go's
	Exact                                     bool          // client-go itself; otherwise a lock of its own
	Lock                                      Lock          // the library's defaults, for a lock the round model runs by its own protocol; nil for client-go
}

// Presets returns the presets, client-go's first.
func Presets() []Preset {
	s := time.Second
	return []Preset{
		{"kubernetes", 15 * s, 10 * s, 2 * s, true, nil},
		{"openshift", 137 * s, 107 * s, 26 * s, true, nil},
		{"openshift-sno", 270 * s, 240 * s, 60 * s, true, nil},
		{Name: "etcd", Lock: EtcdDefaults()},
		{Name: "consul", Lock: ConsulDefaults()},
		{Name: "zookeeper", Lock: CuratorDefaults()},
		{Name: "dynamodb", Lock: DynamoDBDefaults()},
		{Name: "shedlock", Lock: ShedLockDefaults()},
	}
}

// Tick is the round that holds the preset's defaults: 1 s, or for a lock
// of its own its RoundLock's Tick (Consul's 500 ms, Curator's 1 ms,
// DynamoDB's refresh period).
func (p Preset) Tick() time.Duration {
	if r, ok := p.Round(); ok {
		return r.Tick()
	}
	return time.Second
}

// Round is the preset's defaults in the round model's terms, for a lock
// the model runs by its own protocol.
func (p Preset) Round() (RoundLock, bool) {
	if p.Lock == nil {
		return RoundLock{}, false
	}
	return RoundLockOf(p.Lock)
}

// PresetByName returns the preset called name, or an error that lists the
// presets.
func PresetByName(name string) (Preset, error) { return byName(Presets(), name) }

// PresetNames lists the presets' names, comma-separated.
func PresetNames() string { return names(Presets()) }

// String is the preset's name.
func (p Preset) String() string { return p.Name }
