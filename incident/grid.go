package incident

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// Params are the parameters an incident sets, in parameter order: who
// fails when, and how (every kind's toggle). A command that takes an
// incident refuses their flags.
func Params() []model.Param {
	return slices.Sorted(slices.Values(append([]model.Param{model.Outage, model.Start, model.Down, model.DownFrom}, model.KindToggles()...)))
}

// ParseEpoch reads the moment a run begins, from which an incident's
// timestamps count (--epoch): an RFC 3339 time from 1970 on, as the zero
// time, year 1, would read as no epoch at all.
func ParseEpoch(s string) (time.Time, error) {
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, errors.New("want an RFC 3339 time, as 2026-11-30T23:58:00Z")
	}
	if at.Year() < 1970 {
		return time.Time{}, errors.New("want an RFC 3339 time from 1970 on, as 2026-11-30T23:58:00Z")
	}
	return at, nil
}

// EndsAt says when something that lasts through round last ends: "in
// round 30", or with a tick "at 30s", the end of that round.
func EndsAt(t model.Tick, last int) string {
	if t == 0 {
		return fmt.Sprintf("in round %d", last)
	}
	return "at " + t.FormatValue(model.Rounds, last)
}

// OnGrid makes every configuration of g meet the incident, read from the
// file name: the grid's outage columns become the incident's span (first
// round and length, node 0 and one node: what a trace zooms to), its
// kinds of failure the default's (the incident's failures have kinds of
// their own), and its schedule the incident's. It refuses an incident
// that names a node some configuration lacks or ends after the shortest
// run, naming the file's line.
func (in Incident) OnGrid(g *sweep.Grid, name string) error {
	c := model.Default()
	c = in.Apply(c)
	for _, p := range Params() {
		g.Values[p] = sweep.ListOf(c.Get(p))
	}
	fewest, shortest := model.MaxNodes, model.MaxRounds
	for n := range g.Values[model.Nodes].All() {
		fewest = min(fewest, n)
	}
	for r := range g.Values[model.Rounds].All() {
		shortest = min(shortest, r)
	}
	if f, ok := in.Beyond(fewest); ok {
		return flagerr.Errorf([]string{"incident", "nodes"}, "--incident: %s: line %d: node %d, but the sweep has configurations of %d nodes (--nodes)", name, f.Line, f.Node, fewest)
	}
	for _, f := range in.Windows {
		if f.Last > shortest {
			return flagerr.Errorf([]string{"incident", "rounds"}, "--incident: %s: line %d: the failure ends %s, after the shortest run's %s (--rounds)", name, f.Line, EndsAt(g.Tick, f.Last), g.Tick.FormatValue(model.Rounds, shortest))
		}
	}
	g.Schedule = in.Schedule()
	return nil
}

// Fits refuses an incident, read from the file name, that names a node
// beyond c's nodes or, unless anyRounds (the phase method sets its runs'
// rounds itself), a failure that ends after c's run: each refusal names
// the file's line, and what is c ("the run", "the deployment").
func (in Incident) Fits(c model.Config, anyRounds bool, name, what string, t model.Tick) error {
	if f, ok := in.Beyond(c.Nodes); ok {
		return flagerr.Errorf([]string{"incident", "nodes"}, "--incident: %s: line %d: node %d, but %s has %d nodes (--nodes)", name, f.Line, f.Node, what, c.Nodes)
	}
	for _, f := range in.Windows {
		if !anyRounds && f.Last > c.Rounds {
			return flagerr.Errorf([]string{"incident", "rounds"}, "--incident: %s: line %d: the failure ends at %s, after the run's end (--rounds %s)", name, f.Line, t.FormatValue(model.Rounds, f.Last), t.FormatValue(model.Rounds, c.Rounds))
		}
	}
	return nil
}
