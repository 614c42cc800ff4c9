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
