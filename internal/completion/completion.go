// Package completion writes shell completion scripts (bash, zsh, fish)
// for a program of subcommands, each with its flags, from the flags'
// tables (pflag.FlagSet), so that a flag added to a command completes
// with no more work: the subcommands' names, each one's flags, the values
// of a flag that takes a few named ones, and file names elsewhere.
package completion

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// A Command is a subcommand, its flags and what its positional arguments
// are: the words of Args, or with Files file names, or else none.
type Command struct {
	Name    string
	Summary string
	Flags   []Flag
	Args    []string
	Files   bool
}

// A Flag is one flag of a command.
type Flag struct {
	Name   string // without the dashes
	Usage  string
	Alone  bool     // it may stand without a value (a toggle: --fencing)
	Values []string // the values it takes, if a few named ones; nil: any, file names offered
}

// Flags is the flags of fs that are not hidden, in fs's order, each
// flag's values given by values (nil for none known).
func Flags(fs *pflag.FlagSet, values func(*pflag.Flag) []string) []Flag {
	var flags []Flag
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		flags = append(flags, Flag{Name: f.Name, Usage: f.Usage, Alone: f.NoOptDefVal != "", Values: values(f)})
	})
	return flags
}

// Shells is the shells Write writes a script for.
var Shells = []string{"bash", "zsh", "fish"}

// Write writes shell's completion script for prog and its cmds to w.
func Write(w io.Writer, shell, prog string, cmds []Command) error {
	var s string
	switch shell {
	case "bash":
		s = bash(prog, cmds)
	case "zsh":
		s = zsh(prog, cmds)
	case "fish":
		s = fish(prog, cmds)
	default:
		return fmt.Errorf("no completion for shell %q: want %s", shell, strings.Join(Shells, ", "))
	}
	_, err := io.WriteString(w, s)
	return err
}

// funcName is the shell function that completes prog.
func funcName(prog string) string {
	return "_" + strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, prog) + "_complete"
}

// bash is the bash script: a function for complete -F. The first word
// is one of the commands; a word after a flag that takes a value is one of
// its values, or with none named a file name; a toggle takes its value
// only after an = (--fencing=true), which bash splits into a word of its
// own; a word starting with - is one of the command's flags; any other
// one of the command's arguments, a file name or nothing.
func bash(prog string, cmds []Command) string {
	var b strings.Builder
	fn := funcName(prog)
	fmt.Fprintf(&b, "# bash completion for %s, generated from its flags: source <(%s completion bash)\n", prog, prog)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString(`	local cur="${COMP_WORDS[COMP_CWORD]}" prev="" eq=""
	COMPREPLY=()
	if [[ $cur == = ]]; then
		cur="" prev="${COMP_WORDS[COMP_CWORD - 1]}" eq=1
	elif ((COMP_CWORD > 2)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]]; then
		prev="${COMP_WORDS[COMP_CWORD - 2]}" eq=1
	elif ((COMP_CWORD > 1)); then
		prev="${COMP_WORDS[COMP_CWORD - 1]}"
	fi
	if ((COMP_CWORD == 1)); then
`)
	fmt.Fprintf(&b, "\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n\t\treturn\n\tfi\n", shQuote(strings.Join(names(cmds), " ")))
	b.WriteString("\tlocal flags=\"\" args=\"\" files=\"\"\n\tcase \"${COMP_WORDS[1]}\" in\n")
	for _, c := range cmds {
		var flags, anyValue []string
		for _, f := range c.Flags {
			flags = append(flags, "--"+f.Name)
			if f.Values == nil && !f.Alone {
				anyValue = append(anyValue, shQuote("--"+f.Name))
			}
		}
		fmt.Fprintf(&b, "\t%s)\n\t\tflags=%s\n", shQuote(c.Name), shQuote(strings.Join(flags, " ")))
		if c.Args != nil {
			fmt.Fprintf(&b, "\t\targs=%s\n", shQuote(strings.Join(c.Args, " ")))
		}
		if c.Files {
			b.WriteString("\t\tfiles=1\n")
		}
		if len(c.Flags) > 0 {
			b.WriteString("\t\tcase \"$prev\" in\n")
			for _, f := range c.Flags {
				reply := fmt.Sprintf("COMPREPLY=($(compgen -W %s -- \"$cur\")); return", shQuote(strings.Join(f.Values, " ")))
				switch {
				case f.Values != nil && f.Alone:
					fmt.Fprintf(&b, "\t\t%s) if [[ -n $eq ]]; then %s; fi ;;\n", shQuote("--"+f.Name), reply)
				case f.Values != nil:
					fmt.Fprintf(&b, "\t\t%s) %s ;;\n", shQuote("--"+f.Name), reply)
				case f.Alone:
					fmt.Fprintf(&b, "\t\t%s) if [[ -n $eq ]]; then %s_files; return; fi ;;\n", shQuote("--"+f.Name), fn)
				}
			}
			if len(anyValue) > 0 {
				fmt.Fprintf(&b, "\t\t%s) %s_files; return ;;\n", strings.Join(anyValue, "|"), fn)
			}
			b.WriteString("\t\tesac\n")
		}
		b.WriteString("\t\t;;\n")
	}
	b.WriteString(`	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags" -- "$cur"))
	elif [[ -n $args ]]; then
		COMPREPLY=($(compgen -W "$args" -- "$cur"))
	elif [[ -n $files ]]; then
`)
	fmt.Fprintf(&b, "\t\t%s_files\n\tfi\n}\n", fn)
	// File names, one a line whatever they hold, shown as file names
	// (compopt, where completion runs the function).
	fmt.Fprintf(&b, "%s_files() {\n\tcompopt -o filenames 2>/dev/null\n\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n}\n", fn)
	fmt.Fprintf(&b, "complete -F %s %s\n", fn, prog)
	return b.String()
}

// zsh is the zsh script: a #compdef function of _arguments specs, which
// also registers itself with compdef when sourced.
func zsh(prog string, cmds []Command) string {
	var b strings.Builder
	fn := funcName(prog)
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s, generated from its flags: source <(%s completion zsh), or save it as _%s in $fpath\n", prog, prog, prog, prog)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString("\tlocal -a commands\n\tcommands=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "\t\t%s\n", shQuote(strings.ReplaceAll(c.Name, ":", `\:`)+":"+describe(c.Summary)))
	}
	b.WriteString("\t)\n")
	b.WriteString("\tif ((CURRENT == 2)); then\n\t\t_describe -t commands 'command' commands\n\t\treturn\n\tfi\n")
	b.WriteString("\tlocal cmd=$words[2]\n\tshift words\n\t((CURRENT--))\n")
	b.WriteString("\tcase $cmd in\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "\t%s)\n\t\t_arguments", shQuote(c.Name))
		for _, f := range c.Flags {
			desc := "[" + zshEscape(describe(f.Usage)) + "]"
			action := "_files"
			if f.Values != nil {
				action = "(" + strings.Join(f.Values, " ") + ")"
			}
			spec := "--" + f.Name + "=" + desc + ":" + f.Name + ":" + action
			if f.Alone {
				spec = "--" + f.Name + "=-" + desc + "::" + f.Name + ":" + action
			}
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote(spec))
		}
		switch {
		case c.Args != nil:
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote("*:argument:("+strings.Join(c.Args, " ")+")"))
		case c.Files:
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote("*:file:_files"))
		}
		b.WriteString("\n\t\t;;\n")
	}
	b.WriteString("\tesac\n}\n")
	fmt.Fprintf(&b, "if [[ $funcstack[1] == _%s ]]; then\n\t%s \"$@\"\nelse\n\tcompdef %s %s\nfi\n", prog, fn, fn, prog)
	return b.String()
}

// fish is the fish script: one complete line a command and a flag.
func fish(prog string, cmds []Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s, generated from its flags: %s completion fish | source\n", prog, prog)
	fmt.Fprintf(&b, "complete -c %s -f\n", prog)
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c %s -n __fish_use_subcommand -a %s -d %s\n", prog, fishQuote(c.Name), fishQuote(describe(c.Summary)))
	}
	for _, c := range cmds {
		cond := fishQuote("__fish_seen_subcommand_from " + c.Name)
		for _, f := range c.Flags {
			opts := " -r -F"
			switch {
			case f.Values != nil && f.Alone:
				opts = " -f -a " + fishQuote(strings.Join(f.Values, " "))
			case f.Values != nil:
				opts = " -x -a " + fishQuote(strings.Join(f.Values, " "))
			case f.Alone:
				opts = ""
			}
			fmt.Fprintf(&b, "complete -c %s -n %s -l %s%s -d %s\n", prog, cond, f.Name, opts, fishQuote(describe(f.Usage)))
		}
		switch {
		case c.Args != nil:
			fmt.Fprintf(&b, "complete -c %s -n %s -a %s\n", prog, cond, fishQuote(strings.Join(c.Args, " ")))
		case c.Files:
			fmt.Fprintf(&b, "complete -c %s -n %s -F\n", prog, cond)
		}
	}
	return b.String()
}

func names(cmds []Command) []string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.Name)
	}
	return n
}

// describe is the start of a usage, for a description beside a
// completion: up to its first ; or :, at most 70 characters, on one line.
func describe(usage string) string {
	s := strings.Join(strings.Fields(usage), " ")
	if i := strings.IndexAny(s, ";:"); i > 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 70 {
		s = strings.TrimSpace(string(r[:69])) + "…"
	}
	return s
}

// zshEscape escapes what _arguments reads in a description: brackets,
// colons and backslashes.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// shQuote quotes s in single quotes for bash and zsh.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fishQuote quotes s in single quotes for fish, which reads \' and \\
// inside them.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
