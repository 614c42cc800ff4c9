package model

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Never is the round a Schedule returns when reachability changes no more.
const Never = math.MaxInt

// Reachability is which nodes can reach the shared record in the current
// round. A Schedule changes it; the round loop only reads it.
type Reachability struct {
	down  []bool
	count int // reachable nodes

	// What a down node does: kinds, by kind, in this run (failAs, the
	// toggles deciding AsConfigured's); does, by node, once a schedule gave
	// some node a kind of its own (Fail), as in a replayed incident each
	// node may fail its own way: empty until then, every node doing as
	// AsConfigured. Only what its kind does: no kind's behaviour reads a
	// parameter yet, and the first that does keeps it beside the node's
	// behaviours here.
	kinds [numKinds]Does
	does  []Does
	may   Does // every behaviour a node down in this run may have: AsConfigured's and those Fail gave

	// clock is, by node, the value of its last failure of a kind that
	// skews (Skews): the rounds its clock is ahead while that failure
	// lasts (Reachability.ahead). Empty until a run's first such failure.
	clock []int

	// upAt is, by node, the round it last turned reachable or down (1 for
	// one reachable from the start): while it is reachable, the round
	// from which it has been, where a DynamoDB waiter's acquire calls
	// begin again. Only a run under dynamodb sizes it (state.observeAll);
	// the others leave it as it was. at is the round of the changes being
	// made.
	upAt []int
	at   int
}

// Kind is how a node that is down fails: as the configuration's kinds
// (Pause, Crash, Release, Partition, BlackHole) say, or one kind of its own.
type Kind uint8

// Failure is how one node fails as it goes down (a window's, a process's,
// an incident line's): its kind, and the kind's value where its row
// takes one (Behaviour.ValueName), 0 otherwise.
type Failure struct {
	Kind  Kind
	Value int
}

// The kinds of failure. A node of its own kind fails that way whatever
// the configuration's toggles.
const (
	AsConfigured Kind = iota
	Isolated          // reaches neither the record nor the store
	BlackHoled        // isolated, its calls hanging until they time out
	Slowed            // isolated, its calls hanging until the API answers again, or they time out
	Partitioned       // reaches the store but not the record
	Paused            // frozen
	Crashed           // forgets that it led
	Released          // stops cleanly, emptying the record if it holds it
	Skewed            // stays reachable, its clock Failure.Value rounds ahead (behind if negative)
	numKinds          // the number of kinds, AsConfigured included
)

// Does is what a kind of failure does to a node while it is down: a set
// of behaviours, none of them for a node that is merely isolated.
type Does uint8

// The behaviours a kind of failure may have.
const (
	Stops              Does = 1 << iota // its process stops: it forgets that it led and comes back as a follower
	Releases                            // with Stops, it stops cleanly, emptying the record if it holds it
	Freezes                             // it is frozen: no timer of its fires, and its work reaches nowhere
	ReachesStore                        // its work reaches the store where the batch writes, though not the record
	Hangs                               // its calls hang until they time out, after half the renew deadline
	HangsUntilAnswered                  // with Hangs, a call hangs until the API answers again, when the node is back, or it times out
	Skews                               // it stays reachable and works on, its clock off by the failure's value (read by the per-fire protocols, and quartz's and db-scheduler's detectors)
)

// Behaviour is one row of the table of failure kinds (Kinds): a kind,
// its names and what it does.
type Behaviour struct {
	Kind      Kind
	Name      string // as incidents and flags name it
	Said      string // as a sentence says a node failed so: "node 1 crashed"
	Does      Does
	Toggle    Param  // the Scenario toggle that makes the failing nodes fail so; NumParams for none
	ValueName string // what the kind's value is, as KIND:VALUE gives it; "" for a kind that takes none
}

// kindTable is the table of failure kinds, in Failure order, AsConfigured
// first and unnamed: a kind of its own is named as incidents and flags
// name it.
func kindTable() [numKinds]Behaviour {
	none := Param(NumParams)
	return [numKinds]Behaviour{
		{Kind: AsConfigured, Said: "unreachable", Toggle: none},
		{Kind: Isolated, Name: "isolate", Said: "isolated", Toggle: none},
		{Kind: BlackHoled, Name: "black-hole", Said: "black-holed", Does: Hangs, Toggle: BlackHole},
		{Kind: Slowed, Name: "slow", Said: "slowed", Does: Hangs | HangsUntilAnswered, Toggle: none},
		{Kind: Partitioned, Name: "partition", Said: "partitioned", Does: ReachesStore, Toggle: Partition},
		{Kind: Paused, Name: "pause", Said: "paused", Does: Freezes, Toggle: Pause},
		{Kind: Crashed, Name: "crash", Said: "crashed", Does: Stops, Toggle: Crash},
		{Kind: Released, Name: "release", Said: "stopped cleanly", Does: Stops | Releases, Toggle: Release},
		{Kind: Skewed, Name: "skew", Said: "had its clock off", Does: Skews, Toggle: none, ValueName: "the rounds its clock is ahead of the others' (behind if negative)"},
	}
}

// Kinds is the table of the kinds of failure a node may have of its own,
// in Failure order (AsConfigured not among them): the one list the
// engine's invariants, the parsers and the command line read.
func Kinds() []Behaviour {
	t := kindTable()
	return t[1:]
}

// KindToggles are the Scenario toggles of the kinds that have one, in
// parameter order: the flags and columns that make the failing nodes fail
// one way or another.
func KindToggles() []Param {
	var ps []Param
	for _, b := range Kinds() {
		if b.Toggle != Param(NumParams) {
			ps = append(ps, b.Toggle)
		}
	}
	slices.Sort(ps)
	return ps
}

// KindNames are the names of the kinds of failure, in Failure order, as a
// sentence lists them: "isolate, black-hole, …, crash or release".
func KindNames() string {
	var names []string
	for _, b := range Kinds() {
		names = append(names, b.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Behaviour is the kind's row of the table.
func (k Kind) Behaviour() Behaviour { return kindTable()[k] }

// String is the kind's name: isolate, black-hole, slow, partition, pause,
// crash, release or skew ("" for AsConfigured).
func (k Kind) String() string { return k.Behaviour().Name }

// String is the failure as incidents and --also give it (and
// parse.Failure reads it): its kind's name, and KIND:VALUE for a kind that
// takes a parameter.
func (f Failure) String() string {
	if b := f.Kind.Behaviour(); b.ValueName != "" {
		return b.Name + ":" + strconv.Itoa(f.Value)
	}
	return f.Kind.String()
}

// DoesAs is what a node of kind f does when down in a run of c: a kind
// of its own does as its row says; AsConfigured does what every kind
// whose toggle c sets does, except that a frozen node reaches no store.
func (c *Config) DoesAs(f Kind) Does {
	k := readKinds()
	if f != AsConfigured {
		return k.does[f]
	}
	return k.asConfigured(c.toggles())
}

// kindsRead is what the engine reads of the table of kinds, once a Runner
// (a reading costs a third of a run of the publication's defaults): what
// each kind does, and what each Scenario toggle makes a node without a
// kind of its own do.
type kindsRead struct {
	does   [numKinds]Does  // by Kind; AsConfigured's none, as the toggles say it
	toggle [NumParams]Does // by the Param of a kind's toggle
}

// readKinds reads the table of kinds.
func readKinds() kindsRead {
	var k kindsRead
	for _, b := range kindTable() {
		k.does[b.Kind] = b.Does
		if b.Toggle != Param(NumParams) {
			k.toggle[b.Toggle] = b.Does
		}
	}
	return k
}

// asConfigured is what a node without a kind of its own does under the
// Scenario toggles set in toggles (Scenario.toggles): what their kinds
// do, except that a frozen node reaches no store. A step per toggle set,
// none for the publication's run.
func (k *kindsRead) asConfigured(toggles uint64) Does {
	var d Does
	for ; toggles != 0; toggles &= toggles - 1 {
		d |= k.toggle[bits.TrailingZeros64(toggles)]
	}
	if d&Freezes != 0 { // a frozen node works nowhere
		d &^= ReachesStore
	}
	return d
}

func (r *Reachability) reset(nodes int) {
	if cap(r.down) < nodes {
		r.down = make([]bool, nodes)
	}
	if r.count < len(r.down) { // some node is still down from the last run
		clear(r.down)
	}
	r.down = r.down[:nodes]
	r.count = nodes
	clear(r.clock) // no skew outlasts its run
}

// failAs readies r for a run under the Scenario toggles set in toggles
// (Scenario.toggles): each kind does as k says, AsConfigured as the
// toggles say, and no node has a kind of its own yet.
func (r *Reachability) failAs(k *kindsRead, toggles uint64) {
	r.kinds = k.does
	r.kinds[AsConfigured] = k.asConfigured(toggles)
	r.does, r.may = r.does[:0], r.kinds[AsConfigured]
}

// Fail marks node down, failing the way f says: doing what f's kind
// does in this run.
func (r *Reachability) Fail(node int, f Failure) {
	skews := r.kinds[f.Kind]&Skews != 0
	if !skews { // a skewed node stays reachable, its clock off
		r.SetReachable(node, false)
	}
	if node < len(r.clock) {
		r.clock[node] = 0
	}
	if f.Kind == AsConfigured && len(r.does) == 0 {
		return
	}
	if len(r.does) < len(r.down) { // the run's first node of its own kind
		if cap(r.does) < len(r.down) {
			r.does = make([]Does, len(r.down))
		}
		r.does = r.does[:len(r.down)]
		for i := range r.does {
			r.does[i] = r.kinds[AsConfigured]
		}
	}
	r.does[node] = r.kinds[f.Kind]
	r.may |= r.kinds[f.Kind]
	if skews {
		if len(r.clock) < len(r.down) {
			r.clock = append(r.clock[:0], make([]int, len(r.down))...)
		}
		r.clock[node] = f.Value
	}
}

// ahead is how many rounds node's clock is ahead of the rounds (behind if
// negative): its failure's value while a failure that skews (Skews) has
// it, else 0. A skewed node stays reachable: its failure ends where the
// schedule makes it reachable again (SetReachable), or fails it another
// way.
func (r *Reachability) ahead(node int) int {
	if node >= len(r.clock) {
		return 0
	}
	return r.clock[node]
}

// doesOf is what node does while down: what its kind does in this run.
func (r *Reachability) doesOf(node int) Does {
	if len(r.does) == 0 {
		return r.kinds[AsConfigured]
	}
	return r.does[node]
}

// Nodes is the number of nodes.
func (r *Reachability) Nodes() int { return len(r.down) }

// Reachable reports whether node can reach the record.
func (r *Reachability) Reachable(node int) bool { return !r.down[node] }

// Count is the number of reachable nodes.
func (r *Reachability) Count() int { return r.count }

// SetReachable marks node reachable or not.
func (r *Reachability) SetReachable(node int, reachable bool) {
	if reachable && node < len(r.clock) { // a skew ends
		r.clock[node] = 0
	}
	if r.down[node] == !reachable {
		return
	}
	r.down[node] = !reachable
	if node < len(r.upAt) {
		r.upAt[node] = r.at
	}
	if reachable {
		r.count++
	} else {
		r.count--
	}
}

// flip turns node down if it is reachable and reachable if it is down,
// counting without a branch: in a random schedule which way it turns is
// as random as the draws, and a branch on it mispredicted half the time.
func (r *Reachability) flip(node int) {
	down := !r.down[node]
	r.down[node] = down
	if node < len(r.upAt) {
		r.upAt[node] = r.at
	}
	r.count += 1 - 2*b2i(down)
}

// lowestReachableExcept returns the lowest-numbered reachable node other
// than except (-1 for none excepted), or -1 if there is none.
func (r *Reachability) lowestReachableExcept(except int) int {
	for i, d := range r.down {
		if !d && i != except {
			return i
		}
	}
	return -1
}

// A Schedule says when nodes become unreachable and reachable again. Runs
// call it only in the rounds it names, so a quiet round costs nothing.
type Schedule interface {
	// Begin sets the reachability before round 1 (every node starts
	// reachable) and returns the first round in which it changes, or Never.
	Begin(r *Reachability) (next int)
	// ChangeAt makes the changes that take effect in round t and returns the
	// next round, after t, in which reachability changes, or Never.
	ChangeAt(t int, r *Reachability) (next int)
}

// GroupOutage makes nodes From … From+Down-1 unreachable together in
// rounds Start … Start+Length-1: the publication's failing leader when From
// is 0 and Down 1, a rack or zone when Down is larger, standbys beside the
// leader when From is above 0.
type GroupOutage struct {
	Down, Start, Length, From int
}

// Begin implements Schedule.
func (g *GroupOutage) Begin(r *Reachability) int {
	if g.Length == 0 || g.Down == 0 || g.From >= r.Nodes() {
		return Never
	}
	return g.Start
}

// ChangeAt implements Schedule.
func (g *GroupOutage) ChangeAt(t int, r *Reachability) int {
	up := t != g.Start
	for n := g.From; n < min(g.From+g.Down, r.Nodes()); n++ {
		r.SetReachable(n, up)
	}
	if up {
		return Never
	}
	return g.Start + g.Length
}

// Schedule returns the scenario's failure schedule: the publication's
// outage, widened to Down nodes from DownFrom.
func (s *Scenario) Schedule() *GroupOutage {
	return &GroupOutage{Down: s.Down, Start: s.Start, Length: s.Outage, From: s.DownFrom}
}

// Window makes one node unreachable in rounds First … Last.
type Window struct {
	Node, First, Last int
	Failure           Failure // how the node fails; AsConfigured by default
}

// Windows is a schedule of outage windows, any number per node, in any
// order. Windows of one node must not overlap; one may begin the round
// after another ends, and the node then stays down. Each change costs a
// pass over the windows, which suits hand-written scenarios; a Runner
// indexes a longer schedule instead (windowIndex).
type Windows []Window

// WindowError is a window no run can hold: a negative node, or a kind
// of failure the table of kinds does not have. (A node beyond the run's
// count is no error: the run has no such node, and it is left out.)
type WindowError struct {
	Index  int // the window's place in the schedule, from 0
	Window Window
}

func (e *WindowError) Error() string {
	if e.Window.Node < 0 {
		return fmt.Sprintf("window %d: node %d: want a node from 0", e.Index, e.Window.Node)
	}
	return fmt.Sprintf("window %d: failure kind %d: want one of the %d kinds of the table", e.Index, e.Window.Failure.Kind, numKinds)
}

// valid returns a *WindowError for the first window of ws no run can
// hold, or nil.
func (ws Windows) valid() error {
	for i, w := range ws {
		if w.Node < 0 || w.Failure.Kind >= numKinds {
			return &WindowError{i, w}
		}
	}
	return nil
}

// Span is the first and last round any node is down; ws must not be
// empty.
func (ws Windows) Span() (first, last int) {
	first, last = ws[0].First, ws[0].Last
	for _, w := range ws[1:] {
		first, last = min(first, w.First), max(last, w.Last)
	}
	return first, last
}

// Begin implements Schedule.
func (ws Windows) Begin(*Reachability) int { return ws.after(0) }

// ChangeAt implements Schedule. The windows that end make their nodes
// reachable before those that begin make theirs fail, so that a node whose
// window begins the round after another ends stays down, whichever is
// listed first.
func (ws Windows) ChangeAt(t int, r *Reachability) int {
	for _, w := range ws {
		if w.Node < r.Nodes() && t == w.Last+1 {
			r.SetReachable(w.Node, true)
		}
	}
	for _, w := range ws {
		if w.Node < r.Nodes() && t == w.First {
			r.Fail(w.Node, w.Failure)
		}
	}
	return ws.after(t)
}

// after returns the first round after t in which a window starts or ends.
func (ws Windows) after(t int) int {
	next := Never
	for _, w := range ws {
		if w.First > t && w.First < next {
			next = w.First
		}
		if w.Last+1 > t && w.Last+1 < next && w.Last >= w.First {
			next = w.Last + 1
		}
	}
	return next
}

// indexFrom is the number of windows from which a Runner indexes a
// Windows schedule (windowIndex) instead of passing over it at each
// change: a hand-written scenario's few windows cost less than a sort.
const indexFrom = 16

// windowIndex is a Windows schedule sorted twice, by first round and by
// last, so that each change costs a binary search, not a pass over the
// windows: a replayed incident may have a hundred thousand. A Runner keeps
// one and refills it for each run, so that it allocates nothing once grown.
type windowIndex struct {
	starts, ends Windows // by First, and by Last without the empty windows
}

// reset indexes ws.
func (ix *windowIndex) reset(ws Windows) {
	ix.starts = append(ix.starts[:0], ws...)
	ix.ends = ix.ends[:0]
	for _, w := range ws {
		if w.Last >= w.First {
			ix.ends = append(ix.ends, w)
		}
	}
	slices.SortFunc(ix.starts, func(a, b Window) int { return cmp.Compare(a.First, b.First) })
	slices.SortFunc(ix.ends, func(a, b Window) int { return cmp.Compare(a.Last, b.Last) })
}

// from returns the index of the first window of ws, sorted by round(w),
// with round(w) at or after t.
func from(ws Windows, t int, round func(Window) int) int {
	i, _ := slices.BinarySearchFunc(ws, t, func(w Window, t int) int { return cmp.Compare(round(w), t) })
	return i
}

// windowFirst and windowLast are a window's first and last rounds, the
// keys of windowIndex's two orders.
func windowFirst(w Window) int { return w.First }
func windowLast(w Window) int  { return w.Last }

// Begin implements Schedule.
func (ix *windowIndex) Begin(*Reachability) int { return ix.after(0) }

// ChangeAt implements Schedule, as Windows.ChangeAt does: the windows that end
// first, then those that begin.
func (ix *windowIndex) ChangeAt(t int, r *Reachability) int {
	for _, w := range ix.ends[from(ix.ends, t-1, windowLast):] {
		if w.Last != t-1 {
			break
		}
		if w.Node < r.Nodes() {
			r.SetReachable(w.Node, true)
		}
	}
	for _, w := range ix.starts[from(ix.starts, t, windowFirst):] {
		if w.First != t {
			break
		}
		if w.Node < r.Nodes() {
			r.Fail(w.Node, w.Failure)
		}
	}
	return ix.after(t)
}

// after returns the first round after t in which a window starts or ends.
func (ix *windowIndex) after(t int) int {
	next := Never
	if i := from(ix.starts, t+1, windowFirst); i < len(ix.starts) {
		next = ix.starts[i].First
	}
	if i := from(ix.ends, t, windowLast); i < len(ix.ends) {
		next = min(next, ix.ends[i].Last+1)
	}
	return next
}
