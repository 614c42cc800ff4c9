# leasesim: common tasks. The README's two commands need nothing but Go.

.PHONY: build test golden bench report

build:
	go build -o bin/leasesim ./cmd/leasesim

test:
	go test ./...

# Rewrite the golden files under testdata/golden; commit them with a message
# that says why the numbers changed.
golden:
	go test ./... -update

bench:
	go test ./... -run '^$$' -bench . -benchmem

report:
	go run ./cmd/leasesim report
