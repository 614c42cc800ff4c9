package main

import (
	"context"
	"fmt"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
	"github.com/spf13/pflag"
)

func setupRun(fs *pflag.FlagSet) func(context.Context, *streams) error {
	c := model.Default()
	addModelFlags(fs, &c)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	seed := new(uint64)
	addJitterSeedFlag(fs, seed)
	format := "table"
	fs.Var(input.NewChoice(&format, "table", "json", "csv"), "format", "output format: table, json or csv")
	trace := fs.Bool("trace", false, "print the run round by round before the table")
	return func(_ context.Context, std *streams) error {
		if *trace && format != "table" {
			return usagef("--trace goes only with --format table")
		}
		if *trace && c.Protocol.PerFire() {
			return usagef("--trace: %s", model.NoTrace)
		}
		r := model.Runner{JitterSeed: model.JitterSeed(*seed)}
		st, err := r.Run(c)
		if err != nil {
			return usage(err)
		}
		std.warn(c, *tick)
		if *trace {
			if *tick != 0 {
				fmt.Fprintf(std.out, "one round = %s: round t ends %s·t after the run begins\n", *tick, *tick)
			}
			b, err := r.AppendTrace(nil, c, c.Schedule())
			if err != nil {
				return err
			}
			if _, err := std.out.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		switch format {
		case "json":
			return reports.WriteRunJSON(std.out, *tick, c, st)
		case "csv":
			return reports.WriteRunCSV(std.out, *tick, c, st)
		}
		return reports.WriteRunTable(std.out, *tick, c, st)
	}
}

func setupMeasure(fs *pflag.FlagSet) func(context.Context, *streams) error {
	c := model.Default()
	addModelFlags(fs, &c, model.Fencing, model.PersistentTrigger)
	tick := addTickFlag(fs)
	addPresetFlag(fs)
	seed := new(uint64)
	addJitterSeedFlag(fs, seed)
	return func(_ context.Context, std *streams) error {
		m, err := study.NewMeasure(c, *seed, nil)
		if err != nil {
			return usage(err)
		}
		std.warn(c, *tick)
		for _, w := range m.Warnings(*tick) {
			fmt.Fprintf(std.err, "leasesim measure: warning: %s\n", w)
		}
		return reports.WriteMeasure(std.out, *tick, m)
	}
}
