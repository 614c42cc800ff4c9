package sweep_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/testio"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/sweep"
)

// merge merges the shards in files, in order.
func merge(w io.Writer, files []string) error {
	shards := sweep.OpenShards(files)
	defer shards.Close()
	return sweep.Merge(w, shards)
}

// TestShardFormat: a shard leads each row with its number in the whole
// grid, under a column naming the grid's size and fingerprint.
func TestShardFormat(t *testing.T) {
	g := grid(t, map[model.Param]string{model.Lease: "1:5"})
	part := string(write(t, g, sweep.Options{K: 1, Shards: 2}))
	lines := strings.Split(part, "\n")
	if !strings.HasPrefix(lines[0], "row_of_5_grid_") || !strings.HasSuffix(lines[0], ","+strings.TrimSuffix(string(sweep.AppendHeader(nil, 0)), "\n")) {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "2,") || !strings.HasPrefix(lines[3], "4,") {
		t.Errorf("rows %q", lines[1:])
	}
	other := grid(t, map[model.Param]string{model.Lease: "1:4,6"})
	if g.Fingerprint() == other.Fingerprint() {
		t.Error("two grids share a fingerprint")
	}
}

// TestMergeRefuses: merge refuses shards that are not the complete shards
// of one grid in order, naming the file and line, and writes nothing.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	g := grid(t, map[model.Param]string{model.Lease: "1:30", model.Outage: "0:3"})
	p := writeShards(t, dir, g, 12)
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		return path
	}
	read := func(name string) string { b, _ := os.ReadFile(name); return string(b) }
	noNewline := write("no-newline.csv", strings.TrimSuffix(read(p[3]), "\n"))
	lines := strings.SplitAfter(read(p[3]), "\n")
	cut := write("cut.csv", strings.Join(lines[:3], "")+lines[3][:10])
	glued := write("glued.csv", strings.TrimSuffix(read(p[3]), "\n")+read(p[4])[strings.Index(read(p[4]), "\n")+1:])
	plain := write("plain.csv", string(sweep.AppendHeader(nil, 0)))
	otherGrid := filepath.Join(dir, "other")
	os.Mkdir(otherGrid, 0o755)
	q := writeShards(t, otherGrid, grid(t, map[model.Param]string{model.Lease: "1:30", model.Outage: "0:2,4"}), 12)
	long := write("long.csv", strings.Repeat("x", 100_000))
	lsOrder := slices.Clone(p) // part-0, part-1, part-10, part-11, part-2, …
	slices.Sort(lsOrder)

	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"duplicate", []string{p[0], p[0]}, "part-0.csv: line 2: row 0 again, after row 9: a shard given twice or out of order"},
		{"ls order", lsOrder, "part-10.csv: line 2: row 100 where row 20 belongs: a shard is missing or out of order"},
		{"missing middle", append(slices.Clone(p[:5]), p[6:]...), "part-6.csv: line 2: row 60 where row 50 belongs"},
		{"missing last", p[:11], "part-10.csv: the shards end at row 110 of 120: the last shard is missing"},
		{"no final newline", append(append(slices.Clone(p[:3]), noNewline), p[4:]...), "no-newline.csv: line 11 is cut short (no newline at its end)"},
		{"cut mid-row", append(append(slices.Clone(p[:3]), cut), p[4:]...), "cut.csv: line 4 is cut short"},
		{"glued", append(append(slices.Clone(p[:3]), glued), p[5:]...), "glued.csv: line 11: 107 fields, the header has 54: the row is cut short or glued to another"},
		{"another grid", append(slices.Clone(p[:6]), q[6:]...), "other/part-6.csv: line 1: header differs from"},
		{"plain sweep", []string{plain}, "plain.csv: line 1: the first column is \"nodes\", not row_of_ROWS_grid_HASH"},
		{"bad header late", append(slices.Clone(p), plain), "plain.csv: line 1: header differs"},
		{"long line", []string{long}, "long.csv: line 1 is longer than 65536 bytes"},
		{"empty", []string{write("empty.csv", "")}, "empty.csv: empty file"},
		{"a folder", []string{otherGrid}, "read " + otherGrid + ": is a directory"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := merge(&out, tt.files)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before refusing", tt.name, out.Len())
		}
	}
}

// TestMergeReadsOnce: merge reads each shard once, front to back, so a
// named pipe or a process substitution's /dev/fd/N is merged as a file is,
// first or later; what it read of a shard cannot differ from what it
// writes of it, as when a shard was replaced between two reads.
func TestMergeReadsOnce(t *testing.T) {
	g := grid(t, map[model.Param]string{model.Lease: "1:30", model.Outage: "0:3"})
	whole := write(t, g, sweep.Options{})
	p := writeShards(t, t.TempDir(), g, 3)
	for k := range p {
		content, _ := os.ReadFile(p[k])
		for kind, pipe := range map[string]string{"FIFO": testio.FIFO(t, "part.fifo", content), "pipe": testio.Pipe(t, content)} {
			files := slices.Clone(p)
			files[k] = pipe
			var out bytes.Buffer
			err := testio.Returns(t, "merge", func() error { return merge(&out, files) })
			if err != nil || !bytes.Equal(out.Bytes(), whole) {
				t.Errorf("shard %d a %s: %v; %d bytes of the whole sweep's %d", k, kind, err, out.Len(), len(whole))
			}
		}
	}
}

// TestMergeWritesNothingOfBadShards: however far into its shards a merge
// finds one bad, it has written nothing, the shards before it included.
func TestMergeWritesNothingOfBadShards(t *testing.T) {
	dir := t.TempDir()
	g := grid(t, map[model.Param]string{model.Lease: "1:30", model.Outage: "0:3"})
	p := writeShards(t, dir, g, 3)
	content, _ := os.ReadFile(p[2])
	cut := filepath.Join(dir, "cut.csv")
	os.WriteFile(cut, content[:len(content)-7], 0o644)
	var out bytes.Buffer
	err := merge(&out, []string{p[0], p[1], cut})
	var bad *sweep.ShardError
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), "cut.csv: line 41 is cut short") || out.Len() != 0 {
		t.Errorf("error %v, %d bytes written; want a ShardError for cut.csv and nothing", err, out.Len())
	}
}
