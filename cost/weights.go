package cost

import (
	"github.com/leasesim/leasesim/internal/flagerr"

	"github.com/leasesim/leasesim/model"
)

// MaxRankedLeases bounds the leases a ranking takes (recommend's --lease,
// a review's --candidates): each costs a run of the phase method per
// outage of the mix.
const MaxRankedLeases = 100_000

// PriceDelay sets w's price of a round a batch waits from hour, the price
// of an hour's wait (--cost-delay-hour), in rounds of t: a round has no
// length in hours without a tick, which is refused unless hour is 0.
func (w *Weights) PriceDelay(hour float64, t model.Tick) error {
	if hour == 0 {
		return nil
	}
	if t == 0 {
		return flagerr.New([]string{"cost-delay-hour", "tick"}, "--cost-delay-hour needs --tick: a round has no length in hours")
	}
	w.DelayedRound = hour * t.Seconds(1) / 3600
	return nil
}
