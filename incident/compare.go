package incident

import "github.com/leasesim/leasesim/model"

// Compared is one of the settings a replay compares: its name, as the
// replay's table names it, and its configuration.
type Compared struct {
	Name   string
	Config model.Config
}

// PresetValues is what a replay reads of a preset it compares: its name,
// whether it is a lock's (whose lease is its own, from its options), and
// what it sets where no flag set it.
type PresetValues struct {
	Name   string
	Lock   bool
	Values map[model.Param]int
}

// Compare is the settings a replay compares: each preset (or c alone,
// with none) with each of leases, a preset's values set on c. A lock's
// preset compares its own lease alone; with one lease, a preset's lease
// is its own unless leaseGiven (the lease was given, not the default).
// Each is named by its preset and its lease, in rounds or durations of t.
func Compare(c model.Config, t model.Tick, presets []PresetValues, leases []int, leaseGiven bool) []Compared {
	if len(presets) == 0 {
		presets = []PresetValues{{}}
	}
	var out []Compared
	for _, p := range presets {
		base := c
		for param, v := range p.Values {
			base.Set(param, v)
		}
		leases := leases
		if p.Lock {
			leases = []int{base.Lease}
		}
		for _, lease := range leases {
			if len(leases) == 1 && p.Name != "" && (!leaseGiven || p.Lock) {
				lease = base.Lease
			}
			cfg := base
			cfg.Lease = lease
			name := "lease " + t.Count(lease)
			if p.Name != "" {
				name = p.Name + ", " + name
			}
			out = append(out, Compared{name, cfg})
		}
	}
	return out
}
