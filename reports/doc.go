// Package reports computes the capacity-planning review (NewReview) and
// renders what leasesim prints and writes: the publication's text tables,
// run records as tables, JSON and CSV, the trace, the PNG plots and
// report.md.
package reports
