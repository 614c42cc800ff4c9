package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
	"github.com/spf13/pflag"
)

// A docExample is one example of a documentation page's ```sh blocks:
// a line `$ leasesim ARGS`, an optional trailing `# exit N` (else exit
// 0), then the lines it prints, standard output first, then standard
// error. A line ending in ` \` goes on on the next.
type docExample struct {
	line int      // the command's line in the page, from 1
	args []string // after "leasesim"
	code int      // the exit status shown
	want []string // the output lines shown
	from int      // the index in the page's lines of the first output line
}

// docPage is a page's lines, its examples, and the argument lists of
// its plain `go run ./cmd/leasesim` lines (shown without output).
type docPage struct {
	lines    []string
	examples []docExample
	plain    [][]string
}

// readDocPage reads path's ```sh blocks.
func readDocPage(t *testing.T, path string) docPage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p docPage
	p.lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	inShell := false
	var cur *docExample
	end := func() {
		if cur != nil {
			p.examples = append(p.examples, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(p.lines); i++ {
		line := p.lines[i]
		if strings.HasPrefix(line, "```") {
			end()
			inShell = !inShell && strings.TrimPrefix(line, "```") == "sh"
			continue
		}
		if !inShell {
			continue
		}
		start := i
		for strings.HasSuffix(line, " \\") && i+1 < len(p.lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + strings.TrimSpace(p.lines[i])
		}
		switch {
		case strings.HasPrefix(line, "$ leasesim "):
			end()
			cmd, comment, _ := strings.Cut(strings.TrimPrefix(line, "$ leasesim "), " #")
			code := 0
			if n, ok := strings.CutPrefix(strings.TrimSpace(comment), "exit "); ok {
				if code, err = strconv.Atoi(n); err != nil {
					t.Fatalf("%s:%d: %q: want # exit N", path, start+1, comment)
				}
			}
			cur = &docExample{line: start + 1, args: strings.Fields(cmd), code: code, from: i + 1}
		case strings.HasPrefix(line, "go run ./cmd/leasesim "):
			end()
			cmd, _, _ := strings.Cut(strings.TrimPrefix(line, "go run ./cmd/leasesim "), " #")
			cmd, _, _ = strings.Cut(cmd, " >") // a redirection is the shell's
			p.plain = append(p.plain, strings.Fields(cmd))
		case cur != nil:
			cur.want = append(cur.want, line)
		}
	}
	end()
	return p
}

// lineMatches reports whether got is the shown line want, in which "…"
// stands for any text.
func lineMatches(want, got string) bool {
	parts := strings.Split(want, "…")
	if len(parts) == 1 {
		return want == got
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(got, part)
		if i < 0 {
			return false
		}
		got = got[i+len(part):]
	}
	return strings.HasSuffix(got, parts[len(parts)-1])
}

// outputFlags are the flags that name a file a command writes: an example
// writes into a folder of the test's, where a later example finds it by
// the same name, and its output names the file as the page does.
var outputFlags = []string{"--csv", "--png", "--out"}

// TestDocPages runs every `$ leasesim` example of the documentation
// pages that show commands with their output (docs/commands.md, and
// docs/input.md's refusals) in process, as from the repository's top,
// and wants the exit status and the very lines the page shows ("…"
// standing for the middle of a long line): a change of output fails here
// until the page shows it (go test ./cmd/leasesim -run TestDocPages
// -update rewrites the shown lines, keeping each "…" line that still
// matches). The `report --gate` examples are TestReportGate's, which runs
// them over the candidates that decide them. The plain `go run
// ./cmd/leasesim` lines, long-running studies shown without their output,
// are parsed by their command's flags, so a renamed flag fails here too.
func TestDocPages(t *testing.T) {
	t.Chdir("../..") // relative paths are the repository's
	for _, tt := range []struct {
		path                string
		examples, plainRuns int // at least this many of each: a page whose blocks stop being read fails
	}{
		{"docs/commands.md", 12, 10},
		{"docs/input.md", 7, 0},
	} {
		t.Run(tt.path, func(t *testing.T) {
			page := readDocPage(t, tt.path)
			if len(page.examples) < tt.examples || len(page.plain) < tt.plainRuns {
				t.Fatalf("%s shows %d examples with their output and %d plain commands", tt.path, len(page.examples), len(page.plain))
			}
			runDocPage(t, tt.path, page)
		})
	}
}

// runDocPage runs page's examples and parses its plain commands, as
// TestDocPages says.
func runDocPage(t *testing.T, path string, page docPage) {
	dir := t.TempDir()
	var written []string // the page's names of the files its examples wrote, each in dir
	outs := make([]string, len(page.examples))
	codes := make([]int, len(page.examples))
	for i, ex := range page.examples { // in the page's order: an example reads the files earlier ones wrote
		if len(ex.args) > 1 && ex.args[0] == "report" && ex.args[1] == "--gate" {
			continue // TestReportGate's
		}
		args := slices.Clone(ex.args)
		for j := range args {
			if j > 0 && slices.Contains(outputFlags, args[j-1]) {
				written = append(written, args[j])
			}
			if slices.Contains(written, args[j]) {
				args[j] = filepath.Join(dir, args[j])
			}
		}
		code, stdout, stderr := runCmd(t, args...)
		out := stdout + stderr
		for _, f := range written {
			out = strings.ReplaceAll(out, filepath.Join(dir, f), f)
		}
		outs[i], codes[i] = out, code
	}
	changed := false
	for i := len(page.examples) - 1; i >= 0; i-- { // from the end, so that a rewrite keeps the earlier lines' places
		ex := page.examples[i]
		if len(ex.args) > 1 && ex.args[0] == "report" && ex.args[1] == "--gate" {
			continue
		}
		name := fmt.Sprintf("%s:%d", path, ex.line)
		out, code := outs[i], codes[i]
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			got = nil
		}
		same := len(got) == len(ex.want)
		for j := 0; same && j < len(got); j++ {
			same = lineMatches(ex.want[j], got[j])
		}
		if code != ex.code {
			t.Errorf("%s: leasesim %s: exit %d, the page shows %d", name, strings.Join(ex.args, " "), code, ex.code)
		}
		if same {
			continue
		}
		if !golden.Update() {
			t.Errorf("%s: leasesim %s: the page shows\n%s\nbut it prints\n%s", name, strings.Join(ex.args, " "), strings.Join(ex.want, "\n"), out)
			continue
		}
		shown := slices.Clone(got)
		for j := range shown {
			if j < len(ex.want) && lineMatches(ex.want[j], got[j]) {
				shown[j] = ex.want[j]
			}
		}
		page.lines = slices.Replace(page.lines, ex.from, ex.from+len(ex.want), shown...)
		changed = true
	}
	if changed {
		if err := os.WriteFile(path, []byte(strings.Join(page.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range page.plain {
		if err := parseFlags(args); err != nil {
			t.Errorf("%s: go run ./cmd/leasesim %s: %v", path, strings.Join(args, " "), err)
		}
	}
}

// parseFlags parses args, a command and its flags, by the command's flag
// set, without running it.
func parseFlags(args []string) error {
	for _, c := range commands() {
		if c.name == args[0] {
			fs := pflag.NewFlagSet("leasesim "+c.name, pflag.ContinueOnError)
			fs.SetOutput(io.Discard)
			c.setup(fs)
			return fs.Parse(args[1:])
		}
	}
	return fmt.Errorf("no command %q", args[0])
}

// TestLineMatches: "…" stands for any text, and only there.
func TestLineMatches(t *testing.T) {
	for _, tt := range []struct {
		want, got string
		match     bool
	}{
		{"a b c", "a b c", true},
		{"a b c", "a b cd", false},
		{"a … c", "a bbb c", true},
		{"a … c", "a c", false},
		{"a …", "a ", true},
		{"… c … e", "x c y e", true},
		{"… c … e", "x e y c", false},
		{"a…b", "ab", true},
		{"a…a", "a", false},
	} {
		if got := lineMatches(tt.want, tt.got); got != tt.match {
			t.Errorf("lineMatches(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.match)
		}
	}
}

// TestReadDocPage: an example is its `$ leasesim` line, joined across
// ` \`, its `# exit N`, and the lines up to the next command or the
// block's end; a plain `go run` line is its arguments, without comment or
// redirection; text outside ```sh blocks is neither.
func TestReadDocPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "page.md")
	page := "text\n$ leasesim run\n```sh\n$ leasesim run --lease 2 \\\n  --fencing\nline 1\n\n$ leasesim run --lease x   # exit 2\nbad\ngo run ./cmd/leasesim report --example > r.yaml   # a comment\n```\n```yaml\n$ leasesim cost\n```\n"
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	p := readDocPage(t, path)
	want := []docExample{
		{line: 4, args: []string{"run", "--lease", "2", "--fencing"}, code: 0, want: []string{"line 1", ""}, from: 5},
		{line: 8, args: []string{"run", "--lease", "x"}, code: 2, want: []string{"bad"}, from: 8},
	}
	if fmt.Sprint(p.examples) != fmt.Sprint(want) {
		t.Errorf("examples %+v, want %+v", p.examples, want)
	}
	if fmt.Sprint(p.plain) != fmt.Sprint([][]string{{"report", "--example"}}) {
		t.Errorf("plain %q, want [[report --example]]", p.plain)
	}
}
