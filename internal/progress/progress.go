// Package progress draws a command's progress on standard error when it
// is a terminal, and nothing otherwise: a bar of configurations (Bar) or
// of a few long steps (Steps), cleared when done.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar returns a bar of total configurations, named what, on stderr if
// it is a terminal, else nil.
func Bar(stderr io.Writer, total int, what string) *progressbar.ProgressBar {
	if !Terminal(stderr) {
		return nil
	}
	return progressbar.NewOptions64(int64(total),
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("configs"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// Terminal reports whether w is a terminal: a file that is one, or a
// writer that says it is one (IsTerminal), as a test's stand-in does.
func Terminal(w io.Writer) bool {
	switch t := w.(type) {
	case *os.File:
		return term.IsTerminal(int(t.Fd()))
	case interface{ IsTerminal() bool }:
		return t.IsTerminal()
	}
	return false
}

// Steps returns, if stderr is a terminal, a progress bar of a
// command's steps, each of which may take seconds: begin draws it as a
// step begins, the steps done of total and the one under way named after
// what ("report: the node-count study"), and hide takes it off the
// screen (before a warning is written, and at the end). Each step is
// drawn once, at once: a command has a few of them. Not on a terminal,
// begin is nil and hide does nothing.
func Steps(stderr io.Writer, what string) (begin func(done, total int, step string), hide func()) {
	if !Terminal(stderr) {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	hide = func() {
		if bar != nil {
			bar.Finish()
			bar = nil
		}
	}
	begin = func(done, total int, step string) {
		hide()
		bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription(what+": "+step),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionClearOnFinish(),
		)
		bar.Set(done)
	}
	return begin, hide
}
