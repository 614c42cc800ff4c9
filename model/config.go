package model

import (
	"fmt"
	"strconv"
)

// Param names one parameter of Config. Params are numbered in the order of
// the parameter columns of every CSV and JSON output.
type Param int

// The parameters of the round model, in column order.
const (
	Nodes Param = iota
	Lease
	Renewal
	Outage
	Start
	Rounds
	Period
	Fencing
	PersistentTrigger
	Down
	Quorum
	NumParams int = iota
)

// Upper bounds that keep every count of a run inside an int64.
const (
	MaxNodes  = 1_000_000
	MaxRounds = 1_000_000_000
)

type paramInfo struct {
	name string
	doc  string
}

// paramTable is indexed by Param. It is a function so that the package keeps
// no mutable globals.
func paramTable(p Param) paramInfo {
	switch p {
	case Nodes:
		return paramInfo{"nodes", "number of nodes that can lead"}
	case Lease:
		return paramInfo{"lease", "rounds without renewal after which a standby takes over"}
	case Renewal:
		return paramInfo{"renewal", "a node that believes it leads re-reads the record every this many rounds"}
	case Outage:
		return paramInfo{"outage", "rounds the failing nodes stay unreachable"}
	case Start:
		return paramInfo{"start", "first round of the outage"}
	case Rounds:
		return paramInfo{"rounds", "rounds in the run"}
	case Period:
		return paramInfo{"period", "the batch must start every this many rounds"}
	case Fencing:
		return paramInfo{"fencing", "the record refuses work from a node with a stale fencing token"}
	case PersistentTrigger:
		return paramInfo{"persistent_trigger", "a trigger no node accepts is queued for the next leader"}
	case Down:
		return paramInfo{"down", "nodes 0 … down-1 are unreachable together during the outage"}
	case Quorum:
		return paramInfo{"quorum", "a handover needs a strict majority of all nodes reachable"}
	}
	panic("model: unknown parameter " + strconv.Itoa(int(p)))
}

// Name is the parameter's snake_case name, as in CSV headers and JSON keys.
func (p Param) Name() string { return paramTable(p).name }

// Flag is the parameter's command-line flag name, e.g. "persistent-trigger".
func (p Param) Flag() string {
	b := []byte(p.Name())
	for i, c := range b {
		if c == '_' {
			b[i] = '-'
		}
	}
	return string(b)
}

// Doc is a one-line description of the parameter.
func (p Param) Doc() string { return paramTable(p).doc }

// Bool reports whether the parameter is a toggle, stored as 0 or 1.
func (p Param) Bool() bool { return p == Fencing || p == PersistentTrigger || p == Quorum }

// Range is the inclusive range of values the parameter accepts.
func (p Param) Range() (min, max int) {
	switch p {
	case Nodes:
		return 1, MaxNodes
	case Down:
		return 0, MaxNodes
	case Outage:
		return 0, MaxRounds
	case Fencing, PersistentTrigger, Quorum:
		return 0, 1
	}
	return 1, MaxRounds
}

// Accepts says in words which values the parameter accepts.
func (p Param) Accepts() string {
	if p.Bool() {
		return "true or false"
	}
	lo, hi := p.Range()
	return fmt.Sprintf("a whole number from %d to %d", lo, hi)
}

// Check returns a *RangeError if v is outside the parameter's range.
func (p Param) Check(v int) error {
	lo, hi := p.Range()
	if v < lo || v > hi {
		return &RangeError{Param: p, Value: v}
	}
	return nil
}

// ParamByName returns the parameter with the given snake_case name.
func ParamByName(name string) (Param, bool) {
	for p := Param(0); int(p) < NumParams; p++ {
		if p.Name() == name {
			return p, true
		}
	}
	return 0, false
}

// RangeError reports a parameter value outside the accepted range.
type RangeError struct {
	Param Param
	Value int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %d is out of range: want %s", e.Param.Name(), e.Value, e.Param.Accepts())
}

// Config is one configuration of the round model. The failure scenario of
// Run is the publication's: nodes 0 … Down-1 are unreachable in rounds
// Start … Start+Outage-1 and every other node is always reachable.
type Config struct {
	Nodes             int  // nodes that can lead; node 0 leads first
	Lease             int  // rounds without renewal before a standby takes over
	Renewal           int  // believers re-read the record every Renewal rounds
	Outage            int  // rounds the failing nodes stay unreachable
	Start             int  // first round of the outage
	Rounds            int  // rounds in the run, t = 1 … Rounds
	Period            int  // the batch must start in every round t with t % Period == 0
	Fencing           bool // refuse work carrying a stale fencing token
	PersistentTrigger bool // queue a trigger that no node accepts
	Down              int  // nodes 0 … Down-1 fail together
	Quorum            bool // a handover needs a strict majority reachable
}

// Default returns the publication's scenario: 5 nodes, lease 3, renewal 3, the
// leader unreachable for 5 rounds from round 6, 24 rounds, a batch every 6.
func Default() Config {
	return Config{Nodes: 5, Lease: 3, Renewal: 3, Outage: 5, Start: 6, Rounds: 24, Period: 6, Down: 1}
}

// Get returns the value of parameter p; toggles are 0 or 1.
func (c *Config) Get(p Param) int { return c.values()[p] }

// values returns every parameter's value, in column order.
func (c *Config) values() [NumParams]int {
	return [NumParams]int{c.Nodes, c.Lease, c.Renewal, c.Outage, c.Start, c.Rounds, c.Period,
		b2i(c.Fencing), b2i(c.PersistentTrigger), c.Down, b2i(c.Quorum)}
}

// Set sets parameter p to v; toggles take 0 or 1. It does not validate.
func (c *Config) Set(p Param, v int) {
	switch p {
	case Nodes:
		c.Nodes = v
	case Lease:
		c.Lease = v
	case Renewal:
		c.Renewal = v
	case Outage:
		c.Outage = v
	case Start:
		c.Start = v
	case Rounds:
		c.Rounds = v
	case Period:
		c.Period = v
	case Fencing:
		c.Fencing = v != 0
	case PersistentTrigger:
		c.PersistentTrigger = v != 0
	case Down:
		c.Down = v
	case Quorum:
		c.Quorum = v != 0
	default:
		panic("model: unknown parameter " + strconv.Itoa(int(p)))
	}
}

// Validate returns a *RangeError for the first parameter out of range.
func (c *Config) Validate() error {
	if inRange(c.Nodes, Nodes) && inRange(c.Lease, Lease) && inRange(c.Renewal, Renewal) &&
		inRange(c.Outage, Outage) && inRange(c.Start, Start) && inRange(c.Rounds, Rounds) &&
		inRange(c.Period, Period) && inRange(c.Down, Down) {
		return nil // the common case, without building the values
	}
	for p, v := range c.values() {
		if lo, hi := Param(p).Range(); v < lo || v > hi {
			return &RangeError{Param: Param(p), Value: v}
		}
	}
	return nil
}

// inRange is Check without the error, for a parameter known at compile
// time: it inlines to two comparisons with constants.
func inRange(v int, p Param) bool {
	lo, hi := p.Range()
	return v >= lo && v <= hi
}

// Triggers is the number of trigger rounds in the run: rounds / period.
func (c Config) Triggers() int { return c.Rounds / c.Period }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Warnings lists what in c is valid but probably not what was meant, each
// a sentence naming the parameters: the run has no trigger, the outage
// falls after the run, the zone is larger than the cluster. Commands that
// run one configuration print them, so that no answer is read as
// confident when the question was off.
func (c *Config) Warnings() []string {
	var w []string
	if c.Period > c.Rounds {
		w = append(w, fmt.Sprintf("period %d is longer than the run's %d rounds: no batch falls due, so none can be missed or started twice", c.Period, c.Rounds))
	}
	if c.Outage > 0 && c.Down > 0 && c.Start > c.Rounds {
		w = append(w, fmt.Sprintf("the outage starts in round %d, after the run's last round %d: no node fails", c.Start, c.Rounds))
	}
	if c.Down > c.Nodes {
		w = append(w, fmt.Sprintf("down %d is more than the %d nodes: all of them fail together", c.Down, c.Nodes))
	}
	return w
}
