package parquetcsv

import (
	"bytes"
	"testing"
)

// TestAs passes CSV through, and writes Parquet, with its magic at both
// ends, only once done.
func TestAs(t *testing.T) {
	const csv = "lease,nodes\n4,3\n"
	for _, c := range []struct {
		format string
		parq   bool
	}{{"csv", false}, {"parquet", true}} {
		var b bytes.Buffer
		w, done := As(&b, c.format, 0, 0)
		if _, err := w.Write([]byte(csv)); err != nil {
			t.Fatal(err)
		}
		if err := done(); err != nil {
			t.Fatal(err)
		}
		got := b.Bytes()
		switch {
		case !c.parq && string(got) != csv:
			t.Errorf("csv: wrote %q, want the CSV itself", got)
		case c.parq && (!bytes.HasPrefix(got, []byte("PAR1")) || !bytes.HasSuffix(got, []byte("PAR1"))):
			t.Errorf("parquet: wrote %d bytes without PAR1 at both ends", len(got))
		}
	}
}
