package model_test

import (
	"testing"

	"github.com/leasesim/leasesim/model"
)

func TestTraceWindow(t *testing.T) {
	d := model.Default() // lease 3, renewal 3, outage 5 from round 6, period 6, 24 rounds
	tests := []struct {
		name        string
		edit        func(*model.Config)
		first, last int
	}{
		{"short run: whole", func(*model.Config) {}, 1, 24},
		{"200 rounds: whole", func(c *model.Config) { c.Rounds = 200 }, 1, 200},
		{"long run, early outage", func(c *model.Config) { c.Rounds = 1_000_000 }, 1, 6 + 5 + 3 + 3 + 12},
		{"long run, late outage", func(c *model.Config) { c.Rounds, c.Start = 1_000_000, 500_000 }, 500_000 - 12, 500_000 + 5 + 3 + 3 + 12},
		{"outage to the end", func(c *model.Config) { c.Rounds, c.Start, c.Outage = 1_000_000, 999_990, 100 }, 999_978, 1_000_000},
		{"very long outage", func(c *model.Config) { c.Rounds, c.Outage = 1_000_000_000, 900_000_000 }, 1, 10_000},
		{"daily batch, outage near its end", func(c *model.Config) { c.Rounds, c.Period, c.Start, c.Outage = 87_000, 86_400, 86_390, 30 }, 86_390 - 10, 86_390 + 30 + 2*10},
		{"daily batch, long run", func(c *model.Config) { c.Rounds, c.Period, c.Start = 10_000_000, 86_400, 200_000 }, 200_000 - 10, 200_000 + 5 + 2*10},
		{"no outage", func(c *model.Config) { c.Rounds, c.Outage = 1_000_000, 0 }, 1, 1 + 3 + 3 + 12},
		{"outage after the end", func(c *model.Config) { c.Rounds, c.Start = 1000, 5000 }, 1, 1 + 3 + 3 + 12},
	}
	for _, tt := range tests {
		c := d
		tt.edit(&c)
		if first, last := model.TraceWindow(c); first != tt.first || last != tt.last {
			t.Errorf("%s: rounds %d to %d, want %d to %d", tt.name, first, last, tt.first, tt.last)
		}
	}
}
