package model_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/soak"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(*model.Config)
		param    model.Param // the parameter named in the error; -1 for none
		relation string      // or, for parameters that do not go together, the start of the error
	}{
		{"defaults", func(*model.Config) {}, -1, ""},
		{"renewal -1", func(c *model.Config) { c.RereadPeriod = -1 }, model.RereadPeriod, ""},
		{"retry period 0", func(c *model.Config) { c.RetryPeriod = 0 }, model.RetryPeriod, ""},
		{"renew deadline -1", func(c *model.Config) { c.RenewDeadline = -1 }, model.RenewDeadline, ""},
		{"renewal 0 without a deadline", func(c *model.Config) { c.RereadPeriod = 0 }, -1, "renewal 0 (never re-read) needs a renew_deadline"},
		{"client-go's kubernetes in seconds", func(c *model.Config) { c.Lease, c.RenewDeadline, c.RetryPeriod, c.RereadPeriod = 15, 10, 2, 0 }, -1, ""},
		{"lease = deadline", func(c *model.Config) { c.Lease, c.RenewDeadline = 10, 10 }, -1, "lease 10 must be longer than renew_deadline 10"},
		{"client-go: deadline = 1.2 × retry", func(c *model.Config) { c.Lease, c.RenewDeadline, c.RetryPeriod, c.Jitter = 10, 6, 5, true }, -1, "renew_deadline 6 must be longer than 1.2 × retry_period 5"},
		{"client-go: deadline just above 1.2 × retry", func(c *model.Config) { c.Lease, c.RenewDeadline, c.RetryPeriod, c.Jitter = 10, 7, 5, true }, -1, ""},
		{"another lock: deadline below the retry period", func(c *model.Config) { c.Lease, c.RenewDeadline, c.RetryPeriod = 90, 1, 15 }, -1, ""},
		{"etcd", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod = model.ProtocolEtcd, 60, 20, 0
		}, -1, ""},
		{"consul with its lock-delay", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.LockDelay = model.ProtocolConsul, 30, 7, 0, 15
		}, -1, ""},
		{"a lock-delay under etcd", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.LockDelay = model.ProtocolEtcd, 60, 20, 0, 15
		}, -1, "lock_delay 15 needs protocol consul"},
		{"a lock-delay under client-go", func(c *model.Config) { c.LockDelay = 15 }, -1, "lock_delay 15 needs protocol consul"},
		{"curator with a disconnect delay", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.DisconnectDelay = model.ProtocolCurator, 40, 13, 0, 1
		}, -1, ""},
		{"curator-session with a disconnect delay", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.DisconnectDelay = model.ProtocolCuratorSession, 40, 13, 0, 1
		}, -1, ""},
		{"a disconnect delay under etcd", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.DisconnectDelay = model.ProtocolEtcd, 60, 20, 0, 1
		}, -1, "disconnect_delay 1 needs protocol curator or curator-session"},
		{"a disconnect delay under client-go", func(c *model.Config) { c.DisconnectDelay = 100 }, -1, "disconnect_delay 100 needs protocol curator or curator-session"},
		{"a re-read under etcd", func(c *model.Config) { c.Protocol, c.Lease, c.RetryPeriod = model.ProtocolEtcd, 60, 20 }, -1, "renewal 3 (a re-read of the record) is client-go's"},
		{"a renew deadline under curator", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.RenewDeadline = model.ProtocolCurator, 40, 13, 0, 10
		}, -1, "renew_deadline 10 is client-go's"},
		{"jitter under consul", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod, c.Jitter = model.ProtocolConsul, 30, 7, 0, true
		}, -1, "jitter is client-go's followers' polling"},
		{"a lease of one retry period under etcd", func(c *model.Config) {
			c.Protocol, c.Lease, c.RetryPeriod, c.RereadPeriod = model.ProtocolEtcd, 20, 20, 0
		}, -1, "lease 20 must be longer than retry_period 20"},
		{"protocol out of range", func(c *model.Config) { c.Protocol = model.LockProtocol(model.NumProtocols) }, model.Protocol, ""},
		{"nodes 0", func(c *model.Config) { c.Nodes = 0 }, model.Nodes, ""},
		{"outage -1", func(c *model.Config) { c.Outage = -1 }, model.Outage, ""},
		{"lease 0", func(c *model.Config) { c.Lease = 0 }, model.Lease, ""},
		{"start 0", func(c *model.Config) { c.Start = 0 }, model.Start, ""},
		{"rounds too many", func(c *model.Config) { c.Rounds = model.MaxRounds + 1 }, model.Rounds, ""},
		{"period 0", func(c *model.Config) { c.Period = 0 }, model.Period, ""},
		{"down -1", func(c *model.Config) { c.Down = -1 }, model.Down, ""},
		{"nodes too many", func(c *model.Config) { c.Nodes = model.MaxNodes + 1 }, model.Nodes, ""},
		{"outage 0 is valid", func(c *model.Config) { c.Outage = 0 }, -1, ""},
		{"down beyond nodes is valid", func(c *model.Config) { c.Down = 9 }, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := model.Default()
			tt.edit(&c)
			err := c.Validate()
			_, runErr := model.Run(c)
			if (err == nil) != (runErr == nil) {
				t.Errorf("Validate() = %v but Run() error = %v", err, runErr)
			}
			var re *model.RangeError
			switch {
			case tt.relation != "":
				if err == nil || !strings.HasPrefix(err.Error(), tt.relation) || errors.As(err, &re) {
					t.Errorf("Validate() = %v, want an error starting %q", err, tt.relation)
				}
			case tt.param < 0 && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.param >= 0 && !errors.As(err, &re):
				t.Errorf("Validate() = %v, want a *RangeError", err)
			case tt.param >= 0 && re.Param != tt.param:
				t.Errorf("Validate() names %s, want %s", re.Param.Name(), tt.param.Name())
			}
		})
	}
}

func TestParamNames(t *testing.T) {
	want := []string{"nodes", "lease", "renewal", "retry_period", "renew_deadline", "outage", "start", "rounds", "period", "batch_len", "fencing", "persistent_trigger", "catch_up_window", "catch_up_once", "idempotency_key", "overlap", "on_cut", "runs_in", "down", "down_from", "quorum",
		"pause", "crash", "release", "partition", "black_hole", "jitter", "drift", "protocol", "lock_delay", "acquire_wait", "disconnect_delay", "service_failover", "lock_at_least_for", "fire_spread", "using_db_time"}
	if len(want) != model.NumParams {
		t.Fatalf("%d names for %d parameters", len(want), model.NumParams)
	}
	for i, name := range want {
		p := model.Param(i)
		if p.Name() != name {
			t.Errorf("Param(%d).Name() = %q, want %q", i, p.Name(), name)
		}
		if q, ok := model.ParamByName(name); !ok || q != p {
			t.Errorf("ParamByName(%q) = %v, %v", name, q, ok)
		}
		c := model.Default()
		c.Set(p, 1)
		if c.Get(p) != 1 {
			t.Errorf("Set(%s, 1) then Get = %d", name, c.Get(p))
		}
	}
	if model.PersistentTrigger.Flag() != "persistent-trigger" {
		t.Errorf("flag name %q", model.PersistentTrigger.Flag())
	}
}

// TestInvariantsSmallSpace checks every invariant over a small grid that
// crosses every parameter, including the corner cases C1 (one node, a zone
// as large as the cluster), C5 (period 1) and C6 (an outage to the end),
// catch-up windows and idempotency keys.
// The short suite checks every 7th configuration.
func TestInvariantsSmallSpace(t *testing.T) {
	var r model.Runner
	every := soak.Every(1, 7)
	i, n := 0, 0
	for nodes := 1; nodes <= 4; nodes++ {
		for lease := 1; lease <= 4; lease++ {
			for reread := 1; reread <= 3; reread++ {
				for outage := 0; outage <= 14; outage += 2 {
					for start := 1; start <= 7; start += 3 {
						for period := 1; period <= 5; period += 2 {
							for down := 0; down <= nodes; down++ {
								for toggles := range 64 {
									c := model.Config{
										Policy:   model.Policy{BatchLen: 1, Nodes: nodes, Lease: lease, RereadPeriod: reread, RetryPeriod: 1, Period: period, PersistentTrigger: toggles&1 != 0, Quorum: toggles&2 != 0, Fencing: toggles&4 != 0, CatchUpWindow: []int{0, 1, 2, 5}[toggles>>3&3], IdempotencyKey: toggles&32 != 0},
										Scenario: model.Scenario{Outage: outage, Start: start, Rounds: 16, Down: down},
									}
									if i++; i%every != 0 {
										continue
									}
									if err := r.Check(c, c.Schedule()); err != nil {
										t.Fatalf("%+v: %v", c, err)
									}
									n++
								}
							}
						}
					}
				}
			}
		}
	}
	if n*every < 10000 {
		t.Fatalf("checked only %d configurations, every %dth", n, every)
	}
}

// TestRenewDeadlineSmallSpace checks every invariant over a small grid of
// client-go's timings: retry periods, renew deadlines (none, or any
// client-go accepts), re-read period 0 (only the deadline ends a belief), the
// followers' jitter, calls that hang, each kind of failure (partition,
// crash, pause), crossed with outages, starts, zones and the toggles.
// The suite checks every 7th configuration and the short suite every
// 61st, which meet every value of every dimension (neither divides any of
// their lengths); -soak checks all.
func TestRenewDeadlineSmallSpace(t *testing.T) {
	var r model.Runner
	every := soak.Every(7, 61)
	i, n := 0, 0
	for _, nodes := range []int{1, 2, 3} {
		for _, lease := range []int{2, 4, 7, 12} {
			for _, reread := range []int{0, 1, 3} {
				for _, retry := range []int{1, 2, 3} {
					for _, deadline := range []int{0, 2, 3, 6, 11} {
						for _, outage := range []int{0, 2, 5, 11, 20} {
							for _, start := range []int{1, 3} {
								for _, period := range []int{1, 4} {
									for _, down := range []int{1, 2} {
										for toggles := range 160 {
											c := model.Config{
												Policy:   model.Policy{BatchLen: 1, Nodes: nodes, Lease: lease, RereadPeriod: reread, RetryPeriod: retry, RenewDeadline: deadline, Period: period, PersistentTrigger: toggles&1 != 0, Quorum: toggles&2 != 0, Fencing: toggles&4 != 0, Jitter: toggles&8 != 0},
												Scenario: model.Scenario{Outage: outage, Start: start, Rounds: 40, Down: down, BlackHole: toggles&16 != 0},
											}
											switch toggles >> 5 { // the kinds of failure, one at a time
											case 1:
												c.Partition = true
											case 2:
												c.Crash = true
											case 3:
												c.Pause = true
											case 4:
												c.Release = true
											}
											i++
											if i%every != 0 || c.Validate() != nil {
												continue // not in the slice, or client-go would refuse it too
											}
											if err := r.Check(c, c.Schedule()); err != nil {
												t.Fatalf("%+v: %v", c, err)
											}
											n++
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if n*every < 800_000 {
		t.Fatalf("checked only %d configurations, every %dth", n, every)
	}
}

// TestRunAllocatesNothing: once a Runner has grown, a run allocates
// nothing, batches that take time (whose runs and written parts it keeps)
// included, paused, or cut and rerun or resumed, in the leader or a Job.
func TestRunAllocatesNothing(t *testing.T) {
	for _, batchLen := range []int{1, 5} {
		for _, kind := range []func(*model.Config){func(*model.Config) {}, func(c *model.Config) { c.Pause = true }, func(c *model.Config) { c.Crash = true }} {
			for cut := range model.CutPolicy(model.NumCutPolicies) {
				for place := range model.RunPlace(model.NumRunPlaces) {
					var r model.Runner
					c := model.Default()
					c.PersistentTrigger, c.BatchLen, c.Start, c.OnCut, c.RunsIn = true, batchLen, 7, cut, place
					kind(&c)
					if _, err := r.Run(c); err != nil {
						t.Fatal(err)
					}
					if n := testing.AllocsPerRun(100, func() { r.Run(c) }); n != 0 {
						t.Errorf("%+v: Run allocates %v times per run, want 0", c, n)
					}
				}
			}
		}
	}
}

// TestRandomRunAllocatesNothing: a Monte Carlo replica, random failures
// with a zone's and every node's own processes beside them, allocates
// nothing once its Runner and schedule have grown.
func TestRandomRunAllocatesNothing(t *testing.T) {
	c := model.Default()
	c.Rounds = 5000
	up, _ := parse.Lengths(0, "geometric:20")
	down, _ := parse.Lengths(0, "geometric:5")
	s := &model.Alternating{Up: up, Down: down, Also: []model.Process{
		{Up: up, Down: down, Failure: model.Failure{Kind: model.Paused}},
		{Up: up, Down: down, Failure: model.Failure{Kind: model.Partitioned}, Zone: []int{0, 1}},
	}}
	var r model.Runner
	if _, err := r.RunSchedule(c, s); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { r.RunSchedule(c, s) }); n != 0 {
		t.Errorf("a random run allocates %v times, want 0", n)
	}
}

// TestWindowsRunAllocatesNothing: a schedule of windows, passed over (a
// few) or indexed (many, as a replayed incident has), allocates nothing
// once the Runner has grown.
func TestWindowsRunAllocatesNothing(t *testing.T) {
	for _, n := range []int{4, 1000} {
		var ws model.Windows
		for i := range n {
			ws = append(ws, model.Window{Node: i % 3, First: 1 + 4*i, Last: 2 + 4*i, Failure: model.Failure{Kind: model.Kind(i % 3)}})
		}
		var s model.Schedule = ws
		c := model.Default()
		c.Rounds = 4 * n
		var r model.Runner
		if _, err := r.RunSchedule(c, s); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(10, func() { r.RunSchedule(c, s) }); a != 0 {
			t.Errorf("%d windows: a run allocates %v times, want 0", n, a)
		}
	}
}

// TestNodeCountDoesNotMatterForOneFailingNode: in the publication's scenario only
// node 0 fails, so the node count beyond two changes nothing.
func TestNodeCountDoesNotMatterForOneFailingNode(t *testing.T) {
	base := model.Default()
	want, _ := model.Run(base)
	for _, nodes := range []int{2, 3, 10, 1000} {
		c := base
		c.Nodes = nodes
		got, err := model.Run(c)
		if err != nil || got != want {
			t.Errorf("nodes %d: %+v, %v; want %+v", nodes, got, err, want)
		}
	}
}

func BenchmarkRunPublication(b *testing.B) {
	var r model.Runner
	c := model.Default()
	b.ReportAllocs()
	for b.Loop() {
		r.Run(c)
	}
}

// BenchmarkRunNodes shows that the cost of a run does not grow with the
// node count: only the nodes that believe they lead are touched each round.
func BenchmarkRunNodes(b *testing.B) {
	for _, nodes := range []int{5, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			var r model.Runner
			c := model.Default()
			c.Nodes, c.Rounds = nodes, 1000
			b.ReportAllocs()
			for b.Loop() {
				r.Run(c)
			}
		})
	}
}

// TestQuietStretchesSkipped: a run that skips quiet stretches gives the
// same statistics as one observed round by round, which skips nothing.
func TestQuietStretchesSkipped(t *testing.T) {
	var r model.Runner
	for nodes := 1; nodes <= 3; nodes++ {
		for lease := 1; lease <= 5; lease++ {
			for reread := 1; reread <= 4; reread++ {
				for outage := 0; outage <= 12; outage += 3 {
					for period := 1; period <= 7; period += 3 {
						for toggles := range 8 {
							c := model.Config{
								Policy:   model.Policy{BatchLen: 1, Nodes: nodes, Lease: lease, RereadPeriod: reread, RetryPeriod: 1, Period: period, PersistentTrigger: toggles&1 != 0, Quorum: toggles&2 != 0, Fencing: toggles&4 != 0},
								Scenario: model.Scenario{Outage: outage, Start: 5, Rounds: 40, Down: 1},
							}
							skipped, err := r.Run(c)
							if err != nil {
								t.Fatal(err)
							}
							stepped, err := r.Trace(c, c.Schedule(), 1, c.Rounds, func(*model.RoundView) {})
							if err != nil {
								t.Fatal(err)
							}
							if skipped != stepped {
								t.Fatalf("%+v:\nskipping       %+v\nround by round %+v", c, skipped, stepped)
							}
						}
					}
				}
			}
		}
	}
}

// TestCheckInvariantsCatches: each invariant, broken on purpose, is named.
func TestCheckInvariantsCatches(t *testing.T) {
	c := model.Default()
	good, _ := model.Run(c)
	fenced := c
	fenced.Fencing = true
	trigger := c
	trigger.PersistentTrigger = true
	short := c // its leader gives up 2 rounds after the lease runs out
	short.Lease, short.RetryPeriod, short.RenewDeadline, short.RereadPeriod = 6, 3, 5, 0
	etcd, consul := c, c // the seed's two-leader rounds, under protocols that allow none there
	etcd.Protocol, etcd.Lease, etcd.RetryPeriod, etcd.RereadPeriod = model.ProtocolEtcd, 6, 2, 0
	consul.Protocol, consul.Lease, consul.RetryPeriod, consul.RereadPeriod, consul.LockDelay = model.ProtocolConsul, 6, 2, 0, 2
	redisson := c // isolated: its work reaches nothing while it is cut off
	redisson.Protocol, redisson.Lease, redisson.RetryPeriod, redisson.RereadPeriod = model.ProtocolRedisson, 3, 1, 0
	partitioned := redisson // cut off in rounds 6-10 after its renewal in round 5: Redis frees the lock in round 8
	partitioned.Partition = true
	quartz, quartzCut := redisson, partitioned // the same under Quartz's rule: never told, the batch recovered
	quartz.Protocol, quartzCut.Protocol = model.ProtocolQuartz, model.ProtocolQuartz
	tests := []struct {
		name string
		c    model.Config
		edit func(*model.Stats)
		want string
	}{
		{"a trigger lost", c, func(s *model.Stats) { s.Started-- }, "trigger rounds"},
		{"double start with fencing", fenced, func(s *model.Stats) { s.Missed, s.DoubleStarts = 1, 1 }, "double_starts = 1 with fencing"},
		{"missed with the trigger", trigger, func(s *model.Stats) {}, "missed = 1 with the persistent trigger"},
		{"rejected without fencing", c, func(s *model.Stats) { s.Rejected = 1 }, "rejected = 1 without fencing"},
		{"negative", c, func(s *model.Stats) { s.DelayedRounds = -1 }, "delayed_rounds = -1 is negative"},
		{"too many window rounds", c, func(s *model.Stats) { s.LeaderlessRounds = 23 }, "> 24 rounds"},
		{"handover before the lease", c, func(s *model.Stats) { s.HandoverRounds = 2 }, "handover_rounds 2 < handovers 1 × lease 3"},
		{"a handover inside the lock-delay", consul, func(s *model.Stats) {
			s.HandoverRounds, s.TwoLeaderRounds, s.TwoLeaderEpisodes = 7, 0, model.Episodes{}
		}, "handover_rounds 7 < handovers 1 × (lease 6 + lock_delay 2)"},
		{"two leaders under etcd", etcd, func(s *model.Stats) { s.HandoverRounds = 6 }, "two_leader_rounds 2, double_starts 1 under protocol etcd without drift"},
		{"two leaders under consul, no call hanging", consul, func(s *model.Stats) { s.HandoverRounds = 8 }, "under protocol consul although no failing node's calls hang"},
		{"two leaders under redisson, no work past the lease", redisson, func(s *model.Stats) {}, "under protocol redisson without drift although no failing node pauses or works on while cut off"},
		{"one leader under redisson, the holder partitioned past its lease", partitioned, func(s *model.Stats) {
			s.TwoLeaderRounds, s.TwoLeaderEpisodes = 0, model.Episodes{}
		}, "two_leader_rounds 0 < 3 under protocol redisson"},
		{"two leaders under quartz, no work past the lease", quartz, func(s *model.Stats) {}, "under protocol quartz without drift although no failing node works on while cut off"},
		{"one leader under quartz, the holder partitioned past its lease", quartzCut, func(s *model.Stats) {
			s.TwoLeaderRounds, s.TwoLeaderEpisodes = 0, model.Episodes{}
		}, "two_leader_rounds 0 < 3 under protocol quartz"},
		{"two leaders past the deadline", short, func(s *model.Stats) { s.HandoverRounds, s.TwoLeaderRounds = 6, 3 }, "two_leader_rounds 3 > handovers 1 × (retry_period 3 + renew_deadline 5 − lease 6)"},
		{"a round outside the episodes", c, func(s *model.Stats) { s.LeaderlessRounds++ }, "leaderless rounds: the squares of"},
		{"two-leader rounds in no episode", c, func(s *model.Stats) { s.TwoLeaderEpisodes = model.Episodes{} }, "two-leader rounds: 0 episodes of"},
		{"a long episode too few", c, func(s *model.Stats) { s.LeaderlessEpisodes.Long = 0 }, "0 of 1 episodes longer than a round"},
	}
	for _, tt := range tests {
		st := good
		tt.edit(&st)
		err := model.CheckInvariants(tt.c, tt.c.Schedule(), st)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	if err := model.CheckInvariants(c, c.Schedule(), good); err != nil {
		t.Errorf("the seed's run: %v", err)
	}
}

// TestCheckOnceUnderBufferOne: under buffer-one, one run for the queued
// slots can start more than running every slot (the last story of
// testdata/scenarios/overlap.txt: 5 against 4), and Check takes it for
// what the policies do, not a broken invariant.
func TestCheckOnceUnderBufferOne(t *testing.T) {
	c := model.Default()
	c.Nodes, c.Rounds, c.Period, c.BatchLen, c.PersistentTrigger, c.Overlap, c.CatchUpWindow = 1, 24, 4, 3, true, model.OverlapBufferOne, 6
	ws := model.Windows{{Node: 0, First: 1, Last: 9}, {Node: 0, First: 13, Last: 14}}
	var r model.Runner
	started := map[bool]int{}
	for _, once := range []bool{false, true} {
		c.CatchUpOnce = once
		st, err := r.RunSchedule(c, ws)
		if err != nil {
			t.Fatal(err)
		}
		started[once] = st.Started
		if err := r.Check(c, ws); err != nil {
			t.Errorf("catch_up_once %t: %v", once, err)
		}
	}
	if started[true] != 5 || started[false] != 4 {
		t.Errorf("started %d with one run for the queued slots, %d running every slot; want 5 and 4", started[true], started[false])
	}
}

// TestInvariantsOfOwnKinds: where nodes fail each their own way, a claim
// holds only if every way keeps it and a margin goes if any way gives it
// up. Two leaders for a round: a break if every window crashes or stops
// cleanly, not if one of them keeps its belief; a handover a round after
// the leader went: a break unless a window stops cleanly.
func TestInvariantsOfOwnKinds(t *testing.T) {
	c := model.Default()
	good, _ := model.Run(c)
	twoLeaders, early := good, good
	twoLeaders.TwoLeaderRounds, twoLeaders.TwoLeaderEpisodes = 1, model.Episodes{Count: 1}
	early.HandoverRounds = early.Handovers
	windows := func(kinds ...model.Kind) model.Windows {
		var ws model.Windows
		for i, k := range kinds {
			ws = append(ws, model.Window{Node: i, First: 6, Last: 10, Failure: model.Failure{Kind: k}})
		}
		return ws
	}
	for _, tt := range []struct {
		name string
		ws   model.Windows
		st   model.Stats
		want string // "" for no break
	}{
		{"crash and stop: two leaders", windows(model.Crashed, model.Released), twoLeaders, "although failing nodes crash or stop"},
		{"stop and isolate: two leaders", windows(model.Released, model.Isolated), twoLeaders, ""},
		{"a window as configured, which isolates: two leaders", windows(model.Crashed, model.AsConfigured), twoLeaders, ""},
		{"stop and isolate: an early handover", windows(model.Released, model.Isolated), early, ""},
		{"crash and isolate: an early handover", windows(model.Crashed, model.Isolated), early, "< handovers"},
	} {
		err := model.CheckInvariants(c, tt.ws, tt.st)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no break", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want a break containing %q", tt.name, err, tt.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		edit func(*model.Config)
		want string
	}{
		{func(*model.Config) {}, ""},
		{func(c *model.Config) { c.Period = 25 }, "period 25 is longer than the run's 24 rounds: no batch falls due, so none can be missed or started twice"},
		{func(c *model.Config) { c.Period = 24 }, ""},
		{func(c *model.Config) { c.Start = 25 }, "the outage starts in round 25, after the run's last round 24: no node fails"},
		{func(c *model.Config) { c.CatchUpOnce = true }, "the catch-up window and catch-up-once decide what becomes of queued batches: without the persistent trigger none is queued, so they change nothing"},
		{func(c *model.Config) { c.CatchUpWindow, c.PersistentTrigger = 3, true }, ""},
		{func(c *model.Config) { c.Start, c.Outage = 25, 0 }, ""},
		{func(c *model.Config) { c.Start = 20 }, ""}, // the outage ends in the run's last round
		{func(c *model.Config) { c.Start, c.Outage = 6, 100 }, "the outage of 100 rounds that starts in round 6 ends in round 105, after the run's last round 24: its end and what follows it are not run; --rounds 105 or more runs them"},
		{func(c *model.Config) { c.ServiceFailover, c.Protocol, c.RereadPeriod = 30, model.ProtocolEtcd, 0 }, "the lock service fails over in round 30, after the run's last round 24: no lease counts afresh"},
		{func(c *model.Config) { c.Down = 6 }, "down 6 is more than the 5 nodes: all of them fail together"},
		{func(c *model.Config) { c.Down = 5 }, ""},
	}
	for _, tt := range tests {
		c := model.Default()
		tt.edit(&c)
		if got := strings.Join(c.Warnings(0), "; "); got != tt.want {
			t.Errorf("%+v: %q, want %q", c, got, tt.want)
		}
	}
	// With a tick, every time is a duration, never a round.
	c := model.Default()
	c.Period, c.Start, c.Outage, c.Rounds, c.Protocol, c.RereadPeriod, c.ServiceFailover = 60, 60, 100, 120, model.ProtocolEtcd, 0, 360_000
	want := "the outage of 1m40s that starts at 59s ends at 2m38s, after the run's end at 2m0s: its end and what follows it are not run; --rounds 2m39s or more runs them; " +
		"the lock service fails over at 100h0m0s, after the run's end at 2m0s: no lease counts afresh"
	if got := strings.Join(c.Warnings(model.Tick(time.Second)), "; "); got != want {
		t.Errorf("with a tick: %q, want %q", got, want)
	}
}

// TestJitterTakeoverBounds: with jitter, every handover falls between a
// lease and a lease plus two of the longest poll gaps (2 × 2.2 retry
// periods) after the last renewal, a round more for the round the poll
// falls in, and the seed decides where: runs with one seed repeat, and
// over many seeds the delays spread over most of that range.
func TestJitterTakeoverBounds(t *testing.T) {
	var r model.Runner
	c := model.Config{
		Policy:   model.Policy{BatchLen: 1, Nodes: 3, Lease: 150, RereadPeriod: 0, RetryPeriod: 20, RenewDeadline: 100, Period: 1000, Jitter: true},
		Scenario: model.Scenario{Outage: 2000, Start: 1001, Rounds: 4000, Down: 1},
	}
	lo, hi := c.Lease, c.Lease+int(2*(1+model.JitterFactor)*float64(c.RetryPeriod))+1
	seen := map[int]bool{}
	for seed := range uint64(500) {
		r.JitterSeed = [2]uint64{seed, 7}
		st, err := r.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := r.Run(c)
		switch {
		case st != again:
			t.Fatalf("seed %d: %+v, then %+v", seed, st, again)
		case st.Handovers != 1 || st.HandoverRounds < lo || st.HandoverRounds > hi:
			t.Fatalf("seed %d: %d handovers, %d rounds after the last renewal; want 1 within %d … %d", seed, st.Handovers, st.HandoverRounds, lo, hi)
		}
		seen[st.HandoverRounds] = true
	}
	if len(seen) < (hi-lo)/2 {
		t.Errorf("500 seeds gave only %d distinct delays in %d … %d", len(seen), lo, hi)
	}
}

// TestOwnKindsCheck: runs whose nodes fail each their own way are the
// same stretch by stretch as round by round, and pass every check
// (invariants as the windows' kinds state them, fencing changing no
// round). Every pair of kinds for the leader and a standby, overlapping
// or not, under the publication's and client-go's timing.
func TestOwnKindsCheck(t *testing.T) {
	kinds := ownKinds()
	var r model.Runner
	n := 0
	for _, timing := range []func(*model.Config){
		func(c *model.Config) {},
		func(c *model.Config) { c.Lease, c.RereadPeriod, c.RenewDeadline, c.RetryPeriod = 6, 0, 3, 2 },
	} {
		for _, a := range kinds {
			for _, b := range kinds {
				for _, second := range [][2]int{{8, 12}, {16, 30}} {
					for _, persistent := range []bool{false, true} {
						c := model.Default()
						c.Nodes, c.Rounds, c.Period, c.PersistentTrigger = 3, 60, 5, persistent
						timing(&c)
						ws := model.Windows{{Node: 0, First: 6, Last: 20, Failure: model.Failure{Kind: a}}, {Node: 1, First: second[0], Last: second[1], Failure: model.Failure{Kind: b}}}
						run, err := r.RunSchedule(c, ws)
						if err != nil {
							t.Fatal(err)
						}
						stepped, _ := r.Trace(c, ws, 1, c.Rounds, func(*model.RoundView) {})
						if run != stepped {
							t.Errorf("%+v, windows %+v: stretch by stretch %+v, round by round %+v", c, ws, run, stepped)
						}
						if err := r.Check(c, ws); err != nil {
							t.Errorf("%+v, windows %+v: %v", c, ws, err)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d runs", n)
}

// TestAlternatingAlso: a node's further failure processes (Alternating's
// Also) fail it their own way, and a node down in two ways at once fails
// as the first: with fixed lengths, the schedule is the window schedule it
// describes, and the runs are the same.
func TestAlternatingAlso(t *testing.T) {
	never, _ := parse.Lengths(0, "fixed:1000000000")
	fixed := func(n int) model.Lengths { l, _ := parse.Lengths(0, fmt.Sprintf("fixed:%d", n)); return l }
	c := model.Default()
	c.Nodes, c.Rounds, c.Lease, c.RereadPeriod, c.RenewDeadline, c.RetryPeriod, c.Period = 3, 40, 6, 0, 3, 1, 5
	c.Partition = true // the Up/Down process's kind: a leader cut off works to its deadline
	for _, tt := range []struct {
		name string
		a    model.Alternating
		want model.Windows
	}{
		{"a pause beside no outage", model.Alternating{Up: never, Down: never, Also: []model.Process{{Up: fixed(10), Down: fixed(8), Failure: model.Failure{Kind: model.Paused}}}},
			model.Windows{{Node: 0, First: 11, Last: 18, Failure: model.Failure{Kind: model.Paused}}, {Node: 0, First: 29, Last: 36, Failure: model.Failure{Kind: model.Paused}},
				{Node: 1, First: 11, Last: 18, Failure: model.Failure{Kind: model.Paused}}, {Node: 1, First: 29, Last: 36, Failure: model.Failure{Kind: model.Paused}},
				{Node: 2, First: 11, Last: 18, Failure: model.Failure{Kind: model.Paused}}, {Node: 2, First: 29, Last: 36, Failure: model.Failure{Kind: model.Paused}}}},
		{"a zone of nodes 0 and 2 cut off together, beside no outage", model.Alternating{Up: never, Down: never, Also: []model.Process{{Up: fixed(10), Down: fixed(8), Failure: model.Failure{Kind: model.Isolated}, Zone: []int{0, 2}}}},
			model.Windows{{Node: 0, First: 11, Last: 18, Failure: model.Failure{Kind: model.Isolated}}, {Node: 0, First: 29, Last: 36, Failure: model.Failure{Kind: model.Isolated}},
				{Node: 2, First: 11, Last: 18, Failure: model.Failure{Kind: model.Isolated}}, {Node: 2, First: 29, Last: 36, Failure: model.Failure{Kind: model.Isolated}}}},
		{"a partition, then a crash that outlasts it", model.Alternating{Up: fixed(10), Down: fixed(5), Also: []model.Process{{Up: fixed(12), Down: fixed(6), Failure: model.Failure{Kind: model.Crashed}}}},
			nil},
	} {
		if tt.want == nil { // node by node: partition 11-15, crash 13-18 (16-18 on its own), partition 26-30, crash 31-36
			for n := range c.Nodes {
				tt.want = append(tt.want, model.Window{Node: n, First: 11, Last: 15, Failure: model.Failure{Kind: model.AsConfigured}}, model.Window{Node: n, First: 16, Last: 18, Failure: model.Failure{Kind: model.Crashed}},
					model.Window{Node: n, First: 26, Last: 30, Failure: model.Failure{Kind: model.AsConfigured}}, model.Window{Node: n, First: 31, Last: 36, Failure: model.Failure{Kind: model.Crashed}})
			}
		}
		var r model.Runner
		got, err := r.RunSchedule(c, &tt.a)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := r.RunSchedule(c, tt.want)
		if got != want {
			t.Errorf("%s: %+v, its windows give %+v", tt.name, got, want)
		}
	}
}

// TestPhasePeriod: the shortest period with c.Period's phases on the
// retry and re-read rounds, and room for a batch, worked out by hand.
func TestPhasePeriod(t *testing.T) {
	for _, tt := range []struct {
		period, retry, reread, batchLen, want int
	}{
		{86_400, 2, 0, 1, 2},         // a nightly batch, client-go's 2 s retry: every even round
		{86_400, 2, 0, 1_200, 1_200}, // a 20-minute batch needs 20 minutes
		{6, 1, 3, 1, 3},              // the publication's: re-reads every 3 rounds, a trigger every 6
		{7, 1, 0, 1, 1},              // nothing periodic to keep in phase: every round
		{12, 4, 0, 1, 4},             // triggers on renew rounds stay on them
		{30, 4, 0, 5, 6},             // gcd 2 with the retry rounds; 6 has it, 4 does not (gcd 4)
		{10, 4, 6, 3, 10},            // lcm 12, gcd 2: 4 and 8 share 4 with 12, 6 shares 6; only 10 has gcd 2
		{9, 3, 0, 9, 9},              // the batch fills the period
	} {
		c := model.Default()
		c.Period, c.RetryPeriod, c.RereadPeriod, c.BatchLen = tt.period, tt.retry, tt.reread, tt.batchLen
		if got := c.PhasePeriod(); got != tt.want {
			t.Errorf("period %d, retry %d, renewal %d, batch %d: phase period %d, want %d", tt.period, tt.retry, tt.reread, tt.batchLen, got, tt.want)
		}
	}
}

// TestFencingKeepsTheWatch: with jitter, the followers' polls between the
// leader's return and its renewal run each in its own round, settled
// stretch or not, so fencing, which changes what is queued and so which
// stretches are settled, changes no poll. A case TestPropertyInvariants
// found (rapid seed 7214159189190640279): 114 handovers unfenced, 117
// fenced, before the settled stretch waited for the watch to end.
func TestFencingKeepsTheWatch(t *testing.T) {
	c := model.Config{
		Policy:   model.Policy{Nodes: 50, Lease: 11, RereadPeriod: 15, RetryPeriod: 2, Period: 2, BatchLen: 1, PersistentTrigger: true, Jitter: true},
		Scenario: model.Scenario{Start: 1, Rounds: 24102},
	}
	up, _ := parse.Lengths(0, "fixed:3")
	down, _ := parse.Lengths(0, "lognormal:1,0.8")
	s := &model.Alternating{Up: up, Down: down, Seed: [2]uint64{0x77, 1}}
	var r model.Runner
	if err := r.Check(c, s); err != nil {
		t.Fatal(err)
	}
}

// TestWindowsRefused: a window no run can hold (a negative node, a kind
// the table of kinds does not have) is an error naming it, not a panic;
// a node beyond the run's count is left out, as the run has no such node.
func TestWindowsRefused(t *testing.T) {
	c := model.Default()
	for _, tt := range []struct {
		name string
		ws   model.Windows
		want string // the error, "" for none
	}{
		{"negative node", model.Windows{{Node: 0, First: 2, Last: 3}, {Node: -1, First: 5, Last: 6}}, "window 1: node -1: want a node from 0"},
		{"unknown kind", model.Windows{{Node: 1, First: 2, Last: 3, Failure: model.Failure{Kind: 200}}}, "window 0: failure kind 200: want one of the 9 kinds of the table"},
		{"node beyond the count", model.Windows{{Node: c.Nodes + 3, First: 2, Last: 3}}, ""},
	} {
		var r model.Runner
		_, err := r.RunSchedule(c, tt.ws)
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
		var we *model.WindowError
		if tt.want != "" && !errors.As(err, &we) {
			t.Errorf("%s: error %T, want a *model.WindowError", tt.name, err)
		}
	}
}

// TestSkewClaims: where the only failures are clock skews, a two-leader
// round breaks the per-fire claims on one clock (using_db_time,
// shedlock-redis), and on the nodes' clocks only while no two clocks
// differ by more than lease − batch_len; a partial or late batch always.
func TestSkewClaims(t *testing.T) {
	c := model.Default()
	c.Protocol, c.RereadPeriod, c.Nodes, c.Lease, c.BatchLen, c.FireSpread, c.Period, c.Rounds = model.ProtocolShedLock, 0, 2, 10, 9, 3, 20, 39
	skews := func(vs ...int) model.Windows {
		var ws model.Windows
		for i, v := range vs {
			ws = append(ws, model.Window{Node: i, First: 1, Last: 39, Failure: model.Failure{Kind: model.Skewed, Value: v}})
		}
		return ws
	}
	calm := model.Stats{Started: 1}
	two, late := calm, calm
	two.DoubleStarts, two.DoubledParts, two.TwoLeaderRounds, two.TwoLeaderEpisodes = 1, 9, 1, model.Episodes{Count: 1}
	late.LateBatches, late.LateRounds = 1, 1
	for _, tt := range []struct {
		name string
		edit func(*model.Config)
		ws   model.Windows
		st   model.Stats
		want string // "" for no break
	}{
		{"nodes' clocks 1 apart, lease − batch_len 1: two runs", func(*model.Config) {}, skews(1), two, "by at most 1 between two nodes"},
		{"nodes' clocks 2 apart: two runs may be", func(*model.Config) {}, skews(1, -1), two, ""},
		{"database's clock: two runs", func(c *model.Config) { c.UsingDbTime = true }, skews(1, -1), two, "the lock's times are one clock's"},
		{"Redis's clock: two runs", func(c *model.Config) { c.Protocol = model.ProtocolShedLockRedis }, skews(5), two, "the lock's times are one clock's"},
		{"a batch longer than the lease: two runs may be", func(c *model.Config) { c.UsingDbTime, c.BatchLen = true, 11 }, skews(1), two, ""},
		{"skews only: a late batch", func(*model.Config) {}, skews(1), late, "although only clocks are skewed: every node is up"},
		{"a skew and a pause: two runs may be", func(c *model.Config) { c.UsingDbTime = true }, append(skews(1), model.Window{Node: 1, First: 5, Last: 6, Failure: model.Failure{Kind: model.Paused}}), two, ""},
	} {
		c := c
		tt.edit(&c)
		err := model.CheckInvariants(c, tt.ws, tt.st)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no break", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want a break containing %q", tt.name, err, tt.want)
		}
	}
}

// TestSkewRefused: a failure of kind skew under a protocol that reads no
// node's clock against another's, or of a period or more, is refused
// before the run, as is using_db_time off ShedLock's JDBC provider.
func TestSkewRefused(t *testing.T) {
	ws := func(v int) model.Windows {
		return model.Windows{{Node: 0, First: 1, Last: 5, Failure: model.Failure{Kind: model.Skewed, Value: v}}}
	}
	shed := model.Default()
	shed.Protocol, shed.RereadPeriod, shed.Period = model.ProtocolShedLock, 0, 6
	for _, tt := range []struct {
		name string
		c    model.Config
		s    model.Schedule
		want string
	}{
		{"client-go", model.Default(), ws(1), "failure skew:1 needs protocol shedlock, shedlock-redis, quartz or db-scheduler: under protocol client-go"},
		{"etcd's process", func() model.Config {
			c := model.Default()
			c.Protocol, c.RereadPeriod = model.ProtocolEtcd, 0
			return c
		}(), &model.Alternating{Also: []model.Process{{Failure: model.Failure{Kind: model.Skewed, Value: 1}}}}, "under protocol etcd"},
		{"a period ahead", shed, ws(6), "failure skew:6: fire_spread 0 + the most a clock is ahead, 6, + the most one is behind, 0, must be less than period 6"},
		{"a period behind", shed, ws(-6), "the most one is behind, 6, must be less than period 6"},
		{"under a period", shed, ws(-5), ""},
		{"ahead and behind", shed, append(ws(3), model.Window{Node: 1, First: 1, Last: 5, Failure: model.Failure{Kind: model.Skewed, Value: -3}}), "ahead, 3, + the most one is behind, 3, must be less than period 6"},
		{"ahead and behind with a fire spread", func() model.Config { c := shed; c.FireSpread = 2; return c }(), append(ws(2), model.Window{Node: 1, First: 1, Last: 5, Failure: model.Failure{Kind: model.Skewed, Value: -2}}), "fire_spread 2 + the most a clock is ahead, 2"},
		{"the least int", shed, ws(-1 << 63), "the most one is behind, 1000000000"},
	} {
		err := tt.c.ValidateSchedule(tt.s)
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	for _, p := range []model.LockProtocol{model.ProtocolClientGo, model.ProtocolEtcd, model.ProtocolShedLockRedis} {
		c := model.Default()
		c.Protocol, c.UsingDbTime = p, true
		if p != model.ProtocolClientGo {
			c.RereadPeriod = 0
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "using_db_time needs protocol shedlock") {
			t.Errorf("using_db_time under protocol %d: %v, want refused", p, err)
		}
	}
}
