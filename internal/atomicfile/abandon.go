package atomicfile

import (
	"errors"
	"os"
	"sync"
)

// temps are the temporary files and staging folders of the writes in
// progress, each with the folders created for it (outermost first), so
// that a process stopped before they end (leasesim's exit after an
// interrupt's grace) can remove them: no stray file or empty folder,
// whatever the write was doing.
var temps struct {
	sync.Mutex
	paths     map[string][]string
	abandoned bool
}

// errAbandoned is the error of a write begun or finished after Abandon.
var errAbandoned = errors.New("the process is stopping: output abandoned")

// track records path as a temporary file or folder in use, and the
// folders made for it; false if the writes are abandoned already.
func track(path string, made []string) bool {
	temps.Lock()
	defer temps.Unlock()
	if temps.abandoned {
		return false
	}
	if temps.paths == nil {
		temps.paths = map[string][]string{}
	}
	temps.paths[path] = made
	return true
}

func untrack(path string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.paths, path)
}

// whileLive runs move, which puts temporary files in place, unless the
// writes are abandoned; Abandon waits for a move under way to end, so that
// no output is left half moved.
func whileLive(move func() error) error {
	temps.Lock()
	defer temps.Unlock()
	if temps.abandoned {
		return errAbandoned
	}
	return move()
}

// Abandon removes the temporary files and staging folders of every write
// in progress and makes every later write fail, leaving their targets as
// they were: for a process about to exit before its writes end.
func Abandon() {
	temps.Lock()
	defer temps.Unlock()
	temps.abandoned = true
	for path, made := range temps.paths {
		os.RemoveAll(path)
		removeMade(made)
	}
	temps.paths = nil
}
