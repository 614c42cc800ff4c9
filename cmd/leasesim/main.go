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
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go exitAfterGrace(ctx, 900*time.Millisecond, os.Stderr, os.Exit)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitAfterGrace waits for ctx to be cancelled (Ctrl-C or SIGTERM), then
// gives the command grace to end on its own, as every loop of it does
// within milliseconds; if it has not (a call that no context reaches, such
// as opening a FIFO nobody reads), it says so and exits 130.
func exitAfterGrace(ctx context.Context, grace time.Duration, stderr io.Writer, exit func(int)) {
	<-ctx.Done()
	time.Sleep(grace)
	fmt.Fprintf(stderr, "leasesim: interrupted; the command did not end within %s, so it was stopped\n", grace)
	exit(exitInterrupted)
}
