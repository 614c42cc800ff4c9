package settings

import "time"

// Preset is a widely used lock's default settings in client-go's terms:
// LeaseDuration is how long after the leader's last renewal the others
// wait before they may take over, RetryPeriod how often the leader renews,
// and RetryPeriod + RenewDeadline when, after its last renewal, it gives up
// if it cannot renew. docs/settings.md cites the source of every number
// and says how a lock other than client-go's is mapped.
type Preset struct {
	Name                                      string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	What                                      string        // the lock and whose defaults
	Exact                                     bool          // client-go itself; otherwise a mapping
	Tick                                      time.Duration // the round that holds its numbers: 1s, or 500ms for Consul's 7.5s
}

// Presets returns the presets, client-go's first.
func Presets() []Preset {
	s := time.Second
	return []Preset{
		{"kubernetes", 15 * s, 10 * s, 2 * s, "client-go, Kubernetes' component defaults (kube-controller-manager, kube-scheduler)", true, s},
		{"openshift", 137 * s, 107 * s, 26 * s, "client-go, OpenShift's library-go defaults", true, s},
		{"openshift-sno", 270 * s, 240 * s, 60 * s, "client-go, OpenShift's library-go single-node defaults", true, s},
		{"etcd", 60 * s, 40 * s, 20 * s, "an etcd concurrency session (TTL 60s, keep-alive every TTL/3, given up TTL after the last keep-alive answer); its followers watch instead of polling, so they take over as the lease expires, sooner than the takeover figures here", false, s},
		{"consul", 45 * s, s / 2, 15 * s / 2, "a Consul lock (session TTL 15s renewed every TTL/2, invalidated up to 2·TTL after the last renewal, then a 15s lock-delay; its holder gives up at its first failed query, which the model places a retry period after the last renewal)", false, s / 2},
		{"zookeeper", 60 * s, 20 * s, 20 * s, "a ZooKeeper session with Curator's defaults (60s, a ping every third of it, leadership given up when the connection is suspended at two thirds; its followers watch, so they take over as the session expires)", false, s},
		{"dynamodb", 20 * s, 15 * s, 5 * s, "the AWS DynamoDB lock client's defaults (lease 20s, heartbeat every 5s; the holder's lock expires a lease after its last heartbeat; followers poll every second, not every heartbeat as here)", false, s},
	}
}

// PresetByName returns the preset called name, or an error that lists the
// presets.
func PresetByName(name string) (Preset, error) { return byName(Presets(), name) }

// PresetNames lists the presets' names, comma-separated.
func PresetNames() string { return names(Presets()) }

// String is the preset's name.
func (p Preset) String() string { return p.Name }
