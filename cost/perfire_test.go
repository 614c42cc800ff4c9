package cost_test

import (
	"context"
	"math"
	"testing"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// shedLockConfig is ShedLock on 2 nodes a round apart, lockAtMostFor 20
// rounds and lockAtLeastFor 5 over a task of 10, hourly at 2 s rounds.
func shedLockConfig(t *testing.T) model.Config {
	t.Helper()
	c := model.Default()
	c.Protocol, c.Nodes, c.Lease, c.RetryPeriod, c.RereadPeriod, c.RenewDeadline = model.ProtocolShedLock, 2, 20, 20, 0, 0
	c.LockAtLeastFor, c.FireSpread, c.BatchLen, c.Period, c.Rounds = 5, 1, 10, 1800, 4*1800
	c.Fencing, c.PersistentTrigger, c.Outage, c.Start = false, false, 30, 1810
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCandidateLockAtLeastFor: a candidate carries ShedLock's
// lockAtLeastFor, read from a configuration and set on one, and two
// candidates differing in it alone are two, ordered by it.
func TestCandidateLockAtLeastFor(t *testing.T) {
	c := shedLockConfig(t)
	k := cost.CandidateOf(c)
	if k.LockAtLeastFor != 5 {
		t.Fatalf("CandidateOf: lockAtLeastFor %d, want 5", k.LockAtLeastFor)
	}
	o := k
	o.LockAtLeastFor = 0
	if got := o.Apply(c).LockAtLeastFor; got != 0 {
		t.Errorf("Apply: lockAtLeastFor %d, want 0", got)
	}
	if cost.Compare(o, k) >= 0 || o == k {
		t.Errorf("Compare(%+v, %+v) = %d, want them two, lockAtLeastFor 0 first", o, k, cost.Compare(o, k))
	}
}

// TestMixEntryLosses: a one-node crash's losses over the phases are its
// two ways to meet the configuration (the first node to fire, the other),
// each with its share, so their shares sum to 1 and their mean is the
// effect's (Effect), as SpreadOf draws from them.
func TestMixEntryLosses(t *testing.T) {
	c := shedLockConfig(t)
	e := cost.MixEntry{Outage: 30, Weight: 1, Kind: model.Crashed, Scope: cost.ScopeOneNode}
	losses, err := e.Losses(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	in, err := e.Effect(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	share, missed := 0.0, 0.0
	for _, l := range losses {
		share += l.Share
		missed += l.Share * l.Missed
	}
	if math.Abs(share-1) > 1e-9 {
		t.Errorf("the losses' shares sum to %v, want 1", share)
	}
	if want := in.PerEvent().Missed; math.Abs(missed-want) > 1e-9 || want == 0 {
		t.Errorf("the losses' mean missed batches %v, the effect's %v: want them equal, and above 0", missed, want)
	}
}
