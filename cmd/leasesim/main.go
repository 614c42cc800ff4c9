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

	"github.com/leasesim/leasesim/internal/atomicfile"
)

func main() {
	// A closed pipe on standard output (leasesim sweep | head -1) is a
	// failing output like a full disk: the write fails with EPIPE and the
	// command exits 1 with one line, as the README promises, rather than
	// being killed by SIGPIPE (exit 141, no word), which Go's runtime does
	// to a write on fd 1 or 2 only while the signal is not handled.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go exitAfterGrace(ctx, 900*time.Millisecond, os.Stderr, func(code int) {
		atomicfile.Abandon() // no temporary file or staging folder outlives the process
		os.Exit(code)
	})
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// exitAfterGrace waits for ctx to be cancelled (Ctrl-C or SIGTERM), then
// gives the command grace to end on its own, as every loop of it does
// within milliseconds; if it has not (a call that no context reaches, such
// as opening a FIFO nobody reads, or writing a long report.md), it says so
// and exits 130 through exit, which main makes remove the temporary files
// of the writes under way first (atomicfile.Abandon).
func exitAfterGrace(ctx context.Context, grace time.Duration, stderr io.Writer, exit func(int)) {
	<-ctx.Done()
	time.Sleep(grace)
	fmt.Fprintf(stderr, "leasesim: interrupted; the command did not end within %s, so it was stopped\n", grace)
	exit(exitInterrupted)
}
