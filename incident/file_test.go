package incident

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leasesim/leasesim/internal/flagerr"
	"github.com/leasesim/leasesim/model"
)

// TestReadFile reads a file, names it in a parse error and gives
// os.Open's error for a missing one.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.txt"), filepath.Join(dir, "bad.txt")
	os.WriteFile(good, []byte("0, partition, 2, 3\n"), 0o644)
	os.WriteFile(bad, []byte("0, partition, 2, 3\nnonsense\n"), 0o644)
	if _, err := ReadFile(good, 0, time.Time{}); err != nil {
		t.Errorf("ReadFile(good) = %v", err)
	}
	if _, err := ReadFile(bad, 0, time.Time{}); err == nil || !strings.HasPrefix(err.Error(), bad+": line 2") {
		t.Errorf("ReadFile(bad) = %v, want it to begin %q", err, bad+": line 2")
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 0, time.Time{}); !os.IsNotExist(err) {
		t.Errorf("ReadFile(none) = %v, want os.Open's not-exist error", err)
	}
}

// TestOverrules refuses a flag the incident sets, naming it and
// --incident.
func TestOverrules(t *testing.T) {
	for _, c := range []struct {
		given []string
		names []string
	}{
		{nil, nil},
		{[]string{"lease", "nodes"}, nil},
		{[]string{"lease", model.Down.Flag()}, []string{model.Down.Flag(), "incident"}},
	} {
		err := Overrules(func(f string) bool { return slices.Contains(c.given, f) })
		if got := flagerr.Of(err); !slices.Equal(got, c.names) {
			t.Errorf("Overrules(%v) = %v naming %v, want %v", c.given, err, got, c.names)
		}
	}
}
