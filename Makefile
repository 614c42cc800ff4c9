# leasesim: common tasks. The README's two commands need nothing but Go.

.PHONY: build test validate golden bench ci report check-all soak

build:
	go build -o bin/leasesim ./cmd/leasesim

test:
	go test ./...

# check's whole default grid, 35 million configurations on every core
# (about two minutes on two): .ci/run's step, which the suite's
# TestCheckSlice samples.
check-all:
	bash .ci/check-all

# The long checks, for before a release or after a change to the model:
# every configuration of the tests' small spaces (-soak), CHECKS random
# configurations a property, check's whole grid, and every fuzz target at
# FUZZ times .ci/run's budget. With the defaults it takes about five
# minutes on two cores (the model's part about one); CHECKS=20000 FUZZ=20,
# about half an hour.
CHECKS ?= 2000
FUZZ ?= 5
soak:
	go test ./model -soak -rapid.checks=$(CHECKS) -timeout 0
	bash .ci/check-all
	bash .ci/fuzz $(FUZZ)

# Real client-go electors and a real etcd against leasesim's figures
# (modules of their own, so that client-go and etcd stay out of leasesim's
# dependencies).
validate:
	cd validate/clientgo && go test ./...
	cd validate/etcd && go test ./...
	cd validate/consul && go test -parallel 4 ./...

# Rewrite the golden files (each package's testdata/golden, the CLI's in
# testdata/golden, model's scenarios in model/testdata/scenarios) in the
# packages that have them, which alone take -update; commit
# them with a message that says why the numbers changed.
golden:
	go test ./cmd/leasesim ./cost ./model ./reports ./sweep -update

# Every benchmark ten times, for benchstat: go run golang.org/x/perf/cmd/benchstat@latest bench.txt
# (two such files, one per version, compare them; see the README's figures).
bench:
	go test ./... -run '^$$' -bench . -benchmem -count 10 | tee bench.txt

# What CI runs on a clean clone.
ci:
	bash .ci/run

report:
	go run ./cmd/leasesim report reviewfile/example.yaml
