package reports

import (
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/study"
)

// TestBatchName: a batch is named by its period, as a team says it; the
// publication's round model keeps its end-of-day batch.
func TestBatchName(t *testing.T) {
	sec := model.Tick(time.Second)
	for _, tt := range []struct {
		tick   model.Tick
		period int
		want   string
	}{
		{0, 6, "end-of-day batch"},
		{sec, 3600, "hourly batch"},
		{sec, 86400, "nightly batch"},
		{sec, 900, "15-minute batch"},
		{sec, 7 * 86400, "weekly batch"},
		{sec, 6 * 3600, "6-hourly batch"},
		{sec, 90, "batch every 1m30s"},
	} {
		c := model.Default()
		c.Period = tt.period
		if got := batchName(tt.tick, c); got != tt.want {
			t.Errorf("period %d at %v: %q, want %q", tt.period, tt.tick, got, tt.want)
		}
	}
}

// TestFailingKind: the group outage is named by its kind.
func TestFailingKind(t *testing.T) {
	sec := model.Tick(time.Second)
	for _, tt := range []struct {
		tick model.Tick
		set  func(c *model.Config)
		want string
	}{
		{0, func(*model.Config) {}, "unreachable"},
		{sec, func(*model.Config) {}, "isolated"},
		{sec, func(c *model.Config) { c.Pause = true }, "paused"},
		{sec, func(c *model.Config) { c.Partition = true }, "partitioned"},
		{sec, func(c *model.Config) { c.Crash = true }, "crashed"},
		{sec, func(c *model.Config) { c.BlackHole = true }, "black-holed"},
	} {
		c := model.Default()
		tt.set(&c)
		if got := failingKind(tt.tick, c); got != tt.want {
			t.Errorf("%+v: %q, want %q", c, got, tt.want)
		}
	}
}

// TestTimelineKind: the timeline's legend names a failed node by the
// group outage's kind, or by an incident's kinds, each once in the order
// they come (a failure as configured by the configuration's kind), never
// the publication's "unreachable" for an incident of kinds of its own;
// beside the belief, several kinds are "failed".
func TestTimelineKind(t *testing.T) {
	sec := model.Tick(time.Second)
	paused := model.Default()
	paused.Pause = true
	for _, tt := range []struct {
		c        model.Config
		incident model.Windows
		want     string
		beside   string
	}{
		{paused, nil, "paused", "paused"},
		{model.Default(), model.Windows{
			{Node: 0, First: 120, Last: 159, Failure: model.Failure{Kind: model.Partitioned}},
			{Node: 1, First: 130, Last: 149, Failure: model.Failure{Kind: model.Crashed}},
			{Node: 2, First: 125, Last: 154, Failure: model.Failure{Kind: model.Paused}},
			{Node: 2, First: 200, Last: 210, Failure: model.Failure{Kind: model.Partitioned}},
		}, "partitioned, crashed or paused", "failed"},
		{paused, model.Windows{{Node: 0, First: 10, Last: 20}, {Node: 1, First: 10, Last: 20, Failure: model.Failure{Kind: model.Released}}}, "paused or stopped cleanly", "failed"},
		{model.Default(), model.Windows{{Node: 0, First: 10, Last: 20, Failure: model.Failure{Kind: model.Crashed}}}, "crashed", "crashed"},
	} {
		rv := review{&study.Review{Base: tt.c, ReviewOptions: study.ReviewOptions{Tick: sec, Incident: tt.incident}}}
		if got, beside := rv.timelineKind(); got != tt.want || beside != tt.beside {
			t.Errorf("incident %v: %q, beside the belief %q; want %q, %q", tt.incident, got, beside, tt.want, tt.beside)
		}
	}
}

// TestMixKinds: a failure mix of two kinds says in one line which the
// single runs meet, that of its most common event, with the kinds'
// shares of events, and which they do not; a mix of one kind, over
// several lengths, says nothing.
func TestMixKinds(t *testing.T) {
	partition := func(outage int, w float64) cost.MixEntry {
		return cost.MixEntry{Outage: outage, Weight: w, Kind: model.Partitioned, Scope: cost.ScopeLeader}
	}
	pause := cost.MixEntry{Outage: 20, Weight: 1.0 / 3, Kind: model.Paused, Scope: cost.ScopeOneNode}
	for _, tt := range []struct {
		mix  []cost.MixEntry
		want string
	}{
		{[]cost.MixEntry{partition(30, 0.8*2/3), partition(300, 0.2*2/3), pause},
			"one of the mix's 2 kinds of failure, that of its most common event: the leader partitioned (67% of events); not one node paused (33%), which the candidates and the cost summary weigh"},
		{[]cost.MixEntry{partition(30, 0.8), partition(300, 0.2)}, ""},
	} {
		rv := review{&study.Review{ReviewOptions: study.ReviewOptions{Mix: tt.mix, Failures: []cost.FailureEntry{{}}}}}
		if got := rv.mixKinds(); got != tt.want {
			t.Errorf("mix %v: %q, want %q", tt.mix, got, tt.want)
		}
	}
}

// TestQuietYears: the first screen's share of years that neither miss nor
// double an invoice line claims no more than it is: all or none only when
// it is exactly so, never a share rounded to 100% or 0%.
func TestQuietYears(t *testing.T) {
	for _, tt := range []struct {
		quiet float64
		want  string
	}{
		{1, "none of those years misses or doubles an invoice line"},
		{0, "every one of those years misses or doubles some invoice lines"},
		{0.9999, "over 99.9% of those years neither miss nor double an invoice line"},
		{0.0004, "under 0.1% of those years neither miss nor double an invoice line"},
		{0.268, "26.8% of those years neither miss nor double an invoice line"},
	} {
		if got := quietYears(tt.quiet); got != tt.want {
			t.Errorf("quiet %v: %q, want %q", tt.quiet, got, tt.want)
		}
	}
}

// TestWidest: the verdict says the rule chose by margin only where the
// candidates that cost about the least leave different margins; where
// every one leaves the same (DynamoDB's 0 s, fenced), by takeover.
func TestWidest(t *testing.T) {
	rank := func(margin, crash float64) cost.Rank {
		return cost.Rank{Safety: cost.Safety{Known: true, Margin: cost.Span{Min: margin}, Crash: cost.Span{Median: crash}}}
	}
	for _, tt := range []struct {
		near []cost.Rank
		want string
	}{
		{[]cost.Rank{rank(18, 63), rank(3, 18)}, "it has the widest two-leader margin, then the fastest takeover after a crash"},
		{[]cost.Rank{rank(0, 77), rank(0, 90)}, "which leave the same two-leader margin, it has the fastest takeover after a crash"},
	} {
		if got := widest(tt.near); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.near, got, tt.want)
		}
	}
}
