package main

import (
	"path/filepath"
	"strings"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/atomicfile"
	"github.com/leasesim/leasesim/reports"
	"github.com/spf13/pflag"
)

// refuseOverwritingInputs refuses, as bad input, an output file that is
// one of the command's input files (atomicfile.Overwrites).
func refuseOverwritingInputs(fs *pflag.FlagSet, cmd, argName string) error {
	outs := outputFiles(fs, cmd)
	if len(outs) == 0 {
		return nil
	}
	if o, in, found := atomicfile.Overwrites(outs, inputFiles(fs, argName)); found {
		return flagUsagef([]string{flagOf(o.By), flagOf(in.By)}, "%s %s is the same file as %s %s, an input: want an output that is none of the inputs", o.By, o.Path, in.By, in.Path)
	}
	return nil
}

// outputFiles lists the files command cmd would replace: each output file
// flag given, and each file of report's --out folder.
func outputFiles(fs *pflag.FlagSet, cmd string) []atomicfile.Named {
	var outs []atomicfile.Named
	fs.VisitAll(func(f *pflag.Flag) {
		switch v := f.Value.(type) {
		case input.Output:
			if fs.Changed(f.Name) && v.File() != "" { // not --out of sweep when --csv named the file
				outs = append(outs, atomicfile.Named{Path: v.File(), By: "--" + f.Name})
			}
		default:
			if f.Name == "out" && cmd == "report" { // a folder
				for _, name := range reports.Names() {
					outs = append(outs, atomicfile.Named{Path: filepath.Join(f.Value.String(), name), By: "--out"})
				}
			}
		}
	})
	return outs
}

// inputFiles lists the files a command reads: its arguments (argName
// says what they are), --incident, --outage-history and the empirical:
// files of distributions.
func inputFiles(fs *pflag.FlagSet, argName string) []atomicfile.Named {
	var ins []atomicfile.Named
	for _, a := range fs.Args() {
		ins = append(ins, atomicfile.Named{Path: a, By: argName})
	}
	fs.Visit(func(f *pflag.Flag) {
		by := "--" + f.Name
		switch v := f.Value.(type) {
		case interface{ Files() []string }: // input.Lengths, input.Processes
			for _, path := range v.Files() {
				ins = append(ins, atomicfile.Named{Path: path, By: by})
			}
		default:
			if f.Name == "incident" || f.Name == "outage-history" {
				ins = append(ins, atomicfile.Named{Path: f.Value.String(), By: by})
			}
		}
	})
	return ins
}

// flagOf is the flag by names, without its "--", or "" for an argument.
func flagOf(by string) string {
	if f, ok := strings.CutPrefix(by, "--"); ok {
		return f
	}
	return ""
}
