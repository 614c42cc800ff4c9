// Command image writes leasesim's container image with no daemon and no
// base image: the static linux binary as the one layer of an empty image,
// its entrypoint, as a tarball that is an OCI image layout (oci-layout,
// index.json, blobs/sha256/…) with docker's manifest.json beside it, as
// docker save writes since Docker 25, so that docker load, podman load and
// kind load image-archive (containerd's import) take it.
//
// It is a module of its own so that go-containerregistry stays out of
// leasesim's dependencies; make image builds the binary and runs it:
//
//	go run . -binary ../../dist/image-amd64/leasesim -arch amd64 -name leasesim:latest -o ../../dist/leasesim-image-amd64.tar
package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Entrypoint is where the image holds the binary, and what it runs.
const Entrypoint = "/leasesim"

// epoch is every time the image records (the layer's file, the config's
// creation): the same binary makes the same image, byte for byte.
var epoch = time.Unix(0, 0).UTC()

// Image is the image of binary, a static linux executable for arch
// (amd64, arm64): one layer holding it at Entrypoint, mode 0755, run as
// the entrypoint, with OCI media types.
func Image(binary []byte, arch string) (v1.Image, error) {
	var layerTar bytes.Buffer
	tw := tar.NewWriter(&layerTar)
	hdr := &tar.Header{
		Name:     Entrypoint[1:],
		Typeflag: tar.TypeReg,
		Mode:     0o755,
		Size:     int64(len(binary)),
		ModTime:  epoch,
		Format:   tar.FormatPAX,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(binary); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar.Bytes())), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{
		Layer:     layer,
		MediaType: types.OCILayer,
		History:   v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "leasesim: the static binary, " + Entrypoint},
	})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", arch
	cf.Created = v1.Time{Time: epoch}
	cf.Config.Entrypoint = []string{Entrypoint}
	cf.Config.WorkingDir = "/"
	return mutate.ConfigFile(img, cf)
}

// Write writes img as a tarball named ref (such as leasesim:latest): an
// OCI image layout whose index.json names it, and docker's manifest.json,
// both pointing at the same blobs.
func Write(w io.Writer, img v1.Image, ref string) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("-name %q: %v", ref, err)
	}
	rawManifest, err := img.RawManifest()
	if err != nil {
		return err
	}
	manifestDigest, err := img.Digest()
	if err != nil {
		return err
	}
	rawConfig, err := img.RawConfigFile()
	if err != nil {
		return err
	}
	configDigest, err := img.ConfigName()
	if err != nil {
		return err
	}
	blobs := map[string][]byte{
		blobPath(manifestDigest): rawManifest,
		blobPath(configDigest):   rawConfig,
	}
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	var layerPaths []string
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return err
		}
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		blobs[blobPath(d)] = b
		layerPaths = append(layerPaths, blobPath(d))
	}
	// docker load and containerd name the image by these: the full name
	// and the tag alone in the OCI index, the name as docker writes it
	// (leasesim:latest) in manifest.json.
	full, short := tag.Name(), tag.Name()
	if tag.RegistryStr() == name.DefaultRegistry {
		repo := tag.RepositoryStr()
		full = "docker.io/" + repo + ":" + tag.TagStr()
		short = strings.TrimPrefix(repo, "library/") + ":" + tag.TagStr()
	}
	index := v1.IndexManifest{
		SchemaVersion: 2,
		MediaType:     types.OCIImageIndex,
		Manifests: []v1.Descriptor{{
			MediaType: types.OCIManifestSchema1,
			Size:      int64(len(rawManifest)),
			Digest:    manifestDigest,
			Annotations: map[string]string{
				"io.containerd.image.name":          full,
				"org.opencontainers.image.ref.name": tag.TagStr(),
			},
		}},
	}
	indexJSON, err := json.Marshal(index)
	if err != nil {
		return err
	}
	dockerJSON, err := json.Marshal(tarball.Manifest{{
		Config:   blobPath(configDigest),
		RepoTags: []string{short},
		Layers:   layerPaths,
	}})
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	dir := func(name string) error {
		return tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeDir, Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX})
	}
	file := func(name string, b []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	if err := dir("blobs/"); err != nil {
		return err
	}
	if err := dir("blobs/sha256/"); err != nil {
		return err
	}
	paths := make([]string, 0, len(blobs))
	for p := range blobs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := file(p, blobs[p]); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{
		{"oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{"index.json", indexJSON},
		{"manifest.json", dockerJSON},
	} {
		if err := file(f.name, f.b); err != nil {
			return err
		}
	}
	return tw.Close()
}

// blobPath is where a layout keeps the blob of digest h.
func blobPath(h v1.Hash) string { return path.Join("blobs", h.Algorithm, h.Hex) }
