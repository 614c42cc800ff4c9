package main

import (
	"context"
	"io"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"
)

// BenchmarkReview times `leasesim report` of the shipped example and of
// each review in testdata/reviews, writing the report folder as the
// command does (docs/performance.md: under 10 s and 200 MB on 2 cores).
// Besides the time a review, it reports busy-share: the share of the
// processors' time (GOMAXPROCS × the wall time) the review kept busy, as
// the Go runtime counts it, so that a wall time from a host shared with
// other load still tells what two quiet cores would take: about the CPU
// time (/usr/bin/time's user + sys) over 2 × busy-share. Run one review
// with -bench 'Review/nightly-invoicing$'.
func BenchmarkReview(b *testing.B) {
	files, err := filepath.Glob("../../testdata/reviews/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("no reviews in testdata/reviews: %v", err)
	}
	for _, file := range append([]string{"../../reviewfile/example.yaml"}, files...) {
		b.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "review")
			cpu := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
			metrics.Read(cpu)
			idle, total := cpu[0].Value.Float64(), cpu[1].Value.Float64()
			for b.Loop() {
				if code := runWith(context.Background(), []string{"report", "--out", out, file}, io.Discard, io.Discard, noEnv); code != 0 {
					b.Fatalf("leasesim report %s: exit %d", file, code)
				}
			}
			metrics.Read(cpu)
			idle, total = cpu[0].Value.Float64()-idle, cpu[1].Value.Float64()-total
			b.ReportMetric(1-idle/total, "busy-share")
		})
	}
}
