// Package parquetcsvtest holds the tests' comparison of a Parquet file
// written by parquetcsv with the CSV it was written from.
package parquetcsvtest

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Same fails t unless the Parquet file pq holds the CSV text's table row
// for row: the header's columns in order, then each field as the value
// its text reads as in the column's type (an integer, a double, a
// boolean, a string; an empty field as null). It returns the file's
// row groups, the rows of each.
func Same(t testing.TB, name string, csvText, pq []byte) (groups []int) {
	t.Helper()
	want, err := csv.NewReader(bytes.NewReader(csvText)).ReadAll()
	if err != nil || len(want) == 0 {
		t.Fatalf("%s: the CSV: %v (%d lines)", name, err, len(want))
	}
	f, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fields := f.Schema().Fields()
	if len(fields) != len(want[0]) {
		t.Fatalf("%s: %d columns, the CSV %d", name, len(fields), len(want[0]))
	}
	for i, c := range fields {
		if c.Name() != want[0][i] {
			t.Fatalf("%s: column %d is %s, the CSV's %s", name, i+1, c.Name(), want[0][i])
		}
	}
	line := 1
	for _, rg := range f.RowGroups() {
		groups = append(groups, int(rg.NumRows()))
		rows := rg.Rows()
		buf := make([]parquet.Row, 64)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				if line >= len(want) {
					t.Fatalf("%s: more rows than the CSV's %d", name, len(want)-1)
				}
				if len(row) != len(want[line]) {
					t.Fatalf("%s: line %d: %d values, the CSV %d", name, line+1, len(row), len(want[line]))
				}
				for i, v := range row {
					if !same(v, want[line][i]) {
						t.Fatalf("%s: line %d, column %s: %v (%v), the CSV's %q", name, line+1, want[0][i], v, v.Kind(), want[line][i])
					}
				}
				line++
			}
			if err != nil {
				break
			}
		}
		rows.Close()
	}
	if line != len(want) {
		t.Fatalf("%s: %d rows, the CSV %d", name, line-1, len(want)-1)
	}
	return groups
}

// same reports whether v is the value text reads as in v's type.
func same(v parquet.Value, text string) bool {
	if v.IsNull() {
		return text == ""
	}
	switch v.Kind() {
	case parquet.Int64:
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n == v.Int64()
		}
		n, err := strconv.ParseUint(text, 10, 64) // an unsigned column's
		return err == nil && n == uint64(v.Int64())
	case parquet.Double:
		x, err := strconv.ParseFloat(text, 64)
		return err == nil && x == v.Double()
	case parquet.Boolean:
		b, err := strconv.ParseBool(text)
		return err == nil && b == v.Boolean()
	case parquet.ByteArray:
		return string(v.ByteArray()) == text
	}
	return false
}
