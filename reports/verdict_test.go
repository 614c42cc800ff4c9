package reports_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/cost"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/settings"
	"github.com/leasesim/leasesim/study"
)

// lockReview is a priced review, at 1 s rounds, of a deployment on nodes
// nodes running base's lock settings: a batch every 5 minutes, outages of
// 10 s, 45 s and 2 min.
func lockReview(t *testing.T, base model.Config, nodes int, material float64) *study.Review {
	t.Helper()
	base.Nodes, base.Period, base.Outage, base.Start, base.Rounds = nodes, 300, 45, 301, 1500
	opt := study.DefaultReviewOptions(base)
	opt.Tick = model.Tick(time.Second)
	opt.RoundsPerYear, opt.Replicas, opt.Material = opt.Tick.RoundsPerYear(), 2, material
	opt.Mix = []cost.MixEntry{{Outage: 10, Weight: 0.5}, {Outage: 45, Weight: 0.3}, {Outage: 120, Weight: 0.2}}
	opt.Up, opt.Down = study.DeploymentFailures(base, opt)
	opt.Weights = cost.Weights{MissedLine: 1, DoubleLine: 5, Handover: 1}
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// presetConfig is a preset's settings as the round model runs them at 1 s
// rounds: client-go's durations, or a lock's RoundLock, its times in
// whole seconds.
func presetConfig(t *testing.T, name string) model.Config {
	t.Helper()
	p, err := settings.PresetByName(name)
	if err != nil {
		t.Fatal(err)
	}
	c := model.Default()
	c.RereadPeriod = 0
	if r, ok := p.Round(); ok {
		c.Protocol, c.Lease, c.RetryPeriod = r.Protocol, int(r.Lease/time.Second), int(r.RetryPeriod/time.Second)
		c.LockDelay, c.AcquireWait = int(r.LockDelay/time.Second), int(r.AcquireWait/time.Second)
		return c
	}
	c.Lease, c.RenewDeadline, c.RetryPeriod, c.Jitter = int(p.LeaseDuration/time.Second), int(p.RenewDeadline/time.Second), int(p.RetryPeriod/time.Second), true
	return c
}

// TestNoMarginNeverRecommendedAnyLock: for every lock, no candidate
// without a two-leader margin (by the lock's own figures) and without
// fencing is the recommendation, every candidate's margin reaches
// candidates.csv, and a lock whose every setting lacks a margin gets the
// verdict to turn on fencing, naming what to set once fenced, and the
// warning of two leaders; client-go's
// 12s/10s/2s, the cheapest when the lines alone are priced, is passed
// over. Consul's holder gives up at its first failed call but rides out
// 22.5 s of hung calls: the report says the 10 s outages are ridden out
// only if calls hang.
func TestNoMarginNeverRecommendedAnyLock(t *testing.T) {
	for _, tt := range []struct {
		preset  string
		fencing bool   // the verdict is to turn on fencing
		then    string // and what to set once fenced
		column  string // the first screen's column of it
	}{{"kubernetes", false, "", ""}, {"etcd", true, "set `session_ttl=15s`", "recommended, fenced (`session_ttl=15s`)"}, {"consul", true, "lower the lease to 10s", "recommended, fenced (10s)"},
		{"zookeeper", false, "", ""}, {"dynamodb", true, "set `lease_duration=6s heartbeat_period=2s`", "recommended, fenced (`lease_duration=6s heartbeat_period=2s`)"}} {
		t.Run(tt.preset, func(t *testing.T) {
			base := presetConfig(t, tt.preset)
			if tt.preset == "kubernetes" {
				base.Lease = 12 // no margin, and rides out more than 15s
			}
			rv := lockReview(t, base, 3, study.DefaultMaterial)
			md, csv := rendered(t, rv, "report.md").String(), rendered(t, rv, "candidates.csv").String()
			rows := strings.Split(strings.TrimSpace(csv), "\n")
			recommended := 0
			for _, row := range rows[1:] {
				f := strings.Split(row, ",")
				if f[3] == "" {
					t.Errorf("%s: no two-leader margin", row)
				}
				if f[9] == "true" {
					recommended++
					if (f[3] == "0" || strings.HasPrefix(f[3], "-")) && f[11] != "true" {
						t.Errorf("%s: recommended without a two-leader margin or fencing", row)
					}
				}
			}
			if hang := "If calls hang instead of failing, the current settings ride out the 10s outages (50% of events) as well."; strings.Contains(md, hang) != (tt.preset == "consul") {
				t.Errorf("report.md says %q: %t", hang, !(tt.preset == "consul"))
			}
			// The settings to take once fenced stand beside the current
			// ones, at the cost the verdict gives them.
			if tt.fencing {
				d, _ := rv.DecideFenced()
				screen, _, _ := strings.Cut(md, "How sure: ")
				head := ") | " + tt.column + " |"
				costRow := " | " + thousandsOf(d.Top.Cost(rv.Weights)) + " |\n"
				if !strings.Contains(screen, head+"\n") || !strings.Contains(screen, costRow) || !strings.Contains(screen, "What gets worse once fenced: ") {
					t.Errorf("the first screen has no column %q costing%q:\n%s", tt.column, costRow, screen)
				}
			}
			turnOn := strings.Contains(md, "**Verdict: turn on fencing, and "+tt.then+"**: ")
			warned := strings.Contains(md, "**Warning:** two leaders")
			if turnOn != tt.fencing || warned != (tt.fencing || tt.preset == "kubernetes") || (recommended == 0) != tt.fencing {
				t.Errorf("verdict to turn on fencing %t, two-leader warning %t, %d recommended; want %t:\n%.2500s", turnOn, warned, recommended, tt.fencing, md)
			}
		})
	}
}

// TestOneNodeNoTwoLeaderWarning: one node has no follower to lead beside,
// so a setting without margin is warned of with three nodes and not with
// one, in report.md and in the warnings leasesim report prints.
func TestOneNodeNoTwoLeaderWarning(t *testing.T) {
	base := presetConfig(t, "openshift-sno") // 4m30s/4m0s/1m0s: a margin of -30 s
	for _, nodes := range []int{3, 1} {
		rv := lockReview(t, base, nodes, study.DefaultMaterial)
		md := rendered(t, rv, "report.md").String()
		warned, printed := strings.Contains(md, "two leaders:"), false
		for _, w := range reports.Warnings(rv) {
			printed = printed || strings.HasPrefix(w, "two leaders:")
		}
		if printed != warned {
			t.Errorf("%d nodes: a two-leader warning in report.md %t, printed %t", nodes, warned, printed)
		}
		if warned != (nodes > 1) {
			t.Errorf("%d nodes: a two-leader warning %t:\n%.1500s", nodes, warned, md)
		}
		if nodes == 1 && !strings.Contains(md, "| two-leader margin | no follower (one node): no two leaders |") {
			t.Errorf("one node: the safety table does not say there is no follower:\n%.2500s", md)
		}
	}
}

// TestKeepUnderMaterialThreshold: in the kubernetes preset's review the
// cheapest candidate, 15s/10s/4s, saves 81.5 of the current settings'
// 1,366.0 a year (6%): over the default threshold of 5% a candidate
// other than the current settings is recommended; under one of 10% every candidate costs within it of the
// current settings, and the verdict keeps them, candidates.csv
// recommending them alone.
func TestKeepUnderMaterialThreshold(t *testing.T) {
	for _, tt := range []struct {
		material float64
		keep     bool
	}{{study.DefaultMaterial, false}, {0.1, true}} {
		base := presetConfig(t, "kubernetes")
		rv := lockReview(t, base, 3, tt.material)
		md, csv := rendered(t, rv, "report.md").String(), rendered(t, rv, "candidates.csv").String()
		keep := strings.Contains(md, "**Verdict: keep the current settings** (15s/10s/2s)")
		var recommended []string
		for _, row := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
			if f := strings.Split(row, ","); f[9] == "true" {
				recommended = append(recommended, strings.Join(f[:3], "/")+" current "+f[8])
			}
		}
		if keep != tt.keep || len(recommended) != 1 || strings.HasSuffix(recommended[0], "true") != tt.keep {
			t.Errorf("material %g: keep %t, recommended %q; want keep %t:\n%.1500s", tt.material, keep, recommended, tt.keep, md)
		}
	}
}

// TestNotTheLever: a Consul lock whose batch runs 4 of its 5 minutes,
// priced by the line, loses mostly batches cut mid-run, which no setting
// changes: the report says the lease is not the lever and names a batch
// that resumes or is idempotent, with the most it would save, the cut
// lines every candidate loses at the price of a missed line.
func TestNotTheLever(t *testing.T) {
	base := presetConfig(t, "consul")
	base.BatchLen, base.PersistentTrigger = 240, true
	rv := lockReview(t, base, 3, study.DefaultMaterial)
	md := rendered(t, rv, "report.md").String()
	cut := rv.Recommendation[0].PartialLines
	for _, r := range rv.Recommendation {
		cut = min(cut, r.PartialLines)
	}
	for _, want := range []string{"**The lease is not the lever**", "Most of it is batches cut mid-run",
		"a batch that resumes where it was cut, or that writes idempotently and reruns, would save up to " + thousandsOf(cut) + " a year"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md does not say %q:\n%.3000s", want, md)
		}
	}
}

// thousandsOf is x to a tenth with thousands separated, as report.md
// writes a yearly figure.
func thousandsOf(x float64) string {
	s := strconv.FormatFloat(x, 'f', 1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return whole + "." + frac
}

// TestHungCallsSentence: How sure says whether the decision holds if
// calls hang instead of failing, with the costs a year that decide it:
// an etcd election cut off for 20 s keeps its recommended session, a
// Consul lock, whose holder never gives up while a call hangs, keeps its
// current settings instead; a review that gives black_hole says it pins
// how calls fail, and one whose leader pauses that no call is made.
func TestHungCallsSentence(t *testing.T) {
	for _, tt := range []struct {
		preset string
		edit   func(*study.ReviewOptions, *model.Config)
		want   string
	}{
		{"etcd", nil, "If calls hang instead of failing, the decision holds: `session_ttl=15s` costs 806.0 price units a year against 1,600.0 for the current settings (priced again: the current settings, the recommended and the 4 others nearest it in cost). "},
		{"consul", nil, "If calls hang instead of failing, the decision flips: keep the current settings, 1,600.0 price units a year against 1,686.0 for 10s (priced again: the current settings, the recommended and the 4 others nearest it in cost); with calls hanging, the current settings ride out the 20s outages (100% of events) as well. "},
		{"consul", func(o *study.ReviewOptions, c *model.Config) { o.BlackHoleGiven, c.BlackHole = true, true }, "The review pins how calls fail (black_hole: true): every figure is for calls that hang until they time out. "},
		{"consul", func(o *study.ReviewOptions, c *model.Config) { o.BlackHoleGiven = true }, "The review pins how calls fail (black_hole: false): every figure is for calls that fail at once. "},
		{"consul", func(_ *study.ReviewOptions, c *model.Config) { c.Pause = true }, "Whether calls hang or fail at once changes nothing here: in the review's failures (pauses) the failing nodes are stopped or frozen and make no calls. "},
	} {
		base := presetConfig(t, tt.preset)
		base.Nodes, base.Period, base.Outage, base.Start, base.Rounds, base.Fencing = 3, 300, 20, 301, 1500, true
		opt := study.DefaultReviewOptions(base)
		opt.Tick = model.Tick(time.Second)
		opt.RoundsPerYear, opt.Replicas = opt.Tick.RoundsPerYear(), 2
		opt.Mix = []cost.MixEntry{{Outage: 20, Weight: 1}}
		opt.Weights = cost.Weights{MissedLine: 1, DoubleLine: 5, Handover: 1}
		if tt.edit != nil {
			tt.edit(&opt, &base)
		}
		opt.Up, opt.Down = study.DeploymentFailures(base, opt)
		rv, err := study.NewReview(context.Background(), base, opt)
		if err != nil {
			t.Fatal(err)
		}
		md := rendered(t, rv, "report.md").String()
		_, how, _ := strings.Cut(md, "How sure: ")
		how, _, _ = strings.Cut(how, "\n")
		if !strings.Contains(how, tt.want) || strings.Count(how, "If calls hang instead of failing") > 1 {
			t.Errorf("%s: How sure does not say %q:\n%s", tt.preset, tt.want, how)
		}
	}
}

// TestLeaseSweepSaysItsFailure: the lease sweep runs every length of a
// failure mix as its most common failure, and with two kinds says so in
// one line, naming the others; with one kind it says nothing of it.
func TestLeaseSweepSaysItsFailure(t *testing.T) {
	for _, tt := range []struct {
		mix  string
		want string // "" for no such line
	}{
		{"kind=isolate scope=every-node lengths=30s:0.5,2m:0.5 per_year=8; kind=pause scope=leader lengths=10s per_year=4",
			"Every outage here is run as the failure mix's most common failure (every node isolated), though the mix also has the leader paused, which only the recommendation weighs as they are. "},
		{"kind=isolate scope=every-node lengths=30s:0.5,2m:0.5 per_year=8", ""},
	} {
		base := presetConfig(t, "kubernetes")
		base.Nodes, base.Period, base.Outage, base.Rounds = 3, 300, 30, 1500
		opt := study.DefaultReviewOptions(base)
		opt.Tick = model.Tick(time.Second)
		opt.RoundsPerYear, opt.Replicas = opt.Tick.RoundsPerYear(), 2
		opt.Weights = cost.Weights{MissedLine: 1, DoubleLine: 5}
		opt.CandidateLeases, opt.CandidateRenewDeadlines, opt.CandidateRetryPeriods = []int{15, 30}, []int{10}, []int{2}
		entries, err := cost.ParseFailureMix(opt.Tick, tt.mix)
		if err != nil {
			t.Fatal(err)
		}
		opt.Failures = entries
		opt.Mix, opt.EventsPerYear[0] = cost.FlattenFailures(entries, study.ZoneDown(base))
		opt.EventsPerYear = opt.EventsPerYear[:1]
		study.StudyOutage(&base, &opt, false, false, false)
		opt.Up, opt.Down = study.DeploymentFailures(base, opt)
		rv, err := study.NewReview(context.Background(), base, opt)
		if err != nil {
			t.Fatal(err)
		}
		md := rendered(t, rv, "report.md").String()
		_, lease, _ := strings.Cut(md, "## The lease\n")
		lease, _, _ = strings.Cut(lease, "\n## ")
		if said := strings.Contains(lease, "Every outage here is run as"); said != (tt.want != "") || !strings.Contains(lease, tt.want) {
			t.Errorf("%s: the lease sweep says %t, want %q:\n%s", tt.mix, said, tt.want, lease)
		}
	}
}
