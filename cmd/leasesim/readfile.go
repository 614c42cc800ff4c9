package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Bounds on the files leasesim reads, so that /dev/zero or a runaway log
// named by mistake is refused at once rather than read into memory.
const (
	maxReviewFile   = 1 << 20   // bytes of a review file: a page is a few KiB
	maxLengthsLines = 1_000_000 // lengths in an outage history or an empirical: file
	maxLineBytes    = 1 << 16   // bytes of one line of a lengths file
)

// bom is the UTF-8 byte order mark some editors put at a file's start;
// every file leasesim reads may begin with one.
var bom = []byte("\ufeff")

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

// eachLine calls line with each line of the file at path and its number,
// from 1, without a leading byte order mark; it refuses a line longer
// than maxLineBytes and more than maxLines lines that line counts (those
// for which it returns true).
func eachLine(path string, maxLines int, line func(n int, text string) (bool, error)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	n, counted := 0, 0
	for sc.Scan() {
		n++
		text := sc.Bytes()
		if n == 1 {
			text = bytes.TrimPrefix(text, bom)
		}
		ok, err := line(n, string(text))
		if err != nil {
			return err
		}
		if ok {
			if counted++; counted > maxLines {
				return fmt.Errorf("%s: line %d: more than %d lengths, the most a file of them may hold", path, n, maxLines)
			}
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("%s: line %d: longer than %d KiB: want one length a line", path, n+1, maxLineBytes>>10)
	}
	return sc.Err()
}
