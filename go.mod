module github.com/leasesim/leasesim

go 1.26.0

require (
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/pflag v1.1.0
	golang.org/x/term v0.48.0
)

require (
	github.com/cockroachdb/datadriven v1.0.3 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
