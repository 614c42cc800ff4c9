package model

// Stat names one statistic of a run. Stats are numbered in the order of the
// statistic columns of every CSV and JSON output.
type Stat int

// The statistics of a run, in column order.
const (
	Started Stat = iota
	Missed
	Unresolved
	DelayedRounds
	LateBatches
	LateRounds
	DoubleStarts
	Deduplicated
	Skipped
	PartialBatches
	MissedParts
	DoubledParts
	Rejected
	TwoLeaderRounds
	LeaderlessRounds
	HandoverRounds
	Handovers
	NumStats int = iota
)

// Name is the statistic's snake_case name, as in CSV headers and JSON keys.
func (s Stat) Name() string {
	switch s {
	case Started:
		return "started"
	case Missed:
		return "missed"
	case Unresolved:
		return "unresolved"
	case DelayedRounds:
		return "delayed_rounds"
	case LateBatches:
		return "late_batches"
	case LateRounds:
		return "late_rounds"
	case DoubleStarts:
		return "double_starts"
	case Deduplicated:
		return "deduplicated"
	case Skipped:
		return "skipped"
	case PartialBatches:
		return "partial_batches"
	case MissedParts:
		return "missed_parts"
	case DoubledParts:
		return "doubled_parts"
	case Rejected:
		return "rejected"
	case TwoLeaderRounds:
		return "two_leader_rounds"
	case LeaderlessRounds:
		return "leaderless_rounds"
	case HandoverRounds:
		return "handover_rounds"
	case Handovers:
		return "handovers"
	}
	panic("model: unknown statistic")
}

// Time reports whether s counts rounds (a length of time) rather than
// batches or events.
func (s Stat) Time() bool {
	switch s {
	case DelayedRounds, LateRounds, TwoLeaderRounds, LeaderlessRounds, HandoverRounds:
		return true
	}
	return false
}

// Stats counts what happened in one run.
type Stats struct {
	Started          int // batches started, on time or from the queue
	Missed           int // triggers no node accepted, without a persistent trigger
	Unresolved       int // batches still queued after the last round
	DelayedRounds    int // rounds queued batches waited, summed over batches
	LateBatches      int // started batches whose last part was first written after the round it was due in, its start + BatchLen − 1 (a pause, a rerun or a resume delayed it)
	LateRounds       int // rounds from when each late batch's last part was due to when it was first written, summed
	DoubleStarts     int // extra starts of a batch by a second accepted node
	Deduplicated     int // extra starts the store refused by the slot's idempotency key
	Skipped          int // slots missed because an earlier run still ran (Overlap), counted in Missed too
	PartialBatches   int // started batches some part of which no run wrote (BatchLen)
	MissedParts      int // parts of started batches that no run wrote: a part is a batch's lines of one round of its length
	DoubledParts     int // parts written by more than one run of their batch, once for each run past the first
	Rejected         int // node-rounds of work refused for a stale fencing token
	TwoLeaderRounds  int // rounds with more than one reachable believer
	LeaderlessRounds int // rounds with no reachable believer
	HandoverRounds   int // rounds from the last renewal to each handover, summed
	Handovers        int // times a standby took over the lease

	// The episodes of the leaderless and of the two-leader rounds: how
	// their rounds fall into maximal runs of consecutive rounds.
	LeaderlessEpisodes, TwoLeaderEpisodes Episodes
}

// Episodes describes how a count of rounds falls into episodes, maximal
// runs of consecutive rounds each of which it counts: how many episodes,
// how many of them lasted more than one round, and the sum over episodes
// of the square of their rounds past the first. With the count itself
// (the sum of the episodes' lengths) they give how many episodes a run
// meets and the mean and spread of their lengths, which is what a Monte
// Carlo interval of a rare count needs (montecarlo.EpisodeTally).
type Episodes struct {
	Count   int // the episodes
	Long    int // the episodes of more than one round
	ExtraSq int // Σ (length − 1)², at most MaxRounds²
}

// episode is the latest episode of a count of rounds: its last round
// and its rounds past its first.
type episode struct{ last, extra int }

// count counts the n rounds t … t+n−1 into e's episodes: they continue
// the latest one if it ended in round t−1, else they begin a new one,
// of −1 rounds past its first so far, whose square counts as 1.
func (ep *episode) count(e *Episodes, t, n int) {
	if t != ep.last+1 || e.Count == 0 {
		e.Count++
		e.ExtraSq++
		ep.extra = -1
	}
	e.Long += b2i(ep.extra <= 0 && ep.extra+n > 0)
	e.ExtraSq += n * (2*ep.extra + n) // (extra + n)² − extra²
	ep.extra += n
	ep.last = t + n - 1
}

// Get returns statistic s.
func (st *Stats) Get(s Stat) int { return st.Values()[s] }

// Values returns every statistic, in column order.
func (st *Stats) Values() [NumStats]int {
	return [NumStats]int{st.Started, st.Missed, st.Unresolved, st.DelayedRounds, st.LateBatches, st.LateRounds, st.DoubleStarts, st.Deduplicated, st.Skipped,
		st.PartialBatches, st.MissedParts, st.DoubledParts, st.Rejected, st.TwoLeaderRounds, st.LeaderlessRounds, st.HandoverRounds, st.Handovers}
}
