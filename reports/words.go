package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
)

// batchName names c's batch by its period, as a team says it: "hourly
// batch", "nightly batch", "15-minute batch", "weekly batch", or "batch
// every 7h0m0s"; without a tick, the publication's "end-of-day batch".
func batchName(t model.Tick, c model.Config) string {
	if t == 0 {
		return "end-of-day batch"
	}
	d := time.Duration(c.Period) * time.Duration(t)
	switch {
	case d == time.Hour:
		return "hourly batch"
	case d == 24*time.Hour:
		return "nightly batch"
	case d == 7*24*time.Hour:
		return "weekly batch"
	case d < time.Hour && d%time.Minute == 0:
		return fmt.Sprintf("%d-minute batch", d/time.Minute)
	case d < 24*time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d-hourly batch", d/time.Hour)
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d-day batch", d/(24*time.Hour))
	}
	return "batch every " + t.DurationOf(c.Period)
}

// failingKind says how c's group outage fails its nodes, by the kind's
// name (model.Kinds): "crashed", "paused", "partitioned", "black-holed",
// "stopped cleanly", several joined, or "isolated" (cut off from the
// record and the store, the model's plain outage), which without a tick
// is the publication's "unreachable".
func failingKind(t model.Tick, c model.Config) string {
	var ks []string
	for _, k := range model.Kinds() {
		if k.Toggle != model.Param(model.NumParams) && c.Get(k.Toggle) != 0 {
			ks = append(ks, k.Said)
		}
	}
	switch {
	case ks == nil && t == 0:
		return "unreachable"
	case ks == nil:
		return "isolated"
	}
	return strings.Join(ks, " and ")
}

// mixKinds is, for a failure mix of more than one kind or scope, which of
// them the single runs meet (that of the mix's most common event, as
// study.StudyOutage sets it) and which they do not, each with its share
// of events: "one of the mix's 2 kinds of failure, that of its most
// common event: the leader partitioned (67% of events); not one node
// paused (33%), which the candidates and the cost summary weigh"; "" for
// a mix of one kind, an incident or no failure mix.
func (rv review) mixKinds() string {
	if rv.Failures == nil || rv.Incident != nil || len(rv.Mix) == 0 {
		return ""
	}
	type kind struct {
		kind  model.Kind
		scope cost.Scope
	}
	of := func(e cost.MixEntry) kind { return kind{e.Kind, e.Scope} }
	var kinds []cost.MixEntry // each kind's first event
	share := map[kind]float64{}
	for _, e := range rv.Mix {
		if _, ok := share[of(e)]; !ok {
			kinds = append(kinds, e)
		}
		share[of(e)] += e.Weight
	}
	if len(kinds) < 2 {
		return ""
	}
	common := slices.MaxFunc(rv.Mix, func(a, b cost.MixEntry) int { return cmp.Compare(a.Weight, b.Weight) })
	said := func(e cost.MixEntry) string {
		nodes := map[cost.Scope]string{cost.ScopeLeader: "the leader", cost.ScopeOneNode: "one node", cost.ScopeZone: fmt.Sprintf("a zone of %d nodes", e.Zone), cost.ScopeEveryNode: "every node"}[e.Scope]
		return nodes + " " + e.Kind.Behaviour().Said
	}
	var others []string
	for _, e := range kinds {
		if of(e) != of(common) {
			others = append(others, fmt.Sprintf("%s (%.0f%%)", said(e), 100*share[of(e)]))
		}
	}
	return fmt.Sprintf("one of the mix's %d kinds of failure, that of its most common event: %s (%.0f%% of events); not %s, which the candidates and the cost summary weigh",
		len(kinds), said(common), 100*share[of(common)], orList(others))
}

// incidentKinds names how an incident's nodes fail, each kind once in
// the order they come: "partitioned, crashed or paused"; a failure as
// configured by the configuration's own kind (failingKind).
func incidentKinds(t model.Tick, c model.Config, ws model.Windows) string {
	var ks []string
	for _, w := range ws {
		k := failedAs(w.Failure)
		if w.Failure.Kind == model.AsConfigured {
			k = failingKind(t, c)
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return orList(ks)
}

// orList joins items as a sentence lists alternatives: "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
