package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/testio"
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
// there. So do help and --version, which write only standard output.
func TestFailingStdoutLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"replay", "--nodes", "3", "--period", "1m", "--tick", "1s", "--png", filepath.Join(dir, "x.png"), "../../testdata/incidents/brownout.txt"},
		{"cost", "--csv", filepath.Join(dir, "cost.csv")},
		{"recommend", "--csv", filepath.Join(dir, "rec.csv")},
		{"report", "--replicas", "5", "--out", filepath.Join(dir, "report")},
		{"help"},
		{"--version"},
		{"run", "--help"},
	} {
		var stderr strings.Builder
		code := run(context.Background(), args, &testio.FailWriter{}, &stderr)
		if code != exitFailure || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), testio.ErrFull.Error()) {
			t.Errorf("leasesim %s, stdout failing: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
		}
	}
	onlyFiles(t, filepath.Join(dir, "report"))
	os.Remove(filepath.Join(dir, "report"))
	onlyFiles(t, dir)
}

// TestReplayInterrupted: replay stops at an interrupt, before it starts or
// while it runs its settings, with exit 130, one line and no PNG.
func TestReplayInterrupted(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "x.png")
	args := []string{"replay", "--lease", "1s:3000s", "--nodes", "3", "--period", "1m", "--tick", "1s", "--png", png, "../../testdata/incidents/brownout.txt"}
	for _, after := range []time.Duration{0, 50 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		if after == 0 {
			cancel()
		} else {
			time.AfterFunc(after, cancel)
		}
		var stdout, stderr strings.Builder
		code := run(ctx, args, &stdout, &stderr)
		cancel()
		if code != exitInterrupted || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("cancelled after %s: exit %d, stdout %d bytes, stderr %q", after, code, stdout.Len(), stderr.String())
		}
	}
	onlyFiles(t, dir)
}

// TestInterruptWhileDrawing: Ctrl-C while replay draws its PNG (a step
// no context reaches) ends the process with exit 130 and leaves no
// temporary file: if the drawing outlasts the grace, the fallback exit
// removes it; if not, replay stops before the PNG goes in place.
func TestInterruptWhileDrawing(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "replay", "--lease", "1s:400s", "--nodes", "3", "--period", "1m", "--tick", "1s",
		"--png", filepath.Join(dir, "x.png"), "../../testdata/incidents/brownout.txt")
	cmd.Env = append(os.Environ(), "LEASESIM_RUN_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if es, _ := os.ReadDir(dir); len(es) > 0 {
			break // the drawing has begun
		}
		if time.Now().After(deadline) {
			t.Fatal("replay did not begin its PNG within 60 s")
		}
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	onlyFiles(t, dir)
}
