package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestReferenceSkewedDetectors compares the Runner with the reference
// under quartz and db-scheduler where clocks are skewed (failure kind
// skew): one node's clock ahead or behind by around the margin, lease −
// retry_period, from the start or stepped during the run, alone or beside
// an outage of node 0 of another kind; each case also keeps the
// invariants (Runner.Check: stretch by stretch against round by round,
// and every other overlap and cut policy).
func TestReferenceSkewedDetectors(t *testing.T) {
	protocols := []model.LockProtocol{model.ProtocolQuartz, model.ProtocolDBScheduler}
	timings := [][2]int{{5, 2}, {7, 3}, {9, 3}} // lease, retry period
	offsets := []int{-1, 0, 1, 3}               // the skew past the margin: -1 and 0 within it
	firsts, lasts := []int{1, 5}, []int{13, 30}
	others := []model.Kind{model.AsConfigured, model.Crashed, model.Partitioned, model.Paused} // AsConfigured: no other window
	var r model.Runner
	n := compareOn(t, []int{2, len(timings), 2, 3, len(offsets), 2, len(firsts), len(lasts), len(others), 2, 2}, 1, func(ix []int) (refCase, bool) {
		lease, retry := timings[ix[1]][0], timings[ix[1]][1]
		skew := lease - retry + offsets[ix[4]]
		if ix[5] == 1 {
			skew = -skew
		}
		c := model.Default()
		c.Nodes, c.Lease, c.RetryPeriod, c.RenewDeadline, c.RereadPeriod, c.Protocol = 2+ix[2], lease, retry, 0, 0, protocols[ix[0]]
		c.Period, c.BatchLen, c.OnCut, c.Rounds, c.Outage = 4, 1+2*ix[9], model.CutPolicy(ix[10]), 30, 0
		if ix[3] >= c.Nodes {
			return refCase{}, false
		}
		ws := model.Windows{{Node: ix[3], First: firsts[ix[6]], Last: lasts[ix[7]], Failure: model.Failure{Kind: model.Skewed, Value: skew}}}
		if k := others[ix[8]]; k != model.AsConfigured {
			if ix[3] == 0 {
				return refCase{}, false // one window a node
			}
			ws = append(ws, model.Window{Node: 0, First: 6, Last: 15, Failure: model.Failure{Kind: k}})
		}
		if c.Validate() == nil {
			if err := r.Check(c, ws); err != nil {
				t.Errorf("%+v, windows %v: %v", c, ws, err)
			}
		}
		return refCase{c, ws, ws}, true
	})
	t.Logf("%d configurations", n)
}
