package montecarlo_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/montecarlo"
)

// TestParseProcess: --also's syntax read without the command: a kind, its
// zone's nodes, and up and down lengths, an empirical uptime's path
// holding slashes; bad text is refused saying what is wanted.
func TestParseProcess(t *testing.T) {
	dir := t.TempDir()
	up := filepath.Join(dir, "a/b.txt")
	if err := os.MkdirAll(filepath.Dir(up), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(up, []byte("\ufeff# seen\n30s\n90s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := montecarlo.ParseProcess(0, "isolate@0:1=geometric:90000/fixed:20")
	if err != nil {
		t.Fatal(err)
	}
	if p.Failure.Kind.String() != "isolate" || !slices.Equal(p.Zone, []int{0, 1}) || p.Up.Kind != model.Geometric || p.Up.A != 90000 || p.Down.Kind != model.Fixed || p.Down.A != 20 {
		t.Errorf("isolate@0:1=geometric:90000/fixed:20 = %+v", p)
	}
	tick, _ := parse.Tick("5s")
	p, err = montecarlo.ParseProcess(tick, "pause=empirical:"+up+"/fixed:30s")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Up.Samples, []int{6, 18}) || p.Down.A != 6 || p.Zone != nil {
		t.Errorf("pause with an empirical uptime = %+v", p)
	}
	for _, bad := range []struct{ text, want string }{
		{"pause", "want KIND[@NODES]=UPTIME/DOWNTIME, as pause=geometric:2000/fixed:3 or isolate@0:1=geometric:90000/fixed:20"},
		{"pause@x=fixed:3/fixed:3", `zone "x": want node numbers, as 0:1 or 0,2: `},
	} {
		_, err := montecarlo.ParseProcess(0, bad.text)
		if err == nil || len(err.Error()) < len(bad.want) || err.Error()[:len(bad.want)] != bad.want {
			t.Errorf("ParseProcess(%q) = %v, want %q…", bad.text, err, bad.want)
		}
	}
}
