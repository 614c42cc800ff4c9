package reports_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leasesim/leasesim/internal/parquetcsv/parquetcsvtest"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
)

// TestParquetFiles: each CSV of the report has a Parquet file beside it
// that reads back as the CSV row for row, each column typed, in one row
// group: the publication's review in rounds (no safety figures, no prices:
// candidates.csv's empty cells null) and the Kubernetes review in seconds
// (priced, client-go's safety figures, fractions of a second among them);
// WriteDir writes them beside the report's files.
func TestParquetFiles(t *testing.T) {
	for _, tt := range []struct {
		name string
		rv   *study.Review
	}{{"publication", publicationReview(t)}, {"kubernetes", kubernetesReview(t)}} {
		csvs := map[string][]byte{}
		for _, f := range reports.Files(tt.rv) {
			if strings.HasSuffix(f.Name, ".csv") {
				csvs[strings.TrimSuffix(f.Name, ".csv")] = rendered(t, tt.rv, f.Name).Bytes()
			}
		}
		files := reports.ParquetFiles(tt.rv)
		if len(files) != len(csvs) || len(csvs) != 7 {
			t.Fatalf("%s: %d Parquet files for %d CSVs, want 7", tt.name, len(files), len(csvs))
		}
		for _, f := range files {
			var pq bytes.Buffer
			if err := f.Write(&pq); err != nil {
				t.Fatalf("%s: %s: %v", tt.name, f.Name, err)
			}
			base := strings.TrimSuffix(f.Name, ".parquet")
			csv, ok := csvs[base]
			if !ok {
				t.Fatalf("%s: %s has no CSV", tt.name, f.Name)
			}
			if groups := parquetcsvtest.Same(t, tt.name+" "+f.Name, csv, pq.Bytes()); len(groups) != 1 {
				t.Errorf("%s: %s: row groups of %v rows, want one", tt.name, f.Name, groups)
			}
		}
		if tt.name == "kubernetes" && !bytes.Contains(csvs["candidates"], []byte(",true,true,")) {
			t.Errorf("kubernetes candidates.csv has no recommended current row: %.200s", csvs["candidates"])
		}
	}
	rv := publicationReview(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := reports.WriteDir(context.Background(), rv, dir, nil, reports.ParquetFiles(rv)...); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"candidates.csv", "candidates.parquet", "nodes.parquet", "report.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("WriteDir with ParquetFiles: %v", err)
		}
	}
}
