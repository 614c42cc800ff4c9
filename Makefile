# leasesim: common tasks. The README's two commands need nothing but Go.

.PHONY: build test validate golden bench pgo ci report check-all soak release image

build:
	go build -o bin/leasesim ./cmd/leasesim

# The version release builds and the image say (leasesim version): the
# tag, else the commit, -dirty with uncommitted changes. LDFLAGS stamps it
# into internal/version.Stamp (cmd/leasesim's TestReleaseStamp builds with
# this line); -buildvcs=auto records the revision despite a
# GOFLAGS=-buildvcs=false.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
LDFLAGS = -s -w -X github.com/leasesim/leasesim/internal/version.Stamp=$(VERSION)
GOBUILD = CGO_ENABLED=0 go build -trimpath -buildvcs=auto -ldflags "$(LDFLAGS)"
PLATFORMS = linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

# Static binaries for every platform, dist/leasesim-VERSION-OS-ARCH[.exe].
release:
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; if [ $$os = windows ]; then ext=.exe; fi; \
		out=dist/leasesim-$(VERSION)-$$os-$$arch$$ext; echo $$out; \
		GOOS=$$os GOARCH=$$arch $(GOBUILD) -o $$out ./cmd/leasesim || exit 1; \
	done

# A container image with no base and no daemon: the static linux binary
# as one layer, its entrypoint, written as an OCI tarball (with docker's
# manifest.json) that docker load and kind load image-archive take, by
# deploy/image, a module of its own (go-containerregistry stays out of
# leasesim's dependencies). IMAGE names it, as deploy/kubernetes runs it.
IMAGE ?= leasesim:latest
IMAGE_ARCH ?= amd64
image:
	GOOS=linux GOARCH=$(IMAGE_ARCH) $(GOBUILD) -o dist/image-$(IMAGE_ARCH)/leasesim ./cmd/leasesim
	cd deploy/image && go run . -binary ../../dist/image-$(IMAGE_ARCH)/leasesim -arch $(IMAGE_ARCH) -name $(IMAGE) -o ../../dist/leasesim-image-$(IMAGE_ARCH).tar

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
	cd validate/postgres && go test ./...
	cd validate/redis && go test ./...

# Rewrite the golden files (each package's testdata/golden, the CLI's in
# testdata/golden, model's scenarios in model/testdata/scenarios) in the
# packages that have them, which alone take -update; commit
# them with a message that says why the numbers changed.
golden:
	go test ./cmd/leasesim ./cost ./model ./reports ./sweep -update

# Every benchmark ten times, for benchstat: go run golang.org/x/perf/cmd/benchstat@latest bench.txt
# (two such files, one per version, compare them; see docs/performance.md).
bench:
	go test ./... -run '^$$' -bench . -benchmem -count 10 | tee bench.txt

# The profile the command is built with (profile-guided optimization: go
# build and go run take cmd/leasesim/default.pgo by themselves): the CPU
# profiles of the benchmarks of the model's runs, the sweep and Monte
# Carlo, merged. Make it anew after a change to the model's hot paths and
# commit it with the instructions it saves (docs/performance.md).
pgo:
	go test ./model -run '^$$' -bench 'RunPublication$$|ChurnEvent' -benchtime 2s -cpuprofile /tmp/leasesim-model.pprof -o /tmp/leasesim-model.test
	go test ./sweep -run '^$$' -bench 'Sweep700k' -benchtime 3x -cpuprofile /tmp/leasesim-sweep.pprof -o /tmp/leasesim-sweep.test
	go test ./montecarlo -run '^$$' -bench 'MonteCarlo' -benchtime 3x -cpuprofile /tmp/leasesim-mc.pprof -o /tmp/leasesim-mc.test
	go tool pprof -proto /tmp/leasesim-model.pprof /tmp/leasesim-sweep.pprof /tmp/leasesim-mc.pprof > cmd/leasesim/default.pgo

# What CI runs on a clean clone.
ci:
	bash .ci/run

report:
	go run ./cmd/leasesim report reviewfile/example.yaml
