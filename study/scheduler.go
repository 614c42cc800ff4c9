package study

import (
	"time"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/settings"
)

// SchedulerValues is what the scheduler sched sets (--scheduler), in
// rounds of tick: the persistent trigger on, its catch-up policy and
// window, the idempotency key, the overlap policy and where a batch runs.
// A window longer than the longest run is no limit, which is what it is
// to every run; one that is not a whole number of ticks, or any window
// without a tick, is refused.
func SchedulerValues(sched settings.Scheduler, tick model.Tick) (map[model.Param]int, error) {
	window := 0
	if w := sched.CatchUpWindow; w > 0 {
		if tick == 0 {
			return nil, flagerr.Errorf([]string{"scheduler", "tick"}, "--scheduler %s sets a catch-up window of %s, which needs --tick to be counted in rounds", sched.Name, w)
		}
		if w%time.Duration(tick) != 0 {
			return nil, flagerr.Errorf([]string{"scheduler", "tick"}, "--scheduler %s sets a catch-up window of %s, which is not a whole number of --tick %s", sched.Name, w, tick)
		}
		if n := w / time.Duration(tick); n <= model.MaxRounds {
			window = int(n)
		}
	}
	overlap, err := parse.Value(0, model.Overlap, sched.Overlap)
	if err != nil {
		return nil, flagerr.Errorf([]string{"scheduler"}, "--scheduler %s: overlap %q: %v", sched.Name, sched.Overlap, err)
	}
	runsIn, err := parse.Value(0, model.RunsIn, sched.RunsIn)
	if err != nil {
		return nil, flagerr.Errorf([]string{"scheduler"}, "--scheduler %s: runs_in %q: %v", sched.Name, sched.RunsIn, err)
	}
	return map[model.Param]int{model.PersistentTrigger: 1, model.CatchUpOnce: b2i(sched.CatchUpOnce), model.CatchUpWindow: window,
		model.IdempotencyKey: b2i(sched.IdempotencyKey), model.Overlap: overlap, model.RunsIn: runsIn}, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
