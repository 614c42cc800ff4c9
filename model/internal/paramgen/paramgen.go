// Command paramgen writes model/params.go from the table of the model's
// parameters below: one entry per parameter is the whole of what the rest
// of leasesim learns about it (its Param constant, its field of Config, its
// name in every CSV, JSON and flag, its doc, whether it is a toggle, its
// range and its default). Generated rather than looked up at run time
// because Config.Validate runs on every run and a table of getters would
// cost a quarter of a ~100 ns run; the generated code is what one would
// write by hand.
//
// Run it with go generate ./model after editing the table; a test fails
// while model/params.go is not what the table generates.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"slices"
	"strings"
)

// param is one parameter of the round model.
type param struct {
	field    string // the Param constant and the field, of Policy or Scenario
	name     string // snake_case: CSV column, JSON key; the flag is it with dashes
	doc      string // one line, for help texts
	fieldDoc string // the field's comment
	toggle   bool   // a bool field, 0 or 1 as a Param value
	lo, hi   string // the range, Go expressions (toggles: 0 … 1)
	def      string // the default, a Go expression (the publication's scenario)
	time     string // "Duration" or "Point" for a time in rounds (model.TimeKind), else ""
	enum     string // an enumeration's Go type T, the field's type, whose values' names tNames returns (value 0 first); else ""
	scenario bool   // a field of Scenario (the failures a run meets) rather than of Policy
}

// params is the table, in column order.
func params() []param {
	return []param{
		{field: "Nodes", name: "nodes", doc: "number of nodes that can lead", fieldDoc: "nodes that can lead; node 0 leads first", lo: "1", hi: "MaxNodes", def: "5"},
		{field: "Lease", name: "lease", doc: "rounds without renewal after which a standby takes over", fieldDoc: "rounds without renewal before a standby takes over", lo: "1", hi: "MaxRounds", def: "3", time: "Duration"},
		{field: "RereadPeriod", name: "renewal", doc: "a node that believes it leads re-reads the record every this many rounds and stops believing if it lost (0: never, only its renew deadline ends a belief, as in client-go)", fieldDoc: "believers re-read the record every RereadPeriod rounds; 0: never", lo: "0", hi: "MaxRounds", def: "3", time: "Duration"},
		{field: "RetryPeriod", name: "retry_period", doc: "the leader renews, and the others poll the record, every this many rounds (client-go's RetryPeriod)", fieldDoc: "the leader renews and followers poll in rounds t with t % RetryPeriod == 0", lo: "1", hi: "MaxRounds", def: "1", time: "Duration"},
		{field: "RenewDeadline", name: "renew_deadline", doc: "a leader that cannot renew gives up this long after its first failed attempt: retry period + renew deadline after its last renewal (client-go's RenewDeadline; 0: never)", fieldDoc: "a leader gives up RetryPeriod+RenewDeadline rounds after its last renewal; 0: never", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "Outage", name: "outage", doc: "rounds the failing nodes stay unreachable", fieldDoc: "rounds the failing nodes stay unreachable", lo: "0", hi: "MaxRounds", def: "5", time: "Duration", scenario: true},
		{field: "Start", name: "start", doc: "first round of the outage", fieldDoc: "first round of the outage", lo: "1", hi: "MaxRounds", def: "6", time: "Point", scenario: true},
		{field: "Rounds", name: "rounds", doc: "rounds in the run", fieldDoc: "rounds in the run, t = 1 … Rounds", lo: "1", hi: "MaxRounds", def: "24", time: "Duration", scenario: true},
		{field: "Period", name: "period", doc: "the batch must start every this many rounds", fieldDoc: "the batch must start in every round t with t % Period == 0", lo: "1", hi: "MaxRounds", def: "6", time: "Duration"},
		{field: "BatchLen", name: "batch_len", doc: "a batch runs this long from its start, writing its lines evenly, a part a round, on the node that started it: while that node's process lives and reaches the store, and under fencing only while the token it started with is the record's; a paused one writes its remaining parts when it wakes, late (1: the publication's instant batch)", fieldDoc: "a started batch writes a part of its lines in each of this many rounds", lo: "1", hi: "MaxRounds", def: "1", time: "Duration"},
		{field: "Fencing", name: "fencing", doc: "the record refuses work from a node with a stale fencing token", fieldDoc: "refuse work carrying a stale fencing token", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "PersistentTrigger", name: "persistent_trigger", doc: "a trigger no node accepts is queued for the next leader", fieldDoc: "queue a trigger that no node accepts", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "CatchUpWindow", name: "catch_up_window", doc: "with the persistent trigger, a queued batch whose slot is more than this before the round a node could start it is missed instead (CronJob's startingDeadlineSeconds, Temporal's catch-up window); 0: no limit", fieldDoc: "with PersistentTrigger, queued batches older than this are missed; 0: no limit", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "CatchUpOnce", name: "catch_up_once", doc: "with the persistent trigger, the queued batches a node could start run once, for the latest slot (the one due then, if any), and the earlier slots are missed (CronJob, Quartz's fire-once-now misfire instruction); false runs every queued slot", fieldDoc: "with PersistentTrigger, queued batches start as one run for the latest slot; the others are missed", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "IdempotencyKey", name: "idempotency_key", doc: "the store refuses a second run of the same slot (CronJob's Job name, Temporal's workflow id): a batch two nodes start runs once (the leader's start, else the lowest-numbered node's), the second start deduplicated", fieldDoc: "the store refuses a second run of a slot: a second start is deduplicated, not double", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "Overlap", name: "overlap", doc: "what the scheduler does with a slot that falls due while an earlier run of the batch still runs (batch_len over 1): allow it beside, skip it, buffer-one or buffer-all to start when the run ends (in the persistent trigger's queue), or cancel-other, stopping the run (Temporal's overlap policies; CronJob's Forbid is skip, Replace cancel-other)", fieldDoc: "what a slot due while an earlier run still runs does (the OverlapPolicy constants)", lo: "0", hi: "NumOverlapPolicies-1", def: "0", enum: "OverlapPolicy"},
		{field: "OnCut", name: "on_cut", doc: "what becomes of a batch cut mid-run, its runs ended (process gone, or a newer token fenced out) with parts unwritten (batch_len over 1): none leaves them missed; rerun has the next leader run the whole batch again from its first accepted round, the parts already written doubled unless the idempotency key covers them (a controller-runtime operator re-running from status, Quartz's requestsRecovery, db-scheduler's dead-execution handler, a Job's pod restart); resume writes only the parts nobody wrote (a checkpointed batch)", fieldDoc: "what becomes of a batch cut mid-run (the CutPolicy constants)", lo: "0", hi: "NumCutPolicies-1", def: "0", enum: "CutPolicy"},
		{field: "RunsIn", name: "runs_in", doc: "where a started batch runs (batch_len over 1): leader, in the leader's process, cut when it gives up, crashes or stops; job, a separate process the leader only starts (Kubernetes CronJob's Job), which writes to the end unless its own node crashes or stops", fieldDoc: "where a started batch runs (the RunPlace constants)", lo: "0", hi: "NumRunPlaces-1", def: "0", enum: "RunPlace"},
		{field: "Down", name: "down", doc: "nodes 0 … down-1 are unreachable together during the outage (from down-from on, with it)", fieldDoc: "nodes DownFrom … DownFrom+Down-1 fail together", lo: "0", hi: "MaxNodes", def: "1", scenario: true},
		{field: "DownFrom", name: "down_from", doc: "the first of the down nodes: 0, the leader's zone; 1, a zone of standbys beside it", fieldDoc: "the first failing node: 0 takes the leader with it", lo: "0", hi: "MaxNodes", def: "0", scenario: true},
		{field: "Quorum", name: "quorum", doc: "a handover needs a strict majority of all nodes reachable", fieldDoc: "a handover needs a strict majority reachable", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "Pause", name: "pause", doc: "failing nodes freeze: no timer of theirs fires, so no renew deadline; when they wake they act on their belief at once and begin a renew cycle, renewing if the record is still theirs, else giving up a renew deadline later (a crash still wins)", fieldDoc: "failing nodes freeze, no deadline of theirs firing, act on their belief when they wake and begin a renew cycle then", toggle: true, lo: "0", hi: "1", def: "false", scenario: true},
		{field: "Crash", name: "crash", doc: "failing nodes crash: they lose their belief at once and come back as followers (a partition's nodes then work no more)", fieldDoc: "failing nodes crash: they lose their belief and come back as followers", toggle: true, lo: "0", hi: "1", def: "false", scenario: true},
		{field: "Release", name: "release", doc: "failing nodes stop cleanly as the outage begins (a deploy, a drain): a leader among them empties the record, as client-go's ReleaseOnCancel, so the first follower to poll takes over; they come back as followers", fieldDoc: "failing nodes stop cleanly: a leader among them empties the record, and the first follower to poll takes over", toggle: true, lo: "0", hi: "1", def: "false", scenario: true},
		{field: "Partition", name: "partition", doc: "failing nodes reach the store where the batch writes but not the record: a leader among them works on, unrenewed, until it stops believing (fencing refuses its work once another holds a newer token)", fieldDoc: "failing nodes reach the store but not the record: their believers keep working", toggle: true, lo: "0", hi: "1", def: "false", scenario: true},
		{field: "BlackHole", name: "black_hole", doc: "during an outage the failing nodes' calls hang until they time out, after half the renew deadline (client-go's max(1s, RD/2)), instead of failing at once: fewer attempts fit in the leader's deadline, and with jitter the followers poll less often", fieldDoc: "the failing nodes' calls during an outage hang for RenewDeadline/2 rounds instead of failing at once", toggle: true, lo: "0", hi: "1", def: "false", scenario: true},
		{field: "Jitter", name: "jitter", doc: "followers poll every retry period stretched by client-go's jitter, RP·(1 + U[0, 1.2)), and count the lease from when they saw the last renewal; drawn from the run's seed", fieldDoc: "followers poll with client-go's jitter and count the lease from when they observed the last renewal", toggle: true, lo: "0", hi: "1", def: "false"},
		{field: "Drift", name: "drift", doc: "the failing nodes' clocks run this many thousandths fast (negative: slow), the whole run: a leader among them gives up its renew deadline, and a follower counts the lease, in its own time (-500 is half speed, 1000 double)", fieldDoc: "the failing nodes' clock rate, in thousandths over 1: their renew deadlines and lease counts run at 1 + Drift/1000", lo: "-500", hi: "1000", def: "0", scenario: true},
		{field: "Protocol", name: "protocol", doc: "the lock's protocol: client-go (the followers poll and count the lease; the leader gives up at its renew deadline or a re-read), etcd, consul, curator, curator-session, redisson or postgres (the service ends the lease and the next candidate watches; postgres's server at once as the holder's process crashes, never while it is paused), dynamodb (each waiter counts the lease on its own clock while the record's version stays unchanged), shedlock or shedlock-redis (no leader: each node fires the batch itself and runs it if it takes the lock, which lasts lease rounds; shedlock-redis frees the lock at a run's end without checking its owner), or quartz or db-scheduler (the other nodes declare the holder failed a lease after its last check-in or heartbeat and, under on_cut, run its batch again at once beside it); each holder gives up by its library's rule (redisson's, postgres's, quartz's and db-scheduler's holders never, while they are cut off): docs/model.md, Lock protocols", fieldDoc: "the lock's protocol (the LockProtocol constants): who ends the lease, how a waiter learns, when a cut-off holder gives up", lo: "0", hi: "NumProtocols-1", def: "0", enum: "LockProtocol"},
		{field: "LockDelay", name: "lock_delay", doc: "with protocol consul, rounds after the service expires a lease (not after a release) during which nobody may take the lock (Consul's session lock-delay)", fieldDoc: "with ProtocolConsul, rounds after an expiry before anyone may take the lock", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "AcquireWait", name: "acquire_wait", doc: "with protocol dynamodb, rounds an acquire call waits beyond the lease before it gives up and the next call begins, observing afresh (the DynamoDB lock client's additionalTimeToWaitForLock)", fieldDoc: "with ProtocolDynamoDB, rounds an acquire call lasts beyond the lease", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "DisconnectDelay", name: "disconnect_delay", doc: "with protocol curator or curator-session, rounds from the ZooKeeper client's disconnect to its report of it (SUSPENDED): the give-up at a failed call or the read timeout, Curator's LOST, and a holder's notice as it wakes past its session come this much later, the holder believing (and working) until then (ZooKeeper's NIO client sleeps 100 ms first, ClientCnxnSocketNIO.cleanup)", fieldDoc: "with ProtocolCurator or ProtocolCuratorSession, rounds from a disconnect to its report (SUSPENDED)", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "ServiceFailover", name: "service_failover", doc: "with protocol etcd, consul, curator or curator-session, the lock service fails over to a new leader of its own (etcd's Raft leader, Consul's server leader, ZooKeeper's quorum leader) in this round, this long into the run, and every lease's expiry counts afresh from there (0: never)", fieldDoc: "with a service protocol, the round the lock service's own leader changes, every lease's expiry counting afresh from it; 0: never", lo: "0", hi: "MaxRounds", def: "0", time: "Duration", scenario: true},
		{field: "LockAtLeastFor", name: "lock_at_least_for", doc: "with protocol shedlock or shedlock-redis, rounds after a node took the lock before its run's end may free it (ShedLock's lockAtLeastFor; lease is its lockAtMostFor)", fieldDoc: "with ProtocolShedLock or ProtocolShedLockRedis, rounds from taking the lock before a run's end frees it", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "FireSpread", name: "fire_spread", doc: "with protocol shedlock or shedlock-redis, rounds from node 0's fire of a slot to the last node's: node i fires i·fire_spread/(nodes−1) rounds after the slot by its clock, rounded down (the schedulers' delay, and the clocks' skew where no failure of kind skew gives it)", fieldDoc: "with ProtocolShedLock or ProtocolShedLockRedis, node i fires i·FireSpread/(Nodes−1) rounds after each slot", lo: "0", hi: "MaxRounds", def: "0", time: "Duration"},
		{field: "UsingDbTime", name: "using_db_time", doc: "with protocol shedlock, the lock's lock_until is written and compared on the database's clock (ShedLock's usingDbTime()); false, the JDBC provider's default: on the nodes' own clocks, so that a node whose clock is ahead (a failure of kind skew) sees another's lock end early", fieldDoc: "with ProtocolShedLock, lock_until is written and compared on the database's clock, not the nodes'", toggle: true, lo: "0", hi: "1", def: "false"},
	}
}

func main() {
	if err := os.WriteFile("params.go", Generate(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// fields writes the struct named part: the parameters with scenario set
// as given, in column order.
func fields(b *bytes.Buffer, ps []param, part string, scenario bool) {
	fmt.Fprintf(b, "type %s struct {\n", part)
	for _, x := range ps {
		if x.scenario != scenario {
			continue
		}
		typ := "int"
		if x.toggle {
			typ = "bool"
		} else if x.enum != "" {
			typ = x.enum
		}
		fmt.Fprintf(b, "\t%s %s // %s\n", x.field, typ, x.fieldDoc)
	}
	fmt.Fprintf(b, "}\n\n")
}

// Generate returns the text of model/params.go.
func Generate() []byte {
	ps := params()
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("// Code generated by paramgen from its table of parameters; DO NOT EDIT.\n\n")
	p("package model\n\nimport \"strconv\"\n\n")

	p("// The parameters of the round model, in column order.\nconst (\n")
	for i, x := range ps {
		if i == 0 {
			p("\t%s Param = iota\n", x.field)
		} else {
			p("\t%s\n", x.field)
		}
	}
	p("\tNumParams int = iota\n)\n\n")

	p("// Config is one configuration of the round model: what a deployment\n")
	p("// sets (Policy) and the failures its run meets (Scenario). Their fields\n")
	p("// read as Config's own, c.Lease and c.Outage alike: each is one Param,\n")
	p("// numbered in column order whichever part holds it.\n")
	p("type Config struct {\n\tPolicy\n\tScenario\n}\n\n")
	p("// Policy is what a deployment sets: its nodes, lease settings, trigger\n")
	p("// policy, fencing and quorum.\n")
	fields(&b, ps, "Policy", false)
	p("// Scenario is the failures a run meets, and how long it lasts: Run's\n")
	p("// schedule is the publication's group outage (Schedule), nodes DownFrom …\n")
	p("// DownFrom+Down-1 unreachable in rounds Start … Start+Outage-1, every\n")
	p("// other node always reachable; the failure kinds say how failing nodes\n")
	p("// fail, under any schedule whose windows name no kind of their own.\n")
	fields(&b, ps, "Scenario", true)

	p("// Default returns the publication's scenario: 5 nodes, lease 3, re-read period 3,\n")
	p("// the leader unreachable for 5 rounds from round 6, 24 rounds, a batch\n// every 6.\n")
	p("func Default() Config {\n\treturn Config{")
	for i, part := range []string{"Policy", "Scenario"} {
		var defs []string
		for _, x := range ps {
			if x.scenario == (i == 1) && x.def != "false" && x.def != "0" {
				defs = append(defs, x.field+": "+x.def)
			}
		}
		p("%s: %s{%s}, ", part, part, strings.Join(defs, ", "))
	}
	p("}\n}\n\n")

	p("type paramInfo struct {\n\tname, doc string\n}\n\n")
	p("// paramTable is indexed by Param. It is a function so that the package\n// keeps no mutable globals.\n")
	p("func paramTable(p Param) paramInfo {\n\tswitch p {\n")
	for _, x := range ps {
		p("\tcase %s:\n\t\treturn paramInfo{%q, %q}\n", x.field, x.name, x.doc)
	}
	p("\t}\n\tpanic(\"model: unknown parameter \" + strconv.Itoa(int(p)))\n}\n\n")

	p("// Time says whether the parameter is a time in rounds, and which kind.\n")
	p("func (p Param) Time() TimeKind {\n\tswitch p {\n")
	for _, kind := range []string{"Duration", "Point"} {
		var fields []string
		for _, x := range ps {
			if x.time == kind {
				fields = append(fields, x.field)
			}
		}
		if len(fields) > 0 {
			p("\tcase %s:\n\t\treturn %s\n", strings.Join(fields, ", "), kind)
		}
	}
	p("\t}\n\treturn NotTime\n}\n\n")

	p("// Names returns the names of an enumeration's values, indexed by value;\n// nil for a parameter that is no enumeration.\n")
	p("func (p Param) Names() []string {\n\tswitch p {\n")
	for _, x := range ps {
		if x.enum != "" {
			p("\tcase %s:\n\t\treturn %s%sNames()\n", x.field, strings.ToLower(x.enum[:1]), x.enum[1:])
		}
	}
	p("\t}\n\treturn nil\n}\n\n")

	p("// Bool reports whether the parameter is a toggle, stored as 0 or 1.\n")
	var toggles []string
	for _, x := range ps {
		if x.toggle {
			toggles = append(toggles, "p == "+x.field)
		}
	}
	p("func (p Param) Bool() bool { return %s }\n\n", strings.Join(toggles, " || "))

	// Range must inline (Validate's fast path calls it for every
	// parameter): parameters with one range share a case, and the most
	// common range is the default, as one would write it by hand.
	p("// Range is the inclusive range of values the parameter accepts.\n")
	p("func (p Param) Range() (min, max int) {\n\tswitch p {\n")
	type bounds struct{ lo, hi string }
	var order []bounds
	groups := map[bounds][]string{}
	for _, x := range ps {
		k := bounds{x.lo, x.hi}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], x.field)
	}
	common := order[0]
	for _, k := range order {
		if len(groups[k]) > len(groups[common]) {
			common = k
		}
	}
	for _, k := range order {
		if k != common {
			p("\tcase %s:\n\t\treturn %s, %s\n", strings.Join(groups[k], ", "), k.lo, k.hi)
		}
	}
	p("\t}\n\treturn %s, %s\n}\n\n", common.lo, common.hi)

	// A parameter's value as an int, and how an int is stored back.
	read := func(x param) string {
		if x.toggle {
			return "b2i(c." + x.field + ")"
		} else if x.enum != "" {
			return "int(c." + x.field + ")"
		}
		return "c." + x.field
	}
	write := func(x param) string {
		if x.toggle {
			return "c." + x.field + " = v != 0"
		} else if x.enum != "" {
			return "c." + x.field + " = " + x.enum + "(v)"
		}
		return "c." + x.field + " = v"
	}

	p("// Get returns the value of parameter p; toggles are 0 or 1.\n")
	p("func (c *Config) Get(p Param) int {\n\tswitch p {\n")
	for _, x := range ps {
		p("\tcase %s:\n\t\treturn %s\n", x.field, read(x))
	}
	p("\t}\n\tpanic(\"model: unknown parameter \" + strconv.Itoa(int(p)))\n}\n\n")

	p("// values returns every parameter's value, in column order.\n")
	p("func (c *Config) values() [NumParams]int {\n\treturn [NumParams]int{")
	var vals []string
	for _, x := range ps {
		vals = append(vals, read(x))
	}
	p("%s}\n}\n\n", strings.Join(vals, ", "))

	p("// toggles returns the Scenario's toggles that are set, each as the bit\n// 1<<p of its Param p: a run reads the table of failure kinds again only\n// when they change (Runner.run).\n")
	p("func (s *Scenario) toggles() uint64 {\n\treturn ")
	var bits []string
	for _, x := range ps {
		if x.toggle && x.scenario {
			bits = append(bits, fmt.Sprintf("uint64(b2i(s.%s))<<%s", x.field, x.field))
		}
	}
	p("%s\n}\n\n", strings.Join(bits, " | "))

	p("// Set sets parameter p to v; toggles take 0 or 1. It does not validate.\n")
	p("func (c *Config) Set(p Param, v int) {\n\tswitch p {\n")
	for _, x := range ps {
		p("\tcase %s:\n\t\t%s\n", x.field, write(x))
	}
	p("\tdefault:\n\t\tpanic(\"model: unknown parameter \" + strconv.Itoa(int(p)))\n\t}\n}\n\n")

	p("// Validate returns a *RangeError for the first parameter out of range,\n// or an error naming parameters that do not go together (checkRelations).\n")
	p("func (c *Config) Validate() error {\n")
	// A negative offset is a huge uint, so one compare of the OR of a
	// group's offsets checks both ends of every range in the group.
	p("\t// The common case, without building the values: the offsets of the\n")
	p("\t// parameters bounded by MaxRounds, and of those bounded by MaxNodes,\n")
	p("\t// OR-ed together below a power of two within each of their ranges, so\n")
	p("\t// that every one is in range; the others one by one.\n\tif ")
	var checks []string
	grouped := []string{"MaxRounds", "MaxNodes"}
	for _, bound := range grouped {
		var offsets []string
		for _, x := range ps {
			if x.toggle || x.hi != bound {
				continue
			}
			switch x.lo {
			case "0":
				offsets = append(offsets, fmt.Sprintf("uint(%s)", read(x)))
			case "1":
				offsets = append(offsets, fmt.Sprintf("uint(%s-1)", read(x)))
			default:
				log.Fatalf("paramgen: %s: a least value of 0 or 1 for a range to %s", x.field, bound)
			}
		}
		checks = append(checks, fmt.Sprintf("%s < fast%s", strings.Join(offsets, "|"), bound))
	}
	for _, x := range ps {
		if !x.toggle && !slices.Contains(grouped, x.hi) {
			checks = append(checks, fmt.Sprintf("inRange(%s, %s)", read(x), x.field))
		}
	}
	p("%s {\n\t\treturn c.checkRelations()\n\t}\n", strings.Join(checks, " &&\n\t\t"))
	p("\tfor p, v := range c.values() {\n\t\tif lo, hi := Param(p).Range(); v < lo || v > hi {\n")
	p("\t\t\treturn &RangeError{Param: Param(p), Value: v}\n\t\t}\n\t}\n\treturn c.checkRelations()\n}\n")

	p("\n// fastMaxRounds and fastMaxNodes are powers of two no greater than\n")
	p("// MaxRounds and MaxNodes: an offset below one is within a range from 0\n")
	p("// or 1 to that bound (Validate's common case). The blank constants fail\n")
	p("// to compile if a bound falls below its power.\n")
	p("const (\n\tfastMaxRounds = 1 << 29\n\tfastMaxNodes  = 1 << 19\n)\n\n")
	p("const (\n\t_ uint = MaxRounds - fastMaxRounds\n\t_ uint = MaxNodes - fastMaxNodes\n)\n")

	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("paramgen: %v\n%s", err, b.Bytes())
	}
	return src
}
