package montecarlo

import (
	"errors"
	"fmt"
	"github.com/leasesim/leasesim/internal/flagerr"

	"github.com/leasesim/leasesim/model"
)

// MaxPeriods bounds a study's expected up and down periods (Periods): at
// about 50 ns a period, 10^11 is more than an hour on two cores.
const MaxPeriods = 1e11

// CheckWork refuses a study that would draw more than MaxPeriods up and
// down periods (Periods), naming the flags that make it smaller.
func (mc *MonteCarlo) CheckWork() error {
	if periods := mc.Periods(); periods > MaxPeriods {
		return flagerr.Errorf([]string{"replicas", "rounds", "nodes", "uptime"}, "the study would draw about %.2g up and down periods, more than %.0g (hours of work): fewer configurations, --replicas, --rounds or --nodes, or longer --uptime", periods, float64(MaxPeriods))
	}
	return nil
}

// CheckOptions refuses options of mc that do not go together, naming
// their flags; given reports whether a flag was given: a replica cap below
// the replicas run at a time, a cap or a floor without a precision, and a
// phase average without yearly figures or under the persistent trigger,
// and a further process of kind skew that a configuration of the study
// cannot hold (model.Config.ValidateSchedule: a protocol that reads no
// node's clock against another's, a skew of a period or more).
func (mc *MonteCarlo) CheckOptions(given func(flag string) bool) error {
	for _, p := range mc.Also {
		if p.Failure.Kind.Behaviour().Does&model.Skews == 0 {
			continue
		}
		for protocol := range mc.Grid.Values[model.Protocol].All() {
			for period := range mc.Grid.Values[model.Period].All() {
				c := model.Default()
				c.Protocol, c.Period = model.LockProtocol(protocol), period
				if err := c.ValidateSchedule(&model.Alternating{Also: []model.Process{p}}); err != nil {
					return fmt.Errorf("--also %s=…: %v", p.Failure, err)
				}
			}
		}
	}
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
