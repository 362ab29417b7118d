# The two commands of the README: `make demo` and `make test`. Both install missing system
# packages first (scripts/install-deps), then build with SwiftPM.
SWIFT ?= swift
TALLY  = .build/debug/tally

.PHONY: all deps test-deps build demo test snapshots bench clean

all: build

deps:
	@scripts/install-deps build

test-deps:
	@scripts/install-deps test

build: deps
	$(SWIFT) build --product tally

# Renders examples into out/demo and describes one.
demo: build
	@mkdir -p out/demo
	$(TALLY) render 1234 --size 512 --theme auto -o out/demo/tally-1234.svg
	$(TALLY) render 99 --size 256 --style ink -o out/demo/tally-99-ink.svg
	$(TALLY) render 9999 --size 512 --background paper -o out/demo/tally-9999.png
	$(TALLY) render 9999 --size 512 -o out/demo/tally-9999.pdf
	$(TALLY) render 137 -o out/demo/tally-137.json
	@$(TALLY) describe 1234
	@echo "wrote out/demo/: tally-1234.svg, tally-99-ink.svg, tally-9999.png, tally-9999.pdf, tally-137.json"

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	cd Examples/SnapshotExample && SNAPSHOT_TESTING_RECORD=never $(SWIFT) test

# Records the reference outputs under Snapshots/ anew. A normal test run never records: a
# missing or different reference fails it. Look at every changed file before committing.
snapshots: test-deps
	$(SWIFT) build --build-tests
	SNAPSHOT_TESTING_RECORD=all $(SWIFT) test --skip-build --filter SnapshotTests
	$(SWIFT) test --skip-build --filter SnapshotTests

# Speed goals (not timed tests): a release build of the benchmarks.
bench: deps
	$(SWIFT) build -c release --product TallyBenchmarks
	.build/release/TallyBenchmarks

clean:
	rm -rf .build out
