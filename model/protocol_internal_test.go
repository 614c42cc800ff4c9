package model

import "testing"

// TestProtocolTableStatesClaims: every row of protocolTable has a name and
// states what it promises of two leaders, so that a protocol added to the
// table is held to a claim by CheckInvariants rather than left out of it.
func TestProtocolTableStatesClaims(t *testing.T) {
	for p, row := range protocolTable() {
		if row.name == "" || row.twoLeaders == claimUnstated {
			t.Errorf("protocol %d: name %q, two-leader claim %d: every lock protocol names itself and states its claim", p, row.name, row.twoLeaders)
		}
		if err := row.twoLeaders.check(&Config{}, failing{}, Stats{}); err != nil {
			t.Errorf("protocol %s: %v: CheckInvariants must check every claim a row states", row.name, err)
		}
		if row.twoLeaders == claimDisconnectDelay && row.giveUp != giveUpAtDisconnect {
			t.Errorf("protocol %s: bounded by the disconnect delay, but it gives up otherwise than at a disconnect", row.name)
		}
	}
}

// TestUncheckedClaimFails: a claim CheckInvariants has no case for fails
// every run, so a protocol whose row states one cannot pass check.
func TestUncheckedClaimFails(t *testing.T) {
	if err := claimUnstated.check(&Config{}, failing{}, Stats{}); err == nil {
		t.Error("a claim with no case passed; want an error")
	}
}

// TestPerFireClaimChecked: claimPerFire refuses a double run or a
// two-leader round where no node fails, the batch fits the lease and the
// run holds the lock past the slot's last fire, and lets them be where a
// node fails, the batch outlasts the lease or the fires outlast the hold.
func TestPerFireClaimChecked(t *testing.T) {
	calm, fails := failing{none: true}, failing{}
	for _, tt := range []struct {
		name                          string
		batch, lease, atLeast, spread int
		f                             failing
		st                            Stats
		bad                           bool
	}{
		{"a double run held past the fires", 2, 4, 0, 1, calm, Stats{DoubleStarts: 1}, true},
		{"lock_at_least_for covers the spread", 1, 4, 3, 2, calm, Stats{DoubleStarts: 1}, true},
		{"a two-leader round within the lease", 2, 4, 0, 3, calm, Stats{TwoLeaderRounds: 1}, true},
		{"the fires outlast the hold", 1, 4, 0, 2, calm, Stats{DoubleStarts: 1}, false},
		{"the batch outlasts the lease", 5, 4, 0, 1, calm, Stats{DoubleStarts: 1, TwoLeaderRounds: 1}, false},
		{"a node fails", 2, 4, 0, 1, fails, Stats{DoubleStarts: 1, TwoLeaderRounds: 1}, false},
		{"none", 2, 4, 0, 1, calm, Stats{}, false},
	} {
		c := Config{Policy: Policy{Protocol: ProtocolShedLock, BatchLen: tt.batch, Lease: tt.lease, LockAtLeastFor: tt.atLeast, FireSpread: tt.spread}}
		if err := claimPerFire.check(&c, tt.f, tt.st); (err != nil) != tt.bad {
			t.Errorf("%s: %v; want an error %t", tt.name, err, tt.bad)
		}
	}
}
