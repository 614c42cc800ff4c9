package completion

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// testCommands is a program of two commands, from flag sets as a command
// registers them.
func testCommands() []Command {
	run := pflag.NewFlagSet("run", pflag.ContinueOnError)
	run.SortFlags = false
	run.Int("nodes", 5, "nodes that can lead")
	run.Bool("fencing", false, "fence the writes: the store refuses a stale token")
	run.String("format", "table", "output format: table, json or csv")
	run.String("secret", "", "hidden")
	run.Lookup("secret").Hidden = true
	values := func(f *pflag.Flag) []string {
		switch {
		case f.Name == "format":
			return []string{"table", "json", "csv"}
		case f.Value.Type() == "bool":
			return []string{"false", "true"}
		}
		return nil
	}
	merge := pflag.NewFlagSet("merge", pflag.ContinueOnError)
	merge.String("csv", "", "write the merged CSV to this file; - is standard output")
	return []Command{
		{Name: "run", Summary: "run one configuration", Flags: Flags(run, values)},
		{Name: "merge", Summary: "join the shards: of one sweep", Flags: Flags(merge, values), Files: true},
		{Name: "completion", Summary: "print a completion script", Args: Shells},
	}
}

func TestFlags(t *testing.T) {
	got := testCommands()[0].Flags
	want := []Flag{
		{Name: "nodes", Usage: "nodes that can lead"},
		{Name: "fencing", Usage: "fence the writes: the store refuses a stale token", Alone: true, Values: []string{"false", "true"}},
		{Name: "format", Usage: "output format: table, json or csv", Values: []string{"table", "json", "csv"}},
	}
	if !slices.EqualFunc(got, want, func(a, b Flag) bool {
		return a.Name == b.Name && a.Usage == b.Usage && a.Alone == b.Alone && slices.Equal(a.Values, b.Values)
	}) {
		t.Errorf("Flags = %+v, want %+v (the hidden one left out)", got, want)
	}
}

// TestBash sources the bash script in a bash subshell and calls its
// function as bash's completion would, with COMP_WORDS and COMP_CWORD
// set, for each case's words (the last one the word being completed;
// bash splits --flag=value into --flag, = and value), and compares
// COMPREPLY.
func TestBash(t *testing.T) {
	var script bytes.Buffer
	if err := Write(&script, "bash", "leasesim", testCommands()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // where file names are completed from
	for _, name := range []string{"a.csv", "b.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		words []string
		want  string // COMPREPLY, one word a line
	}{
		{[]string{"leasesim", ""}, "run\nmerge\ncompletion"},
		{[]string{"leasesim", "m"}, "merge"},
		{[]string{"leasesim", "co"}, "completion"},
		{[]string{"leasesim", "run", "--"}, "--nodes\n--fencing\n--format"},
		{[]string{"leasesim", "run", "--f"}, "--fencing\n--format"},
		{[]string{"leasesim", "run", "--nodes", "3", "--fo"}, "--format"},
		{[]string{"leasesim", "run", "--se"}, ""}, // hidden
		{[]string{"leasesim", "merge", "--"}, "--csv"},
		{[]string{"leasesim", "run", "--format", ""}, "table\njson\ncsv"},
		{[]string{"leasesim", "run", "--format", "j"}, "json"},
		{[]string{"leasesim", "run", "--format", "=", ""}, "table\njson\ncsv"},
		{[]string{"leasesim", "run", "--format", "=", "c"}, "csv"},
		{[]string{"leasesim", "run", "--fencing", "=", "t"}, "true"},
		{[]string{"leasesim", "run", "--fencing", "--n"}, "--nodes"},  // a toggle takes its value only after =
		{[]string{"leasesim", "run", "--nodes", ""}, "a.csv\nb.yaml"}, // any value: file names
		{[]string{"leasesim", "run", "--nodes", "b"}, "b.yaml"},
		{[]string{"leasesim", "run", ""}, ""}, // run takes no arguments
		{[]string{"leasesim", "merge", ""}, "a.csv\nb.yaml"},
		{[]string{"leasesim", "merge", "--csv", "-"}, ""}, // a value, even - (standard output)
		{[]string{"leasesim", "merge", "--csv", "out.csv", "--"}, "--csv"},
		{[]string{"leasesim", "completion", ""}, "bash\nzsh\nfish"},
		{[]string{"leasesim", "completion", "f"}, "fish"},
		{[]string{"leasesim", "nosuch", "--"}, ""},
	}
	for _, tt := range tests {
		var words []string
		for _, w := range tt.words {
			words = append(words, shQuote(w))
		}
		call := script.String() + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n" +
			"_leasesim_complete\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", call)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if strings.HasSuffix(tt.want, ".yaml") { // file names, in the directory's order
			slices.Sort(got)
		}
		if got := strings.Join(got, "\n"); got != tt.want {
			t.Errorf("completing %q: COMPREPLY %q, want %q", tt.words, got, tt.want)
		}
	}
}

// TestScripts: the zsh and fish scripts name every command and every
// flag, with its values, and quote what the shells would read otherwise.
func TestScripts(t *testing.T) {
	for _, tt := range []struct {
		shell string
		want  []string
	}{
		{"zsh", []string{
			"#compdef leasesim\n",
			"\t\t'run:run one configuration'\n",
			"\t\t'merge:join the shards'\n",
			"'--nodes=[nodes that can lead]:nodes:_files'",
			"'--fencing=-[fence the writes]::fencing:(false true)'",
			"'--format=[output format]:format:(table json csv)'",
			"'*:argument:(bash zsh fish)'",
			"'*:file:_files'\n",
			"\tcompdef _leasesim_complete leasesim\n",
		}},
		{"fish", []string{
			"complete -c leasesim -f\n",
			"complete -c leasesim -n __fish_use_subcommand -a 'run' -d 'run one configuration'\n",
			"complete -c leasesim -n '__fish_seen_subcommand_from run' -l nodes -r -F -d 'nodes that can lead'\n",
			"complete -c leasesim -n '__fish_seen_subcommand_from run' -l fencing -f -a 'false true' -d 'fence the writes'\n",
			"complete -c leasesim -n '__fish_seen_subcommand_from run' -l format -x -a 'table json csv' -d 'output format'\n",
			"complete -c leasesim -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n",
			"complete -c leasesim -n '__fish_seen_subcommand_from merge' -F\n",
		}},
	} {
		var b bytes.Buffer
		if err := Write(&b, tt.shell, "leasesim", testCommands()); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s script lacks %q:\n%s", tt.shell, w, b.String())
			}
		}
		if strings.Contains(b.String(), "secret") {
			t.Errorf("%s script completes a hidden flag", tt.shell)
		}
	}
	if err := Write(new(bytes.Buffer), "tcsh", "leasesim", nil); err == nil || err.Error() != `no completion for shell "tcsh": want bash, zsh, fish` {
		t.Errorf("tcsh: %v", err)
	}
}

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ s, sh, fish string }{
		{"plain", "'plain'", "'plain'"},
		{"it's", `'it'\''s'`, `'it\'s'`},
		{`a\b`, `'a\b'`, `'a\\b'`},
	} {
		if got := shQuote(tt.s); got != tt.sh {
			t.Errorf("shQuote(%q) = %s, want %s", tt.s, got, tt.sh)
		}
		if got := fishQuote(tt.s); got != tt.fish {
			t.Errorf("fishQuote(%q) = %s, want %s", tt.s, got, tt.fish)
		}
	}
}
