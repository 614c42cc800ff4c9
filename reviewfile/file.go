package reviewfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxFileBytes bounds a review file, so that /dev/zero or a runaway log
// named by mistake is refused at once rather than read into memory: a
// page is a few KiB.
const MaxFileBytes = 1 << 20

// ReadFile reads the review file at path, at most MaxFileBytes, and
// parses it (Parse). Its error names the file and, for a refused line,
// the line (path:line: …); a file that cannot be read is a "review
// file: …" error.
func ReadFile(path string) ([]Setting, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("review file: %v", err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("review file: %v", err)
	case len(text) > MaxFileBytes:
		return nil, fmt.Errorf("review file: %s: longer than %d KiB, the most a review file may hold", path, MaxFileBytes>>10)
	}
	settings, err := Parse(bytes.NewReader(text))
	var fe *Error
	switch {
	case errors.As(err, &fe) && fe.Line == 0:
		return nil, fmt.Errorf("%s: %s", path, fe.Msg)
	case errors.As(err, &fe):
		return nil, fmt.Errorf("%s:%d: %s", path, fe.Line, fe.Msg)
	case err != nil:
		return nil, fmt.Errorf("review file: %v", err)
	}
	return settings, nil
}

// At is where a review file gives a setting: the file, the line and
// the key.
type At struct {
	File string
	Line int
	Key  Key
}

// String is file:line: section.name.
func (a At) String() string {
	return fmt.Sprintf("%s:%d: %s.%s", a.File, a.Line, a.Key.Section, a.Key.Name)
}

// SettingError is bad input traced to the settings of a review file it
// concerns, in the order it names them, as benchfmt.SyntaxError traces
// one to its file and line: where each is written, and the message.
type SettingError struct {
	At  []At
	Msg string
}

// Error is each place, then the message: r.yaml:2: deployment.lease,
// r.yaml:3: deployment.renew_deadline: ….
func (e *SettingError) Error() string {
	at := make([]string, len(e.At))
	for i, a := range e.At {
		at[i] = a.String()
	}
	return strings.Join(at, ", ") + ": " + e.Msg
}
