package main

import (
	"context"
	"slices"
	"strings"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/completion"
	"github.com/spf13/pflag"
)

// setupCompletion is leasesim completion SHELL: the shell's completion
// script, made from every command's flags (internal/completion).
func setupCompletion(fs *pflag.FlagSet) func(context.Context, *streams) error {
	return func(ctx context.Context, std *streams) error {
		if fs.NArg() != 1 || !slices.Contains(completion.Shells, fs.Arg(0)) {
			return usagef("want one shell: leasesim completion %s", strings.Join(completion.Shells, "|"))
		}
		return completion.Write(std.out, fs.Arg(0), "leasesim", completionCommands())
	}
}

// completionCommands is every command with its flags, as completion
// scripts complete them, and help and version.
func completionCommands() []completion.Command {
	var cmds []completion.Command
	for _, c := range commands() {
		fs := pflag.NewFlagSet("leasesim "+c.name, pflag.ContinueOnError)
		fs.SortFlags = false
		c.setup(fs)
		cmd := completion.Command{Name: c.name, Summary: c.summary, Flags: completion.Flags(fs, flagValues)}
		cmd.Flags = append(cmd.Flags, completion.Flag{Name: "help", Usage: "the command's flags", Alone: true})
		switch {
		case c.name == "completion":
			cmd.Args = completion.Shells
		case c.args != "": // FILE..., INCIDENT, [REVIEW.yaml]
			cmd.Files = true
		}
		cmds = append(cmds, cmd)
	}
	return append(cmds,
		completion.Command{Name: "help", Summary: "list the commands"},
		completion.Command{Name: "version", Summary: "print the version and revision"})
}

// flagValues is the values a flag takes where they are a few named ones
// (input.Choices).
func flagValues(f *pflag.Flag) []string { return input.Choices(f.Value) }
