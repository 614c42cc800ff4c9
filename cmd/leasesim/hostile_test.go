package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/testio"
	"github.com/leasesim/leasesim/model"
	"github.com/spf13/pflag"
)

// TestOutputIsNotAnInput: an output that is one of the command's inputs
// (the same path, a symbolic link to it, a hard link, another spelling)
// is bad input: exit 2, one line naming both, nothing on standard output,
// and the input as it was.
func TestOutputIsNotAnInput(t *testing.T) {
	incident, err := os.ReadFile("../../testdata/incidents/brownout.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string // of the input, in its folder
		content string
		args    func(in, out string) []string
		flag    string // the output's, as the message names it
	}{
		{"inc.txt", string(incident), func(in, out string) []string {
			return []string{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "--png", out, in}
		}, "--png"},
		{"part.csv", "nodes,started\n1,2\n", func(in, out string) []string { return []string{"merge", "--out", out, in} }, "--out"},
		{"inc.txt", string(incident), func(in, out string) []string {
			return []string{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "--csv", out, in}
		}, "--csv"},
		{"part.csv", "nodes,started\n1,2\n", func(in, out string) []string { return []string{"merge", "--csv", out, in} }, "--csv"},
		{"inc.txt", string(incident), func(in, out string) []string {
			return []string{"sweep", "--tick", "1s", "--nodes", "3", "--rounds", "10m", "--incident", in, "--out", out}
		}, "--out"},
		{"inc.txt", string(incident), func(in, out string) []string {
			return []string{"cost", "--tick", "1s", "--nodes", "3", "--rounds", "10m", "--incident", in, "--csv", out}
		}, "--csv"},
		{"up.txt", "30\n", func(in, out string) []string {
			return []string{"montecarlo", "--replicas", "2", "--rounds", "100", "--uptime", "empirical:" + in, "--csv", out}
		}, "--csv"},
		{"down.txt", "3\n", func(in, out string) []string {
			return []string{"montecarlo", "--replicas", "2", "--rounds", "100", "--also", "pause=fixed:40/empirical:" + in, "--csv", out}
		}, "--csv"},
		{"cost.csv", "3\n", func(in, out string) []string {
			return []string{"report", "--out", filepath.Dir(out), "--outage-history", in}
		}, "--out"},
		{"report.md", "", func(in, out string) []string { return []string{"report", "--out", filepath.Dir(out), in} }, "--out"},
		{"nodes.csv", "30\n", func(in, out string) []string {
			return []string{"report", "--out", filepath.Dir(out), "--uptime", "empirical:" + in}
		}, "--out"},
		{"timeline.txt", string(incident), func(in, out string) []string {
			return []string{"report", "--out", filepath.Dir(out), "--tick", "1s", "--nodes", "3", "--rounds", "10m", "--incident", in}
		}, "--out"},
	}
	for _, tt := range tests {
		for _, how := range []string{"same", "symlink", "hardlink", "spelling"} {
			dir := t.TempDir()
			in := filepath.Join(dir, tt.name)
			os.WriteFile(in, []byte(tt.content), 0o644)
			out := in
			switch how {
			case "symlink":
				out = filepath.Join(dir, "link")
				os.Symlink(tt.name, out)
			case "hardlink":
				out = filepath.Join(dir, "hard")
				os.Link(in, out)
			case "spelling":
				out = filepath.Join(dir, ".", tt.name)
				in = filepath.Join(dir, "..", filepath.Base(dir), tt.name)
			}
			if tt.args(in, out)[0] == "report" { // the folder's own file
				if how == "symlink" || how == "hardlink" {
					os.Remove(out)
					out = filepath.Join(dir, "o", tt.name)
					os.Mkdir(filepath.Dir(out), 0o755)
					if how == "symlink" {
						os.Symlink(in, out)
					} else {
						os.Link(in, out)
					}
				}
			}
			args := tt.args(in, out)
			code, stdout, stderr := runCmd(t, args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 ||
				!strings.Contains(stderr, ": "+tt.flag+" ") || !strings.Contains(stderr, "is the same file as") {
				t.Errorf("leasesim %s (%s): exit %d, stdout %q, stderr %q", strings.Join(args, " "), how, code, stdout, stderr)
			}
			if got, _ := os.ReadFile(in); string(got) != tt.content {
				t.Errorf("leasesim %s (%s): the input now holds %.40q", strings.Join(args, " "), how, got)
			}
		}
	}
}

// TestMain runs leasesim's main instead of the tests when the environment
// asks for it, so that a test can run the real process: its signals and
// its standard output as the operating system gives them.
func TestMain(m *testing.M) {
	if os.Getenv("LEASESIM_RUN_MAIN") == "1" {
		os.Args = append([]string{"leasesim"}, os.Args[1:]...)
		main()
	}
	os.Exit(m.Run())
}

// runProcess runs leasesim as its own process with stdout, and returns its
// exit status (-1 if a signal killed it) and stderr.
func runProcess(t *testing.T, stdout *os.File, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "LEASESIM_RUN_MAIN=1")
	cmd.Stdout = stdout
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// TestClosedPipe: standard output a pipe whose reader has gone (leasesim
// sweep | head -1) is a failing output: exit 1 and one line saying so, not
// a death by SIGPIPE (exit 141 in a shell) without a word.
func TestClosedPipe(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "--lease", "1:40"},
		{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "../../testdata/incidents/brownout.txt"},
		{"montecarlo", "--replicas", "5", "--rounds", "100"},
		{"recommend"},
		{"--version"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		code, stderr := runProcess(t, w, args...)
		w.Close()
		if code != exitFailure || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "broken pipe") {
			t.Errorf("leasesim %s | (closed): exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestFailingStdoutLeavesNoFile: a command that writes a file and its
// table (or its one line) on standard output writes both or neither: when
// standard output fails, it exits 1 with one line and the file is not
// there, nor a folder it made for it. So do help and --version, which
// write only standard output.
func TestFailingStdoutLeavesNoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "--png", filepath.Join(dir, "x.png"), "../../testdata/incidents/brownout.txt"},
		{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "--csv", filepath.Join(dir, "x.csv"), "--png", filepath.Join(dir, "y.png"), "../../testdata/incidents/brownout.txt"},
		{"cost", "--csv", filepath.Join(dir, "cost.csv")},
		{"recommend", "--csv", filepath.Join(dir, "rec.csv")},
		{"report", "--replicas", "5", "--out", filepath.Join(dir, "report")},
		{"help"},
		{"--version"},
		{"run", "--help"},
	} {
		var stderr strings.Builder
		code := runWith(context.Background(), args, &testio.FailWriter{}, &stderr, noEnv)
		if code != exitFailure || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), testio.ErrFull.Error()) {
			t.Errorf("leasesim %s, stdout failing: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
		}
	}
	onlyFiles(t, dir) // nor the report folder the failed report made
}

// TestReplayInterrupted: replay stops at an interrupt, before it starts or
// while it runs its settings, with exit 130, one line and no PNG.
func TestReplayInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	png := filepath.Join(dir, "x.png")
	// 150 runs of 1,000,000 rounds each: seconds, uninterrupted.
	args := []string{"replay", "--lease", "1s:150s", "--rounds", "1000000s", "--nodes", "3", "--period", "1m", "--tick", "1s", "--png", png, "../../testdata/incidents/brownout.txt"}
	for _, after := range []time.Duration{0, 50 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		if after == 0 {
			cancel()
		} else {
			time.AfterFunc(after, cancel)
		}
		var stdout, stderr strings.Builder
		code := runWith(ctx, args, &stdout, &stderr, noEnv)
		cancel()
		if code != exitInterrupted || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("cancelled after %s: exit %d, stdout %d bytes, stderr %q", after, code, stdout.Len(), stderr.String())
		}
	}
	onlyFiles(t, dir)
}

// TestInterruptWhileStuck: Ctrl-C while replay is stuck where no context
// reaches (writing 1 MB of traces to a pipe nobody reads, its PNG
// prepared beside its target) ends the process with exit 130 once the
// grace is over, and the fallback exit removes the PNG's temporary file.
func TestInterruptWhileStuck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "replay", "--lease", "1s:60s", "--rounds", "3000s", "--trace", "--nodes", "3", "--period", "1m", "--tick", "1s",
		"--png", filepath.Join(dir, "x.png"), "../../testdata/incidents/brownout.txt")
	cmd.Env = append(os.Environ(), "LEASESIM_RUN_MAIN=1")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close() // read one byte, then no more: the process blocks once the pipe is full
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Process.Kill()
	began := make(chan error, 1)
	go func() { _, err := r.Read(make([]byte, 1)); began <- err }()
	select { // the table has begun, past every check of the context, the PNG prepared
	case err := <-began:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("replay wrote nothing within 60 s")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("%d files beside the PNG's target, want its temporary file", len(es))
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || stderr.String() != "leasesim: interrupted; the command did not end within 900ms, so it was stopped\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	onlyFiles(t, dir)
}

// TestReviewFileSaysWhere: a review file that is more than one YAML
// document, gives a section twice, carries a tag or bytes YAML refuses,
// is too large, or holds a value a later check refuses, is bad input
// named by file, line and key; a leading byte order mark is accepted.
func TestReviewFileSaysWhere(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inc.txt"), []byte("0 pause 5 3\n"), 0o644)
	big := "deployment:\n  nodes: 3\n" + strings.Repeat("# a comment\n", 100_000)
	tests := []struct{ text, want string }{
		{"deployment:\n  nodes: 3\n---\nschedule:\n  period: 7\n", `r.yaml:3: a second YAML document: a review file is one document, want no "---" after its first`},
		{"deployment:\n  nodes: 3\nschedule:\n  period: 7\ndeployment:\n  lease: 4\n", "r.yaml:5: section deployment is given twice (first at line 1): want each section once"},
		{"deployment:\n  nodes: !foo 3\n", "r.yaml:2: tag !foo: a review file takes no tags, want each value as its flag takes it"},
		{"deployment:\n  nodes: 3\n  lease: \"a\x01b\"\n", "r.yaml:3: control character U+0001: YAML allows none"},
		{"deployment:\n  nodes: 3\n  lease: \xff\n", "r.yaml:3: byte 0xff is not UTF-8: want UTF-8 text"},
		{big, "review file: r.yaml: longer than 1024 KiB, the most a review file may hold"},
		{"failures:\n  incident: inc.txt\n  epoch: bogus\n", `r.yaml:3: failures.epoch: invalid argument "bogus" for "--epoch" flag: want an RFC 3339 time, as 2026-11-30T23:58:00Z`},
		{"failures:\n  epoch: 2026-11-30T23:58:00Z\n", "r.yaml:2: failures.epoch: --epoch goes only with --incident"},
		{"failures:\n  outage_mix: \"2;0.9\"\n", `r.yaml:2: failures.outage_mix: invalid argument "2;0.9" for "--outage-mix" flag: "2;0.9" is not outage:weight, e.g. 2:0.9,5:0.1`},
		{"failures:\n  outage_history: \"\"\n", `r.yaml:2: failures.outage_history: invalid argument "" for "--outage-history" flag: want a file of outage lengths`},
		{"deployment:\n  lease: 3\n  renew_deadline: 5\n", "r.yaml:2: deployment.lease, r.yaml:3: deployment.renew_deadline: --lease 3 must be longer than --renew-deadline 5, as client-go requires (leaseDuration must be greater than renewDeadline)"},
		// A failure mix's entry, at the line of its key (of the entry, for a key it lacks).
		{"failures:\n  failure_mix:\n    - kind: isolate\n      scope: leader\n      lengths: 5\n      per_year: 2\n    - kind: isolate\n      scope: rack\n      lengths: 5\n      per_year: 2\n", `r.yaml:8: failures.failure_mix: entry 2: scope: "rack": want leader, one-node, zone or every-node`},
		{"failures:\n  failure_mix:\n    - kind: isolate\n      scope: leader\n      lengths: 5\n      per_year: 2\n    - kind: isolate\n      scope: zone\n      lengths: 5\n", "r.yaml:7: failures.failure_mix: entry 2: per_year: missing: each entry gives kind, scope, lengths, per_year"},
		{"failures:\n  failure_mix:\n    - kind: isolate\n      scope: leader\n      lengths: 5\n      per_year: 2\n    - kind: isolate\n      scope: zone\n      lengths: 5\n      per_year: -1\n", `r.yaml:10: failures.failure_mix: entry 2: per_year: "-1": want a positive number of events a year`},
		{"failures:\n  failure_mix:\n    - kind: isolate\n      scope: leader\n      lengths: 5\n      per_year: 2\n    - kind: isolate\n      scope: zone\n      lengths: [5]\n      per_year: 1\n", "r.yaml:9: failures.failure_mix: entry 2: want a list of mappings, each key: value with one word a value (kind: isolate, scope: every-node, lengths: 30s:0.8,5m:0.2, per_year: 8)"},
		{"failures:\n  outages_per_year: 3\n  failure_mix: \"kind=isolate scope=leader lengths=5 per_year=2\"\n", "r.yaml:3: failures.failure_mix, r.yaml:2: failures.outages_per_year: --failure-mix gives each entry's rate, kind, scope and lengths: want it without --outages-per-year"},
		{"\ufeffdeployment:\n  nodes: x\n", `r.yaml:2: deployment.nodes: invalid argument "x" for "--nodes" flag: want a whole number from 1 to 1000000`},
		{"deployment:\n  preset: zookeeper\nschedule:\n  period: 24h\nfailures:\n  drift: -100\n  outage_mix: 5s:1\n", "r.yaml:6: failures.drift, r.yaml:4: schedule.period: the phase method would run every one of its 86400000 outage starts (with --drift -100 the failing nodes' renewals repeat on no cycle), more than 10000000: give a coarser --tick or a shorter --period"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, "r.yaml")
		os.WriteFile(path, []byte(tt.text), 0o644)
		code, stdout, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "out"), path)
		want := "leasesim report: " + strings.ReplaceAll(tt.want, "r.yaml", path) + "\n"
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("%.50q: exit %d, stderr\n%q, want\n%q", tt.text, code, stderr, want)
		}
	}
	if code, _, stderr := runCmd(t, "report", "--out", filepath.Join(dir, "out"), "/dev/zero"); code != exitUsage ||
		stderr != "leasesim report: review file: /dev/zero: longer than 1024 KiB, the most a review file may hold\n" {
		t.Errorf("/dev/zero: exit %d, %q", code, stderr)
	}
	onlyFiles(t, dir, "inc.txt", "r.yaml")
}

// TestLengthsFiles: an outage history or an empirical: file may start with
// a byte order mark, as a review file may; one that is not a list of
// lengths (a line of 64 KiB, /dev/zero, more than a million lengths) is
// refused at once, naming the file and line.
func TestLengthsFiles(t *testing.T) {
	dir := t.TempDir()
	bom := filepath.Join(dir, "bom.txt")
	os.WriteFile(bom, []byte("\ufeff3\n5\n"), 0o644)
	if code, _, stderr := runCmd(t, "montecarlo", "--replicas", "2", "--rounds", "100", "--downtime", "empirical:"+bom); code != 0 {
		t.Errorf("a history after a byte order mark: exit %d, %q", code, stderr)
	}
	long := filepath.Join(dir, "long.txt")
	os.WriteFile(long, []byte("3\n"+strings.Repeat("9", 70_000)+"\n"), 0o644)
	many := filepath.Join(dir, "many10m.txt") // a name a duration's hint once took for 10m
	os.WriteFile(many, []byte(strings.Repeat("3\n", 1_000_001)), 0o644)
	for _, tt := range []struct{ path, want string }{
		{long, long + ": line 2: longer than 64 KiB: want one length a line"},
		{"/dev/zero", "/dev/zero: line 1: longer than 64 KiB: want one length a line"},
		{many, many + ": line 1000001: more than 1000000 lengths, the most a file of them may hold"},
	} {
		for _, args := range [][]string{
			{"montecarlo", "--downtime", "empirical:" + tt.path},
			{"report", "--out", filepath.Join(dir, "out"), "--outage-history", tt.path},
		} {
			code, stdout, stderr := runCmd(t, args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, tt.want+"\n") {
				t.Errorf("leasesim %s: exit %d, stderr %q, want it to end %q", strings.Join(args, " "), code, stderr, tt.want)
			}
		}
	}
	onlyFiles(t, dir, "bom.txt", "long.txt", "many10m.txt")
}

// TestRefusedLikeTheirSiblings: cost --incident with a run shorter than
// the incident is refused, as sweep, check and report refuse it; a preset
// given twice is refused, as a lease given twice is; an empty
// --outage-history is refused, not taken for none.
func TestRefusedLikeTheirSiblings(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc.txt")
	os.WriteFile(inc, []byte("0 pause 5 30\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cost", "--incident", inc}, "leasesim cost: --incident: " + inc + ": line 1: the failure ends at 34, after the run's end (--rounds 24)\n"},
		{[]string{"cost", "--method", "both", "--rounds", "30", "--incident", inc}, "leasesim cost: --incident: " + inc + ": line 1: the failure ends at 34, after the run's end (--rounds 30)\n"},
		{[]string{"replay", "--preset", "kubernetes,kubernetes", inc}, `leasesim replay: invalid argument "kubernetes,kubernetes" for "--preset" flag: duplicate value kubernetes` + "\n"},
		{[]string{"report", "--out", filepath.Join(dir, "out"), "--outage-history", ""}, `leasesim report: invalid argument "" for "--outage-history" flag: want a file of outage lengths` + "\n"},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != exitUsage || stdout != "" || stderr != tt.want {
			t.Errorf("leasesim %s: exit %d, stderr\n%q, want\n%q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "cost", "--rounds", "40", "--incident", inc); code != 0 {
		t.Errorf("cost with the incident inside the run: exit %d, %q", code, stderr)
	}
	onlyFiles(t, dir, "inc.txt")
}

// TestJSONOutputsParse: every command's --format json parses as JSON, for
// every value of every named parameter and with a tick; a name is a JSON
// string.
func TestJSONOutputsParse(t *testing.T) {
	var runs [][]string
	for _, c := range commands() {
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.setup(fs)
		if f := fs.Lookup("format"); f != nil && strings.Contains(f.Usage, "json") {
			runs = append(runs, []string{c.name, "--format", "json"}, []string{c.name, "--format", "json", "--preset", "kubernetes"})
			if fs.Lookup("tick") != nil {
				runs = append(runs, []string{c.name, "--format", "json", "--tick", "1s", "--preset", "kubernetes"})
			}
		}
	}
	if len(runs) == 0 {
		t.Fatal("no command has --format json")
	}
	for _, overlap := range model.Overlap.Names() {
		runs = append(runs, []string{"run", "--format", "json", "--persistent-trigger", "--overlap", overlap})
	}
	for _, args := range runs {
		code, stdout, stderr := runCmd(t, args...)
		var got map[string]any
		if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
			t.Errorf("leasesim %s: exit %d, %v, stderr %q", strings.Join(args, " "), code, err, stderr)
			continue
		}
		want := "allow"
		if i := slices.Index(args, "--overlap"); i >= 0 {
			want = args[i+1]
		}
		if args[0] == "run" && got["overlap"] != want {
			t.Errorf("leasesim %s: overlap %#v, want %q", strings.Join(args, " "), got["overlap"], want)
		}
	}
}

// TestReplayBounds: a replay of more settings than it compares or
// traces, or a PNG of more rows than it draws, is refused before any run
// (memory stays bounded: --lease 1:1000000 once took 1.6 GB, --trace over
// 10,000 settings 1 GB), naming the flags.
func TestReplayBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inc := "../../testdata/incidents/brownout.txt"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--tick", "1s", "--nodes", "3", "--lease", "1s:1000000s", inc}, "leasesim replay: --preset and --lease give 1000000 settings to compare: replay compares at most 10000\n"},
		{[]string{"replay", "--nodes", "3", "--preset", "kubernetes,openshift", "--lease", "1s:5001s", inc}, "leasesim replay: --preset and --lease give 10002 settings to compare: replay compares at most 10000\n"},
		{[]string{"replay", "--tick", "1s", "--nodes", "3", "--lease", "1s:101s", "--trace", inc}, "leasesim replay: --preset and --lease give 101 settings: --trace prints each one's run, for at most 100\n"},
		{[]string{"replay", "--tick", "1s", "--nodes", "3", "--lease", "1s:198s", "--png", filepath.Join(dir, "x.png"), inc}, "leasesim replay: --png would draw 201 rows (a failing node or a setting each): the figure holds at most 200; want fewer settings (--preset, --lease) or no --png\n"},
	} {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != exitUsage || stdout != "" || stderr != tt.want {
			t.Errorf("leasesim %s: exit %d, stderr\n%q, want\n%q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
	}
	onlyFiles(t, dir)
	if code, _, stderr := runCmd(t, "replay", "--tick", "1s", "--nodes", "3", "--lease", "1s:197s", "--png", filepath.Join(dir, "x.png"), inc); code != 0 {
		t.Errorf("197 settings and 3 nodes: exit %d, %q", code, stderr)
	}
}

// TestAlsoEmpiricalPath: an --also process's empirical: uptime may name a
// file in a folder: the downtime begins at the slash before its
// distribution's name, not at the path's first slash.
func TestAlsoEmpiricalPath(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	up := filepath.Join(dir, "sub", "h.txt")
	os.WriteFile(up, []byte("40\n60\n"), 0o644)
	for _, also := range []string{"pause=empirical:" + up + "/fixed:3", "pause=empirical:" + up + "/empirical:" + up} {
		if code, _, stderr := runCmd(t, "montecarlo", "--replicas", "2", "--rounds", "100", "--also", also); code != 0 {
			t.Errorf("--also %s: exit %d, %q", also, code, stderr)
		}
	}
}

// TestReportOutDanglingLink: report --out onto a symbolic link whose
// target does not exist is bad input saying so, not "mkdir: file exists"
// after the work.
func TestReportOutDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	os.Symlink(filepath.Join(dir, "nowhere"), link)
	code, stdout, stderr := runCmd(t, "report", "--out", link)
	want := `leasesim report: invalid argument "` + link + `" for "--out" flag: a symbolic link to ` + filepath.Join(dir, "nowhere") + ", which does not exist: want a folder, or a link to one\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("exit %d, stderr\n%q, want\n%q", code, stderr, want)
	}
}

// TestReportKeepsLookalikeFolders: report --out leaves a user's folders
// that look like its staging folders (.leasesim-2024-backup, one named
// exactly like a dead run's but without the marker) as they were.
func TestReportKeepsLookalikeFolders(t *testing.T) {
	out := t.TempDir()
	for _, name := range []string{".leasesim-2024-backup", ".leasesim-999999999-1"} {
		os.MkdirAll(filepath.Join(out, name, "data"), 0o755)
		os.WriteFile(filepath.Join(out, name, "data", "invoices.csv"), []byte("precious"), 0o644)
	}
	if code, _, stderr := runCmd(t, "report", "--replicas", "2", "--out", out); code != 0 {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	for _, name := range []string{".leasesim-2024-backup", ".leasesim-999999999-1"} {
		if got, err := os.ReadFile(filepath.Join(out, name, "data", "invoices.csv")); string(got) != "precious" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// TestHelpSaysEachDefaultOnce: a flag whose usage says its default (as
// report's --replicas, 200 or with --tick 1000) is not followed by
// pflag's own "(default 200)".
func TestHelpSaysEachDefaultOnce(t *testing.T) {
	for _, c := range commands() {
		code, stdout, stderr := runCmd(t, c.name, "--help")
		if code != 0 || stderr != "" {
			t.Errorf("%s --help: exit %d, %q", c.name, code, stderr)
		}
		for _, line := range strings.Split(stdout, "\n") {
			if strings.Count(line, "(default ") > 1 {
				t.Errorf("%s --help: %q", c.name, line)
			}
		}
	}
}

// TestEpochOfYearOne: an --epoch before 1970 (year 1 is Go's zero time,
// which meant "no epoch") is refused, naming the flag.
func TestEpochOfYearOne(t *testing.T) {
	inc := filepath.Join(t.TempDir(), "inc.txt")
	os.WriteFile(inc, []byte("0 pause 0001-01-01T00:00:05Z 3\n"), 0o644)
	for _, epoch := range []string{"0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"} {
		code, stdout, stderr := runCmd(t, "replay", "--epoch", epoch, inc)
		want := `leasesim replay: invalid argument "` + epoch + `" for "--epoch" flag: want an RFC 3339 time from 1970 on, as 2026-11-30T23:58:00Z` + "\n"
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("--epoch %s: exit %d, stderr %q", epoch, code, stderr)
		}
	}
}
