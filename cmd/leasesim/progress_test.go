package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeTerminal is standard error as a terminal: it keeps what is drawn.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) IsTerminal() bool { return true }

// TestStepProgress: on a terminal, report draws a bar of its steps, each
// named as it begins, with the steps done of nine (the review's eight and
// the writing of its files), and clears it before it is done; on a
// writer that is not a terminal it draws nothing.
func TestStepProgress(t *testing.T) {
	t.Parallel()
	args := func(dir string) []string {
		return []string{"report", "--out", dir, "--replicas", "2", "--candidates", "2,4"}
	}
	var stdout bytes.Buffer
	tty := &fakeTerminal{}
	if code := runWith(context.Background(), args(filepath.Join(t.TempDir(), "tty")), &stdout, tty, noEnv); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, tty.String())
	}
	drawn, at := tty.String(), 0
	for i, step := range []string{"the measure table", "the lease sweep and the heat map", "the cost section", "the recommendation",
		"what moves the answer", "the timeline", "the zone study", "the node-count study", "writing the plots and tables"} {
		// The step, the share done, a bar of 40, the count, then the line
		// cleared.
		want := regexp.MustCompile(fmt.Sprintf(`^\r(report: %s %3d%% \|[█ ]{40}\| \(%d/9\) )\r( +)\r`, step, 100*i/9, i))
		m := want.FindStringSubmatch(drawn[at:])
		if m == nil || utf8.RuneCountInString(m[1]) != len(m[2]) || strings.Count(drawn, step) != 1 {
			t.Fatalf("step %d: want %q once, next; stderr from there %q", i, want, drawn[at:])
		}
		at += len(m[0])
	}
	if at != len(drawn) {
		t.Errorf("after the last step: %q, want nothing", drawn[at:])
	}

	var stderr bytes.Buffer
	if code := runWith(context.Background(), args(filepath.Join(t.TempDir(), "file")), &stdout, &stderr, noEnv); code != 0 || stderr.Len() != 0 {
		t.Errorf("not a terminal: exit %d, stderr %q, want nothing", code, stderr.String())
	}
}
