// Package parquetcsv writes a CSV stream as a Parquet file: an io.Writer
// that takes whole CSV lines, the header first, and writes the rows of
// each Write as one row group, so that a writer of chunks of rows (the
// sweep's) streams into Parquet as it does into CSV, a chunk at a time,
// with the same columns, each of the type its text has (Kind).
package parquetcsv

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/leasesim/leasesim/model"
	"github.com/parquet-go/parquet-go"
)

// A Kind is the Parquet type of a column.
type Kind int

// The kinds of column.
const (
	Int    Kind = iota // INT64, a whole number
	Float              // DOUBLE: seconds, which may have decimals
	Bool               // BOOLEAN: true or false
	String             // BYTE_ARRAY (UTF-8): a name
)

// SweepKinds is the kind of each column of a sweep's CSV at tick t
// (sweep.AppendHeader), by name: a toggle's Bool, a named parameter's
// String, a time's Float with a tick, else Int, as is a shard's row
// number.
func SweepKinds(t model.Tick) func(column string) Kind {
	kinds := map[string]Kind{}
	for _, p := range model.Params() {
		k := Int
		switch {
		case p.Bool():
			k = Bool
		case p.Names() != nil:
			k = String
		case t != 0 && p.Time() != model.NotTime:
			k = Float
		}
		kinds[t.Name(p)] = k
	}
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		if t != 0 && s.Time() {
			kinds[t.StatName(s)] = Float
		} else {
			kinds[t.StatName(s)] = Int
		}
	}
	return func(column string) Kind { return kinds[column] }
}

// Writer is the io.Writer: each Write takes whole lines, the first Write
// the header line alone, and writes the rows of each later Write as a row
// group of the Parquet file. Close writes the file's footer.
type Writer struct {
	out   io.Writer
	kinds func(string) Kind
	cols  []Kind
	pw    *parquet.Writer
	rows  []parquet.Row
	line  int // lines taken, for errors
}

// NewWriter returns a Writer of Parquet to out, the type of each column
// given by kinds, by name.
func NewWriter(out io.Writer, kinds func(column string) Kind) *Writer {
	return &Writer{out: out, kinds: kinds}
}

// Write takes p, whole CSV lines.
func (w *Writer) Write(p []byte) (int, error) {
	if len(p) > 0 && p[len(p)-1] != '\n' {
		return 0, errors.New("parquetcsv: a write of part of a line")
	}
	text := p
	if w.pw == nil {
		header, rest, _ := bytes.Cut(text, []byte("\n"))
		w.schema(string(header))
		w.line++
		text = rest
	}
	w.rows = w.rows[:0]
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		w.line++
		row, err := w.row(line)
		if err != nil {
			return 0, err
		}
		w.rows = append(w.rows, row)
	}
	if len(w.rows) == 0 {
		return len(p), nil
	}
	if _, err := w.pw.WriteRows(w.rows); err != nil {
		return 0, err
	}
	if err := w.pw.Flush(); err != nil { // this write's rows, one row group
		return 0, err
	}
	return len(p), nil
}

// Close writes the footer (and, if nothing was written, fails).
func (w *Writer) Close() error {
	if w.pw == nil {
		return errors.New("parquetcsv: no header was written")
	}
	return w.pw.Close()
}

// schema makes the file's schema from the header: a struct of one field
// a column, in the header's order (a parquet.Group would sort them by
// name), each required.
func (w *Writer) schema(header string) {
	var fields []reflect.StructField
	for i, name := range strings.Split(header, ",") {
		k := w.kinds(name)
		w.cols = append(w.cols, k)
		typ := map[Kind]reflect.Type{Int: reflect.TypeFor[int64](), Float: reflect.TypeFor[float64](), Bool: reflect.TypeFor[bool](), String: reflect.TypeFor[string]()}[k]
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(i),
			Type: typ,
			Tag:  reflect.StructTag(`parquet:"` + name + `"`),
		})
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
	w.pw = parquet.NewWriter(w.out, schema, parquet.Compression(&parquet.Snappy))
}

// row reads one CSV line into a row of the file's columns.
func (w *Writer) row(line []byte) (parquet.Row, error) {
	row := make(parquet.Row, 0, len(w.cols))
	for i := 0; ; i++ {
		field, rest, more := bytes.Cut(line, []byte(","))
		if i >= len(w.cols) {
			return nil, fmt.Errorf("parquetcsv: line %d has more than the header's %d columns", w.line, len(w.cols))
		}
		var v parquet.Value
		var err error
		switch w.cols[i] {
		case Int:
			var n int64
			n, err = strconv.ParseInt(string(field), 10, 64)
			v = parquet.Int64Value(n)
		case Float:
			var f float64
			f, err = strconv.ParseFloat(string(field), 64)
			v = parquet.DoubleValue(f)
		case Bool:
			var b bool
			b, err = strconv.ParseBool(string(field))
			v = parquet.BooleanValue(b)
		case String:
			v = parquet.ByteArrayValue(bytes.Clone(field))
		}
		if err != nil {
			return nil, fmt.Errorf("parquetcsv: line %d, column %d: %v", w.line, i+1, err)
		}
		row = append(row, v.Level(0, 0, i))
		if !more {
			break
		}
		line = rest
	}
	if len(row) != len(w.cols) {
		return nil, fmt.Errorf("parquetcsv: line %d has %d columns, the header %d", w.line, len(row), len(w.cols))
	}
	return row, nil
}
