package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
)

// FuzzRun: any configuration, valid or not, gives an error or a run that
// passes every check; nothing panics.
func FuzzRun(f *testing.F) {
	f.Add(5, 3, 3, 5, 6, 24, 6, uint8(0), 1, 1, 0)
	f.Add(1, 1, 1, 0, 1, 1, 1, uint8(7), 0, 1, 0)
	f.Add(0, -1, 0, -1, 0, 0, 0, uint8(0), -1, 0, -1)
	f.Add(4, 2, 5, 30, 2, 60, 1, uint8(5), 2, 1, 0)
	f.Add(1_000_001, 1, 1, 1, 1, 1_000_000_001, 1, uint8(1), 1, 1, 0)
	f.Add(3, 15, 0, 40, 30, 200, 60, uint8(3), 1, 2, 10) // client-go's defaults in seconds
	f.Add(3, 11, 2, 13, 7, 100, 5, uint8(0), 1, 2, 10)   // a lease short of retry + deadline
	f.Fuzz(func(t *testing.T, nodes, lease, reread, outage, start, rounds, period int, toggles uint8, down, retry, deadline int) {
		c := model.Config{
			Policy:   model.Policy{BatchLen: 1, Nodes: nodes, Lease: lease, RereadPeriod: reread, RetryPeriod: retry, RenewDeadline: deadline, Period: period, Fencing: toggles&1 != 0, PersistentTrigger: toggles&2 != 0, Quorum: toggles&4 != 0},
			Scenario: model.Scenario{Outage: outage, Start: start, Rounds: min(rounds, 5000), Down: down},
		}
		c.Nodes = min(c.Nodes, 5000)
		var r model.Runner
		if c.Validate() != nil {
			if _, err := r.Run(c); err == nil {
				t.Fatalf("%+v: invalid, yet Run gave no error", c)
			}
			return
		}
		if err := r.Check(c, c.Schedule()); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	})
}
