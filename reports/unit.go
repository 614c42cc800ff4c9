package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
)

// unit writes the times of a report for its reader: in rounds without a
// tick, in durations and seconds with one, so that a report in real
// settings never says "rounds" of a time.
type unit struct{ t model.Tick }

// span is n rounds as a length: "5 rounds", or "5s".
func (u unit) span(n int) string { return u.t.DurationOf(n) }

// count is n rounds as a table cell: "5", or "5s".
func (u unit) count(n int) string { return u.t.Count(n) }

// at is when round r begins, counted from the run's start: "round 6",
// or "5s" (round r spans (r-1)·tick to r·tick).
func (u unit) at(r int) string {
	if u.t == 0 {
		return fmt.Sprintf("round %d", r)
	}
	return u.t.DurationOf(r - 1)
}

// due is when a batch of round r falls due or starts: the trigger is a
// round's last step (docs/model.md), so at its end, r·tick from the run's
// start, or "round 6". A batch falls due at its slot, k·period, as its
// trigger round ends: a nightly batch at 24h, not a tick before. A
// takeover comes before a round's count of believers, so it is at the
// round's start (at).
func (u unit) due(r int) string {
	if u.t == 0 {
		return fmt.Sprintf("round %d", r)
	}
	return u.t.DurationOf(r)
}

// during is the time rounds first … last cover: "rounds 6-10", or
// "5s-10s".
func (u unit) during(first, last int) string {
	switch {
	case u.t != 0:
		return u.t.DurationOf(first-1) + "-" + u.t.DurationOf(last)
	case first == last:
		return fmt.Sprintf("round %d", first)
	}
	return fmt.Sprintf("rounds %d-%d", first, last)
}

// value is x rounds on an axis: rounds, or seconds.
func (u unit) value(x float64) float64 {
	if u.t == 0 {
		return x
	}
	return u.t.Seconds(x)
}

// axis labels an axis of times: "lease (rounds)", or "lease (s)".
func (u unit) axis(what string) string {
	if u.t == 0 {
		return what + " (rounds)"
	}
	return what + " (s)"
}

// stat is the label of statistic s, given as in rounds ("leaderless
// rounds"); with a tick a time statistic's label says seconds
// ("leaderless time (s)"). The publication's "handover rounds" are the
// rounds from the leader's last renewal to the takeover, summed over the
// run's handovers: in seconds, "renewal to takeover (s)".
func (u unit) stat(s model.Stat, label string) string {
	switch {
	case u.t == 0 || !s.Time():
		return label
	case s == model.HandoverRounds:
		return "renewal to takeover (s)"
	}
	return strings.TrimSuffix(label, " rounds") + " time (s)"
}

// list writes rounds as ranges: "6-7, 11-12", or with a tick the times
// they cover, "5s-7s, 10s-12s"; "none" when empty.
func (u unit) list(rounds []int) string {
	if len(rounds) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(rounds); {
		j := i
		for j+1 < len(rounds) && rounds[j+1] == rounds[j]+1 {
			j++
		}
		switch {
		case u.t != 0:
			parts = append(parts, u.during(rounds[i], rounds[j]))
		case j == i:
			parts = append(parts, strconv.Itoa(rounds[i]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", rounds[i], rounds[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// twoLeader is n two-leader rounds in words: "2 two-leader rounds", or
// "2s of two leaders".
func (u unit) twoLeader(n int) string {
	if u.t == 0 {
		return plural(n, "two-leader round", "two-leader rounds")
	}
	return u.span(n) + " of two leaders"
}

// time is n rounds as a table cell of a table in seconds (with a tick) or
// rounds: "5".
func (u unit) time(n int) string { return string(u.t.AppendStat(nil, model.LeaderlessRounds, n)) }
