package model_test

import (
	"fmt"

	"github.com/leasesim/leasesim/model"
)

// The publication's scenario: the leader is unreachable in rounds 6-10. One batch
// is missed, one starts twice.
func ExampleRun() {
	st, err := model.Run(model.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("started %d, missed %d, started twice %d\n", st.Started, st.Missed, st.DoubleStarts)
	fmt.Printf("leaderless rounds %d, two-leader rounds %d, handover after %d rounds\n",
		st.LeaderlessRounds, st.TwoLeaderRounds, st.HandoverRounds)
	// Output:
	// started 3, missed 1, started twice 1
	// leaderless rounds 2, two-leader rounds 2, handover after 3 rounds
}

// Fencing and the persistent trigger: nothing missed, nothing started twice,
// at the price of a delay; the two-leader rounds stay, as fencing corrects
// effect, not belief.
func ExampleRunner_Run() {
	c := model.Default()
	c.Fencing, c.PersistentTrigger = true, true
	var r model.Runner // reuse it: a run then allocates nothing
	st, _ := r.Run(c)
	fmt.Printf("missed %d, started twice %d, delayed %d rounds, refused %d, two-leader rounds %d\n",
		st.Missed, st.DoubleStarts, st.DelayedRounds, st.Rejected, st.TwoLeaderRounds)
	// Output:
	// missed 0, started twice 0, delayed 2 rounds, refused 2, two-leader rounds 2
}

// A hand-written failure schedule: node 0 is down in rounds 6-12 and node
// 1, which took over, in rounds 9-12; both come back believing they lead.
func ExampleRunner_RunSchedule() {
	c := model.Default()
	c.Nodes, c.PersistentTrigger = 2, true
	var r model.Runner
	st, _ := r.RunSchedule(c, model.Windows{{Node: 0, First: 6, Last: 12}, {Node: 1, First: 9, Last: 12}})
	fmt.Printf("started %d, started twice %d, delayed %d rounds\n", st.Started, st.DoubleStarts, st.DelayedRounds)
	// Output:
	// started 4, started twice 1, delayed 3 rounds
}
