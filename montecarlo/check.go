package montecarlo

import (
	"errors"
	"fmt"

	"github.com/leasesim/leasesim/model"
)

// CheckOptions refuses options of mc that do not go together, naming
// their flags; given reports whether a flag was given: a replica cap below
// the replicas run at a time, a cap or a floor without a precision, and a
// phase average without yearly figures or under the persistent trigger.
func (mc *MonteCarlo) CheckOptions(given func(flag string) bool) error {
	if mc.Precision > 0 && mc.MaxReplicas < mc.Replicas {
		return fmt.Errorf("--max-replicas %d is fewer than --replicas %d, the replicas run at a time", mc.MaxReplicas, mc.Replicas)
	}
	if mc.Precision == 0 && (given("max-replicas") || given("precision-floor")) {
		return errors.New("--max-replicas and --precision-floor go only with --precision")
	}
	if mc.PhaseAverage {
		if mc.RoundsPerYear == 0 {
			return errors.New("--phase-average needs yearly figures: --rounds-per-year or --tick")
		}
		if mc.Queues() {
			return errors.New("--phase-average needs --persistent-trigger false: a queued batch depends on the triggers before it, so triggers at other phases would not lose alike")
		}
	}
	return nil
}

// CheckZones refuses a further process (Also) whose zone names a node no
// configuration of the study has.
func (mc *MonteCarlo) CheckZones() error {
	most := 0
	for n := range mc.Grid.Values[model.Nodes].All() {
		most = max(most, n)
	}
	for _, p := range mc.Also {
		for _, n := range p.Zone {
			if n >= most {
				return fmt.Errorf("--also %s@…: node %d, but no configuration of the study has more than %d nodes (0 to %d)", p.Failure, n, most, most-1)
			}
		}
	}
	return nil
}
