package montecarlo_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestReadEmpirical: lengths in rounds, or with a tick as durations to the
// nearest whole tick (at least one); at a 10 s tick, whose billion rounds
// pass time.Duration's range, 30s is 3 rounds, not refused as too long,
// and a length past a billion rounds is refused naming its line.
func TestReadEmpirical(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		tick       model.Tick
		want       []int
		err        string // what the error says after the file's path, "" for none
	}{
		{"rounds", "3\n# a comment\n5\n", 0, []int{3, 5}, ""},
		{"durations to the nearest tick", "45s\n1m\n400ms\n", model.Tick(time.Second), []int{45, 60, 1}, ""},
		{"a long tick", "30s\n25s\n", model.Tick(10 * time.Second), []int{3, 3}, ""},
		{"past a billion rounds", "30s\n2000000000s\n", model.Tick(time.Second), nil, `: line 2: "2000000000s": want a duration such as 45s or 2m, up to `},
		{"not a duration", "30\n", model.Tick(time.Second), nil, `: line 1: "30": want a duration such as 45s or 2m`},
	} {
		path := filepath.Join(t.TempDir(), "lengths.txt")
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := montecarlo.ReadEmpirical(path, tt.tick)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), path+tt.err) {
				t.Errorf("%s: error %v, want %q after the path", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(l.Samples, tt.want) {
			t.Errorf("%s: %v, %v; want %v", tt.name, l.Samples, err, tt.want)
		}
	}
}
