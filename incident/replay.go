package incident

import (
	"errors"
	"github.com/leasesim/leasesim/internal/flagerr"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// Setting is c, one of the settings a replay compares, made to meet the
// incident read from the file name, in rounds of t: the incident's span as its outage
// fields (Apply) and, unless roundsGiven, a run as long as the
// incident's first round and the model's settling after it
// (cost.SettleRounds). Settings that do not go together are returned as
// skip, a *model.RelationError, for the replay to leave out; err refuses
// an incident the setting cannot run (a node it lacks, an end after its
// run) or a setting the model refuses.
func (in Incident) Setting(c model.Config, roundsGiven bool, name string, t model.Tick) (cfg model.Config, skip, err error) {
	cfg = in.Apply(c)
	if err := cfg.Validate(); err != nil {
		if re := (*model.RelationError)(nil); errors.As(err, &re) {
			return cfg, err, nil
		}
	}
	if !roundsGiven {
		first, _ := in.Span()
		cfg.Rounds = min(model.MaxRounds, first+cost.SettleRounds(cfg))
	}
	if f, ok := in.Beyond(cfg.Nodes); ok {
		return cfg, nil, flagerr.Errorf([]string{"nodes"}, "%s: line %d: node %d, but the run has %d nodes (--nodes)", name, f.Line, f.Node, cfg.Nodes)
	}
	if _, last := in.Span(); last > cfg.Rounds {
		return cfg, nil, flagerr.Errorf([]string{"rounds"}, "%s: the incident ends %s, after the run's %s (--rounds)", name, EndsAt(t, last), t.FormatValue(model.Rounds, cfg.Rounds))
	}
	return cfg, nil, cfg.Validate()
}

// Budget is the work of a replay's spreads so far, bounded by MaxRuns,
// MaxRunRounds and MaxRunNodes, so that its time and memory are known
// before it runs.
type Budget struct{ runs, rounds, nodes int }

// Add counts the spread s of the setting name, run as c, refusing it,
// with what to give instead, past a bound or past the model's rounds.
func (b *Budget) Add(name string, c model.Config, s Sample) error {
	if b.runs += s.Count(); b.runs > MaxRuns {
		return flagerr.Errorf([]string{"retry-period", "renewal", "preset", "lease", "phase"}, "the spread of %s over its incident's phases (lcm(--retry-period, --renewal)) and jitter seeds, and of the settings before it, is more than %d runs: compare fewer settings (--preset, --lease), or pin one run with --phase", name, MaxRuns)
	}
	if last := c.Rounds + s.Phase + s.Phases - 1; last > model.MaxRounds {
		return flagerr.Errorf([]string{"rounds", "phase"}, "%s: moved %d rounds later, the run lasts %d rounds, more than the model's %d (--rounds, --phase)", name, s.Phase+s.Phases-1, last, model.MaxRounds)
	}
	if b.rounds += s.Count() * (c.Rounds + s.Phase + s.Phases); b.rounds > MaxRunRounds { // each factor bounded: no overflow
		return flagerr.Errorf([]string{"rounds", "preset", "lease", "phase"}, "the runs of %s's spread, and of the settings before it, are more than %d rounds together: give fewer --rounds, compare fewer settings (--preset, --lease), or pin one run with --phase", name, MaxRunRounds)
	}
	if b.nodes += s.Count() * c.Nodes; b.nodes > MaxRunNodes {
		return flagerr.Errorf([]string{"nodes", "preset", "lease", "phase"}, "the runs of %s's spread, and of the settings before it, have more than %d nodes together: give fewer --nodes, compare fewer settings (--preset, --lease), or pin one run with --phase", name, MaxRunNodes)
	}
	return nil
}
