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

// A Kind is the Parquet type of a column, and whether a row may leave it
// empty (Optional).
type Kind int

// The kinds of column.
const (
	Int    Kind = iota // INT64, a whole number
	Float              // DOUBLE: seconds, which may have decimals, or a mean
	Bool               // BOOLEAN: true or false
	String             // BYTE_ARRAY (UTF-8): a name
	Uint               // INT64 as unsigned: a seed
)

// Optional, or'd with a kind, marks a column a row may leave empty (a
// candidate's safety figures without a lock's): an empty field is null.
const Optional Kind = 8

// Kinds is the kind of each column of leasesim's CSVs at tick t, by name:
// a sweep's (sweep.AppendHeader, the review's runs: a toggle Bool, a named
// parameter String, a time Float with a tick, else Int, as is a shard's
// row number); a Monte Carlo study's summaries (montecarlo.AppendHeader,
// nodes.csv: every statistic's mean and interval Float, the failure
// processes String, the seed Uint); a cost projection's (cost.csv); the
// review's candidates.csv, whose margin, cost and safety figures may be
// empty; and check's violations (sweep.ViolationTable: a sweep's
// parameters, then the violation's message and command, String).
func Kinds(t model.Tick) func(column string) Kind {
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
	kinds["trigger_every"] = kinds[t.Name(model.Period)]
	for s := model.Stat(0); int(s) < model.NumStats; s++ {
		name := t.StatName(s)
		if t != 0 && s.Time() {
			kinds[name] = Float
		} else {
			kinds[name] = Int
		}
		for _, end := range []string{"_mean", "_lo95", "_hi95"} {
			kinds[name+end] = Float
		}
	}
	for _, name := range []string{"uptime", "downtime", "also", "method", "preset", "violation", "command", "setting"} {
		kinds[name] = String
	}
	kinds["seed"], kinds["replicas"] = Uint, Int
	kinds["precise"], kinds["current"], kinds["recommended"] = Bool, Bool, Bool
	for _, name := range []string{"precision", "precision_floor", "rounds_per_year", "lines_per_batch", "handovers_per_year"} {
		kinds[name] = Float
	}
	for _, what := range []string{"missed", "double"} {
		for _, n := range []string{"batches", "lines"} {
			for _, end := range []string{"", "_lo95", "_hi95"} {
				kinds[what+"_"+n+"_per_year"+end] = Float
			}
		}
	}
	in := strings.TrimPrefix(t.Name(model.Lease), "lease") // "_s" with a tick
	kinds["cost_per_year"], kinds["skew_tolerated"], kinds["two_leader_margin"+in] = Float|Optional, Float|Optional, Float|Optional
	for _, f := range []string{"takeover_after_crash_min", "takeover_after_crash_median", "takeover_after_crash_max", "fast_fail_outage_survived_min",
		"fast_fail_outage_survived_max", "black_hole_outage_survived_min", "black_hole_outage_survived_max"} {
		kinds[f+in] = Float | Optional
	}
	kinds["start_delay"+in+"_per_year"], kinds["lateness"+in+"_per_year"] = Float, Float
	return func(column string) Kind { return kinds[column] }
}

// Writer is the io.Writer: each Write takes whole lines, the first Write
// the header line first, and writes the rows of each Write as a row group
// of the Parquet file, or, with GroupRows, of each n rows. Close writes
// the rows held and the file's footer.
type Writer struct {
	out   io.Writer
	kinds func(string) Kind
	cols  []Kind
	pw    *parquet.Writer
	rows  []parquet.Row
	vals  []parquet.Value // the values of rows, one slab until they are written
	group int             // rows a row group, 0: a Write's
	line  int             // lines taken, for errors
}

// GroupRows makes w hold rows until it has n, then write them as one row
// group, for a writer of a row at a time (a Monte Carlo study's summaries);
// Close writes the rest.
func (w *Writer) GroupRows(n int) *Writer {
	w.group = n
	return w
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
	if len(w.rows) == 0 || len(w.rows) < w.group {
		return len(p), nil
	}
	if err := w.flush(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes the rows held as one row group.
func (w *Writer) flush() error {
	if _, err := w.pw.WriteRows(w.rows); err != nil {
		return err
	}
	w.rows, w.vals = w.rows[:0], w.vals[:0]
	return w.pw.Flush()
}

// Close writes the rows held and the footer (and, if nothing was
// written, fails).
func (w *Writer) Close() error {
	if w.pw == nil {
		return errors.New("parquetcsv: no header was written")
	}
	if len(w.rows) > 0 {
		if err := w.flush(); err != nil {
			return err
		}
	}
	return w.pw.Close()
}

// schema makes the file's schema from the header: a struct of one field
// a column, in the header's order (a parquet.Group would sort them by
// name), each required but an Optional kind's.
func (w *Writer) schema(header string) {
	var fields []reflect.StructField
	for i, name := range strings.Split(header, ",") {
		k := w.kinds(name)
		w.cols = append(w.cols, k)
		typ := map[Kind]reflect.Type{Int: reflect.TypeFor[int64](), Float: reflect.TypeFor[float64](), Bool: reflect.TypeFor[bool](), String: reflect.TypeFor[string](), Uint: reflect.TypeFor[uint64]()}[k&^Optional]
		tag := name
		if k&Optional != 0 {
			tag += ",optional"
		}
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(i),
			Type: typ,
			Tag:  reflect.StructTag(`parquet:"` + tag + `"`),
		})
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
	w.pw = parquet.NewWriter(w.out, schema, parquet.Compression(&parquet.Snappy))
}

// row reads one CSV line into a row of the file's columns. A field may
// be quoted, as a Monte Carlo study's distributions are ("lognormal:1.2,0.6"),
// a quote inside doubled.
func (w *Writer) row(line []byte) (parquet.Row, error) {
	if cap(w.vals)-len(w.vals) < len(w.cols) {
		w.vals = make([]parquet.Value, 0, max(2*cap(w.vals), 64*len(w.cols)))
	}
	row := w.vals[len(w.vals) : len(w.vals) : len(w.vals)+len(w.cols)]
	for i := 0; ; i++ {
		field, rest, more, err := cutField(line)
		if err != nil {
			return nil, fmt.Errorf("parquetcsv: line %d, column %d: %v", w.line, i+1, err)
		}
		if i >= len(w.cols) {
			return nil, fmt.Errorf("parquetcsv: line %d has more than the header's %d columns", w.line, len(w.cols))
		}
		k := w.cols[i]
		var v parquet.Value
		switch {
		case k&Optional != 0 && len(field) == 0:
			v = parquet.NullValue()
		case k&^Optional == Int:
			var n int64
			n, err = strconv.ParseInt(string(field), 10, 64)
			v = parquet.Int64Value(n)
		case k&^Optional == Uint:
			var n uint64
			n, err = strconv.ParseUint(string(field), 10, 64)
			v = parquet.Int64Value(int64(n))
		case k&^Optional == Float:
			var f float64
			f, err = strconv.ParseFloat(string(field), 64)
			v = parquet.DoubleValue(f)
		case k&^Optional == Bool:
			var b bool
			b, err = strconv.ParseBool(string(field))
			v = parquet.BooleanValue(b)
		default:
			v = parquet.ByteArrayValue(bytes.Clone(field))
		}
		if err != nil {
			return nil, fmt.Errorf("parquetcsv: line %d, column %d: %v", w.line, i+1, err)
		}
		switch {
		case k&Optional == 0:
			v = v.Level(0, 0, i)
		case v.IsNull():
			v = v.Level(0, 0, i)
		default:
			v = v.Level(0, 1, i)
		}
		row = append(row, v)
		if !more {
			break
		}
		line = rest
	}
	if len(row) != len(w.cols) {
		return nil, fmt.Errorf("parquetcsv: line %d has %d columns, the header %d", w.line, len(row), len(w.cols))
	}
	w.vals = w.vals[:len(w.vals)+len(row)]
	return row, nil
}

// cutField cuts line's first field, unquoted, from the rest after its
// comma; more says there is a comma.
func cutField(line []byte) (field, rest []byte, more bool, err error) {
	if len(line) == 0 || line[0] != '"' {
		field, rest, more = bytes.Cut(line, []byte(","))
		return field, rest, more, nil
	}
	var b []byte
	for i := 1; i < len(line); i++ {
		if line[i] != '"' {
			b = append(b, line[i])
			continue
		}
		if i+1 < len(line) && line[i+1] == '"' { // a quote, doubled
			b = append(b, '"')
			i++
			continue
		}
		switch {
		case i+1 == len(line):
			return b, nil, false, nil
		case line[i+1] == ',':
			return b, line[i+2:], true, nil
		}
		return nil, nil, false, errors.New("a quoted field goes on after its closing quote")
	}
	return nil, nil, false, errors.New("a quoted field has no closing quote")
}
