package main

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestREADMECommands runs every leasesim command line of the README's
// shell blocks, as `go run ./cmd/leasesim` would from the repository's
// top, and wants each to succeed with an answer and no warning: the
// README's examples are run, not just shown. A report writes into a
// folder of the test's own instead of out/, and the README names no
// other folder for it, which the run would write into the repository.
// The repository's files a line names are found from here, by
// fromTop, so that the test runs beside the others instead of changing
// the process's folder before them.
func TestREADMECommands(t *testing.T) {
	t.Parallel()
	lines := commandLines(t, "../../README.md", "go run ./cmd/leasesim ")
	if len(lines) < 4 {
		t.Fatalf("the README shows %d leasesim commands: %q", len(lines), lines)
	}
	for _, args := range lines {
		args = fromTop(args)
		if args[0] == "report" && slices.ContainsFunc(args, func(a string) bool { return a == "--out" || strings.HasPrefix(a, "--out=") }) {
			t.Errorf("leasesim %s: a README report names its folder; the test would write it into the repository", strings.Join(args, " "))
			continue
		}
		var code int
		var stdout, stderr string
		switch review, shared := strings.CutPrefix(strings.Join(args, " "), "report ../../testdata/reviews/"); {
		case shared && slices.Contains(readmeReviews, review):
			r := runREADMEReview(t, review) // TestShippedReviews checks its report
			code, stdout, stderr = r.code, r.stdout, r.stderr
		case args[0] == "report" && !strings.HasPrefix(strings.Join(args, " "), "report --example"):
			args = append([]string{"report", "--out", filepath.Join(t.TempDir(), "out")}, args[1:]...)
			fallthrough
		default:
			code, stdout, stderr = runCmd(t, args...)
		}
		if code != 0 || stdout == "" || stderr != "" {
			t.Errorf("leasesim %s: exit %d, %d bytes out, stderr %q", strings.Join(args, " "), code, len(stdout), stderr)
		}
	}
}

// readmeReviews are the shipped reviews whose report the README runs
// as `leasesim report testdata/reviews/FILE`, with no other flag, and
// TestShippedReviews checks: each is run once, by runREADMEReview, and
// both tests read the run.
var readmeReviews = []string{"consul-nightly.yaml"}

// readmeReviewRun is the README's run of a shipped review: its exit
// status, outputs, and its report folder's report.md and candidates.csv.
type readmeReviewRun struct {
	once           sync.Once
	code           int
	stdout, stderr string
	md, csv        []byte
}

// readmeReviewRuns holds a *readmeReviewRun by review file name.
var readmeReviewRuns sync.Map

// runREADMEReview runs `leasesim report testdata/reviews/FILE` as the
// README does, into a folder of the first caller's, once for all
// callers, and returns the run.
func runREADMEReview(t *testing.T, file string) *readmeReviewRun {
	t.Helper()
	v, _ := readmeReviewRuns.LoadOrStore(file, new(readmeReviewRun))
	r := v.(*readmeReviewRun)
	r.once.Do(func() {
		dir := filepath.Join(t.TempDir(), "review")
		r.code, r.stdout, r.stderr = runCmd(t, "report", "--out", dir, filepath.Join("..", "..", "testdata", "reviews", file))
		r.md, _ = os.ReadFile(filepath.Join(dir, "report.md"))
		r.csv, _ = os.ReadFile(filepath.Join(dir, "candidates.csv"))
	})
	return r
}

// fromTop returns args with each argument after the command, or flag
// value after "=", that is a path (with a folder or an extension) of a
// file or folder of the repository, relative to its top, named relative
// to this package's folder instead, where the test runs.
func fromTop(args []string) []string {
	out := slices.Clone(args)
	for i, a := range args[1:] {
		i++
		flag, path, isFlag := strings.Cut(a, "=")
		if !isFlag {
			flag, path = "", a
		}
		isPath := strings.Contains(path, "/") || filepath.Ext(path) != ""
		if isPath && !strings.HasPrefix(path, "-") && !filepath.IsAbs(path) {
			if _, err := os.Stat(filepath.Join("..", "..", path)); err == nil {
				path = filepath.Join("..", "..", path)
			}
		}
		if isFlag {
			path = flag + "=" + path
		}
		out[i] = path
	}
	return out
}

// commandLines returns the arguments of every line of path's ```sh
// blocks that begins with prefix, a trailing comment cut off.
func commandLines(t *testing.T, path, prefix string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	inShell := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inShell = !inShell && strings.TrimPrefix(line, "```") == "sh"
		case inShell && strings.HasPrefix(line, prefix):
			line, _, _ = strings.Cut(strings.TrimPrefix(line, prefix), " #")
			lines = append(lines, strings.Fields(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
