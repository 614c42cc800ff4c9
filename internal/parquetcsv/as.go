package parquetcsv

import (
	"io"

	"github.com/leasesim/leasesim/model"
)

// As is out as a command's CSV output in format: out itself for "csv",
// or for "parquet" a Writer of it, each column typed by Kinds(t), a row
// group each groupRows rows (each Write's, with 0). done ends the output:
// the Parquet file's rows held and footer, nothing for CSV.
func As(out io.Writer, format string, t model.Tick, groupRows int) (w io.Writer, done func() error) {
	if format != "parquet" {
		return out, func() error { return nil }
	}
	pq := NewWriter(out, Kinds(t)).GroupRows(groupRows)
	return pq, pq.Close
}
