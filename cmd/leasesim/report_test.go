package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReport: "leasesim report" with no flags but --out writes the whole
// report; an --out it cannot create fails with one line and exit 1.
func TestReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "review")
	code, stdout, stderr := runCmd(t, "report", "--out", dir)
	if code != 0 || stderr != "" || stdout != "wrote the report to "+dir+"/report.md\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	onlyFiles(t, dir, "cost-both.txt", "cost.csv", "cost.png", "cost.txt", "heatmap.csv", "heatmap.png",
		"lease-sweep.csv", "lease-sweep.png", "measure.txt", "nodes.csv", "nodes.png", "quorum.csv", "quorum.png",
		"report.md", "timeline.png", "timeline.txt", "variants.csv", "variants.png")
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
