// Package flagerr is an error that says which command-line flags it
// refuses, so that a command can trace it to where those flags were given
// (a review file's lines) without reading its message.
package flagerr

import (
	"errors"
	"fmt"
	"slices"
)

// Named is an error that names flags: FlagNames lists them, without their
// "--", in the order its message names them.
type Named interface {
	error
	FlagNames() []string
}

// Error is a message that names the flags names.
type Error struct {
	names []string
	err   error
}

// Errorf formats as fmt.Errorf does (%w wraps) a message that names the
// flags names, in that order; the flags a wrapped error names follow them.
func Errorf(names []string, format string, args ...any) error {
	return &Error{names, fmt.Errorf(format, args...)}
}

// New is a message, msg, that names the flags names, in that order.
func New(names []string, msg string) error { return &Error{names, errors.New(msg)} }

// Error is the message.
func (e *Error) Error() string { return e.err.Error() }

// Unwrap is the error the message wraps (%w), if any.
func (e *Error) Unwrap() error { return errors.Unwrap(e.err) }

// FlagNames is the flags the message names, and then those its wrapped
// error names, each once.
func (e *Error) FlagNames() []string {
	names := slices.Clone(e.names)
	for _, n := range Of(e.Unwrap()) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// Of is the flags err names: those of the first error in its chain that
// names them (a Named), or none.
func Of(err error) []string {
	var n Named
	if err == nil || !errors.As(err, &n) {
		return nil
	}
	return n.FlagNames()
}
