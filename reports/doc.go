// Package reports renders what leasesim prints and writes, as plain
// functions of data computed elsewhere (package study, the model): the
// publication's text tables, run records as tables, JSON and CSV, the
// trace, the PNG plots and report.md. It runs nothing.
package reports
