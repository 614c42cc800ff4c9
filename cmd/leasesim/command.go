package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/input"
	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/internal/version"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/spf13/pflag"
)

// A command is one subcommand of leasesim.
type command struct {
	name    string
	summary string
	args    string // positional arguments, for the usage line; "" if none
	// setup registers the command's flags and returns the function that
	// runs it once they are parsed.
	setup func(fs *pflag.FlagSet) func(ctx context.Context, io *streams) error
	// prepare, if set, runs once the command line is parsed and before
	// the times are read: report applies its review file there. Where, if
	// not nil, rewrites a later error's message to say where in the file
	// the flags it names were set (and, for a candidate list's entry, the
	// entry's line: candidatelist.CandidateError).
	prepare func(fs *pflag.FlagSet) (where func(err error, msg string) string, err error)
}

// streams are a command's standard output and error.
type streams struct {
	out, err io.Writer
	cmd      string     // the command's name, for messages
	held     *warnFirst // warnings held back until the answer begins, printed before c's
}

// warn prints c's warnings (model.Config.Warnings, and the tick's,
// model.Tick.Warnings) to standard error, one line each, before the
// command's answer.
func (s *streams) warn(c model.Config, t model.Tick) {
	if s.held != nil {
		s.held.flush()
	}
	for _, w := range append(c.Warnings(t), t.Warnings(c)...) {
		fmt.Fprintf(s.err, "leasesim %s: warning: %s\n", s.cmd, w)
	}
}

// warnIdleFailover prints a warning when c's lock service fails over
// where it can change nothing (reports.IdleFailoverWarning).
func (s *streams) warnIdleFailover(c model.Config, t model.Tick) {
	w := reports.IdleFailoverWarning(c, t)
	if w == "" {
		return
	}
	if s.held != nil {
		s.held.flush()
	}
	fmt.Fprintf(s.err, "leasesim %s: warning: %s\n", s.cmd, w)
}

// warnMargins prints the two-leader warning of the first of configs that
// leaves no two-leader margin without fencing, named by name(i), and how
// many more do (reports.MarginWarning).
func (s *streams) warnMargins(configs []model.Config, name func(i int) string, t model.Tick) {
	if s.held != nil {
		s.held.flush()
	}
	if w := reports.MarginWarning(configs, name, t); w != "" {
		fmt.Fprintf(s.err, "leasesim %s: warning: %s\n", s.cmd, w)
	}
}

// skip tells standard error, in one line, that a command leaves out
// skipped of its total configurations (what: "configurations", "settings")
// because their settings do not go together, and the first one's reason,
// named as flags; with none left it refuses them all as bad input. One
// configuration that does not go together is refused with its own reason.
func (s *streams) skip(what string, skipped, total int, first error, t model.Tick) error {
	switch {
	case skipped == 0:
		return nil
	case total == 1:
		return first
	}
	reason := first.Error()
	var re *model.RelationError
	if errors.As(first, &re) {
		reason = re.Flags(t)
	}
	if skipped == total {
		return usagef("none of the %d %s goes together; the first: %s", total, what, reason)
	}
	if s.held != nil {
		s.held.flush()
	}
	fmt.Fprintf(s.err, "leasesim %s: skipped %d of the %d %s: their flags' values do not go together; the first: %s\n", s.cmd, skipped, total, what, shorten(reason))
	return nil
}

func commands() []command {
	return []command{
		{"run", "run one configuration of the round model", "", setupRun, nil},
		{"measure", "print the seed's measure table and lease block", "", setupMeasure, nil},
		{"cost", "project missed and double invoice lines per year", "", setupCost, nil},
		{"recommend", "rank lease lengths over a mix of outages", "", setupRecommend, nil},
		{"sweep", "run a grid of configurations to CSV", "", setupSweep, nil},
		{"merge", "join the shard CSVs of one sweep", " FILE...", setupMerge, nil},
		{"montecarlo", "run configurations under independent random node failures", "", setupMonteCarlo, nil},
		{"check", "check the model's invariants over a bounded space, exhaustively", "", setupCheck, nil},
		{"settings", "a lock's timings: client-go's beside library-go's formulas, etcd's, Consul's, ZooKeeper's and DynamoDB's by their own protocols", "", setupSettings, nil},
		{"report", "write every table, CSV and plot of a capacity-planning review", " [REVIEW.yaml]", setupReport, applyReviewFile},
		{"replay", "run an incident from a post-mortem under settings side by side", " INCIDENT", setupReplay, nil},
		{"completion", "print a shell's completion script, made from every command's flags", " bash|zsh|fish", setupCompletion, nil},
	}
}

// usageError is bad input: exit status 2.
type usageError struct {
	msg string
	err error // what it was made from, if anything
}

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return e.err }

// usage makes err, found in the input, a usageError.
func usage(err error) error { return &usageError{err.Error(), err} }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// flagUsagef is usagef for a message that names the flags names, in that
// order (flagerr), which a review file traces to their lines.
func flagUsagef(names []string, format string, args ...any) error {
	return usage(flagerr.Errorf(names, format, args...))
}

// warnFirst is a command's standard output with warnings held back until
// its answer begins, or it ends well: bad input, found before any answer,
// is then its one line alone, and a warning still comes before the answer
// it qualifies.
type warnFirst struct {
	out, err io.Writer
	cmd      string
	pending  []string
}

func (w *warnFirst) Write(p []byte) (int, error) {
	w.flush()
	return w.out.Write(p)
}

// flush prints the warnings held back, once.
func (w *warnFirst) flush() {
	for _, s := range w.pending {
		fmt.Fprintf(w.err, "leasesim %s: warning: %s\n", w.cmd, s)
	}
	w.pending = nil
}

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1 // the command failed, e.g. an output file could not be written
	exitUsage       = 2 // bad input
	exitGate        = 3 // report --gate: the current settings break a rule of the gate
	exitInterrupted = 130
)

// run runs leasesim with args (without the program name) and returns the
// exit status, reading the process's environment for the flags that take
// a value from it (--shard auto).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdout, stderr, os.Getenv)
}

// runWith is run with getenv reading the environment, so that a test can
// give its own.
func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	std := &streams{out: stdout, err: stderr}
	if len(args) == 0 {
		writeHelp(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		return report(stderr, "help", 0, writeHelp(stdout), nil)
	case "version", "--version":
		_, err := fmt.Fprintln(stdout, version.Current())
		return report(stderr, "version", 0, err, nil)
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		fs := pflag.NewFlagSet("leasesim "+c.name, pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.SortFlags = false
		exec := c.setup(fs)
		std.cmd = c.name
		err := fs.Parse(args[1:])
		var where func(error, string) string
		if err == nil && c.prepare != nil {
			where, err = c.prepare(fs)
		}
		if err == nil {
			err = resolveTimes(fs)
		}
		if err == nil {
			err = resolveShard(fs, getenv)
		}
		if err == nil {
			err = refuseOverwritingInputs(fs, c.name, strings.Trim(c.args, " []."))
		}
		switch {
		case errors.Is(err, pflag.ErrHelp):
			fs.VisitAll(func(f *pflag.Flag) {
				if strings.Contains(f.Usage, "(default ") { // it says its default itself, better than pflag would
					f.DefValue = ""
				}
			})
			_, err := fmt.Fprintf(stdout, "leasesim %s: %s\n\nUsage: leasesim %s [flags]%s\n\nFlags:\n%s%s", c.name, c.summary, c.name, c.args, fs.FlagUsages(), input.SyntaxHelp(pflags{fs}))
			return report(stderr, c.name, 0, err, nil)
		case err != nil:
			err = usage(err)
		case fs.NArg() > 0 && c.args == "":
			err = usagef("unexpected argument %q: %s takes only flags", fs.Arg(0), c.name)
		default:
			out := &warnFirst{out: stdout, err: stderr, cmd: c.name, pending: realTimeDefaults(fs)}
			std.out, std.held = out, out
			if err = exec(ctx, std); err == nil {
				out.flush()
			}
		}
		var tick model.Tick
		if f := fs.Lookup("tick"); f != nil {
			tick = *f.Value.(input.Parsed[model.Tick]).P
		}
		return report(stderr, c.name, tick, err, where)
	}
	fmt.Fprintf(stderr, "leasesim: %s\n", shorten(fmt.Sprintf("unknown command %q: want one of %s", args[0], strings.Join(commandNames(), ", "))))
	return exitUsage
}

// report prints err, if any, as one line and returns the exit status. A
// value it echoes is written in the unit of t, as the flags took it; bad
// input is traced to the review file's lines by where, if not nil.
func report(stderr io.Writer, name string, t model.Tick, err error, where func(error, string) string) int {
	if where == nil {
		where = func(_ error, msg string) string { return msg }
	}
	var ue *usageError
	var re *model.RelationError
	var ge gateError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ge):
		fmt.Fprintf(stderr, "leasesim %s: %s\n", name, shorten(ge.Error()))
		return exitGate
	case errors.As(err, &re): // flags that do not go together, named as flags
		fmt.Fprintf(stderr, "leasesim %s: %s\n", name, shorten(where(err, re.Flags(t))))
		return exitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "leasesim %s: interrupted; no output file was written\n", name)
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "leasesim %s: %s\n", name, shorten(where(err, ue.msg)))
		return exitUsage
	}
	fmt.Fprintf(stderr, "leasesim %s: %s\n", name, shorten(err.Error()))
	return exitFailure
}

// Bounds on what an error line echoes of the input.
const (
	maxQuoted = 60  // characters of one quoted argument
	maxLine   = 500 // characters of the whole message
)

// shorten bounds an error message, so that a 100 KB argument does not make
// a 100 KB line: each quoted argument longer than maxQuoted keeps its start
// and says how long it was, which leaves the flag's name and what it
// accepts readable; past maxLine the message is cut.
func shorten(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:i])
		lit, err := strconv.QuotedPrefix(msg[i:])
		if err != nil { // a lone quote mark
			b.WriteByte('"')
			msg = msg[i+1:]
			continue
		}
		msg = msg[i+len(lit):]
		if s, _ := strconv.Unquote(lit); len(s) > maxQuoted {
			q := strconv.Quote(string([]rune(s)[:maxQuoted/2]))
			lit = fmt.Sprintf("%s…\" (%d bytes)", q[:len(q)-1], len(s))
		}
		b.WriteString(lit)
	}
	if s := b.String(); len(s) > maxLine {
		return strings.ToValidUTF8(s[:maxLine], "") + "…"
	}
	return b.String()
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// writeHelp writes the list of commands to w, and returns w's error.
func writeHelp(w io.Writer) error {
	var b strings.Builder
	b.WriteString("leasesim sizes lease-based leader election for a singleton batch job.\n\nUsage: leasesim <command> [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun \"leasesim <command> --help\" for a command's flags; \"leasesim --version\" for the version.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
