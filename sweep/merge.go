package sweep

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/leasesim/leasesim/internal/atomicfile"
)

// A shard of a sweep (Options.Shards > 0) is plain CSV with one column
// more, first: its name, row_of_ROWS_grid_HASH, says how many rows the
// whole sweep writes (the grid's configurations that go together,
// Grid.Valid) and which grid it is (Grid.Fingerprint), and each row's
// value is the row's number in the whole sweep's output. That is what lets Merge
// refuse shards in the wrong order, twice, missing, cut short or of another
// grid, and drop the column to give the unsharded file byte for byte.
const shardColumnFormat = "row_of_%d_grid_%016x"

// ShardColumn appends the name of a shard's first column for grid g,
// followed by a comma.
func ShardColumn(b []byte, g *Grid) []byte {
	rows, _ := g.Valid(context.Background())
	return append(fmt.Appendf(b, shardColumnFormat, rows, g.Fingerprint()), ',')
}

// maxLine bounds the length of a line Merge reads: a sweep's lines are a
// few hundred bytes, so a longer one is not a sweep's, and reading it
// whole could fill memory.
const maxLine = 64 << 10

// A ShardError is a merge's refusal of its input, found as it reads the
// shards: a file that cannot be read, is not a shard, is of another grid
// or study, comes out of order or twice, is missing or is cut short. It
// names the file and, where it can, the line: the input is bad, not the
// output.
type ShardError struct{ Err error }

// Error is the refusal's message.
func (e *ShardError) Error() string { return e.Err.Error() }

// Unwrap returns the error behind the refusal.
func (e *ShardError) Unwrap() error { return e.Err }

// Shards are the files a merge reads, in order. Each is opened once, when
// the merge first comes to it, and read once, front to back: so a FIFO
// or a process substitution's /dev/fd/N is merged as a file is, and a
// file replaced while the merge runs is read as it was when opened.
type Shards struct {
	names   []string
	files   []*os.File
	readers []*bufio.Reader
	errs    []error // of opening each file
}

// OpenShards returns the shards in the files named, none of them opened
// yet.
func OpenShards(names []string) *Shards {
	n := len(names)
	return &Shards{names: names, files: make([]*os.File, n), readers: make([]*bufio.Reader, n), errs: make([]error, n)}
}

// Len is the number of files.
func (s *Shards) Len() int { return len(s.names) }

// Name returns the name of file i.
func (s *Shards) Name(i int) string { return s.names[i] }

// Reader returns the reader of file i, opening the file the first time;
// a later call returns the same reader, or the same error. A reader
// returns a line of up to 64 KiB whole (bufio.Reader.ReadSlice), and what
// was peeked at is read again.
func (s *Shards) Reader(i int) (*bufio.Reader, error) {
	if s.readers[i] == nil && s.errs[i] == nil {
		f, err := os.Open(s.names[i])
		if err != nil {
			s.errs[i] = err
		} else {
			s.files[i], s.readers[i] = f, bufio.NewReaderSize(f, maxLine)
		}
	}
	return s.readers[i], s.errs[i]
}

// done closes file i, read through.
func (s *Shards) done(i int) {
	if s.files[i] != nil {
		s.files[i].Close()
		s.files[i] = nil
	}
}

// Close closes every file still open.
func (s *Shards) Close() {
	for i := range s.files {
		s.done(i)
	}
}

// Merge writes to w the unsharded CSV of a sweep from the files of its
// shards, given in shard order, reading each once. It writes nothing
// unless all are the complete shards of one grid, in order, each row
// once: it holds the output (atomicfile.Spool) until the last shard has
// been read. If they are not, the error is a *ShardError.
func Merge(w io.Writer, shards *Shards) error {
	if shards.Len() == 0 {
		return &ShardError{errors.New("no shards to merge")}
	}
	return atomicfile.Spool(w, func(out *bufio.Writer) error {
		var m merger
		for i := range shards.Len() {
			err := m.each(shards, i, out)
			shards.done(i)
			if err != nil {
				return err
			}
		}
		if m.next != m.rows {
			return &ShardError{fmt.Errorf("%s: the shards end at row %d of %d: the last shard is missing", shards.Name(shards.Len()-1), m.next, m.rows)}
		}
		return nil
	})
}

// merger checks shards one after another and copies them.
type merger struct {
	header []byte // the first file's header
	first  string // the first file's name
	fields int    // fields a row has, the row number included
	rows   int    // rows of the whole grid
	next   int    // the row number the next row must have
}

// each reads shard i, checking it against the shards before it, and
// copies its rows to out without the row column (its header too, for the
// first shard). An error of the shard's is a *ShardError; one of out's is
// returned as it is.
func (m *merger) each(shards *Shards, i int, out io.Writer) error {
	name := shards.Name(i)
	r, err := shards.Reader(i)
	if err != nil {
		return &ShardError{err} // a *PathError: it names the file
	}
	for line := 1; ; line++ {
		text, err := r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return &ShardError{fmt.Errorf("%s: line %d is longer than %d bytes: not a sweep's CSV", name, line, maxLine)}
		case err == io.EOF && len(text) == 0:
			if line == 1 {
				return &ShardError{fmt.Errorf("%s: empty file, want a shard of leasesim sweep --shard", name)}
			}
			return nil
		case err == io.EOF:
			return &ShardError{fmt.Errorf("%s: line %d is cut short (no newline at its end): the shard is incomplete", name, line)}
		case err != nil:
			return &ShardError{err} // a *PathError: it names the file
		}
		if line == 1 {
			err = m.checkHeader(name, text)
		} else {
			err = m.checkRow(text)
		}
		if err != nil {
			return &ShardError{fmt.Errorf("%s: line %d: %w", name, line, err)}
		}
		if line > 1 || i == 0 {
			_, rest, _ := bytes.Cut(text, []byte{','})
			if _, err := out.Write(rest); err != nil {
				return err
			}
		}
	}
}

func (m *merger) checkHeader(name string, h []byte) error {
	if m.header != nil {
		if !bytes.Equal(h, m.header) {
			return fmt.Errorf("header differs from %s's: the files are not shards of one sweep", m.first)
		}
		return nil
	}
	col, _, _ := bytes.Cut(h, []byte{','})
	var hash uint64
	if n, err := fmt.Sscanf(string(col), shardColumnFormat, &m.rows, &hash); n != 2 || err != nil || m.rows < 0 {
		return fmt.Errorf("the first column is %.40q, not row_of_ROWS_grid_HASH: not a shard of leasesim sweep --shard", col)
	}
	m.header, m.first, m.fields = bytes.Clone(h), name, bytes.Count(h, []byte{','})+1
	return nil
}

func (m *merger) checkRow(row []byte) error {
	if n := bytes.Count(row, []byte{','}) + 1; n != m.fields {
		return fmt.Errorf("%d fields, the header has %d: the row is cut short or glued to another", n, m.fields)
	}
	col, _, _ := bytes.Cut(row, []byte{','})
	i, err := strconv.Atoi(string(col))
	switch {
	case err != nil || i < 0 || i >= m.rows:
		return fmt.Errorf("row number %.40q: want 0 to %d", col, m.rows-1)
	case i < m.next:
		return fmt.Errorf("row %d again, after row %d: a shard given twice or out of order", i, m.next-1)
	case i > m.next:
		return fmt.Errorf("row %d where row %d belongs: a shard is missing or out of order", i, m.next)
	}
	m.next++
	return nil
}
