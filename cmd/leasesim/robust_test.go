package main

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/testio"
)

// runGuarded runs leasesim with ctx and stdout, and fails the test if it
// has not returned after testio's generous guard: a hang, not a slow run.
func runGuarded(t *testing.T, ctx context.Context, stdout *testio.FailWriter, args ...string) (int, string) {
	t.Helper()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() { done <- runWith(ctx, args, stdout, &stderr, noEnv) }()
	code := testio.Await(t, done, "leasesim "+strings.Join(args, " ")+", its output failing")
	return code, stderr.String()
}

// TestFailingOutput: when standard output fails (a full disk, a closed
// pipe) after any number of bytes, every command with a worker pool stops
// and exits 1 with one line naming the error; none hangs.
func TestFailingOutput(t *testing.T) {
	t.Parallel()
	commands := [][]string{
		{"sweep", "--lease", "1:2000", "--outage", "0:9", "--workers", "2"},
		{"montecarlo", "--lease", "1:40", "--replicas", "20", "--rounds", "2000", "--workers", "2"},
		{"check", "--lease", "1:4", "--nodes", "2,3", "--retry-period", "1", "--renew-deadline", "0", "--drift", "0", "--down", "1", "--rounds", "24",
			"--jitter", "false", "--black-hole", "false", "--partition", "false", "--crash", "false", "--pause", "false", "--idempotency-key", "false"},
		{"recommend", "--lease", "1:200"},
	}
	for _, args := range commands {
		var full strings.Builder
		if code := runWith(context.Background(), args, &full, &full, noEnv); code != exitOK {
			t.Fatalf("leasesim %s: exit %d: %s", strings.Join(args, " "), code, full.String())
		}
		size := full.Len()
		for _, n := range []int{0, 1, size / 3, size - 1} {
			code, stderr := runGuarded(t, context.Background(), &testio.FailWriter{N: n}, args...)
			if code != exitFailure || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, testio.ErrFull.Error()) {
				t.Errorf("leasesim %s, output failing after %d bytes: exit %d, stderr %q", strings.Join(args, " "), n, code, stderr)
			}
		}
	}
}

// TestLongArgumentsAreNotEchoedWhole: a huge bad argument gives a short
// error line that still names the flag and what it accepts.
func TestLongArgumentsAreNotEchoedWhole(t *testing.T) {
	huge := strings.Repeat("9", 100_000)
	tests := []struct {
		args []string
		want []string // parts the line must keep
	}{
		{[]string{"run", "--lease", huge}, []string{`--lease`, "want a whole number from 1 to 1000000000", "(100000 bytes)"}},
		{[]string{"sweep", "--lease", "1," + huge}, []string{`--lease`, "is not a whole number or range", "(100000 bytes)"}},
		{[]string{"run", "--" + huge}, []string{"unknown flag"}},
		{[]string{"run", huge}, []string{"unexpected argument", "run takes only flags"}},
		{[]string{huge}, []string{"unknown command", "want one of run"}},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || len(stderr) > maxLine+100 {
			t.Errorf("%.40s: exit %d, stdout %d bytes, stderr %d bytes: %.300q", strings.Join(tt.args, " "), code, len(stdout), len(stderr), stderr)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%.40s: stderr %q lacks %q", strings.Join(tt.args, " "), stderr, w)
			}
		}
	}
}

// TestCancelledMidWork: Ctrl-C or SIGTERM (a context cancelled while the
// command works) ends every long command with exit 130, one line, and no
// file. Each command here would run for minutes uncancelled; the guard
// catches one that ignores the signal.
func TestCancelledMidWork(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"montecarlo", "--rounds", "1000000000", "--uptime", "geometric:20", "--downtime", "fixed:5", "--replicas", "4", "--workers", "2", "--csv", filepath.Join(dir, "mc.csv")},
		{"recommend", "--period", "3163", "--renewal", "3161", "--lease", "1:1000", "--csv", filepath.Join(dir, "rec.csv")},
		{"cost", "--method", "phase", "--period", "3163", "--renewal", "3161", "--csv", filepath.Join(dir, "cost.csv")},
		{"sweep", "--lease", "1:1000000", "--outage", "0:40", "--out", filepath.Join(dir, "sweep.csv")},
		{"check", "--lease", "1:1000", "--nodes", "1:9"}, // still counting the grid's valid configurations (about 4 s of CPU) when cancelled: the count stops at the interrupt
		{"report", "--period", "3163", "--renewal", "3161", "--rounds", "3163", "--out", filepath.Join(dir, "report")},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel() // each waits 300 ms to be cancelled: together, not one after another
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(300*time.Millisecond, cancel)
			var stdout, stderr strings.Builder
			done := make(chan int, 1)
			go func() { done <- runWith(ctx, args, &stdout, &stderr, noEnv) }()
			code := testio.Await(t, done, "leasesim "+strings.Join(args, " ")+", cancelled")
			if code != exitInterrupted || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("leasesim %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
			}
		})
	}
	t.Cleanup(func() { // once every command has stopped
		os.Remove(filepath.Join(dir, "report")) // the folder may be made; it must be empty
		onlyFiles(t, dir)
	})
}

// TestOutputThroughLinksAndFIFOs: an --out or --csv that is a symbolic
// link keeps the link and replaces its target; a FIFO is written to, and
// its reader gets the whole output; /dev/null stays a device.
func TestOutputThroughLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	_, want, _ := runCmd(t, "sweep", "--lease", "1:40")
	target := filepath.Join(dir, "data", "grid.csv")
	os.Mkdir(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(dir, "link.csv")
	os.Symlink(filepath.Join("data", "grid.csv"), link)
	if code, _, stderr := runCmd(t, "sweep", "--lease", "1:40", "--out", link); code != 0 {
		t.Fatal(stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("--out replaced the symbolic link")
	}
	if got, _ := os.ReadFile(target); string(got) != want {
		t.Error("the link's target does not hold the sweep")
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if code, _, stderr := runCmd(t, "sweep", "--lease", "1:40", "--out", fifo); code != 0 {
		t.Fatal(stderr)
	}
	if s := <-got; s != want {
		t.Errorf("the FIFO's reader got %d bytes, want %d", len(s), len(want))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("--out replaced the FIFO")
	}

	if code, _, stderr := runCmd(t, "cost", "--csv", "/dev/null"); code != 0 {
		t.Fatal(stderr)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("--csv /dev/null replaced the device")
	}
}

// TestWarnings: a configuration that parses but is probably not what was
// meant still gets its answer, exit 0, with a warning line per oddity on
// standard error, and the report says it at the top of report.md.
func TestWarnings(t *testing.T) {
	t.Parallel()
	const noTrigger = "period 30 is longer than the run's 24 rounds: no batch falls due, so none can be missed or started twice"
	const late = "the outage starts in round 40, after the run's last round 24: no node fails"
	for _, args := range [][]string{
		{"run", "--period", "30", "--start", "40"},
		{"measure", "--period", "30", "--start", "40"},
		{"cost", "--period", "30", "--start", "40"},
	} {
		code, stdout, stderr := runCmd(t, args...)
		want := "leasesim " + args[0] + ": warning: " + noTrigger + "\nleasesim " + args[0] + ": warning: " + late + "\n"
		if code != 0 || stdout == "" || stderr != want {
			t.Errorf("leasesim %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	// OpenShift's lease block, stretched to its 137 s lease, in a run
	// shorter than the one the default period gives (start and rounds
	// follow it with a tick), with a warning that the period was left at 6
	// rounds.
	if code, stdout, stderr := runCmd(t, "measure", "--preset", "openshift", "--rounds", "5m11s"); code != 0 || stdout == "" ||
		stderr != "leasesim measure: warning: --period is not given, so a batch falls due every 6s (the round model's 6 rounds of 1s): give the batch's period, --period 24h for a nightly one\n"+
			"leasesim measure: warning: the run lasts 5m11s, but the lease block's outage of 3m45s from 5s and its longest lease of 6m0s need 9m50s to play out: their figures are cut short; --rounds 9m50s or more shows them whole\n" {
		t.Errorf("measure --preset openshift: exit %d, stderr %q", code, stderr)
	}
	if _, _, stderr := runCmd(t, "cost", "--method", "phase", "--period", "30", "--start", "40"); stderr != "" {
		t.Errorf("the phase method sets start and rounds itself, yet: %q", stderr)
	}
	// client-go's record holds whole seconds; the model does not.
	truncated := "leasesim run: warning: client-go's record holds the lease in whole seconds: its followers would count 15s of the lease's 15.5s; the model counts all of it\n"
	if code, _, stderr := runCmd(t, "run", "--preset", "kubernetes", "--tick", "100ms", "--period", "1m", "--lease", "15.5s"); code != 0 || stderr != truncated {
		t.Errorf("run with a lease of 15.5s: exit %d, stderr %q", code, stderr)
	}
	if _, _, stderr := runCmd(t, "run", "--preset", "kubernetes", "--tick", "100ms", "--period", "1m", "--lease", "16s"); stderr != "" {
		t.Errorf("run with a lease of 16s: stderr %q", stderr)
	}
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "report", "--out", dir, "--down", "7", "--replicas", "5")
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if code != 0 || !strings.Contains(stderr, "warning: down 7 is more than the 5 nodes") || !strings.Contains(string(md), "**Warning:** down 7 is more than the 5 nodes: all of them fail together.") {
		t.Errorf("report --down 7: exit %d, stderr %q, report.md has no warning", code, stderr)
	}
}

// TestExitAfterGrace: once interrupted, a command stuck where no context
// reaches is stopped after the grace period, with exit 130 and one line.
func TestExitAfterGrace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stderr strings.Builder
	exited := make(chan int, 1)
	go exitAfterGrace(ctx, 10*time.Millisecond, &stderr, func(code int) { exited <- code })
	select {
	case <-exited:
		t.Fatal("exited before the interrupt")
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if code := testio.Await(t, exited, "the grace period after the interrupt"); code != exitInterrupted || stderr.String() != "leasesim: interrupted; the command did not end within 10ms, so it was stopped\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestReplayPNG: replay --png writes the incident's timeline as a PNG of
// the figure's size, and the table still goes to standard output.
func TestReplayPNG(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "brownout.png")
	code, stdout, stderr := runCmd(t, "replay", "--preset", "kubernetes,openshift", "--nodes", "3", "--period", "1m", "--png", out, "../../testdata/incidents/brownout.txt")
	if code != 0 || !strings.Contains(stdout, "kubernetes, lease 15s") {
		t.Fatalf("exit %d, %q, %q", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() < 300 {
		t.Errorf("a %dx%d PNG, want 960 pixels wide and room for five rows", b.Dx(), b.Dy())
	}
}
