package montecarlo

import (
	"slices"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// OneValueParams are the parameters a study takes one value of, the
// same for every configuration: the rounds of each replica, and the lock
// (its protocol and times), one a study, as a preset sets it.
func OneValueParams() []model.Param {
	return []model.Param{model.Rounds, model.Protocol, model.LockDelay, model.AcquireWait, model.DisconnectDelay}
}

// ListParams are the parameters a study varies as lists: Params but those
// of OneValueParams.
func ListParams() []model.Param {
	return slices.DeleteFunc(Params(), func(p model.Param) bool { return slices.Contains(OneValueParams(), p) })
}

// SetOne sets the grid's one-value parameters (OneValueParams) to c's.
func (mc *MonteCarlo) SetOne(c model.Config) {
	for _, p := range OneValueParams() {
		mc.Grid.Values[p] = sweep.ListOf(c.Get(p))
	}
}
