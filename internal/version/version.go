// Package version says which leasesim a binary is, in the one line
// `leasesim version` prints: the version stamped into it at link time (by
// make release and make image), or else the module version the Go
// toolchain records (v1.2.3 for go install …@v1.2.3, "(devel)" for a
// build in a checkout), with the VCS revision, its time and whether the
// checkout had changes, where the toolchain recorded them.
package version

import (
	"runtime/debug"
	"strings"
)

// Stamp is the version a release build stamps in with
// -ldflags "-X github.com/leasesim/leasesim/internal/version.Stamp=v1.2.3"
// (the Makefile's LDFLAGS); empty in any other build.
var Stamp string

// Line is the version line of a binary stamped with stamp whose build
// information is bi (nil if it has none): "leasesim VERSION (DETAILS)",
// VERSION being stamp, else the main module's version, else "(devel)";
// DETAILS the revision (its first 12 characters), its time, "modified"
// when the checkout had uncommitted changes, and the Go version and
// platform.
func Line(stamp string, bi *debug.BuildInfo) string {
	v := stamp
	if v == "" && bi != nil {
		v = bi.Main.Version
	}
	if v == "" {
		v = "(devel)"
	}
	if bi == nil {
		return "leasesim " + v
	}
	var rev, at, goos, goarch string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	var details []string
	if rev != "" {
		details = append(details, "revision "+rev[:min(len(rev), 12)])
	}
	if at != "" {
		details = append(details, at)
	}
	if modified {
		details = append(details, "modified")
	}
	toolchain := strings.TrimSpace(bi.GoVersion + " " + strings.Trim(goos+"/"+goarch, "/"))
	if toolchain != "" {
		details = append(details, toolchain)
	}
	if len(details) == 0 {
		return "leasesim " + v
	}
	return "leasesim " + v + " (" + strings.Join(details, ", ") + ")"
}

// Current is this binary's version line.
func Current() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return Line(Stamp, bi)
}
