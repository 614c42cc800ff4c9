package reports

import (
	"fmt"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// IdleFailoverWarning is the warning for c's lock service failing over
// where it can change nothing (cost.FailoverIdle), so that a figure it
// does not move is not read as its price; "" if it changes something.
// Times are in the unit of t.
func IdleFailoverWarning(c model.Config, t model.Tick) string {
	if !cost.FailoverIdle(c) {
		return ""
	}
	where := "no node fails"
	if quiet := c; c.Outage > 0 && c.Down > 0 {
		quiet.ServiceFailover = 0
		where = fmt.Sprintf("the outage starts at %s and has settled by %s", t.FormatValue(model.Start, c.Start), t.FormatValue(model.Start, c.Start+cost.SettleRounds(quiet)))
	}
	return fmt.Sprintf("the lock service fails over at %s, where every lease is renewed on time (%s): it changes nothing; give a failover within the outage or just before it",
		t.FormatValue(model.ServiceFailover, c.ServiceFailover), where)
}
