package main

import (
	"context"
	"fmt"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
	"github.com/spf13/pflag"
)

// errViolations is check's failure: the violations are already printed.
type errViolations struct{ configs, checked int }

func (e errViolations) Error() string {
	return fmt.Sprintf("%d of %d configurations break an invariant", e.configs, e.checked)
}

func setupCheck(fs *pflag.FlagSet) func(context.Context, *streams) error {
	g := sweep.CheckGrid()
	addGridFlags(fs, &g, model.Params()...)
	return func(ctx context.Context, std *streams) error {
		size, err := g.Size()
		if err != nil {
			return usage(err)
		}
		progress := func(int) {}
		if bar := progressBar(std.err, size, "check"); bar != nil {
			progress = func(n int) { bar.Add(n) }
			defer bar.Finish()
		}
		bad := 0
		checked, refused, err := sweep.Check(ctx, &g, func(c model.Config, violation error) error {
			bad++
			_, err := fmt.Fprintf(std.out, "violation: leasesim run%s: %v\n", runFlags(c), violation)
			return err
		}, progress)
		if err != nil {
			return err
		}
		if bad > 0 {
			return errViolations{bad, checked}
		}
		skipped := ""
		if refused > 0 {
			skipped = fmt.Sprintf(" (and skipped %d whose settings do not go together)", refused)
		}
		_, err = fmt.Fprintf(std.out, "checked %d configurations%s: every invariant holds\n", checked, skipped)
		return err
	}
}

// runFlags writes c as the flags of "leasesim run" that reproduce it.
func runFlags(c model.Config) string {
	var b []byte
	for p := model.Param(0); int(p) < model.NumParams; p++ {
		b = fmt.Appendf(b, " --%s=%s", p.Flag(), p.AppendValue(nil, c.Get(p)))
	}
	return string(b)
}
