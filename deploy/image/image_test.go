package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// stamp is the version the test stamps into the binary it puts in the
// image, as make image does with the Makefile's LDFLAGS.
const stamp = "v0.0.0-imagetest"

// buildLeasesim builds leasesim from the repository, static, for linux on
// this machine's architecture, with stamp as its version. -pgo=off and no
// -trimpath: the packages as cmd/leasesim's TestReleaseStamp builds them,
// from the cache.
func buildLeasesim(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "leasesim")
	cmd := exec.Command("go", "build", "-pgo=off",
		"-ldflags", "-X github.com/leasesim/leasesim/internal/version.Stamp="+stamp,
		"-o", bin, "./cmd/leasesim")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func versionOf(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return string(out)
}

// TestImage writes the image tarball of a freshly built leasesim as make
// image does, reads it back as docker load would (manifest.json) and as an
// OCI layout (index.json), and runs the binary taken out of its layer.
func TestImage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatalf("the image's binary is a linux one: run this test on linux, not %s", runtime.GOOS)
	}
	bin := buildLeasesim(t)
	want := versionOf(t, bin)
	if !strings.HasPrefix(want, "leasesim "+stamp+" (") {
		t.Fatalf("the built binary says %q, want version %s", want, stamp)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "image.tar")
	if err := run(bin, runtime.GOARCH, "leasesim:imagetest", out); err != nil {
		t.Fatal(err)
	}

	// As docker load reads it: manifest.json, under the name given.
	img, err := tarball.ImageFromPath(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tarball.LoadManifest(func() (io.ReadCloser, error) { return os.Open(out) })
	if err != nil || len(m) != 1 || !slices.Equal(m[0].RepoTags, []string{"leasesim:imagetest"}) {
		t.Errorf("manifest.json: %+v (%v), want one image tagged leasesim:imagetest", m, err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.OS != "linux" || cf.Architecture != runtime.GOARCH || !slices.Equal(cf.Config.Entrypoint, []string{Entrypoint}) {
		t.Errorf("config: %s/%s, entrypoint %q; want linux/%s, [%s]", cf.OS, cf.Architecture, cf.Config.Entrypoint, runtime.GOARCH, Entrypoint)
	}
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 1 {
		t.Fatalf("%d layers, want 1: the binary on an empty image", len(layers))
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	var names []string
	extracted := filepath.Join(dir, "extracted")
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
		if "/"+hdr.Name != Entrypoint {
			continue
		}
		if hdr.Mode&0o111 != 0o111 {
			t.Errorf("%s has mode %o, want it executable", hdr.Name, hdr.Mode)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(extracted, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(names, []string{Entrypoint[1:]}) {
		t.Fatalf("the layer holds %q, want the entrypoint's binary alone, %q", names, Entrypoint[1:])
	}
	if f, err := elf.Open(extracted); err != nil {
		t.Error(err)
	} else {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the image's binary is linked dynamically; an empty image has no loader for it")
			}
		}
		f.Close()
	}
	if got := versionOf(t, extracted); got != want {
		t.Errorf("the binary taken out of the image says %q, the one put in %q", got, want)
	}

	// As an OCI image layout: index.json names the same image.
	layoutDir := filepath.Join(dir, "layout")
	untar(t, out, layoutDir)
	index, err := layout.ImageIndexFromPath(layoutDir)
	if err != nil {
		t.Fatal(err)
	}
	im, err := index.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 1 || im.Manifests[0].MediaType != types.OCIManifestSchema1 ||
		im.Manifests[0].Annotations["io.containerd.image.name"] != "docker.io/library/leasesim:imagetest" ||
		im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "imagetest" {
		t.Fatalf("index.json: %+v, want one OCI image named leasesim:imagetest", im.Manifests)
	}
	ociImg, err := index.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	if mt, err := ociImg.MediaType(); err != nil || mt != types.OCIManifestSchema1 {
		t.Errorf("the layout's manifest: media type %q (%v), want %q", mt, err, types.OCIManifestSchema1)
	}
	if d, err := ociImg.ConfigName(); err != nil || d.String() != mustConfigName(t, img) {
		t.Errorf("the layout's config is %s (%v), manifest.json's %s", d, err, mustConfigName(t, img))
	}
	ociLayers, err := ociImg.Layers()
	if err != nil {
		t.Fatal(err)
	}
	d0, _ := layers[0].Digest()
	if len(ociLayers) != 1 {
		t.Fatalf("the layout's image has %d layers, want 1", len(ociLayers))
	}
	if d, err := ociLayers[0].Digest(); err != nil || d != d0 {
		t.Errorf("the layout's layer is %s (%v), manifest.json's %s", d, err, d0)
	}

	// The same binary makes the same tarball, byte for byte.
	again := filepath.Join(dir, "again.tar")
	if err := run(bin, runtime.GOARCH, "leasesim:imagetest", again); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("two tarballs of the same binary differ")
	}
}

func mustConfigName(t *testing.T, img interface{ ConfigName() (v1.Hash, error) }) string {
	t.Helper()
	h, err := img.ConfigName()
	if err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// untar unpacks the tarball at path into dir.
func untar(t *testing.T, path, dir string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(hdr.Name))
		if hdr.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunRefuses: bad arguments are refused before anything is written.
func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "leasesim")
	if err := os.WriteFile(bin, []byte("not a binary, never read"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "image.tar")
	for _, tt := range []struct{ binary, arch, ref, out, want string }{
		{bin, "386", "leasesim:latest", out, `-arch "386": want amd64 or arm64`},
		{"", "amd64", "leasesim:latest", out, "want -binary FILE and -o FILE"},
		{bin, "amd64", "Leasesim:Latest!", out, `-name "Leasesim:Latest!"`},
	} {
		err := run(tt.binary, tt.arch, tt.ref, tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q, %q, %q): %v, want %q", tt.binary, tt.arch, tt.ref, err, tt.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("run(%q, %q, %q) left %s", tt.binary, tt.arch, tt.ref, out)
		}
	}
}
