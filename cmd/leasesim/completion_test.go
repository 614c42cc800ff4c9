package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// bashComplete sources script in a bash subshell, sets COMP_WORDS to
// words (the last the word being completed) and COMP_CWORD to its index,
// calls the completion function and returns COMPREPLY.
func bashComplete(t *testing.T, script string, words ...string) []string {
	t.Helper()
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, "'"+w+"'")
	}
	call := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) +
		"\n_leasesim_complete\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	out, err := exec.Command("bash", "--norc", "--noprofile", "-c", call).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// TestCompletionBash runs leasesim completion bash's script in bash, as
// bash's completion would, and checks what it offers: the commands,
// each command's flags as its flag table has them, and named values.
func TestCompletionBash(t *testing.T) {
	code, script, stderr := runCmd(t, "completion", "bash")
	if code != 0 || stderr != "" {
		t.Fatalf("completion bash: exit %d, %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "leasesim.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		words []string
		want  []string
	}{
		{[]string{"leasesim", "sw"}, []string{"sweep"}},
		{[]string{"leasesim", "re"}, []string{"recommend", "report", "replay"}},
		{[]string{"leasesim", "ve"}, []string{"version"}},
		{[]string{"leasesim", "sweep", "--sha"}, []string{"--shard"}},
		{[]string{"leasesim", "montecarlo", "--replicas", "100", "--prec"}, []string{"--precision", "--precision-floor"}},
		{[]string{"leasesim", "run", "--protocol", ""}, []string{"client-go", "etcd", "consul", "curator", "curator-session", "dynamodb", "shedlock", "shedlock-redis"}},
		{[]string{"leasesim", "run", "--format", "=", "j"}, []string{"json"}},
		{[]string{"leasesim", "montecarlo", "--format", ""}, []string{"csv", "parquet"}},
		{[]string{"leasesim", "check", "--format", ""}, []string{"csv", "parquet"}},
		{[]string{"leasesim", "check", "--cs"}, []string{"--csv"}},
		{[]string{"leasesim", "report", "--ga"}, []string{"--gate"}},
		{[]string{"leasesim", "sweep", "--fencing", "=", ""}, []string{"false", "true", "false,true"}},
		{[]string{"leasesim", "cost", "--preset", "openshift"}, []string{"openshift", "openshift-sno"}},
		{[]string{"leasesim", "completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"leasesim", "replay", "../../testdata/incidents/brownout."}, []string{"../../testdata/incidents/brownout.txt"}},
		{[]string{"leasesim", "sweep", "--csv", "../../READ"}, []string{"../../README.md"}},
		{[]string{"leasesim", "sweep", "../../READ"}, nil}, // sweep takes no arguments
	} {
		if got := bashComplete(t, file, tt.words...); !slices.Equal(got, tt.want) {
			t.Errorf("completing %q: %q, want %q", tt.words, got, tt.want)
		}
	}
	// Every command's flags, from its flag table.
	for _, c := range commands() {
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		fs.SortFlags = false
		c.setup(fs)
		var want []string
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				want = append(want, "--"+f.Name)
			}
		})
		want = append(want, "--help")
		if got := bashComplete(t, file, "leasesim", c.name, "--"); !slices.Equal(got, want) {
			t.Errorf("completing leasesim %s --: %q, want its flags %q", c.name, got, want)
		}
	}
}

// TestCompletionShells: zsh's and fish's scripts, and the shell refused
// as bad input.
func TestCompletionShells(t *testing.T) {
	for shell, want := range map[string]string{
		"zsh":  "'--shard=[write only shard K of N]:shard:_files'",
		"fish": "complete -c leasesim -n '__fish_seen_subcommand_from sweep' -l shard -r -F -d 'write only shard K of N'\n",
	} {
		code, script, stderr := runCmd(t, "completion", shell)
		if code != 0 || stderr != "" || !strings.Contains(script, want) {
			t.Errorf("completion %s: exit %d, %q; want a script with %q", shell, code, stderr, want)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		code, out, stderr := runCmd(t, args...)
		if want := "leasesim completion: want one shell: leasesim completion bash|zsh|fish\n"; code != exitUsage || out != "" || stderr != want {
			t.Errorf("%q: exit %d, %q, %q; want exit 2, %q", args, code, out, stderr, want)
		}
	}
}
