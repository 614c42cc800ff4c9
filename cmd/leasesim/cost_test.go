package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
)

func TestCostGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		golden string
		args   []string
		csv    string // the --csv file's golden, if any
	}{
		{"cost-both.txt", []string{"cost", "--method", "both"}, "cost-both.csv"},
		{"cost-phase.txt", []string{"cost", "--method", "phase", "--outages-per-year", "1:4", "--lines-per-batch", "2500"}, ""},
		{"cost-window-fenced.txt", []string{"cost", "--fencing", "--persistent-trigger"}, ""},
		{"recommend.txt", []string{"recommend"}, "recommend.csv"},
		{"recommend-fenced.txt", []string{"recommend", "--fencing", "--persistent-trigger", "--lease", "2:6", "--outage-mix", "2:3,5:1", "--outages-per-year", "12"}, ""},
		{"recommend-priced.txt", []string{"recommend", "--tick", "1m", "--period", "6m", "--fencing", "--persistent-trigger", "--lease", "2m:6m", "--outage-mix", "2m:3,5m:1", "--outages-per-year", "12", "--cost-delay-hour", "60", "--cost-handover", "20"}, "recommend-priced.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			args := tt.args
			path := filepath.Join(dir, tt.golden+".csv")
			if tt.csv != "" {
				args = append(args, "--csv", path)
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden.Check(t, "cmd/"+tt.golden, []byte(stdout))
			if tt.csv != "" {
				csv, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, "cmd/"+tt.csv, csv)
			}
		})
	}
}

func TestCostBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"cost", "--outages-per-year", "0"}, `leasesim cost: invalid argument "0" for "--outages-per-year" flag: "0" is not a positive number or range`},
		{[]string{"cost", "--outages-per-year", "-6"}, `leasesim cost: invalid argument "-6" for "--outages-per-year" flag: "-6" is not a positive number or range`},
		{[]string{"cost", "--lines-per-batch", "0"}, `leasesim cost: invalid argument "0" for "--lines-per-batch" flag: want a whole number from 1 to 1000000000000`},
		{[]string{"cost", "--method", "median"}, `leasesim cost: invalid argument "median" for "--method" flag: want one of window, phase, both`},
		{[]string{"cost", "--method", "phase", "--period", "999999937", "--renewal", "999999929", "--csv", filepath.Join(dir, "x.csv")}, `leasesim cost: the phase method would run every one of its 999999937 outage starts (the re-read and retry cycle of 999999929 rounds is over a quarter of them), more than 10000000: give a coarser --tick or a shorter --period`},
		{[]string{"cost", "--preset", "shedlock"}, `leasesim cost: --method window reads the leaderless and two-leader rounds of a leader, and arranges fencing and the persistent trigger, which --protocol shedlock has none of: give --method phase`},
		{[]string{"report", "--out", filepath.Join(dir, "r"), "--protocol", "shedlock", "--nodes", "2", "--lease", "20", "--retry-period", "20", "--renewal", "0", "--renew-deadline", "0"}, `leasesim report: --protocol shedlock: the review's candidates are ShedLock's lockAtMostFor and lockAtLeastFor, durations: want --tick`},
		{[]string{"report", "--out", filepath.Join(dir, "r"), "--preset", "shedlock", "--nodes", "2", "--candidates", "1m"}, `leasesim report: --candidates goes only with a leader's lock: under --protocol shedlock the candidates are ShedLock's own options' grid`},
		{[]string{"run", "--preset", "shedlock", "--trace"}, `leasesim run: --trace: a per-fire protocol (shedlock, shedlock-redis) has no leader`},
		{[]string{"recommend", "--outage-mix", "2:0,5:1"}, `leasesim recommend: invalid argument "2:0,5:1" for "--outage-mix" flag: weight "0" in "2:0": want a positive number`},
		{[]string{"recommend", "--outage-mix", "2:x"}, `leasesim recommend: invalid argument "2:x" for "--outage-mix" flag: weight "x" in "2:x": want a positive number`},
		{[]string{"recommend", "--outage-mix", "2;0.9"}, `leasesim recommend: invalid argument "2;0.9" for "--outage-mix" flag: "2;0.9" is not outage:weight, e.g. 2:0.9,5:0.1`},
		{[]string{"recommend", "--cost-delay-hour", "5"}, `leasesim recommend: --cost-delay-hour needs --tick: a round has no length in hours`},
		{[]string{"recommend", "--outages-per-year", "6,12"}, `leasesim recommend: --outages-per-year takes one rate in recommend, which ranks at one rate, not a list of 2 (cost and report take a list)`},
		{[]string{"recommend", "--lease", "0:3"}, `leasesim recommend: invalid argument "0:3" for "--lease" flag: "0:3" is out of range`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and a line starting %q", code, stdout, stderr, tt.want)
			}
		})
	}
	onlyFiles(t, dir)

	// The window method measures what the phase method refuses: cost
	// computes only the method asked for.
	for _, args := range [][]string{
		{"cost", "--period", "99991", "--renewal", "99989"},
		{"cost", "--outage", "999999990"},
	} {
		if code, stdout, stderr := runCmd(t, args...); code != 0 || !strings.HasPrefix(stdout, "model window: ") {
			t.Errorf("leasesim %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestIdleFailoverWarned: cost and recommend say when the lock service's
// failover falls where it changes nothing, and stay quiet when it falls
// within the outage.
func TestIdleFailoverWarned(t *testing.T) {
	t.Parallel()
	const idle = "warning: the lock service fails over at 100h0m0s, where every lease is renewed on time"
	for _, tt := range []struct {
		args []string
		warn bool
	}{
		{[]string{"cost", "--preset", "etcd", "--period", "1m", "--method", "phase", "--service-failover", "100h"}, true},
		{[]string{"recommend", "--preset", "etcd", "--period", "1m", "--outage-mix", "10s:1", "--service-failover", "100h"}, true},
		{[]string{"cost", "--preset", "etcd", "--period", "1m", "--method", "phase", "--service-failover", "1m5s"}, false},
		{[]string{"recommend", "--preset", "etcd", "--period", "1m", "--outage-mix", "10s:1", "--service-failover", "1m5s"}, false},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != 0 || stdout == "" || strings.Contains(stderr, idle) != tt.warn {
			t.Errorf("%v: exit %d, stderr %q: want the idle failover's warning %v", tt.args, code, stderr, tt.warn)
		}
	}
}

// TestRecommendNamesProtocol: recommend's configuration line names the
// lock's protocol, and a lock's lock-delay or acquire wait.
func TestRecommendNamesProtocol(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"recommend"}, "; 5 nodes, protocol client-go, renewal 3, period 6,"},
		{[]string{"recommend", "--preset", "etcd", "--outage-mix", "5s:1", "--period", "1m"}, "; 5 nodes, protocol etcd, renewal 0s, retry period 20s, renew deadline 0s, period 1m0s, fencing"},
		{[]string{"recommend", "--preset", "consul", "--outage-mix", "5s:1", "--period", "1m"}, ", period 1m0s, lock delay 15s, fencing"},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		if _, line, _ := strings.Cut(stdout, "\n"); code != 0 || !strings.Contains(line, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, second line %q, want %q in it", tt.args, code, stderr, strings.SplitN(line, "\n", 2)[0], tt.want)
		}
	}
}

// TestShedLockNightly: the ShedLock review, a nightly job on two
// nodes whose fires land 2 s apart under a lockAtMostFor shorter than the
// task: run over a year counts 364 double runs (the last night's second
// fire falls after the run), and cost prints the 365 a year that no
// outage causes, each night's second fire finding the lock ended 1 s
// after the first took it.
func TestShedLockNightly(t *testing.T) {
	common := []string{"--preset", "shedlock", "--nodes", "2", "--fire-spread", "2s", "--lock-at-most-for", "1s", "--batch-len", "30s", "--period", "24h", "--outage", "0s"}
	code, stdout, stderr := runCmd(t, append([]string{"run", "--rounds", "8760h", "--format", "csv"}, common...)...)
	if code != 0 || !strings.Contains(stderr, "each slot runs 2 times with no failure") {
		t.Fatalf("run: exit %d, stderr %q", code, stderr)
	}
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	head, row := strings.Split(rows[0], ","), strings.Split(rows[1], ",")
	for name, want := range map[string]string{"started": "365", "double_starts": "364", "doubled_parts": "10920", "protocol": "shedlock", "lease_s": "1", "fire_spread_s": "2"} {
		i := slices.Index(head, name)
		if i < 0 || row[i] != want {
			t.Errorf("run: %s = %v, want %s", name, row[max(i, 0)], want)
		}
	}
	code, stdout, stderr = runCmd(t, append([]string{"cost", "--method", "phase"}, common...)...)
	if want := "with no failure at all, every slot runs 2 times under protocol shedlock: 1 double batch a slot, 365 a year of 365 slots (1460000 double lines)"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("cost: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
}

// TestShedLockSettings: settings --preset shedlock with the two
// nodes 2 s apart and a 1 s task: the lock is free 1 s after it was
// taken, so the second fire runs the slot again; lockAtLeastFor 5s covers
// the spread. A lockAtMostFor under 30 s with keep-alive is refused as
// KeepAliveLockProvider refuses it.
func TestShedLockSettings(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--fire-spread", "2s", "--task-length", "1s"}, []string{
			"from the holder's taking of the lock", "rerun_after_first_fire              1        1        1",
			"takeover_after_crash              600      600      600", "the slot runs 2 times (1 double run)"}},
		{[]string{"--fire-spread", "2s", "--task-length", "1s", "--lock-at-least-for", "5s"}, []string{
			"rerun_after_first_fire              5        5        5", "the slot runs 1 time (0 double runs)"}},
		{[]string{"--task-length", "20m"}, []string{"two_leader_margin                -600     -600     -600", "No margin: the task runs longer than lockAtMostFor"}},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"settings", "--preset", "shedlock", "--nodes", "2"}, tt.args...)...)
		for _, w := range tt.want {
			if code != 0 || !strings.Contains(stdout, w) {
				t.Errorf("%v: exit %d, stderr %q; want %q in\n%s", tt.args, code, stderr, w, stdout)
			}
		}
	}
	code, stdout, stderr := runCmd(t, "settings", "--preset", "shedlock", "--keep-alive", "--lock-at-most-for", "20s")
	if want := "leasesim settings: --preset shedlock --lock-at-most-for 20s --keep-alive true: lock at most for 20s: want at least 30s with keep-alive"; code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}
}
