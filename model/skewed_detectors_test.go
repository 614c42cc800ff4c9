package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
)

// TestSkewedDetectorsAllocateNothing: under quartz and db-scheduler a
// schedule of clock skews (stepped, passed over or indexed) beside
// crashes allocates nothing once the Runner has grown.
func TestSkewedDetectorsAllocateNothing(t *testing.T) {
	for _, p := range []model.LockProtocol{model.ProtocolQuartz, model.ProtocolDBScheduler} {
		for _, n := range []int{4, 1000} {
			var ws model.Windows
			for i := range n {
				f := model.Failure{Kind: model.Skewed, Value: 6 - 4*(i%4)} // 6, 2, -2, -6: over and within the margin of 4
				if i%3 == 2 {
					f = model.Failure{Kind: model.Crashed}
				}
				ws = append(ws, model.Window{Node: i % 3, First: 1 + 8*i, Last: 6 + 8*i, Failure: f})
			}
			c := model.Default()
			c.Protocol, c.Lease, c.RetryPeriod, c.RenewDeadline, c.RereadPeriod = p, 6, 2, 0, 0
			c.Period, c.BatchLen, c.OnCut, c.Rounds = 5, 3, model.CutRerun, 8*n
			var s model.Schedule = ws
			var r model.Runner
			st, err := r.RunSchedule(c, s)
			if err != nil {
				t.Fatal(err)
			}
			if st.Handovers == 0 {
				t.Fatalf("protocol %d, %d windows: no handover, want the skews over the margin to move the lock", p, n)
			}
			if a := testing.AllocsPerRun(10, func() { r.RunSchedule(c, s) }); a != 0 {
				t.Errorf("protocol %d, %d windows: a run allocates %v times, want 0", p, n, a)
			}
		}
	}
}
