package sweep

import (
	"io"

	"github.com/leasesim/leasesim/model"
)

// A ViolationTable writes the configurations Check finds breaking an
// invariant as CSV, a row each as they come: the configuration's
// parameters, named and written as a sweep's rows have them
// (AppendHeader), then the invariant's message (violation) and the
// command that reproduces it (command), each quoted where CSV needs it.
// A table of no violation is its header alone.
type ViolationTable struct {
	w   io.Writer
	t   model.Tick
	row []byte
}

// NewViolationTable writes the table's header to w, its times in the
// unit of t, and returns the table.
func NewViolationTable(w io.Writer, t model.Tick) (*ViolationTable, error) {
	header := append(t.AppendNames(nil, model.Params()...), "violation,command\n"...)
	if _, err := w.Write(header); err != nil {
		return nil, err
	}
	return &ViolationTable{w: w, t: t}, nil
}

// Add writes the row of configuration c, which broke an invariant with
// the message violation, and of command, which reproduces it: one line,
// a write of its own.
func (v *ViolationTable) Add(c model.Config, violation error, command string) error {
	b := append(v.t.AppendValues(v.row[:0], &c), ',')
	b = appendOneLineField(b, violation.Error())
	b = append(b, ',')
	b = appendOneLineField(b, command)
	v.row = append(b, '\n')
	_, err := v.w.Write(v.row)
	return err
}

// appendOneLineField appends s as one CSV field, quoted if it holds a
// comma or a quote (RFC 4180), its line breaks, if any, written as
// spaces: a row is one line, as a reader of a line a row
// (internal/parquetcsv) takes it.
func appendOneLineField(b []byte, s string) []byte {
	quote := false
	for i := range len(s) {
		quote = quote || s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n'
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := range len(s) {
		switch s[i] {
		case '"':
			b = append(b, '"', '"')
		case '\r', '\n':
			b = append(b, ' ')
		default:
			b = append(b, s[i])
		}
	}
	return append(b, '"')
}
