package atomicfile

import "os"

// alive reports whether a process with this id exists: on Windows,
// whether it can be opened (os.FindProcess opens it, and fails for an id
// that names none).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
