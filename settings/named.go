package settings

import (
	"fmt"
	"strings"
)

// byName returns the item of all whose name is name, or an error that
// lists the names: the one lookup behind PresetByName and SchedulerByName.
func byName[T fmt.Stringer](all []T, name string) (T, error) {
	for _, x := range all {
		if x.String() == name {
			return x, nil
		}
	}
	var none T
	return none, fmt.Errorf("want one of %s", names(all))
}

// names lists the names of all, comma-separated.
func names[T fmt.Stringer](all []T) string {
	var ns []string
	for _, x := range all {
		ns = append(ns, x.String())
	}
	return strings.Join(ns, ", ")
}
