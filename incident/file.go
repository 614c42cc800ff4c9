package incident

import (
	"fmt"
	"os"
	"time"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
)

// ReadFile reads the incident file name (Parse) in the unit of t, its
// timestamps counted from epoch; a parse error names the file and line,
// an error opening it is os.Open's.
func ReadFile(name string, t model.Tick, epoch time.Time) (Incident, error) {
	f, err := os.Open(name)
	if err != nil {
		return Incident{}, err
	}
	defer f.Close()
	in, err := Parse(f, t, epoch)
	if err != nil {
		return Incident{}, fmt.Errorf("%s: %w", name, err)
	}
	return in, nil
}

// Overrules refuses, in a message naming the flags (flagerr), the first
// of Params given (given(flag)) beside --incident: the incident says who
// fails when, and how.
func Overrules(given func(flag string) bool) error {
	for _, p := range Params() {
		if given(p.Flag()) {
			return flagerr.Errorf([]string{p.Flag(), "incident"}, "--%s goes not with --incident: the incident says who fails when, and how", p.Flag())
		}
	}
	return nil
}
