//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this id exists: signal 0 reaches
// it, or it exists and is another user's.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
