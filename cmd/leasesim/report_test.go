package main

import (
	"bytes"
	"github.com/leasesim/leasesim/internal/golden"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/reviewfile"
	"github.com/leasesim/leasesim/settings"
	"github.com/spf13/pflag"
)

// TestReport: "leasesim report" with no flags but --out writes the whole
// report; an --out it cannot create fails with one line and exit 1.
func TestReport(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "review")
	code, stdout, stderr := runCmd(t, "report", "--out", dir)
	if code != 0 || stderr != "" || stdout != "wrote the report to "+dir+"/report.md\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	onlyFiles(t, dir, "candidates.csv", "cost-both.txt", "cost.csv", "cost.png", "cost.txt", "heatmap.csv", "heatmap.png",
		"lease-sweep.csv", "lease-sweep.png", "measure.txt", "nodes.csv", "nodes.png", "quorum.csv",
		"report.md", "timeline.png", "timeline.txt", "variants.csv")
	measure, _ := os.ReadFile(filepath.Join(dir, "measure.txt"))
	_, want, _ := runCmd(t, "measure")
	if string(measure) != want {
		t.Error("the report's measure.txt differs from leasesim measure")
	}

	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	code, _, stderr = runCmd(t, "report", "--out", blocker)
	if code != exitUsage || stderr != "leasesim report: invalid argument \""+blocker+"\" for \"--out\" flag: a file: want a folder\n" {
		t.Errorf("report into a file: exit %d, stderr %q", code, stderr)
	}
}

// TestReviewFile: report takes its flags from a review file, the command
// line winning; "report --example" prints the example; a bad file, key or
// value is one line naming the file, the line and the key.
func TestReviewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	review := filepath.Join(dir, "review.yaml")
	write := func(text string) {
		if err := os.WriteFile(review, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("deployment:\n  nodes: 3\n  lease: 4\n  fencing: true\nschedule:\n  persistent_trigger: true\nfailures:\n  outages_per_year: 12\n  outage_mix: 2:0.5,7:0.5\ncandidates:\n  candidates: 2:6\nprices:\n  cost_missed_line: 1\n  cost_double_line: 1\n  cost_handover: 100\n")
	out := filepath.Join(dir, "out")
	code, _, stderr := runCmd(t, "report", "--out", out, review, "--nodes", "4")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| nodes | 4 |", "| lease | 4 |", "| fencing | true |", "| persistent_trigger | true |", // the command line's nodes, the file's lease and policy
		"Assumed: 12 outage events a year, each of 2 rounds (50%), 7 rounds (50%)",
		"| **4 (current)** |", "| 6 |", "prices: 1 a missed line, 1 a double line, 100 a handover",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md has no %q", want)
		}
	}

	// The prices' currency, as the review names it, is the cost's unit.
	write("deployment:\n  tick: 1s\n  lease: 15s\n  retry_period: 2s\n  renew_deadline: 10s\n  nodes: 3\nschedule:\n  period: 10m\nfailures:\n  outage_mix: 5s:0.5,30s:0.5\ncandidates:\n  candidates: 15s,20s\nprices:\n  cost_missed_line: 0.4\n  cost_double_line: 2.5\n  currency: EUR\nstudy:\n  replicas: 2\n")
	hasAll(t, reportMD(t, filepath.Join(dir, "eur"), review), "| cost a year (EUR) |", "Cost in EUR: 0.4 a missed line, 2.5 a double line.")

	code, stdout, stderr := runCmd(t, "report", "--example")
	if code != 0 || stderr != "" || stdout != reviewfile.Example {
		t.Errorf("--example: exit %d, stderr %q, %d bytes, want the example's %d", code, stderr, len(stdout), len(reviewfile.Example))
	}

	bad := []struct{ text, want string }{
		{"deployment:\n  tick: 1s\n  lease: 15x\n", review + `:3: deployment.lease: invalid argument "15x" for "--lease" flag: want a duration from 1s to 277777h46m40s in whole ticks of 1s`},
		{"deployment:\n  nodes: many\n", review + `:2: deployment.nodes: invalid argument "many" for "--nodes" flag: want a whole number from 1 to 1000000`},
		{"deployment:\n  leese: 4\n", review + `:2: unknown key "leese" in deployment: want one of preset, tick, nodes, lease, renewal, retry_period, renew_deadline, jitter, fencing, quorum, protocol, lock_delay, acquire_wait, disconnect_delay, lock_at_least_for, fire_spread, using_db_time, or a lock's option, named as its flag is (session_ttl for --session-ttl)`},
		{"prices:\n  cost_delay_hour: 5\n", review + ":2: prices.cost_delay_hour: --cost-delay-hour needs --tick: a round has no length in hours"}, // a later check's refusal, traced to its line
		// A lock's option its preset does not take, traced to both lines.
		{"deployment:\n  preset: zookeeper\n  session_ttl: 9s\n", review + ":3: deployment.session_ttl, " + review + ":2: deployment.preset: --session-ttl is not an option of --preset zookeeper, which takes --session-timeout, --tick-time, --error-policy"},
		// A flag report always refuses is a key, refused as the flag is.
		{"deployment:\n  preset: dynamodb\n  hold_lock_on_service_unavailable: true\n", review + ":3: deployment.hold_lock_on_service_unavailable, " + review + ":2: deployment.preset: --hold-lock-on-service-unavailable is refused here: " + settings.HoldRefusal},
	}
	for _, tt := range bad {
		write(tt.text)
		code, stdout, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "bad"), review)
		if code != exitUsage || stdout != "" || stderr != "leasesim report: "+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q\nwant %q", tt.text, code, stdout, stderr, tt.want)
		}
	}
	code, _, stderr = runCmd(t, "report", filepath.Join(dir, "missing.yaml"))
	if code != exitUsage || !strings.HasPrefix(stderr, "leasesim report: review file: open ") {
		t.Errorf("a missing file: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "report", review, review)
	if code != exitUsage || stderr != "leasesim report: report takes one review file, got 2 arguments\n" {
		t.Errorf("two files: exit %d, stderr %q", code, stderr)
	}
}

// reportMD runs leasesim report with args, writing to out, and returns
// report.md; a failed run fails the test.
func reportMD(t *testing.T, out string, args ...string) string {
	t.Helper()
	if code, _, stderr := runCmd(t, append([]string{"report", "--out", out}, args...)...); code != 0 || stderr != "" {
		t.Fatalf("report %v: exit %d: %s", args, code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(md)
}

// hasAll reports each of wants that text lacks.
func hasAll(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("report.md has no %q", want)
		}
	}
}

// TestOutageHistory: a review's outage mix from the outages a team has
// seen (failures.history, --outage-history, found beside the review file):
// each distinct length weighted by its share; with --outage-mix as well
// it is refused, naming the review file's line.
func TestOutageHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "outages.txt"), []byte("# seen last year\n2\n7\n2\n2 # a deploy\n"), 0o644)
	review := filepath.Join(dir, "review.yaml")
	os.WriteFile(review, []byte("failures:\n  outage_history: outages.txt\n"), 0o644)
	out := filepath.Join(dir, "out")
	hasAll(t, reportMD(t, out, "--replicas", "2", review), "each of 2 rounds (75%), 7 rounds (25%)")
	code, stdout, stderr := runCmd(t, "report", "--out", out, "--outage-mix", "2:1", review)
	if want := "leasesim report: " + review + ":2: failures.outage_history: --outage-mix and --outage-history both give the outage lengths: want one of them\n"; code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("mix and history: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestReportPrecision: the node-count study runs to precision, says how
// and gives each configuration's replicas, and warns when some ran to the
// ceiling without getting there; the ceiling goes only with it and not
// below the replicas run at a time.
func TestReportPrecision(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	hasAll(t, reportMD(t, out, "--replicas", "40", "--precision", "50%", "--max-replicas", "400"),
		"independently of the others; replicas, as many as the table says, of 21900 rounds",
		"Replicas ran 40 at a time until the missed and the double lines a year were each within ±50% of their value, or ±1 line a year, at 95% confidence, or 400 replicas had run: every configuration got there.",
		"| nodes | quorum | missed lines/yr | 95% interval | double lines/yr | 95% interval | replicas |\n|---:|---|---:|---:|---:|---:|---:|\n| 1 | false | ")
	warning := "the node-count study ran 14 of its 14 configurations to --max-replicas 80 without their missed and double lines a year within ±1e-298% (--precision) or ±1 line: their intervals are wider than asked; ask a looser --precision or more --max-replicas"
	code, _, stderr := runCmd(t, "report", "--out", out, "--replicas", "40", "--precision", "1e-300", "--max-replicas", "80")
	if code != 0 || stderr != "leasesim report: warning: "+warning+"\n" {
		t.Errorf("--precision 1e-300: exit %d, stderr %q, want the warning %q", code, stderr, warning)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	hasAll(t, string(md), "**Warning:** "+warning+".",
		"Replicas ran 40 at a time until the missed and the double lines a year were each within ±1e-298% of their value, or ±1 line a year, at 95% confidence, or 80 replicas had run: none of the 14 configurations got there",
		" | 80, not precise |\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-replicas", "500"}, "leasesim report: --max-replicas goes only with --precision\n"},
		{[]string{"--precision", "10%", "--replicas", "50", "--max-replicas", "20"}, "leasesim report: --max-replicas 20 is fewer than --replicas 50, the replicas run at a time\n"},
	} {
		args := append([]string{"report", "--out", out}, tt.args...)
		if code, stdout, stderr := runCmd(t, args...); code != exitUsage || stdout != "" || stderr != tt.want {
			t.Errorf("%v: exit %d, %q, %q, want %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
}

// TestReportIncident: a review of an incident (--incident, or a review
// file's failures.incident beside it) names it where it prices and
// replays the event, and says the group-outage studies take its span; an
// incident beside the outage lengths or the outage's own flags, or one
// the deployment does not fit, is refused in one line.
func TestReportIncident(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mixed, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "incidents", "mixed.txt"))
	os.WriteFile(filepath.Join(dir, "mixed.txt"), mixed, 0o644)
	review := filepath.Join(dir, "review.yaml")
	os.WriteFile(review, []byte("deployment:\n  preset: kubernetes\n  nodes: 3\nschedule:\n  period: 5m\nfailures:\n  incident: mixed.txt\n  rounds: 15m\nstudy:\n  replicas: 2\n"), 0o644)
	out := filepath.Join(dir, "out")
	hasAll(t, reportMD(t, out, review),
		"Assumed: 6 outage events a year, each the incident of `mixed.txt` (3 failures over 40s); 4,000 invoice lines a batch. Each figure is the phase method's: the model run with the incident starting at every phase",
		"; the incident of `mixed.txt`: node 0 partitioned over 2m0s-2m40s, node 1 crashed over 2m10s-2m30s, node 2 paused over 2m5s-2m35s. 5-minute batch trigger: at 5m0s, 10m0s, 15m0s. The lease sweep, the heat map and the zone study vary a group outage instead, as long as the incident's span (40s).",
		"Leaderless: 2m11s-2m30s.",
		// The spread replay --seed 1 gives for the same settings (19, 21, 24 and 31, 32, 35).
		"batch started. This is the incident as written, one run of its spread (phase 0, seed 1: 19s leaderless). Over 2 phases of the incident against the renewals (moved 0 to 1s later) and 32 seeds of the followers' jitter at each, 1 to 32, 64 runs: least, median and greatest leaderless time 19s, 21s, 24s; two leaders that can act 0s, 0s, 0s; takeover, from the incident's start to the first handover, 31s, 32s, 35s. 100% of the runs hand over, 0% have two leaders.")
	incident := filepath.Join(dir, "mixed.txt")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--outage-mix", "30s:1"}, "leasesim report: --incident is the outage event: want it without --outage-mix, --outage-history and --failure-mix\n"},
		{[]string{"--outage", "30s"}, "leasesim report: --outage goes not with --incident: the incident says who fails when, and how\n"},
		{[]string{"--nodes", "2"}, "leasesim report: --incident: " + incident + ": line 8: node 2, but the deployment has 2 nodes (--nodes)\n"},
		{[]string{"--rounds", "2m30s"}, "leasesim report: --incident: " + incident + ": line 6: the failure ends at 2m40s, after the run's end (--rounds 2m30s)\n"},
	} {
		args := append([]string{"report", "--out", out, "--preset", "kubernetes", "--nodes", "3", "--rounds", "15m", "--incident", incident}, tt.args...)
		if code, stdout, stderr := runCmd(t, args...); code != exitUsage || stdout != "" || stderr != tt.want {
			t.Errorf("%v: exit %d, %q, %q, want %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "report", "--out", out, "--epoch", "2026-11-30T23:58:00Z"); code != exitUsage || stderr != "leasesim report: --epoch goes only with --incident\n" {
		t.Errorf("--epoch alone: exit %d, %q", code, stderr)
	}
}

// TestCandidateList: a review file's candidates.candidate_list (a literal
// block, a candidate a line) and --candidate-list give candidates by
// hand, ranked with the grid's: candidates.csv has a row each, with its
// node count, fencing, trigger and preset; a bad entry is one line naming
// the file's line of that entry and what it accepts, exit 2, and nothing
// written.
func TestCandidateList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	review := filepath.Join(dir, "review.yaml")
	text := func(entry string) string {
		return "deployment:\n  preset: kubernetes\n  nodes: 3\nschedule:\n  period: 1h\nfailures:\n  outage: 30s\n  start: 59m50s\n  rounds: 1h30m\n" +
			"candidates:\n  candidates: 15s\n  candidate_renew_deadline: 10s\n  candidate_retry_period: 2s\n  candidate_list: |\n" +
			"    lease=45s renew_deadline=40s   # the deadline, not the lease\n    preset=openshift\n" + entry + "\n" +
			"prices:\n  cost_missed_line: 1\nstudy:\n  replicas: 2\n"
	}
	out := filepath.Join(dir, "out")
	if err := os.WriteFile(review, []byte(text("    nodes=5, fencing=true on_cut=resume runs_in=job")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "report", "--out", out, review); code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv, _ := os.ReadFile(filepath.Join(out, "candidates.csv"))
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")
	want := []string{ // the columns but the figures
		"lease_s,renew_deadline_s,retry_period_s,two_leader_margin_s,current,recommended,nodes,fencing,persistent_trigger,catch_up_window_s,catch_up_once,idempotency_key,overlap,on_cut,runs_in,protocol,lock_delay_s,jitter,acquire_wait_s,disconnect_delay_s,preset",
		"15,10,2,3,true,false,3,false,false,0,false,false,allow,none,leader,client-go,0,true,0,0,kubernetes",
		"15,10,2,3,false,true,5,true,false,0,false,false,allow,resume,job,client-go,0,true,0,0,kubernetes", // more followers poll: a takeover comes sooner
		"45,40,2,3,false,false,3,false,false,0,false,false,allow,none,leader,client-go,0,true,0,0,",
		"137,107,26,4,false,false,3,false,false,0,false,false,allow,none,leader,client-go,0,true,0,0,openshift",
	}
	var got []string
	for _, row := range rows {
		f := strings.Split(row, ",")
		got = append(got, strings.Join(append(f[:4:4], f[8:25]...), ","))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("candidates.csv:\n%s\nwant (but the figures):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tt := range []struct{ entry, want string }{
		// The entry's own line (17), for a value refused as read and for
		// one refused beside the deployment's settings.
		{"    lease=10s", ":17: candidates.candidate_list: --candidate-list entry 3 (lease=10s): lease 10s must be longer than renew_deadline 10s, as client-go requires (leaseDuration must be greater than renewDeadline)"},
		{"    renew_deadline=20s retry_period=17s", ":17: candidates.candidate_list: --candidate-list entry 3 (renew_deadline=20s retry_period=17s): lease 15s must be longer than renew_deadline 20s, as client-go requires (leaseDuration must be greater than renewDeadline)"},
		{"    lease=45s renew_deadline=40s retry_period=34s", ":17: candidates.candidate_list: --candidate-list entry 3 (lease=45s renew_deadline=40s retry_period=34s): renew_deadline 40s must be longer than 1.2 × retry_period 34s, as client-go requires (renewDeadline must be greater than retryPeriod*JitterFactor)"},
		{"    lease=ten", `:17: candidates.candidate_list: invalid argument "lease=ten" for "--candidate-list" flag: entry 3: lease "ten": want a duration from 1s to 277777h46m40s in whole ticks of 1s`},
		{"    quorum=true", `:17: candidates.candidate_list: invalid argument "quorum=true" for "--candidate-list" flag: entry 3: unknown key "quorum": want preset or one of lease, renew_deadline, retry_period, nodes, fencing, persistent_trigger, catch_up_window, catch_up_once, idempotency_key, overlap, on_cut, runs_in, protocol, lock_delay, acquire_wait, disconnect_delay, or with a lock's preset its options, named as its flags are (session_ttl for --session-ttl)`},
		{"    preset=k8s", `:17: candidates.candidate_list: invalid argument "preset=k8s" for "--candidate-list" flag: entry 3: preset "k8s": want one of ` + settings.PresetNames()},
		{"    nodes=2 nodes=3", `:17: candidates.candidate_list: invalid argument "nodes=2 nodes=3" for "--candidate-list" flag: entry 3: nodes is given twice: want each key once`},
		{"    preset=openshift preset=kubernetes", `:17: candidates.candidate_list: invalid argument "preset=openshift preset=kubernetes" for "--candidate-list" flag: entry 3: preset is given twice: want each key once`},
		{"    preset=etcd session_ttl=30s session-ttl=60s", `:17: candidates.candidate_list: invalid argument "preset=etcd session_ttl=30s session-ttl=60s" for "--candidate-list" flag: entry 3: key "session-ttl": write it session_ttl, named as its parameter is, with underscores`},
	} {
		if err := os.WriteFile(review, []byte(text(tt.entry)), 0o644); err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "bad")
		code, stdout, stderr := runCmd(t, "report", "--out", bad, review)
		if code != exitUsage || stdout != "" || stderr != "leasesim report: "+review+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q\nwant %q", tt.entry, code, stdout, stderr, review+tt.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%q: refused, yet wrote %s", tt.entry, bad)
		}
	}

	// Written so that YAML joins its lines, a list would be one candidate:
	// refused, naming the value's line.
	folded := strings.Replace(text(""), "candidate_list: |", "candidate_list: >", 1)
	for _, tt := range []struct{ text, want string }{
		{folded, ":14: candidates.candidate_list is a folded block (>), which joins its lines into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
		{strings.Replace(strings.Replace(folded, "candidate_list: >\n", "candidate_list:\n", 1), "   # the deadline, not the lease", "", 1), ":15: candidates.candidate_list continues on line 16, and YAML joins the lines of a value that is no literal block into one candidate: write it as a literal block (candidate_list: |), a candidate a line, or on one line with ';' between the candidates"},
	} {
		if err := os.WriteFile(review, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "bad"), review)
		if code != exitUsage || stdout != "" || stderr != "leasesim report: "+review+tt.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q\nwant %q", tt.text, code, stdout, stderr, review+tt.want)
		}
	}

	// On the command line: entries separated by ';', named by number.
	code, _, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "cli"), "--preset", "kubernetes", "--candidate-list", "lease=45s renew_deadline=40s; lease=9s")
	if want := "leasesim report: --candidate-list entry 2 (lease=9s): lease 9s must be longer than renew_deadline 10s, as client-go requires (leaseDuration must be greater than renewDeadline)\n"; code != exitUsage || stderr != want {
		t.Errorf("--candidate-list: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestStudyOutage: without --outage the single runs meet the mix's most
// common outage, and without --start, for a batch that takes time, from
// halfway through the first batch, and report.md says so; given, they
// stay.
func TestStudyOutage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"--batch-len", "4", "--persistent-trigger", "--outage-mix", "2:0.3,4:0.7", "--candidates", "3:4", "--replicas", "2"}
	md := reportMD(t, filepath.Join(dir, "chosen"), args...)
	hasAll(t, md, "| outage | 4 |", "| start | 8 |", "meet one outage of 4 rounds (the mix's most common, 70% of events), from round 8, halfway through the first batch",
		"| **as deployed** |", "| partial batches (cut mid-run) |")
	md = reportMD(t, filepath.Join(dir, "given"), append(args, "--outage", "2", "--start", "5")...)
	hasAll(t, md, "| outage | 2 |", "| start | 5 |", "meet one outage of 2 rounds (the review's outage, 30% of the mix's events);")
}

// TestShippedReviews: docs/commands.md's reviews (testdata/reviews) say
// what it promises. Of issue 31's nightly invoicing: Under client-go's
// defaults the report raises the renew deadline, not the lease, at 664.8
// lines a year against 2,775.5, choosing among the eight candidates that
// cost that the one with the widest two-leader margin, 1m0s/40s/2s, and
// candidates.csv recommends exactly it; under OpenShift's single-node
// settings report.md opens with the two-leader warning, the margin and
// the fix, and standard error says it too. The client-go operator, whose
// API-server outages cut both replicas off, names its failures, varies
// its own outages in the lease sweep, and never says more nodes help.
// Issue 46's locks of their own are reviewed in their own options, each
// verdict naming a setting the library takes: etcd's election a session
// TTL whose keep-alive (TTL/3) the round holds, Consul's nightly batch
// its session TTL and lock-delay (kept: the lease is not the lever), the
// DynamoDB lock client with JVM pauses its lease duration and heartbeat
// period. Each review runs with --replicas 2 for its node-count study,
// but one the README runs (readmeReviews) is checked in the README's own
// run, which TestREADMECommands shares, not run a second time.
// shippedGoldens names, by review file, the shipped reviews whose
// report.md and candidates.csv are kept whole as goldens
// (testdata/golden/cmd/NAME.md, NAME-candidates.csv).
var shippedGoldens = map[string]string{"shedlock-nightly.yaml": "report-shedlock-nightly"}

// shedLockOutlasts is the shipped ShedLock review's warning: its task
// outlasts lockAtMostFor.
const shedLockOutlasts = "the task of 5m0s outlasts lockAtMostFor 2s, which nothing renews: the lock ends under the running task, and a fire after that runs it beside the first; ShedLock has no fencing token to refuse the stale run's writes, so lengthen lockAtMostFor past the task"

func TestShippedReviews(t *testing.T) {
	t.Parallel()
	sno := "two leaders: the lease 4m30s is not longer than the retry period 1m0s and the renew deadline 4m0s together (a two-leader margin of -30s), so a follower can take over as soon as, or before, a leader cut off from the record gives up; lengthen the lease past 5m0s, shorten the renew deadline below 3m30s, or turn on fencing"
	for _, tt := range []struct {
		file, stderr, opens, says string
		recommended               []string // candidates.csv's recommended rows, by their setting
		flags                     []string // beyond the review file's
		also, never               []string // what else report.md says, and what it must not
	}{
		{"nightly-invoicing.yaml", "", "**Verdict: raise the renew deadline to 40s and the lease to 1m0s** (1m0s/40s/2s): 664.8 a year against 2,775.5 for the current 15s/10s/2s", "| missed lines a year | 2,775.5 [",
			[]string{"lease=60s renew_deadline=40s retry_period=2s"}, nil,
			[]string{"and to keeping the current settings with the outage lengths doubled", "With the current settings 89.6% of those years neither miss nor double an invoice line."}, nil},
		{"etcd-election.yaml", "", "**Verdict: raise `session_ttl` to 180s** (`session_ttl=180s`): 1,537.4 a year against 3,168.8 for the current `session_ttl=60s`.", "| missed lines a year |",
			[]string{"session_ttl=180s"}, nil, nil, nil},
		{"consul-nightly.yaml", "", "**Verdict: keep the current settings** (`session_ttl=15s lock_delay=15s`): the cheapest candidate, `session_ttl=10s lock_delay=0s`, would save 104.2 of their 5,728.0 a year (1.8%), too little to matter.", "The lease is not the lever",
			[]string{"session_ttl=15s lock_delay=15s"}, nil,
			[]string{"a batch that resumes where it was cut, or that writes idempotently and reruns, would save up to 5,554.4 a year, the persistent trigger would cost"},
			[]string{"fencing and the persistent trigger would"}}, // it fences already
		// Issue 48's ShedLock nightly job: the task outlasts lockAtMostFor,
		// so the second fire, 2 s later, runs it again every night; its
		// report.md and candidates.csv are goldens (shippedGoldens).
		{"shedlock-nightly.yaml", "leasesim report: warning: " + shedLockOutlasts + "\n", "**Verdict: raise `lock_at_most_for` to 1200s** (`lock_at_most_for=1200s lock_at_least_for=0s`): 20.7 a year against 7,304,226.4 for the current `lock_at_most_for=2s lock_at_least_for=0s`, whose task outlasts lockAtMostFor.", "| double runs a year | 365.2 | 0.0 |",
			[]string{"lock_at_most_for=1200s lock_at_least_for=0s"}, nil,
			[]string{"| runs of each slot with no failure | 2 (1 double run) | 1 |", "| double lines a year | 1,460,845.3 [1,458,117, 1,460,970] | 0.0 [0, 0] |", "those sections of a leader's review are left out, not zero",
				"Halving or doubling the outage events a year leaves the answer as it is"},
			[]string{"handovers a year", "turn on fencing", "two-leader margin"}},
		// One replica: nobody takes over, whatever the lease.
		{"sno-controller.yaml", "", "**Verdict: keep the current settings** (4m30s/4m0s/1m0s)", "**The lease is not the lever**",
			nil, nil, []string{"| two-leader margin | no follower (one node): no two leaders |", "2 nodes would not cost less"}, []string{"two leaders: the lease"}},
		{"dynamodb-pauses.yaml", "", "**Verdict: raise `lease_duration` to 60s, and lower `heartbeat_period` to 2s** (`lease_duration=60s heartbeat_period=2s`): 140.0 a year against 682.8 for the current `lease_duration=20s heartbeat_period=5s`.", "| missed lines a year |",
			[]string{"lease_duration=60s heartbeat_period=2s"}, nil, nil, nil},
		// The warning is of the current settings: one candidate, them, will do.
		{"openshift-sno.yaml", "leasesim report: warning: " + sno + "\n", "**Verdict: turn on fencing, and keep the current settings**: ", "\n\n**Warning:** " + sno + ".\n\n", nil,
			[]string{"--candidates", "4m30s", "--candidate-renew-deadline", "4m", "--candidate-retry-period", "1m"}, []string{"Fenced, the current 4m30s would cost"}, nil},
		// API-server outages that cut both replicas off: no section says
		// more nodes help.
		{"clientgo-operator.yaml", "", "**Verdict: ", "The deployment's failures (the failure mix): 12 a year of every node at once isolated for 30s (80%) or 5m0s (20%); 12 events a year in all.",
			nil, nil, []string{
				"Assumed: 12 outage events a year, each of 30s, every node isolated (80%), 5m0s, every node isolated (20%)",
				"3 nodes would not cost less",
				"against the review's longest and shortest outages (5m0s and 30s)",
				"Every failure of the review's mix takes every node down at once: more nodes or zones cannot help against them.",
				"no node is left to take over while it lasts, so more nodes cannot ride it out",
				"**Not the review's failures:** every failure of its mix takes every node down at once",
				"Against the review's own failures, which take every node at once, a node count changes nothing",
			}, []string{"A second node takes that to", "the publication's long and short ones", "Nodes 0-1 fail together"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			var code int
			var stderr string
			var md, csv []byte
			if slices.Contains(readmeReviews, tt.file) && tt.flags == nil { // the README's run, which TestREADMECommands runs too
				r := runREADMEReview(t, tt.file)
				code, stderr, md, csv = r.code, r.stderr, r.md, r.csv
			} else {
				dir := filepath.Join(t.TempDir(), "review")
				args := append([]string{"report", "--out", dir, "--replicas", "2"}, tt.flags...)
				code, _, stderr = runCmd(t, append(args, filepath.Join("..", "..", "testdata", "reviews", tt.file))...)
				md, _ = os.ReadFile(filepath.Join(dir, "report.md"))
				csv, _ = os.ReadFile(filepath.Join(dir, "candidates.csv"))
			}
			if code != 0 || stderr != tt.stderr {
				t.Fatalf("exit %d, stderr %q, want %q", code, stderr, tt.stderr)
			}
			if readme, _ := os.ReadFile("../../README.md"); bytes.Contains(readme, []byte(tt.file)) && !bytes.Contains(readme, []byte("> "+tt.opens)) {
				t.Errorf("the README shows %s without its verdict %q", tt.file, tt.opens)
			}
			paragraphs := strings.Split(string(md), "\n\n")
			if len(paragraphs) < 2 || !strings.HasPrefix(paragraphs[1], tt.opens) {
				t.Errorf("report.md's second paragraph, below its title, is %.300q, want it to begin %q", paragraphs[min(1, len(paragraphs)-1)], tt.opens)
			}
			for _, say := range append([]string{tt.says}, tt.also...) {
				if !strings.Contains(string(md), say) {
					t.Errorf("report.md does not say %q", say)
				}
			}
			for _, never := range tt.never {
				if strings.Contains(string(md), never) {
					t.Errorf("report.md says %q", never)
				}
			}
			if name, ok := shippedGoldens[tt.file]; ok {
				golden.Check(t, "cmd/"+name+".md", md)
				golden.Check(t, "cmd/"+name+"-candidates.csv", csv)
			}
			var recommended []string
			for _, row := range strings.Split(strings.TrimSpace(string(csv)), "\n")[1:] {
				if f := strings.Split(row, ","); f[9] == "true" {
					recommended = append(recommended, f[len(f)-1])
				}
			}
			if tt.recommended != nil && strings.Join(recommended, " ") != strings.Join(tt.recommended, " ") {
				t.Errorf("candidates.csv recommends %q, want %q", recommended, tt.recommended)
			}
		})
	}
}

// TestUnfencedLockReview: the etcd election reviewed without fencing has
// no candidate with a two-leader margin, so its verdict turns fencing on
// and still names the session TTL to set once fenced, chosen by the rule
// that chooses when fenced (the shipped, fenced review's 180 s), with
// what it costs; candidates.csv recommends no unfenced row.
func TestUnfencedLockReview(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "reviews", "etcd-election.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	review := filepath.Join(dir, "etcd-unfenced.yaml")
	if err := os.WriteFile(review, bytes.Replace(text, []byte("fencing: true"), []byte("fencing: false"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "review")
	if code, _, stderr := runCmd(t, "report", "--out", out, "--replicas", "2", review); code != 0 || !strings.Contains(stderr, "turn on fencing") {
		t.Fatalf("exit %d, stderr %q, want the two-leader warning", code, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, say := range []string{
		"\n\n**Verdict: turn on fencing, and set `session_ttl=180s`**: no candidate leaves a two-leader margin, so none is recommended without fencing: ",
		"Fenced, `session_ttl=180s` would cost 1,537.4 a year, the choice of the candidates' rule, against 3,168.8 for the current `session_ttl=60s` without fencing.",
		"Then set `session_ttl=180s`: fenced, `session_ttl=180s` would cost 1,537.4 a year",
	} {
		if !strings.Contains(string(md), say) {
			t.Errorf("report.md does not say %q", say)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(out, "candidates.csv"))
	if strings.Contains(string(csv), ",true,true,") || strings.Contains(string(csv), ",false,true,") {
		t.Errorf("candidates.csv recommends an unfenced candidate:\n%s", csv)
	}
}

// TestCandidateListLocks: a review of client-go as configured can rank
// other locks by their own protocols beside it, each a candidate-list
// entry with its preset and its library's options, in a review file as
// on the command line: candidates.csv gives each its protocol, its lease
// and retry period from the options (etcd's TTL and TTL/3, Consul's 2·TTL
// and TTL/2), Consul's lock-delay as its waiters meet it (12 s, three 5 s
// tries: 15 s), no renew deadline and no jitter, and names the one at a
// preset's defaults for it; both files name each by its library's
// options as the entry gave them (Consul's lock_delay=12s, not the 15 s
// its waiters meet; DynamoDB's additional_time_to_wait where it is not
// the default), client-go's by its three; report.md's table says what
// else each changes.
func TestCandidateListLocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	review := filepath.Join(dir, "review.yaml")
	text := "deployment:\n  preset: kubernetes\n  nodes: 3\nschedule:\n  period: 1h\nfailures:\n  outage: 30s\n  start: 59m50s\n  rounds: 1h30m\n" +
		"candidates:\n  candidates: 15s\n  candidate_renew_deadline: 10s\n  candidate_retry_period: 2s\n  candidate_list: |\n" +
		"    preset=etcd session_ttl=9s\n    preset=etcd\n    preset=consul, session_ttl=10s, lock_delay=12s\n" +
		"    preset=dynamodb\n    preset=dynamodb lease=30s heartbeat_period=10s additional_time_to_wait=3s\n" +
		"prices:\n  cost_missed_line: 1\nstudy:\n  replicas: 2\n"
	if err := os.WriteFile(review, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCmd(t, "report", "--out", out, review); code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	csv, md := read("candidates.csv"), read("report.md")
	var got []string
	for _, row := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
		f := strings.Split(row, ",")
		got = append(got, strings.Join(append(append(f[:3:3], f[19:25]...), f[len(f)-1]), ","))
	}
	want := []string{ // lease, renew deadline, retry period; protocol, lock-delay, jitter, acquire wait, disconnect delay, preset; setting
		"9,0,3,etcd,0,false,0,0,,session_ttl=9s",
		"15,10,2,client-go,0,true,0,0,kubernetes,lease=15s renew_deadline=10s retry_period=2s",
		"20,0,5,consul,15,false,0,0,,session_ttl=10s lock_delay=12s",
		"20,0,5,dynamodb,0,false,1,0,dynamodb,lease_duration=20s heartbeat_period=5s",
		"30,0,10,dynamodb,0,false,3,0,,lease_duration=30s heartbeat_period=10s additional_time_to_wait=3s",
		"60,0,20,etcd,0,false,0,0,etcd,session_ttl=60s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("candidates.csv:\n%s\nwant (but the figures):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each lock's own margin: none for etcd's, Consul's and DynamoDB's.
	for _, s := range []string{"| `session_ttl=9s` (two leaders: no margin) | 0s | 3s | etcd's protocol |", "| `session_ttl=10s lock_delay=12s` (two leaders: no margin) | 0s | 5s | consul's protocol |", "| `session_ttl=60s` (etcd) (two leaders: no margin) | 0s | 20s | etcd's protocol |",
		"| `lease_duration=20s heartbeat_period=5s` (dynamodb) (two leaders: no margin) | 0s | 5s | dynamodb's protocol |", "| `lease_duration=30s heartbeat_period=10s additional_time_to_wait=3s` (two leaders: no margin) | 0s | 10s | dynamodb's protocol |"} {
		if !strings.Contains(md, s) {
			t.Errorf("report.md has no row %q", s)
		}
	}
}

// TestEveryReportFlagIsAKey: a review file sets every flag of leasesim
// report by its name (underscores for dashes), but those that say how to
// run this once rather than what the review is.
func TestEveryReportFlagIsAKey(t *testing.T) {
	notInFile := map[string]string{
		"out":     "where this run writes: the same review is written where each run wants it",
		"example": "prints the example file instead of reading one",
		"parquet": "how this run writes its tables, as --out where: the review is the same",
	}
	keys := map[string]bool{}
	for _, k := range reviewfile.Keys() {
		keys[k.Flag] = true
	}
	fs := pflag.NewFlagSet("report", pflag.ContinueOnError)
	setupReport(fs)
	fs.VisitAll(func(f *pflag.Flag) {
		if _, skip := notInFile[f.Name]; !keys[f.Name] && !skip {
			t.Errorf("--%s is no key of a review file: want %s in its section", f.Name, reviewfile.KeyName(f.Name))
		}
	})
	for name := range notInFile {
		if fs.Lookup(name) == nil || keys[name] {
			t.Errorf("--%s is listed as making no sense in a file, but is no flag or is a key", name)
		}
	}
}

// TestReviewFileReportKeys: report's own flags that are no model flags,
// --rounds-per-year and --service-failover among them, are keys too.
func TestReviewFileReportKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct{ text, want string }{
		{"schedule:\n  rounds_per_year: 3650\n", "(10 years of 3650 rounds)"},
		{"deployment:\n  preset: etcd\nfailures:\n  service_failover: 30s\nschedule:\n  period: 1m\n", "| service_failover_s | 30 |"},
	} {
		review := filepath.Join(dir, "review.yaml")
		if err := os.WriteFile(review, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "out"), review)
		md, _ := os.ReadFile(filepath.Join(dir, "out", "report.md"))
		if code != 0 || !strings.Contains(string(md), tt.want) {
			t.Errorf("%q: exit %d, stderr %q; report.md has no %q", tt.text, code, stderr, tt.want)
		}
	}
}

// TestFailureMixFlags: --failure-mix gives each entry's rate, kind and
// scope, so the flags of the group outage's are refused beside it, as is
// an entry it cannot read, each in one line.
func TestFailureMixFlags(t *testing.T) {
	t.Parallel()
	mix := "kind=isolate scope=every-node lengths=30s per_year=4"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--failure-mix", mix, "--down", "2"}, "--failure-mix gives each entry's rate, kind, scope and lengths: want it without --down"},
		{[]string{"--failure-mix", mix, "--pause"}, "--failure-mix gives each entry's rate, kind, scope and lengths: want it without --pause"},
		{[]string{"--failure-mix", mix, "--outage-mix", "30s:1"}, "--failure-mix gives each entry's rate, kind, scope and lengths: want it without --outage-mix"},
		{[]string{"--failure-mix", "kind=isolate scope=every-node lengths=30s per_year=4; kind=nap"},
			`invalid argument "kind=isolate scope=every-node …" (62 bytes) for "--failure-mix" flag: entry 2: kind: "nap": want one of isolate, black-hole, slow, partition, pause, crash or release`},
	} {
		args := append([]string{"report", "--out", filepath.Join(t.TempDir(), "out"), "--preset", "kubernetes", "--period", "1h"}, tt.args...)
		code, stdout, stderr := runCmd(t, args...)
		if want := "leasesim report: " + tt.want + "\n"; code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, stderr, want)
		}
	}
}

// TestOneNodeNoTwoLeaders: OpenShift's single-node settings leave no
// two-leader margin, which run and cost warn of with a follower, and not
// on one node, which has none to take over beside it.
func TestOneNodeNoTwoLeaders(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"run", "cost"} {
		for _, tt := range []struct {
			nodes string
			warns bool
		}{{"2", true}, {"1", false}} {
			code, _, stderr := runCmd(t, cmd, "--preset", "openshift-sno", "--period", "24h", "--nodes", tt.nodes)
			if code != 0 || strings.Contains(stderr, "two leaders") != tt.warns {
				t.Errorf("%s --nodes %s: exit %d, stderr %q; want a two-leader warning: %t", cmd, tt.nodes, code, stderr, tt.warns)
			}
		}
	}
}
