package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	binary := flag.String("binary", "", "the static linux leasesim binary (CGO_ENABLED=0) to put in the image")
	arch := flag.String("arch", "amd64", "the binary's architecture: amd64 or arm64")
	ref := flag.String("name", "leasesim:latest", "the image's name and tag")
	out := flag.String("o", "", "the image tarball to write")
	flag.Parse()
	if err := run(*binary, *arch, *ref, *out); err != nil {
		fmt.Fprintf(os.Stderr, "image: %v\n", err)
		os.Exit(1)
	}
}

// run writes the image of the binary at binary to out, whole or not at
// all.
func run(binary, arch, ref, out string) error {
	if binary == "" || out == "" {
		return fmt.Errorf("want -binary FILE and -o FILE")
	}
	if arch != "amd64" && arch != "arm64" {
		return fmt.Errorf("-arch %q: want amd64 or arm64", arch)
	}
	b, err := os.ReadFile(binary)
	if err != nil {
		return err
	}
	img, err := Image(b, arch)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".image-*.tar")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := Write(w, img, ref); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
