package main

import (
	"github.com/leasesim/leasesim/input"
	"os"
	"path/filepath"
	"strings"

	"github.com/leasesim/leasesim/reports"
	"github.com/spf13/pflag"
)

// namedFile is a file a command reads or writes, and what named it: a flag
// ("--png") or the command's argument.
type namedFile struct{ path, by string }

// flagOf is the flag by names, without its "--", or "" for an argument.
func flagOf(by string) string {
	if f, ok := strings.CutPrefix(by, "--"); ok {
		return f
	}
	return ""
}

// refuseOverwritingInputs refuses, as bad input, an output file that is
// one of the command's input files (the same file by os.SameFile, so also
// through a link or another path): writing it would destroy what the
// command reads, as replay --png inc.txt inc.txt once overwrote the
// incident with its PNG.
func refuseOverwritingInputs(fs *pflag.FlagSet, cmd, argName string) error {
	outs := outputFiles(fs, cmd)
	if len(outs) == 0 {
		return nil
	}
	ins := inputFiles(fs, argName)
	for _, o := range outs {
		ofi, err := os.Stat(o.path)
		if err != nil || !ofi.Mode().IsRegular() { // a new file, or a stream that is written, not replaced
			continue
		}
		for _, in := range ins {
			if ifi, err := os.Stat(in.path); err == nil && os.SameFile(ofi, ifi) {
				return flagUsagef([]string{flagOf(o.by), flagOf(in.by)}, "%s %s is the same file as %s %s, an input: want an output that is none of the inputs", o.by, o.path, in.by, in.path)
			}
		}
	}
	return nil
}

// outputFiles lists the files command cmd would replace: each output file
// flag given, and each file of report's --out folder.
func outputFiles(fs *pflag.FlagSet, cmd string) []namedFile {
	var outs []namedFile
	fs.VisitAll(func(f *pflag.Flag) {
		switch v := f.Value.(type) {
		case input.Output:
			if fs.Changed(f.Name) && v.File() != "" { // not --out of sweep when --csv named the file
				outs = append(outs, namedFile{v.File(), "--" + f.Name})
			}
		default:
			if f.Name == "out" && cmd == "report" { // a folder
				for _, name := range reports.Names() {
					outs = append(outs, namedFile{filepath.Join(f.Value.String(), name), "--out"})
				}
			}
		}
	})
	return outs
}

// inputFiles lists the files a command reads: its arguments (argName
// says what they are), --incident, --outage-history and the empirical:
// files of distributions.
func inputFiles(fs *pflag.FlagSet, argName string) []namedFile {
	var ins []namedFile
	for _, a := range fs.Args() {
		ins = append(ins, namedFile{a, argName})
	}
	fs.Visit(func(f *pflag.Flag) {
		by := "--" + f.Name
		switch v := f.Value.(type) {
		case interface{ Files() []string }: // input.Lengths, input.Processes
			for _, path := range v.Files() {
				ins = append(ins, namedFile{path, by})
			}
		default:
			if f.Name == "incident" || f.Name == "outage-history" {
				ins = append(ins, namedFile{f.Value.String(), by})
			}
		}
	})
	return ins
}
