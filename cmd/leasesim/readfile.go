package main

import (
	"fmt"
	"io"
	"os"
)

// Bounds on the files leasesim reads, so that /dev/zero or a runaway log
// named by mistake is refused at once rather than read into memory.
const (
	maxReviewFile = 1 << 20 // bytes of a review file: a page is a few KiB
)

// readCapped reads the file at path whole, refusing it past limit bytes.
func readCapped(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s: longer than %d KiB, the most a review file may hold", path, limit>>10)
	}
	return data, nil
}
