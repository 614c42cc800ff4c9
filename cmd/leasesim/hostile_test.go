package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
