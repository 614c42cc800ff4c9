package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/reviewfile"
	"go.yaml.in/yaml/v3"
)

// gateCandidates narrow a shipped review's candidates to the current
// settings and the recommended (as the whole list recommends them), so
// that the gate's test runs in seconds with the same answer.
var gateCandidates = map[string][]string{
	"openshift-sno": {"--candidates", "4m30s,18m", "--candidate-renew-deadline", "4m,8m", "--candidate-retry-period", "1m"},
	"example":       {"--candidates", "15s,1m", "--candidate-renew-deadline", "10s,40s", "--candidate-retry-period", "2s"},
}

// TestReportGate: report --gate writes the report, then judges the
// current settings: single-node OpenShift's on three nodes
// (testdata/reviews/openshift-sno.yaml) leave a two-leader margin of
// -30 s and nothing fences, so the gate fails on the margin, exit 3; the
// shipped example (report --example, client-go's defaults) has a margin
// of 3 s but costs 16.0 a year against the recommended 1m0s/40s/2s's 4.0,
// 75% of its cost, more than --material's 5%, so it fails on cost; under
// --material 80% it passes, exit 0, and says why on standard output.
// A review file's gate key turns it on as the flag does. docs/commands.md
// shows each line.
func TestReportGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	example := filepath.Join(dir, "example.yaml")
	if err := os.WriteFile(example, []byte(reviewfile.Example), 0o644); err != nil {
		t.Fatal(err)
	}
	gated := filepath.Join(dir, "gated.yaml")
	if err := os.WriteFile(gated, []byte(strings.Replace(reviewfile.Example, "prices:", "prices:\n  gate: true", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	sno := filepath.Join("..", "..", "testdata", "reviews", "openshift-sno.yaml")
	for _, tt := range []struct {
		golden string
		code   int
		args   []string
	}{
		{"report-gate-openshift-sno.txt", 3, append(slices.Clone(gateCandidates["openshift-sno"]), "--gate", sno)},
		{"report-gate-example.txt", 3, append(slices.Clone(gateCandidates["example"]), "--gate", example)},
		{"report-gate-example-material.txt", 0, append(slices.Clone(gateCandidates["example"]), "--gate", "--material", "80%", example)},
		{"report-gate-example.txt", 3, append(slices.Clone(gateCandidates["example"]), gated)},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "review")
			code, stdout, stderr := runCmd(t, append([]string{"report", "--replicas", "2", "--out", out}, tt.args...)...)
			got := fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", code, strings.ReplaceAll(stdout, out, "OUT"), stderr)
			if code != tt.code {
				t.Errorf("%q: exit %d, want %d: %s", tt.args, code, tt.code, got)
			}
			golden.Check(t, "cmd/"+tt.golden, []byte(got))
			said := stdout // the gate's line, last: on a pass of standard output, on a failure of standard error
			if tt.code != 0 {
				said = stderr
			}
			lines := strings.Split(strings.TrimSuffix(said, "\n"), "\n")
			if docs, _ := os.ReadFile("../../docs/commands.md"); !bytes.Contains(docs, []byte("\n"+lines[len(lines)-1]+"\n")) {
				t.Errorf("docs/commands.md does not show the gate's line %q", lines[len(lines)-1])
			}
			if _, err := os.Stat(filepath.Join(out, "report.md")); err != nil {
				t.Errorf("%q: the gate wrote no report: %v", tt.args, err)
			}
		})
	}
	code, stdout, stderr := runCmd(t, "report", "--gate=maybe", example)
	if code != 2 || stdout != "" || !strings.Contains(stderr, `"--gate"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--gate=maybe: exit %d, %q, %q; want exit 2 and one line naming --gate", code, stdout, stderr)
	}
}

// gateWorkflow is the part of a GitHub Actions workflow that
// deploy/github's gate writes: a field it does not know is a typo.
type gateWorkflow struct {
	Name string         `yaml:"name"`
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			With map[string]string `yaml:"with"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestDeployGate: deploy/github's workflow parses, installs leasesim as
// the README says, is the one docs/commands.md shows, and its gate step's
// command line, run on a review of single-node OpenShift's settings,
// exits 3 naming the margin.
func TestDeployGate(t *testing.T) {
	t.Parallel()
	const file = "deploy/github/leasesim-gate.yml"
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	var wf gateWorkflow
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&wf); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	readmeShows(t, file, string(b))
	if _, ok := wf.On["pull_request"]; !ok || len(wf.Jobs) != 1 {
		t.Fatalf("%s: on %v, %d jobs; want one job on pull requests", file, wf.On, len(wf.Jobs))
	}
	var install, gate string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case strings.HasPrefix(s.Run, "go install "):
				install = s.Run
			case strings.HasPrefix(s.Run, "leasesim "):
				gate = s.Run
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if install == "" || !bytes.Contains(readme, []byte(install)) {
		t.Errorf("%s installs with %q, not the README's install line", file, install)
	}
	args := strings.Fields(gate)
	if len(args) < 3 || args[1] != "report" || !slices.Contains(args, "--gate") || !slices.Contains(args, "--out") {
		t.Fatalf("%s's gate step runs %q, want leasesim report --gate --out DIR REVIEW", file, gate)
	}
	args = args[1:]
	args[slices.Index(args, "--out")+1] = filepath.Join(t.TempDir(), "review")
	args[len(args)-1] = filepath.Join("..", "..", "testdata", "reviews", "openshift-sno.yaml")
	code, _, stderr := runCmd(t, append(append([]string{"report", "--replicas", "2"}, gateCandidates["openshift-sno"]...), args[1:]...)...)
	if code != 3 || !strings.Contains(stderr, "leasesim report: gate: two-leader margin: ") || !strings.Contains(stderr, "leave none (-30 s)") {
		t.Errorf("%s's gate on openshift-sno.yaml: exit %d, %q; want 3 and the margin", file, code, stderr)
	}
}
