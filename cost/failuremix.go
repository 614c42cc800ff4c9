package cost

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
)

// Scope is which nodes an outage event takes down.
type Scope uint8

// The scopes of an outage event.
const (
	// ScopeAsConfigured is the configuration's own group outage: its
	// Down nodes from DownFrom (an --outage-mix's events).
	ScopeAsConfigured Scope = iota
	ScopeLeader             // the node that leads as the event begins, alone
	ScopeOneNode            // one node, any of them: the leader in one event of every node count
	ScopeZone               // a zone of MixEntry.Zone nodes: the leader's in zone/nodes of the events
	ScopeEveryNode          // every node at once, however many there are
)

// scopeNames are the scopes as a failure mix names them, by Scope.
var scopeNames = [...]string{ScopeLeader: "leader", ScopeOneNode: "one-node", ScopeZone: "zone", ScopeEveryNode: "every-node"}

// String is the scope as a failure mix names it ("" for ScopeAsConfigured).
func (s Scope) String() string { return scopeNames[s] }

// FailureEntry is one entry of a deployment's failure mix: outage events
// of one kind and scope, PerYear of them a year, their lengths drawn from
// Lengths (their weights summing to 1).
type FailureEntry struct {
	Kind    model.Kind
	Scope   Scope
	Lengths []MixEntry
	PerYear float64
}

// FailureMixError is what is wrong with an entry of a failure mix: the
// entry (from 0), the key whose value is wrong ("" for the entry as a
// whole) and what the key accepts.
type FailureMixError struct {
	Entry int
	Key   string
	Msg   string
}

func (e *FailureMixError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("entry %d: %s", e.Entry+1, e.Msg)
	}
	return fmt.Sprintf("entry %d: %s: %s", e.Entry+1, e.Key, e.Msg)
}

// FailureMixKeys are the keys of a failure mix's entry, in the order
// FailureMixSyntax gives them.
func FailureMixKeys() []string { return []string{"kind", "scope", "lengths", "per_year"} }

// FailureMixSyntax says what a failure mix accepts, for flag help and
// errors.
func FailureMixSyntax() string {
	return "entries separated by ';', each kind=KIND scope=SCOPE lengths=MIX per_year=N: KIND one of " + mixKindNames() +
		"; SCOPE leader, one-node, zone or every-node; MIX outage lengths and their weights as --outage-mix takes them (40s:0.9,5m:0.1, or one length); N events a year, a positive number"
}

// MaxFailureEntries is the most entries a failure mix may have; with
// their lengths, at most MaxMixLengths events in all.
const MaxFailureEntries = 10

// ParseFailureMix parses a failure mix (FailureMixSyntax), lengths with
// tick t as ParseMix reads them. Its error is a *FailureMixError naming the
// entry and key.
func ParseFailureMix(t model.Tick, s string) ([]FailureEntry, error) {
	var entries []FailureEntry
	items := strings.Split(s, ";")
	if len(items) > MaxFailureEntries {
		return nil, &FailureMixError{MaxFailureEntries, "", fmt.Sprintf("%d entries: want at most %d", len(items), MaxFailureEntries)}
	}
	events := 0
	for i, item := range items {
		e, err := parseFailureEntry(t, item)
		if err != nil {
			err.Entry = i
			return nil, err
		}
		if events += len(e.Lengths); events > MaxMixLengths {
			return nil, &FailureMixError{i, "lengths", fmt.Sprintf("%d lengths in all: want at most %d", events, MaxMixLengths)}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// parseFailureEntry parses one entry of a failure mix; its error's Entry
// is left to the caller.
func parseFailureEntry(t model.Tick, item string) (FailureEntry, *FailureMixError) {
	e := FailureEntry{}
	seen := map[string]bool{}
	fields := strings.Fields(item)
	if len(fields) == 0 {
		return e, &FailureMixError{Msg: "empty: want " + strings.Join(FailureMixKeys(), "=…, ") + "=…"}
	}
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		switch {
		case !ok:
			return e, &FailureMixError{Msg: fmt.Sprintf("%q is not key=value: want the keys %s", f, strings.Join(FailureMixKeys(), ", "))}
		case seen[key]:
			return e, &FailureMixError{Key: key, Msg: "given twice: want it once"}
		}
		seen[key] = true
		switch key {
		case "kind":
			k, ok := kindNamed(value)
			named, _, _ := strings.Cut(value, ":")
			switch valued, _ := kindNamed(named); {
			case valued.Behaviour().ValueName != "":
				return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("%q: a clock skew goes in an incident's lines (replay, report --incident) or a montecarlo --also process, whose failures carry its value, not in a failure mix: want one of %s", value, mixKindNames())}
			case !ok:
				return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("%q: want one of %s", value, mixKindNames())}
			}
			e.Kind = k
		case "scope":
			s, ok := scopeNamed(value)
			if !ok {
				return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("%q: want leader, one-node, zone or every-node", value)}
			}
			e.Scope = s
		case "lengths":
			if !strings.Contains(value, ":") { // one length, all of the entry's events
				value += ":1"
			}
			mix, err := ParseMix(t, value)
			if err != nil {
				return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("%v: want outage lengths and their weights, 40s:0.9,5m:0.1, or one length", err)}
			}
			e.Lengths = mix
		case "per_year":
			n, err := strconv.ParseFloat(value, 64)
			if err != nil || !(n > 0) || math.IsInf(n, 0) {
				return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("%q: want a positive number of events a year", value)}
			}
			e.PerYear = n
		default:
			return e, &FailureMixError{Key: key, Msg: fmt.Sprintf("unknown key: want %s", strings.Join(FailureMixKeys(), ", "))}
		}
	}
	for _, key := range FailureMixKeys() {
		if !seen[key] {
			return e, &FailureMixError{Key: key, Msg: "missing: each entry gives " + strings.Join(FailureMixKeys(), ", ")}
		}
	}
	return e, nil
}

// mixKindNames are the kinds a failure mix takes, as a sentence lists
// them: the table's but those that take a value (skew:V), which an entry
// has no place for.
func mixKindNames() string {
	var names []string
	for _, b := range model.Kinds() {
		if b.ValueName == "" {
			names = append(names, b.Name)
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// kindNamed is the kind called name (without a value), if any.
func kindNamed(name string) (model.Kind, bool) {
	for _, b := range model.Kinds() {
		if b.Name == name {
			return b.Kind, true
		}
	}
	return model.AsConfigured, false
}

func scopeNamed(name string) (Scope, bool) {
	for s, n := range scopeNames {
		if n != "" && n == name {
			return Scope(s), true
		}
	}
	return ScopeAsConfigured, false
}

// FlattenFailures is a failure mix as one outage mix and its events a
// year: every length of every entry, weighted by its share of all the
// events a year (the entry's events a year times the length's weight, over
// the total), each of its entry's kind and scope, a zone zone nodes. So
// the mix's yearly figures at perYear events a year (Recommend) add up
// each entry's at its own rate.
func FlattenFailures(entries []FailureEntry, zone int) (mix []MixEntry, perYear float64) {
	for _, e := range entries {
		perYear += e.PerYear
	}
	for _, e := range entries {
		for _, l := range e.Lengths {
			mix = append(mix, MixEntry{Outage: l.Outage, Weight: e.PerYear * l.Weight / perYear, Kind: e.Kind, Scope: e.Scope, Zone: zone})
		}
	}
	return mix, perYear
}

// EveryNodeShare is the share of mix's events that take every node down:
// exactly 1 when all of them do, whatever their weights add up to.
func EveryNodeShare(mix []MixEntry) float64 {
	share, all := 0.0, len(mix) > 0
	for _, e := range mix {
		if e.Scope == ScopeEveryNode {
			share += e.Weight
		} else {
			all = false
		}
	}
	if all {
		return 1
	}
	return share
}

// eventPart is one way an outage event of a mix meets a configuration: the
// configuration with the event's failing nodes and kind, its failures as
// windows where the kind has no toggle, and the share of events it stands
// for.
type eventPart struct {
	c      model.Config
	ws     model.Windows
	weight float64
}

// parts is how e meets c (c.Outage already e's): one part, the event
// itself, for the configuration's own group outage or an incident; for a
// scope of k nodes among n that may or may not hold the leader, the event
// with the leader among them (k/n of the events) and without it (the
// others), as a node or a zone fails wherever it is.
func (e MixEntry) parts(c model.Config) []eventPart {
	if e.Kind == model.AsConfigured && e.Scope == ScopeAsConfigured || e.Incident != nil {
		return []eventPart{{c, e.Incident, 1}}
	}
	n, k := c.Nodes, 0
	switch e.Scope {
	case ScopeLeader:
		k = 1
	case ScopeOneNode:
		k = min(1, n)
	case ScopeZone:
		k = min(max(1, e.Zone), n)
	case ScopeEveryNode:
		k = n
	}
	leader := e.part(e.On(c), 1)
	if e.Scope == ScopeLeader || k >= n {
		return []eventPart{leader}
	}
	follower := e.On(c)
	follower.DownFrom = 1
	share := float64(k) / float64(n)
	return []eventPart{e.part(e.On(c), share), e.part(follower, 1-share)}
}

// On is c meeting e as a single run does: the event's failing nodes from
// the leader (a node or a zone that holds it, where its scope may not),
// failing as its kind does, through the kind's toggle alone; a kind
// without one (slow) has its windows (On's windows in Recommend, and the
// nearest toggle, black-hole's, in a run of c alone). The configuration's
// own group outage (ScopeAsConfigured, AsConfigured) leaves c as it is.
func (e MixEntry) On(c model.Config) model.Config {
	switch e.Scope {
	case ScopeAsConfigured:
	case ScopeLeader, ScopeOneNode:
		c.Down, c.DownFrom = 1, 0
	case ScopeZone:
		c.Down, c.DownFrom = min(max(1, e.Zone), c.Nodes), 0
	case ScopeEveryNode:
		c.Down, c.DownFrom = c.Nodes, 0
	}
	if e.Kind == model.AsConfigured {
		return c
	}
	for _, p := range model.KindToggles() {
		c.Set(p, 0)
	}
	toggle := e.Kind.Behaviour().Toggle
	if e.Kind == model.Slowed {
		toggle = model.BlackHoled.Behaviour().Toggle
	}
	if toggle != model.Param(model.NumParams) { // isolate has none: it only fails to reach
		c.Set(toggle, 1)
	}
	return c
}

// part is c (On's) meeting e, weight of its events: for a kind without a
// toggle (slow), without the nearest one and with the failures as
// windows of that kind, c's group outage's nodes and rounds.
func (e MixEntry) part(c model.Config, weight float64) eventPart {
	if e.Kind != model.Slowed {
		return eventPart{c, nil, weight}
	}
	for _, p := range model.KindToggles() {
		c.Set(p, 0)
	}
	var ws model.Windows
	for node := c.DownFrom; node < min(c.Nodes, c.DownFrom+c.Down); node++ {
		ws = append(ws, model.Window{Node: node, First: c.Start, Last: c.Start + c.Outage - 1, Failure: model.Failure{Kind: model.Slowed}})
	}
	return eventPart{c, ws, weight}
}

// sameEvent reports whether two entries of mixes are the same outage event.
func sameEvent(a, b MixEntry) bool {
	return a.Outage == b.Outage && a.Kind == b.Kind && a.Scope == b.Scope && a.Zone == b.Zone && slices.Equal(a.Incident, b.Incident)
}

// add adds w times o's figures to in's.
func (in *EventEffect) add(o EventEffect, w float64) {
	in.Missed += w * o.Missed
	in.Unresolved += w * o.Unresolved
	in.DoubleStarts += w * o.DoubleStarts
	in.Partial += w * o.Partial
	in.Unwritten += w * o.Unwritten
	in.Rewritten += w * o.Rewritten
	in.DelayedRounds += w * o.DelayedRounds
	in.Rejected += w * o.Rejected
	in.LeaderlessRounds += w * o.LeaderlessRounds
	in.TwoLeaderRounds += w * o.TwoLeaderRounds
	in.Handovers += w * o.Handovers
}

// effect is the phase method's figures (PhaseMethod) of run against e
// (run.Outage e's): each of its parts weighted by its share.
func (e MixEntry) effect(ctx context.Context, run model.Config, seed uint64) (EventEffect, error) {
	parts := e.parts(run)
	if len(parts) == 1 && parts[0].weight == 1 {
		return PhaseMethod(ctx, parts[0].c, seed, parts[0].ws)
	}
	var sum EventEffect
	for _, p := range parts {
		in, err := PhaseMethod(ctx, p.c, seed, p.ws)
		if err != nil {
			return EventEffect{}, err
		}
		sum.Phases, sum.Horizon = max(sum.Phases, in.Phases), max(sum.Horizon, in.Horizon)
		sum.add(in, p.weight)
	}
	return sum, nil
}

// Effect is the phase method's figures of run against e (run.Outage e's),
// each way e meets run weighted by its share, as a ranking measures them
// (RecommendAll): what a review reads beyond a Rank's yearly lines, such as
// the double starts an event causes.
func (e MixEntry) Effect(ctx context.Context, run model.Config, seed uint64) (EventEffect, error) {
	return e.effect(ctx, run, seed)
}

// Losses is what e costs run (run.Outage e's) at each phase (PhaseLosses),
// each way e meets run with its shares scaled by that way's: a year of
// e's events draws from them (SpreadOf).
func (e MixEntry) Losses(ctx context.Context, run model.Config, seed uint64) ([]Loss, error) {
	var all []Loss
	for _, p := range e.parts(run) {
		ls, err := PhaseLosses(ctx, p.c, seed, p.ws)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			l.Share *= p.weight
			all = append(all, l)
		}
	}
	return all, nil
}
