# The two commands of the README: `make demo` and `make test`. Both install missing system
# packages first (scripts/install-deps), then build with SwiftPM.
SHELL := /bin/bash
SWIFT ?= swift
TALLY  = .build/debug/tally

.PHONY: all deps test-deps build demo check test test-sanitize format lint api-check api-baseline fuzz snapshots docs-images completions man bench bench-serve bench-compare release readme-check install docs test-without-cairo clean sweep

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

# The inner loop: lint the Swift files changed since the last commit, build, and run the unit
# tests (geometry, encoding, SVG, options, PNG and PDF in process, server routes in process,
# snapshots by comparison). A test that starts a process or an outside program is cancelled
# where it would start it (TALLY_CHECK; `startingAProcess` in Tests/TallyTestSupport) and
# reported as skipped: `make test` runs everything.
check: deps
	@changed="$$( { git diff --name-only --diff-filter=d HEAD -- '*.swift'; git ls-files --others --exclude-standard -- '*.swift'; } | sort -u)"; \
	  if [ -n "$$changed" ]; then $(SWIFT) format lint --strict $$changed && echo "lint: the changed Swift files are formatted"; \
	  else echo "lint: no Swift file changed"; fi
	$(SWIFT) build --build-tests
	TALLY_CHECK=1 $(SWIFT) test --skip-build

# The suites that time how fast the server recovers (SPEC §6, the server's limits) run after
# the rest, alone: beside the whole suite on two cores, the wait they measure is the machine's.
ALONE = DescriptorExhaustionTests

test: test-deps
	$(MAKE) --no-print-directory lint
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory api-check
	$(SWIFT) test --skip-build --skip '$(ALONE)'
	$(SWIFT) test --skip-build --filter '$(ALONE)'
	cd Examples/SnapshotExample && SNAPSHOT_TESTING_RECORD=never $(SWIFT) test
	cd Examples/LibraryExample && $(SWIFT) run --quiet TallyLibraryExample
	@# Once more with tally's Cairo trait off: it still runs, and links no Cairo (Linux: ldd).
	@# --force-resolved-versions: the pins are the committed ones, never rewritten for the traits that are off.
	cd Examples/LibraryExample && TALLY_WITHOUT_CAIRO=1 $(SWIFT) run --quiet --force-resolved-versions --scratch-path .build-without-cairo TallyLibraryExample
	@if [ "$$(uname)" = Linux ]; then \
	  if ldd Examples/LibraryExample/.build-without-cairo/debug/TallyLibraryExample | grep -q libcairo; then \
	    echo "the library example links libcairo with the Cairo trait off" >&2; exit 1; \
	  else echo "library example without Cairo: libcairo not linked"; fi; fi
	scripts/readme-check --self-test
	scripts/readme-check
	@# Every picture of the README and docs/ is what tally draws now, and the example package
	@# keeps its own through the command plugin.
	$(TALLY) docs --check $(DOCUMENTS)
	cd Examples/DocsExample && $(SWIFT) package --allow-writing-to-package-directory tally-docs --check
	$(MAKE) --no-print-directory test-without-cairo
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory man
	@grep -q "tally render 137" share/man/tally.1 && echo "man page: share/man/tally.1 shows the examples"

# swift-format (in the Swift toolchain) with the project's .swift-format: `make format` rewrites,
# `make lint` (part of make test) fails on anything format would change or any rule it breaks.
FORMATTED = Sources Tests Examples Fuzz Benchmarks
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)
	@echo "lint: swift format finds nothing to change in $(FORMATTED)"

# The public API of the library products (Tally, with the stage modules it re-exports, and
# TallySnapshotTesting), one symbol a line, against the committed baseline api/public-api.txt:
# a change to the public surface fails `make api-check` (part of make test) until the baseline
# is regenerated with `make api-baseline` and committed with it.
api-baseline: deps
	$(SWIFT) package dump-symbol-graph --minimum-access-level public >/dev/null
	scripts/api-baseline "$$(ls -d .build/*/symbolgraph | head -1)" > api/public-api.txt
	@echo "wrote api/public-api.txt ($$(wc -l < api/public-api.txt) public symbols)"

api-check: deps
	$(SWIFT) package dump-symbol-graph --minimum-access-level public >/dev/null
	@scripts/api-baseline "$$(ls -d .build/*/symbolgraph | head -1)" > .build/public-api.txt
	@diff -u api/public-api.txt .build/public-api.txt >&2 || { echo "api-check: the public API differs from api/public-api.txt (above); if that is on purpose, run make api-baseline and commit the baseline with the change" >&2; exit 1; }
	@echo "api-check: the public API is the baseline's ($$(wc -l < api/public-api.txt) symbols in api/public-api.txt)"

# The tests under AddressSanitizer and ThreadSanitizer (the batch workers and the signal
# watcher included), each in its own build folder so the normal build stays as it is. The two
# tests that measure the process (peak memory, system calls) are off there: the sanitizer's own
# memory and calls are in what they measure. So are the tests whose subject is an outside
# program's reading of tally's bytes (Chromium, rsvg-convert, scour, jsonschema, tmux panes;
# `.readByAnOutsideProgram`): make test runs them in the same CI run, and under a sanitizer the
# unsanitized programs only compete for the cores. ThreadSanitizer runs every in-process test
# and the processes of the suites marked `.runsTallysThreads` (the server, batch workers, the
# signal watcher at work); a process that runs one command on one thread shows it nothing new,
# and AddressSanitizer runs those.
test-sanitize: test-deps
	$(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	for tests in "--skip $(ALONE)" "--filter $(ALONE)"; do \
	  TALLY_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	  ASAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/asan.supp \
	  $(SWIFT) test --skip-build --sanitize=address --build-path .build/asan $$tests || exit 1; done
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	for tests in "--skip $(ALONE)" "--filter $(ALONE)"; do \
	  TALLY_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 \
	  $(SWIFT) test --skip-build --sanitize=thread --build-path .build/tsan $$tests || exit 1; done

# libFuzzer targets (Fuzz/) over the count, count-list, colour and label parsers, over scene
# building + SVG for arbitrary counts and sizes, and over the PNG deflater (any bytes must come
# back through zlib), each for FUZZ_SECONDS (default 60). Seeds are in
# Fuzz/Corpus; what the fuzzer learns stays in .build/fuzz; a crash stops the run and leaves its
# input in .build/fuzz/crashes (turn it into a regression test).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = FuzzCount FuzzCountList FuzzColor FuzzLabel FuzzScene FuzzDeflate
fuzz: deps
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	@mkdir -p .build/fuzz/crashes
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz/$$target; \
	  echo "fuzz: $$target for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	  Fuzz/.build/release/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=4096 \
	    -artifact_prefix=.build/fuzz/crashes/$$target- .build/fuzz/$$target Fuzz/Corpus/$$target 2>&1 \
	    | grep -E '^(Done|==[0-9]+==|SUMMARY|.*(ERROR|Fatal error|deadly signal))' ; \
	  status=$${PIPESTATUS[0]}; [ $$status -eq 0 ] || { echo "fuzz: $$target failed ($$status)"; exit 1; }; \
	done
	@echo "fuzz: no crash in $(FUZZ_TARGETS)"

# Records the reference outputs under Snapshots/ anew. A normal test run never records: a
# missing or different reference fails it. Look at every changed file before committing.
snapshots: test-deps
	$(SWIFT) build --build-tests
	SNAPSHOT_TESTING_RECORD=all $(SWIFT) test --skip-build --filter SnapshotTests
	$(SWIFT) test --skip-build --filter SnapshotTests
	# The example package's references too (recording reports each one it writes as a failure).
	cd Examples/SnapshotExample && (SNAPSHOT_TESTING_RECORD=all $(SWIFT) test >/dev/null 2>&1 || true) \
		&& SNAPSHOT_TESTING_RECORD=never $(SWIFT) test
	$(MAKE) --no-print-directory docs-images

# The pictures of README.md and docs/: each is a `tally docs` region (SPEC §8), redrawn here;
# make test fails when one is out of date (`tally docs --check`).
DOCUMENTS = README.md docs
docs-images: build
	$(TALLY) docs $(DOCUMENTS)
	cd Examples/DocsExample && $(SWIFT) package --allow-writing-to-package-directory tally-docs

# Shell completion scripts, generated from the command definitions.
completions: build
	@mkdir -p share/completions
	$(TALLY) --generate-completion-script bash > share/completions/tally.bash
	$(TALLY) --generate-completion-script zsh > share/completions/_tally
	$(TALLY) --generate-completion-script fish > share/completions/tally.fish
	@echo "wrote share/completions/: tally.bash, _tally (zsh), tally.fish"

# The man page, generated from the command definitions by swift-argument-parser's plugin,
# dated by the last commit (so the same checkout gives the same page), or SOURCE_DATE_EPOCH.
# The plugin builds every product first, in release unless told: debug is what `make test` has
# just built, and the page (the commands' help) is the same from either.
MAN_DATE ?= $(shell if [ -n "$$SOURCE_DATE_EPOCH" ]; then date -u -d "@$$SOURCE_DATE_EPOCH" +%F; else git log -1 --format=%cs 2>/dev/null || date -u +%F; fi)
man: deps
	@mkdir -p share/man
	$(SWIFT) package --allow-writing-to-directory share/man generate-manual --configuration debug --output-directory share/man --date $(MAN_DATE) >/dev/null
	@rm -f share/man/benchmark-command.1
	@echo "wrote share/man/tally.1 (man -l share/man/tally.1)"

# Speed goals, never timed tests: instruction counts under callgrind, then timings.
# BENCHMARKS.md records the figures and the method.
bench: deps
	@scripts/install-deps bench
	SWIFT=$(SWIFT) scripts/bench

# Side by side in one run, as ratios: tally against per-file loops, rsvg-convert, optipng and
# qrencode, and -j 1 against -j 2.
# tally serve against nginx serving the same bytes, with wrk over loopback (BENCHMARKS.md).
bench-serve: deps
	@scripts/install-deps bench-serve
	SWIFT=$(SWIFT) scripts/bench-serve

bench-compare: deps
	@scripts/install-deps bench
	SWIFT=$(SWIFT) scripts/bench-compare

# The pure-Swift library alone: tally built with its Cairo trait off (no libcairo, no zlib), in
# its own build folder, and tested for what depends on the trait (part of make test; the rest
# of the suite is the default build's and would only repeat it).
test-without-cairo: deps
	$(SWIFT) build --build-tests --disable-default-traits --force-resolved-versions --scratch-path .build-without-cairo
	@# Only what depends on the trait: the build, the refusals of PNG and PDF, SVG still drawn.
	$(SWIFT) test --skip-build --disable-default-traits --force-resolved-versions --scratch-path .build-without-cairo --filter WithoutCairoTests
	@if [ "$$(uname)" = Linux ] && ldd .build-without-cairo/debug/tally | grep -q libcairo; then \
	  echo "tally links libcairo with the Cairo trait off" >&2; exit 1; fi

# The DocC catalogue of the Tally library (Sources/Tally/Tally.docc), warnings as errors (part of
# make test); the archive is under .build/plugins/Swift-DocC/outputs/.
docs: deps
	$(SWIFT) package generate-documentation --target Tally --warnings-as-errors >/dev/null
	@echo "docs: the Tally catalogue builds without warnings (.build/plugins/Swift-DocC/outputs/Tally.doccarchive)"

# Every shell example of README.md and docs/, run, and every relative link and anchor of them
# resolved; first the self-test, which shows the check fails on broken fixtures (part of make test).
readme-check: build
	scripts/readme-check --self-test
	scripts/readme-check

# A release tally, its man page and shell completions under PREFIX (DESTDIR for packaging).
PREFIX ?= /usr/local
install: release man completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 .build/release/tally $(DESTDIR)$(PREFIX)/bin/tally
	@# tally serve runs tally-server from tally's own folder.
	install -m 0755 .build/release/tally-server $(DESTDIR)$(PREFIX)/bin/tally-server
	install -m 0644 share/man/tally.1 $(DESTDIR)$(PREFIX)/share/man/man1/tally.1
	install -m 0644 share/completions/tally.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tally
	install -m 0644 share/completions/_tally $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tally
	install -m 0644 share/completions/tally.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tally.fish
	@echo "installed $(DESTDIR)$(PREFIX)/bin/tally, tally-server (tally serve), the man page and completions"

# A release tally and tally-server, linked for a fast start (scripts/build-release says how).
release: deps
	SWIFT=$(SWIFT) scripts/build-release tally
	SWIFT=$(SWIFT) scripts/build-release tally-server

# Every build folder: the package's (with and without Cairo, the sanitizers'), the examples'
# and the fuzz targets'.
clean:
	rm -rf .build .build-* out share Examples/*/.build Examples/*/.build-* Fuzz/.build

# The hostile sweep's cheap cases against the built tally, in under two minutes: counts and
# labels at their edges, memory under ulimit -v, tally serve under ulimit -n with idle
# connections held, raw-socket requests (scripts/sweep says each; docs/reference.md lists them).
sweep: build
	$(SWIFT) build --product tally-server
	scripts/sweep $(TALLY)
