package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// badValues are values each type of flag must refuse, numbers too large for
// the model among them.
var badValues = map[string][]string{
	"int":      {"abc", "", "1.5", "-99999999999999999999", "99999999999999999999", "0x10"},
	"list":     {"abc", "", "4:1", "1:9:0", "1,1", "0:99999999999999999999", "99999999999999999999"},
	"time":     {"abc", "", "1.5", "-99999999999999999999", "99999999999999999999", "0x10", "15s"},
	"times":    {"abc", "", "4:1", "1:9:0", "1,1", "0:99999999999999999999", "99999999999999999999", "5s:10s"},
	"duration": {"1", "0s", "25h", "1500us", "abc", "", "-1s"},
	"bool":     {"maybe", "2", "true,false"},
	"bools":    {"maybe", "true,true", "", "1"},
	"rates":    {"0", "-6", "abc", "NaN", "Inf", "12:6", "1e13"},
	"dist":     {"weibull:2", "fixed:0", "geometric:0.5", "lognormal:1", "fixed:99999999999"},
	"K/N":      {"4/4", "-1/2", "1", "a/b", "0/0", "auto/0", "auto/x", "automatic", "auto"},
	"float":    {"-1", "abc", "NaN", "1e13"},
	"share":    {"-1%", "100%", "1", "abc", "NaN", "10%%"},
	"process":  {"pause", "flood=geometric:10/fixed:2", "pause=geometric:10", "pause=weibull:2/fixed:1", "crash=fixed:0/fixed:1", "isolate@x=fixed:5/fixed:2", "isolate@0-1=fixed:5/fixed:2", ""},
	"uint64":   {"-1", "abc", "99999999999999999999999"},
	"name":     {"Skip", "1", "", "skip,allow"},
	"names":    {"Skip", "1", "", "skip,skip", "skip,"},
	"policy":   {"lost", "", "Standard"},
	"provider": {"mongo", "", "JDBC"},
	"currency": {"", " EUR", "a|b", "EUR\n", "twenty-one characters"},
	"candidates": {"", ";", "# none", "lease", "lease=abc", "colour=red", "lease=2;lease=0", "nodes=1 nodes=2", "preset=kubernetes", "lease=2 renew_deadline=3",
		"lease=45s", "overlap=sometimes", "nodes=99999999999999999999"},
}

// TestEveryFlagRefusesBadInput: for every command and every flag, each bad
// value of the flag's type exits 2 with one line on stderr that names the
// flag, and writes nothing.
func TestEveryFlagRefusesBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := 0
	for _, c := range commands() {
		fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		c.setup(fs)
		fs.VisitAll(func(f *pflag.Flag) {
			values := badValues[f.Value.Type()]
			switch f.Name {
			case "method", "format", "preset", "scheduler":
				values = []string{"nonsense", ""}
			case "epoch":
				values = []string{"yesterday", "2026-13-01T00:00:00Z", ""}
			case "incident":
				values = []string{"/nonexistent-leasesim/incident.txt", ""}
			case "outage-history":
				values = []string{"/nonexistent-leasesim/outages.txt", "../../testdata/incidents/brownout.txt"}
			case "failure-mix":
				values = []string{"", ";", "kind=nap scope=leader lengths=2 per_year=1", "kind=isolate scope=rack lengths=2 per_year=1", "kind=isolate scope=leader lengths=2:0 per_year=1",
					"kind=isolate scope=leader lengths=2 per_year=0", "kind=isolate scope=leader lengths=2", "kind=isolate scope=leader lengths=2 per_year=1 rate=2", "isolate leader 2 1"}
			case "outage-mix":
				values = []string{"2;0.9", "2:0", "2:-1", "x:1", "2:1,2:1", "0:1e308,1:1e308"}
			case "out", "csv", "png":
				return // any path is valid; TestUnwritableOutput covers them
			}
			if len(values) == 0 {
				t.Errorf("%s --%s: no bad values for type %q", c.name, f.Name, f.Value.Type())
			}
			for _, v := range values {
				args := []string{c.name, "--" + f.Name + "=" + v}
				for _, out := range []string{"csv", "out"} { // so that nothing could be written to the working folder
					if fs.Lookup(out) != nil {
						args = append(args, "--"+out+"="+filepath.Join(dir, out))
						break // sweep and merge have both, for one file
					}
				}
				cases++
				code, stdout, stderr := runCmd(t, args...)
				if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--"+f.Name) {
					t.Errorf("leasesim %s --%s=%q: exit %d, stdout %q, stderr %q", c.name, f.Name, v, code, stdout, stderr)
				}
			}
		})
	}
	t.Logf("%d cases", cases)
	if cases < 500 {
		t.Errorf("only %d cases", cases)
	}
	onlyFiles(t, dir)
}

// TestBadDestination: an output that cannot be a file (an empty name, a
// folder, a name ending in a slash, a missing folder) is refused before any
// work with exit 2 and one line naming the flag; nothing is left behind.
func TestBadDestination(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "part.csv")
	os.WriteFile(part, []byte("nodes,started\n1,2\n"), 0o644)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	bad := map[string]string{
		"":                                     "want a file name, not an empty one",
		sub:                                    "a folder: want a file name",
		sub + "/":                              "a folder name (it ends in a slash): want a file name",
		filepath.Join(dir, "missing", "x.csv"): "folder " + filepath.Join(dir, "missing") + " does not exist",
	}
	for path, why := range bad {
		for _, args := range [][]string{
			{"sweep", "--lease", "1:500", "--out", path},
			{"merge", "--out", path, part},
			{"cost", "--csv", path},
			{"recommend", "--csv", path},
			{"montecarlo", "--csv", path},
			{"check", "--csv", path},
		} {
			flag := args[len(args)-2]
			if args[0] == "merge" {
				flag = args[1]
			}
			want := fmt.Sprintf("leasesim %s: invalid argument %q for %q flag: %s\n", args[0], path, flag, why)
			code, stdout, stderr := runCmd(t, args...)
			if code != exitUsage || stdout != "" || stderr != want {
				t.Errorf("leasesim %s: exit %d, stdout %q, stderr\n%q, want\n%q", strings.Join(args, " "), code, stdout, stderr, want)
			}
		}
	}
	if code, _, stderr := runCmd(t, "report", "--out", ""); code != exitUsage || stderr != "leasesim report: invalid argument \"\" for \"--out\" flag: want a folder name\n" {
		t.Errorf("report --out '': exit %d, %q", code, stderr)
	}
	onlyFiles(t, dir, "part.csv", "sub")
	onlyFiles(t, sub)
}

// TestUnwritableOutput: every command that writes a file fails with exit 1
// and one line when the write itself fails (here /dev/full, as a full disk
// does), and leaves nothing behind.
func TestUnwritableOutput(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "part.csv")
	if code, _, stderr := runCmd(t, "sweep", "--lease", "1:3", "--shard", "0/1", "--out", part); code != 0 {
		t.Fatal(stderr)
	}
	for _, args := range [][]string{
		{"sweep", "--out", "/dev/full"},
		{"sweep", "--csv", "/dev/full"},
		{"merge", "--out", "/dev/full", part},
		{"merge", "--csv", "/dev/full", part},
		{"replay", "--tick", "1s", "--period", "1m", "--csv", "/dev/full", "../../testdata/incidents/api-partition.txt"},
		{"cost", "--csv", "/dev/full"},
		{"recommend", "--csv", "/dev/full"},
		{"montecarlo", "--replicas", "5", "--rounds", "100", "--csv", "/dev/full"},
		append(slices.Clone(smallCheck), "--csv", "/dev/full"),
		append(slices.Clone(smallCheck), "--csv", "/dev/full", "--format", "parquet"),
	} {
		code, _, stderr := runCmd(t, args...)
		if code != exitFailure || strings.Count(stderr, "\n") != 1 {
			t.Errorf("leasesim %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	onlyFiles(t, dir, "part.csv")
}

// TestInterrupted: Ctrl-C (a cancelled context) stops every long command
// with exit 130 and no output file.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"sweep", "--lease", "1:50", "--out", filepath.Join(dir, "sweep.csv")},
		{"montecarlo", "--csv", filepath.Join(dir, "mc.csv")},
		{"report", "--out", filepath.Join(dir, "report")},
		{"check"},
		{"check", "--csv", filepath.Join(dir, "violations.csv")},
		{"check", "--csv", filepath.Join(dir, "violations.parquet"), "--format", "parquet"},
	} {
		var stdout, stderr strings.Builder
		if code := runWith(ctx, args, &stdout, &stderr, noEnv); code != exitInterrupted || stdout.Len() != 0 {
			t.Errorf("leasesim %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
	}
	// The report's folder may be made, but holds nothing.
	entries, _ := os.ReadDir(filepath.Join(dir, "report"))
	if len(entries) != 0 {
		t.Errorf("an interrupted report left %d files", len(entries))
	}
	os.Remove(filepath.Join(dir, "report"))
	onlyFiles(t, dir)
}
