package progress

import (
	"bytes"
	"strings"
	"testing"
)

// tty is a terminal that keeps what is drawn.
type tty struct{ bytes.Buffer }

func (*tty) IsTerminal() bool { return true }

// TestNotATerminal: nothing is drawn on a writer that is no terminal.
func TestNotATerminal(t *testing.T) {
	var b bytes.Buffer
	if Bar(&b, 10, "sweep") != nil {
		t.Error("Bar on a buffer, want nil")
	}
	begin, hide := Steps(&b, "report")
	hide()
	if begin != nil || b.Len() != 0 {
		t.Errorf("Steps on a buffer: begin %v, drew %q; want nil and nothing", begin != nil, b.String())
	}
}

// TestSteps draws each step named after what, with the steps done, and
// clears the line when hidden.
func TestSteps(t *testing.T) {
	var w tty
	begin, hide := Steps(&w, "report")
	begin(1, 4, "the cost section")
	hide()
	drawn := w.String()
	for _, want := range []string{"report: the cost section", "(1/4)"} {
		if !strings.Contains(drawn, want) {
			t.Errorf("drew %q, want %q in it", drawn, want)
		}
	}
	if !strings.HasSuffix(drawn, "\r") {
		t.Errorf("drew %q, want the line cleared at the end", drawn)
	}
}
