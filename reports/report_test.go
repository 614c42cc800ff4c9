package reports_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/leasesim/leasesim/internal/golden"
	"github.com/leasesim/leasesim/model"
	"github.com/leasesim/leasesim/reports"
	"github.com/leasesim/leasesim/study"
)

func publicationReview(t *testing.T) *study.Review {
	t.Helper()
	rv, err := study.NewReview(context.Background(), model.Default(), study.DefaultReviewOptions(model.Default()))
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// TestReportFiles compares every text and CSV file of the default report,
// the numbers behind each plot included, with its golden file.
func TestReportFiles(t *testing.T) {
	for _, f := range reports.Files(publicationReview(t)) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, f.Name, b.Bytes())
		})
	}
}

// TestZoneReport: the reading of a scenario unlike the publication's (a zone of
// two of three nodes, a longer lease and outage).
func TestZoneReport(t *testing.T) {
	base := model.Default()
	base.Nodes, base.Down, base.Lease, base.Outage, base.Renewal = 3, 2, 4, 7, 4
	opt := study.DefaultReviewOptions(base)
	opt.EventsPerYear, opt.LinesPerBatch, opt.Replicas = []float64{4}, 1000, 50
	rv, err := study.NewReview(context.Background(), base, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reports.Files(rv) {
		if f.Name != "report.md" {
			continue
		}
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "zone-report.md", b.Bytes())
	}
}

// TestFigures: each plot is a PNG of the expected size that is not blank,
// and matches its golden image within a small per-pixel tolerance.
func TestFigures(t *testing.T) {
	for _, f := range reports.Figures(publicationReview(t)) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := f.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			w, h := f.Pixels()
			if got := img.Bounds().Size(); got.X != w || got.Y != h {
				t.Errorf("size %v, want %dx%d", got, w, h)
			}
			if w < 800 || h < 500 {
				t.Errorf("%dx%d is smaller than 800x500", w, h)
			}
			colours := map[uint32]bool{}
			inked := 0
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					colours[r>>8<<16|g>>8<<8|b>>8] = true
					if r+g+b < 3*0xf000 {
						inked++
					}
				}
			}
			if share := float64(inked) / float64(w*h); share < 0.02 || len(colours) < 8 {
				t.Errorf("looks blank: %.1f%% of pixels inked, %d colours", 100*share, len(colours))
			}
			var again bytes.Buffer
			f.WriteTo(&again)
			golden.CheckImage(t, f.Name, again.Bytes(), 0.05)
		})
	}
}

// TestWriteDir: the report lands whole in the folder, with nothing else;
// a folder that cannot be made leaves nothing behind.
func TestWriteDir(t *testing.T) {
	rv := publicationReview(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := reports.WriteDir(context.Background(), rv, dir); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range reports.Files(rv) {
		want = append(want, f.Name)
	}
	for _, f := range reports.Figures(rv) {
		want = append(want, f.Name)
	}
	sort.Strings(want)
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(want) {
		t.Fatalf("folder holds %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("folder holds %v, want %v", got, want)
		}
	}

	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	if err := reports.WriteDir(context.Background(), rv, filepath.Join(blocker, "out")); err == nil {
		t.Error("WriteDir under a regular file succeeded")
	}
	if b, _ := os.ReadFile(blocker); string(b) != "x" {
		t.Error("the blocking file changed")
	}
}
