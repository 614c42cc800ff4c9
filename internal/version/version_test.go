package version

import (
	"runtime/debug"
	"testing"
)

func TestLine(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name  string
		stamp string
		bi    *debug.BuildInfo
		want  string
	}{
		{"no build info", "", nil, "leasesim (devel)"},
		{"stamped, no build info", "v1.4.0", nil, "leasesim v1.4.0"},
		{"go install @v1.2.3: a module version, no VCS",
			"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/leasesim/leasesim", Version: "v1.2.3"},
				Settings: settings("GOOS", "linux", "GOARCH", "arm64")},
			"leasesim v1.2.3 (go1.26.8 linux/arm64)"},
		{"a build in a checkout with changes",
			"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
				Settings: settings("GOARCH", "amd64", "GOOS", "darwin", "vcs", "git", "vcs.revision", "69642b8e0d1f2a3b4c5d6e7f8091a2b3c4d5e6f7", "vcs.time", "2026-12-07T09:00:00Z", "vcs.modified", "true")},
			"leasesim (devel) (revision 69642b8e0d1f, 2026-12-07T09:00:00Z, modified, go1.26.8 darwin/amd64)"},
		{"make release: the stamp over the toolchain's pseudo-version, a clean checkout",
			"v2.0.0-rc1", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261207090000-69642b8e0d1f"},
				Settings: settings("vcs.revision", "69642b8", "vcs.modified", "false", "GOOS", "windows", "GOARCH", "amd64")},
			"leasesim v2.0.0-rc1 (revision 69642b8, go1.26.8 windows/amd64)"},
		{"an empty module version", "", &debug.BuildInfo{}, "leasesim (devel)"},
	}
	for _, tt := range tests {
		if got := Line(tt.stamp, tt.bi); got != tt.want {
			t.Errorf("%s: Line = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCurrent: a test binary has build information, with the main
// module's version "(devel)" or empty, and no stamp.
func TestCurrent(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("a test binary has no build information")
	}
	if got, want := Current(), Line("", bi); got != want {
		t.Errorf("Current() = %q, want %q", got, want)
	}
}
