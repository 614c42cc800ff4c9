package montecarlo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/model/parse"
	"github.com/leasesim/leasesim/sweep"
)

// What a study's failures are written as: a distribution of lengths
// (parse.Lengths) or the file of an empirical one (EmpiricalSyntax), and
// a further failure process of every node (ProcessSyntax).

// EmpiricalSyntax says what empirical:FILE holds.
const EmpiricalSyntax = "empirical:FILE, the lengths a team saw, one a line (rounds; with --tick, durations, taken to the nearest tick)"

// ProcessSyntax says what a further failure process (--also) is written as.
const ProcessSyntax = "KIND[@NODES]=UPTIME/DOWNTIME, as pause=geometric:2000/fixed:3 or isolate@0:1=geometric:90000/fixed:20"

// Bounds on a file of lengths, so that /dev/zero or a runaway log named
// by mistake is refused at once rather than read into memory.
const (
	MaxLengthsLines = 1_000_000 // lengths in an outage history or an empirical: file
	maxLineBytes    = 1 << 16   // bytes of one line of a lengths file
)

// bom is the UTF-8 byte order mark some editors put at a file's start.
var bom = []byte("\ufeff")

// ParseLengths reads a distribution of lengths in rounds or, with a tick,
// in durations: parse.Lengths's syntax, or empirical:FILE (ReadEmpirical).
func ParseLengths(t model.Tick, text string) (model.Lengths, error) {
	if path, ok := strings.CutPrefix(text, "empirical:"); ok {
		return ReadEmpirical(path, t)
	}
	return parse.Lengths(t, text)
}

// ParseProcess reads a further failure process of every node,
// KIND[@NODES]=UPTIME/DOWNTIME (ProcessSyntax): its kind, the nodes of its
// zone (none: each node on its own), and its up and down lengths
// (ParseLengths).
func ParseProcess(t model.Tick, text string) (model.Process, error) {
	var p model.Process
	kind, lengths, ok := strings.Cut(text, "=")
	up, down, ok2 := CutUpDown(lengths)
	if !ok || !ok2 {
		return p, fmt.Errorf("want %s", ProcessSyntax)
	}
	var err error
	kind, zone, isZone := strings.Cut(kind, "@")
	if p.Failure, err = parse.Failure(kind); err != nil {
		return p, err
	}
	if isZone {
		nodes, err := sweep.ParseValues(0, model.DownFrom, zone)
		if err != nil {
			return p, fmt.Errorf("zone %q: want node numbers, as 0:1 or 0,2: %v", zone, err)
		}
		p.Zone = slices.Collect(nodes.All())
	}
	if p.Up, err = ParseLengths(t, up); err != nil {
		return p, err
	}
	p.Down, err = ParseLengths(t, down)
	return p, err
}

// CutUpDown splits a process's UPTIME/DOWNTIME at the slash that begins
// the downtime: the first one followed by a distribution's name and a
// colon (fixed:, geometric:, lognormal:, empirical:), so that an
// empirical: uptime's path may hold slashes; without one, the first.
func CutUpDown(lengths string) (up, down string, ok bool) {
	for i := 0; i < len(lengths); i++ {
		if lengths[i] != '/' {
			continue
		}
		for _, kind := range []string{"fixed:", "geometric:", "lognormal:", "empirical:"} {
			if strings.HasPrefix(lengths[i+1:], kind) {
				return lengths[:i], lengths[i+1:], true
			}
		}
	}
	return strings.Cut(lengths, "/")
}

// ReadEmpirical reads an empirical distribution of lengths from the file
// at path: a length a line, in rounds or, with a tick, as durations taken
// to the nearest whole tick (at least one); # starts a comment, and the
// file may begin with a byte order mark. The file is read a line at a
// time, up to MaxLengthsLines lengths; its error names the file and line.
func ReadEmpirical(path string, t model.Tick) (model.Lengths, error) {
	var samples []int
	err := eachLine(path, MaxLengthsLines, func(i int, line string) (bool, error) {
		text, _, _ := strings.Cut(line, "#")
		text = strings.TrimSpace(text)
		if text == "" {
			return false, nil
		}
		n, err := strconv.Atoi(text)
		if t != 0 {
			var d time.Duration
			d, err = time.ParseDuration(text)
			// whole rounds, rounded to the nearest, computed without a
			// product that overflows at long ticks (1e9 rounds of 10 s
			// are past time.Duration's range): n > MaxRounds is refused
			// below
			q, r := d/time.Duration(t), d%time.Duration(t)
			if 2*r >= time.Duration(t) {
				q++
			}
			n = int(max(1, min(q, model.MaxRounds+1)))
			if d <= 0 {
				err = fmt.Errorf("out of range")
			}
		}
		if err != nil || n < 1 || n > model.MaxRounds {
			want := fmt.Sprintf("a whole number of rounds from 1 to %d", model.MaxRounds)
			if t != 0 {
				want = "a duration such as 45s or 2m, up to " + t.FlagDuration(model.MaxRounds)
			}
			return false, fmt.Errorf("%s: line %d: %q: want %s", path, i, text, want)
		}
		samples = append(samples, n)
		return true, nil
	})
	if err != nil {
		return model.Lengths{}, err
	}
	return model.EmpiricalLengths(path, samples)
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
