# The two commands of the README: `make demo` and `make test`. Both install missing system
# packages first (scripts/install-deps), then build with SwiftPM.
SWIFT ?= swift
TALLY  = .build/debug/tally

.PHONY: all deps test-deps build demo test bench clean

all: build

deps:
	@scripts/install-deps build

test-deps:
	@scripts/install-deps test

build: deps
	$(SWIFT) build --product tally

# Renders an example into out/demo and describes it.
demo: build
	@mkdir -p out/demo
	$(TALLY) render 137 -o out/demo/tally-137.json
	@$(TALLY) describe 137
	@echo "wrote out/demo/tally-137.json"

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Speed goals (not timed tests): a release build of the benchmarks.
bench: deps
	$(SWIFT) build -c release --product TallyBenchmarks
	.build/release/TallyBenchmarks

clean:
	rm -rf .build out
