package reports

import (
	"testing"
	"time"

	"github.com/leasesim/leasesim/model"
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
