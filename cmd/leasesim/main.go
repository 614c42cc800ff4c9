// Command leasesim sizes lease-based leader election for a singleton batch
// job: it runs the round model, sweeps its parameters, projects missed and
// double invoice lines per year and writes a capacity-planning report.
//
// Usage:
//
//	leasesim <command> [flags]
//
// Run "leasesim help" for the commands and "leasesim <command> --help" for
// a command's flags.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
