package incident

import (
	"cmp"
	"context"

	"github.com/leasesim/leasesim/model"
)

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

// Replayed is one setting's replay: its name and configuration with the
// incident as written (phase 0), its spread over the incident's phases
// and jitter seeds, the run drawn and traced, and that run round by
// round, if asked for.
type Replayed struct {
	Name   string       // the setting, as "kubernetes, lease 15s"
	Config model.Config // the setting with the incident as written (phase 0)
	Spread Spread
	Run    Run    // the run drawn and traced
	Trace  []byte // the run round by round, if asked for
}

// Samples is each of settings made to meet the incident (Setting, which
// takes roundsGiven, name and t) with the runs that replay it, its
// spread's Sample: every phase and, with jitter, seeds from seed
// (SampleOf), or, with pinned ≥ 0, the one run at that phase with seed;
// within the bounds of all their spreads together (Budget). A setting
// that does not go together is left out: counted in skipped, the first
// one's reason kept in first. Its error is ctx's, or a refusal
// (Setting's, Budget's).
func (in Incident) Samples(ctx context.Context, settings []Compared, roundsGiven bool, name string, t model.Tick, seed uint64, pinned int) (rows []Replayed, skipped int, first, err error) {
	var budget Budget
	for _, s := range settings {
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, err
		}
		cfg, skip, err := in.Setting(s.Config, roundsGiven, name, t)
		switch {
		case skip != nil:
			skipped, first = skipped+1, cmp.Or(first, skip)
			continue
		case err != nil:
			return nil, 0, nil, err
		}
		sample := SampleOf(cfg, seed)
		if pinned >= 0 {
			sample = Sample{Phase: pinned, Phases: 1, Seed: seed, Seeds: 1}
		}
		if err := budget.Add(s.Name, cfg, sample); err != nil {
			return nil, 0, nil, err
		}
		rows = append(rows, Replayed{Name: s.Name, Config: cfg, Spread: Spread{Sample: sample}})
	}
	return rows, skipped, first, nil
}
