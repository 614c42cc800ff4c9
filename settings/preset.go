package settings

import (
	"fmt"
	"strings"
	"time"
)

// Preset is a widely used lock's default settings in client-go's terms.
// docs/settings.md cites the source of every number and says how a lock
// other than client-go's is mapped.
type Preset struct {
	Name                                      string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	What                                      string // the lock and whose defaults
	Exact                                     bool   // client-go itself; otherwise a mapping
}

// Presets returns the presets, client-go's first.
func Presets() []Preset {
	s := time.Second
	return []Preset{
		{"kubernetes", 15 * s, 10 * s, 2 * s, "client-go, Kubernetes' component defaults (kube-controller-manager, kube-scheduler)", true},
		{"openshift", 137 * s, 107 * s, 26 * s, "client-go, OpenShift's library-go defaults", true},
		{"openshift-sno", 270 * s, 240 * s, 60 * s, "client-go, OpenShift's library-go single-node defaults", true},
		{"etcd", 60 * s, 40 * s, 20 * s, "an etcd concurrency session (TTL 60s, keep-alive every TTL/3, given up TTL after the last keep-alive answer); its followers watch instead of polling, so they take over as the lease expires, sooner than the takeover figures here", false},
	}
}

// PresetByName returns the preset called name, or an error that lists the
// presets.
func PresetByName(name string) (Preset, error) {
	var names []string
	for _, p := range Presets() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("want one of %s", strings.Join(names, ", "))
}
