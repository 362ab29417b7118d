# The two commands of the README: `make demo` and `make test`. Both install missing system
# packages first (scripts/install-deps), then build with SwiftPM.
SHELL := /bin/bash
SWIFT ?= swift
# Every swift this Makefile runs. SwiftPM plans a build anew, and then recompiles every module of
# tally, when its environment differs from the last build's in a variable it does not know to
# ignore (swift-package-manager#9384): make's own (MAKEFLAGS, MAKELEVEL) differ between the top
# make and a recursive one, and the shell's nesting level (SHLVL) between any two commands. So
# `make test`'s api-check rebuilt what its first step had just built, and a plugin's run its
# package's tally. Without them, every step reuses the one build.
# SWIFT_DETERMINISTIC_HASHING: SwiftPM 6.3 passes a package's enabled traits to the compiler in
# a Set's order, which a fresh process draws anew (swift-package-manager#10525, fixed in 6.4).
# tally has two traits on, so each new build plan (every command plugin's build, a changed
# environment) had an even chance of `-DServer -DCairo` for `-DCairo -DServer`, and then
# recompiled every module of tally: the DocsExample plugin's 75 files on 2 of 5 unchanged runs.
# With a fixed seed, SwiftPM lists them in one order. The tests' tally processes get a seed of
# their own again (TallyProcess), so what they check still holds whatever the order of a Set.
SWIFTPM = env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SHLVL -u OLDPWD -u _ SWIFT_DETERMINISTIC_HASHING=1 $(SWIFT)
TALLY  = .build/debug/tally
# One compile job a module, not swift-driver's default of one per core: each job parses the
# whole module again and type-checks what its files use of it, so two jobs and the separate
# job that emits the module did that work three times over. SwiftPM already builds modules side
# by side. A fresh debug build of the tests took 318 s of CPU (user and system) against 353 s
# and 357 s (fresh clones, one after another); `swift build -Xswiftc -wmo` cannot link, and
# `-c release -Onone` (one job, whole module) took 317 s. Every SwiftPM command on a build folder passes it, as
# a command with other flags plans that folder anew and recompiles all of it.
ONE_JOB = -Xswiftc -driver-batch-count -Xswiftc 1
# A new build folder starts from the package's resolved dependencies (scripts/seed-scratch
# says why): about 25 s of CPU saved for each of the sanitizers', the examples' and the one
# without Cairo.
SEED = scripts/seed-scratch .build

.PHONY: all deps test-deps build demo check test test-sanitize api-compare example-snapshots example-library example-docs format lint api-check api-baseline fuzz snapshots docs-images completions man bench bench-serve bench-compare release readme-check install docs docs-lists docc test-without-cairo clean sweep \
	test-step-server-and-docs test-step-reference test-step-example-snapshots test-step-example-library test-step-example-docs test-step-without-cairo \
	sanitize-address-run sanitize-thread-build sanitize-thread-a sanitize-thread-b

all: build

deps:
	@scripts/install-deps build

test-deps:
	@scripts/install-deps test

build: deps
	$(SWIFTPM) build $(ONE_JOB) --product tally

# What the tests need and nothing more: the test bundle, and the tally and tally-server it runs.
# `swift build --build-tests` builds every product of every package in the graph as well
# (SwiftSyntax for swift-snapshot-testing's inline snapshots, Hummingbird's benchmark, the DocC
# plugin's tools), which no test runs: about half of its steps.
TESTS = --product tallyPackageTests

# Each step of make test and make test-sanitize is timed, wall and CPU (scripts/step); .ci/run
# prints the table at the end of the log, and names a step past its share of .ci/budget.
STEP = scripts/step
# Two steps side by side, where one alone leaves a core idle: make -j2 over their targets, each
# step's output printed whole when it ends (--output-sync), so a failure reads as it would alone.
SIDE_BY_SIDE = $(MAKE) --no-print-directory -j2 --output-sync=target

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
	  if [ -n "$$changed" ]; then $(SWIFTPM) format lint --strict $$changed && echo "lint: the changed Swift files are formatted"; \
	  else echo "lint: no Swift file changed"; fi
	@# TALLY_CHECK is in the build's environment too: `swift test` with an environment other than
	@# the last build's makes SwiftPM load the package anew, and the next build recompile tally
	@# (SWIFTPM above), so make check's builds and tests share one environment.
	TALLY_CHECK=1 $(SWIFTPM) build $(ONE_JOB) $(TESTS)
	TALLY_CHECK=1 $(SWIFTPM) test $(ONE_JOB) --skip-build

# The suites that time how fast the server recovers (SPEC §6, the server's limits) run after
# the rest, in a process of their own: beside the whole suite on two cores, the wait they
# measure is the machine's. (Beside DocC's one core, below, it is not.)
ALONE = DescriptorExhaustionTests
# The server's in-process suites run after the rest, among themselves: beside the CPU-bound
# property suites on the two threads of the test pool, their servers' tasks waited 160 to 200 s
# for a turn, past their 120 s time limits, which then fired now and then.
SERVER_TESTS = TallyServerTests
# The test bundle run as `swift test --skip-build` runs it (it builds nothing and sets nothing
# the tests read), without SwiftPM's lock on the build folder, so a suite can run beside a
# SwiftPM command on the same folder (DocC, the man page). On Linux the bundle is a program;
# elsewhere it is not, and the two take turns through SwiftPM.
ifeq ($(shell uname),Linux)
TEST_BUNDLE = .build/debug/tallyPackageTests.xctest --testing-library swift-testing
else
TEST_BUNDLE = $(SWIFTPM) test $(ONE_JOB) --skip-build
endif

test: test-deps
	@$(STEP) "lint" $(MAKE) --no-print-directory lint
	@$(STEP) "build: debug, the tests" $(SWIFTPM) build $(ONE_JOB) $(TESTS)
	@$(STEP) "api-check" $(MAKE) --no-print-directory api-compare
	@$(STEP) "suite" $(SWIFTPM) test $(ONE_JOB) --skip-build --skip '$(ALONE)|$(SERVER_TESTS)'
	@# Two at a time (SIDE_BY_SIDE, below), where one alone leaves a core idle: the server's
	@# suites and the checks of the docs (about one core) beside DocC and the man page (one core,
	@# SwiftPM's); then the builds of their own folders, whose planning, linking and runs leave
	@# a core idle.
	@$(SIDE_BY_SIDE) test-step-server-and-docs test-step-reference
	@$(SIDE_BY_SIDE) test-step-example-snapshots test-step-example-library
	@$(SIDE_BY_SIDE) test-step-example-docs test-step-without-cairo
	@grep -q "tally render 137" share/man/tally.1 && echo "man page: share/man/tally.1 shows the examples"

test-step-server-and-docs:
	@$(STEP) "suite: $(SERVER_TESTS)" $(TEST_BUNDLE) --filter '$(SERVER_TESTS)' --skip '$(ALONE)'
	@$(STEP) "suite: $(ALONE)" $(TEST_BUNDLE) --filter '$(ALONE)'
	@$(STEP) "readme-check" bash -c 'scripts/readme-check --self-test && scripts/readme-check'
	@# Every picture of the README and docs/ is what tally draws now, and the example package
	@# keeps its own through the command plugin (example-docs).
	@$(STEP) "docs --check" $(TALLY) docs --check $(DOCUMENTS)
test-step-reference:
	@$(STEP) "docs (DocC)" $(MAKE) --no-print-directory docc
	@$(STEP) "man" $(MAKE) --no-print-directory man

test-step-example-snapshots:
	@$(STEP) "example: SnapshotExample" $(MAKE) --no-print-directory example-snapshots
test-step-example-library:
	@$(STEP) "example: LibraryExample" $(MAKE) --no-print-directory example-library
test-step-example-docs:
	@$(STEP) "example: DocsExample plugin" $(MAKE) --no-print-directory example-docs
test-step-without-cairo:
	@$(STEP) "test-without-cairo" $(MAKE) --no-print-directory test-without-cairo

# The example packages, each as a user's package would use tally (make test runs them).
# SwiftPM keeps an example's build plan (debug.yaml) and does not see a file added to one of
# tally's targets, which it builds as a path dependency: the build then fails to find what the
# new file declares. The plan is removed first (about a second of planning).
FORGET_PLAN = rm -f
example-snapshots:
	@$(SEED) Examples/SnapshotExample/.build
	@$(FORGET_PLAN) Examples/SnapshotExample/.build/debug.yaml
	cd Examples/SnapshotExample && SNAPSHOT_TESTING_RECORD=never $(SWIFTPM) test $(ONE_JOB)

example-library:
	@$(SEED) Examples/LibraryExample/.build
	@$(SEED) Examples/LibraryExample/.build-without-cairo
	@$(FORGET_PLAN) Examples/LibraryExample/.build/debug.yaml Examples/LibraryExample/.build-without-cairo/debug.yaml
	cd Examples/LibraryExample && $(SWIFTPM) run $(ONE_JOB) --quiet TallyLibraryExample
	@# Once more with tally's Cairo trait off: it still runs, and links no Cairo (Linux: ldd).
	@# --force-resolved-versions: the pins are the committed ones, never rewritten for the traits that are off.
	cd Examples/LibraryExample && TALLY_WITHOUT_CAIRO=1 $(SWIFTPM) run $(ONE_JOB) --quiet --force-resolved-versions --scratch-path .build-without-cairo TallyLibraryExample
	@if [ "$$(uname)" = Linux ]; then \
	  if ldd Examples/LibraryExample/.build-without-cairo/debug/TallyLibraryExample | grep -q libcairo; then \
	    echo "the library example links libcairo with the Cairo trait off" >&2; exit 1; \
	  else echo "library example without Cairo: libcairo not linked"; fi; fi

example-docs:
	@$(SEED) Examples/DocsExample/.build
	@$(FORGET_PLAN) Examples/DocsExample/.build/debug.yaml
	@# --check writes nothing, so it needs no permission (the plugin asks for it only to write).
	cd Examples/DocsExample && $(SWIFTPM) package $(ONE_JOB) tally-docs --check
	cd Examples/DocsExample && $(SWIFTPM) package $(ONE_JOB) tally-docs --help | grep -q "Default: README.md, docs/ and every .docc catalogue"

# swift-format (in the Swift toolchain) with the project's .swift-format: `make format` rewrites,
# `make lint` (part of make test) fails on anything format would change or any rule it breaks.
FORMATTED = Sources Tests Examples Fuzz Benchmarks
format:
	$(SWIFTPM) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFTPM) format lint --strict --recursive --parallel $(FORMATTED)
	@echo "lint: swift format finds nothing to change in $(FORMATTED)"

# The public API of the library products (Tally, with the stage modules it re-exports, and
# TallySnapshotTesting), one symbol a line, against the committed baseline api/public-api.txt:
# a change to the public surface fails `make api-check` (part of make test) until the baseline
# is regenerated with `make api-baseline` and committed with it. The symbols are read from the
# test build's compiled modules (scripts/api-baseline says why).
api-baseline: deps
	$(SWIFTPM) build $(ONE_JOB) $(TESTS)
	SWIFT=$(SWIFT) scripts/api-baseline .build/debug > api/public-api.txt
	@echo "wrote api/public-api.txt ($$(wc -l < api/public-api.txt) public symbols)"

api-check: deps
	$(SWIFTPM) build $(ONE_JOB) $(TESTS)
	@$(MAKE) --no-print-directory api-compare

# The comparison alone, on the modules the test build has made: make test runs it after that
# build without asking SwiftPM to build again (a second `swift build` in a fresh clone plans the
# build anew and recompiles tally's modules, about two minutes of CPU).
api-compare:
	@SWIFT=$(SWIFT) scripts/api-baseline .build/debug > .build/public-api.txt
	@diff -u api/public-api.txt .build/public-api.txt >&2 || { echo "api-check: the public API differs from api/public-api.txt (above); if that is on purpose, run make api-baseline and commit the baseline with the change" >&2; exit 1; }
	@echo "api-check: the public API is the baseline's ($$(wc -l < api/public-api.txt) symbols in api/public-api.txt)"

# The sanitizers, each on the code where it can find what the compiler cannot, and on the suites
# that run that code; every test runs in make test's plain run, so none leaves CI.
#
# AddressSanitizer watches memory: the code that holds unsafe pointers or calls C (the deflater,
# PNG encoder, indexed image and Cairo's table in TallyCairo; the font's binary search in
# TallyBadge; the decimal text in TallyEncoding; SVG ids; the POSIX layer, output files, the
# signal watcher, docs' file reading and the batch workers in TallyCommands). Its build has the
# Cairo trait and not the Server one: the server is safe Swift over NIO (no unsafe pointer of
# ours) and ThreadSanitizer watches it, so NIO and Hummingbird are not built a third time. Its
# suites: the Cairo, badge and SVG targets whole, and of the command line's the suites whose
# processes go through those paths (ASAN_SUITES). Not the suites of argument errors and edge
# values (ErrorTests, EdgeCaseTests, BadgeLabelScriptTests): hundreds of sanitized processes
# that run the parser and messages, safe Swift, and the font and decimal text that the
# in-process suites above already run. Not ClosedDescriptorTests: descriptors and signals,
# whose memory is OutputPathTests' paths; ThreadSanitizer runs it for the signal watcher. (Its
# 30 sanitized processes once hung past their deadline in CI with all three standard descriptors
# closed, as LeakSanitizer's exit scan is known to do now and then, and not in 600 runs here;
# runProgram now names where a hung process's threads wait.)
ASAN_SUITES = TallyCairoTests|TallyBadgeTests|TallySVGTests|DecimalTextTests|BatchTests|CountListTests|CairoLoadingTests|DocsCommandTests|DocsSafetyTests|InterruptionTests|OutputPathTests
#
# ThreadSanitizer watches threads: the server (event loops, the raster queue, the response
# cache, connection limits), the batch workers and the signal watcher. Its suites: the server's
# target whole, in process and as processes, and the command line's suites marked
# `.runsTallysThreads` (whose processes run tally's threads together; `startingAProcess`
# cancels a process test of one thread there). The rest of the suite is value types on one
# thread: geometry, SVG, badges, docs' planner, snapshots.
#
# Both sanitizers run their tests one at a time (--no-parallel): side by side on two cores the
# same tests took far more CPU, the sanitized runtimes' threads spinning on each other
# (measured in one sitting each: AddressSanitizer 548 s against 275 s, and no less wall time;
# ThreadSanitizer 433 s against 286 s, for 140 s less wall time). CPU is what a busy machine
# multiplies.
#
# Under either, the two tests that measure the process (peak memory, system calls) are off (the
# sanitizer's own memory and calls are in what they measure), and so are those whose subject is
# an outside program's reading of tally's bytes (`.readByAnOutsideProgram`). ThreadSanitizer
# leaves out a test of values on one thread in a suite it runs (`.oneThreadOfValues`). Where a
# test's cases or files number in thousands, a sanitizer runs a sample through the same paths
# (`sanitizerSample`: every tenth SVG structure, every fourth count of the legibility property;
# 1,001 batch files, not 10,001; a tenth of the cache-key pairs on fresh servers; smaller PNGs
# where the size only keeps the work in flight), and the plain run runs them all. Each in its
# own build folder, so the normal build stays as it is.
#
# Each sanitized build compiles only the test targets whose suites it runs (TALLY_TEST_TARGETS,
# Package.swift): not the geometry's, docs planner's or snapshots' (swift-snapshot-testing), and
# of the command line's only TallyProcessTests, its suites run as processes (not the twice as
# many files of TallyCommandTests as well: about 50 s of CPU a build).
ASAN_BUILD = --sanitize=address --build-path .build/asan --disable-default-traits --traits Cairo --force-resolved-versions
ASAN_SWIFTPM = env TALLY_TEST_TARGETS=TallyBadgeTests,TallyCairoTests,TallyProcessTests,TallySVGTests $(SWIFTPM)
TSAN_BUILD = --sanitize=thread --build-path .build/tsan
TSAN_SWIFTPM = env TALLY_TEST_TARGETS=TallyProcessTests,TallyServerTests $(SWIFTPM)
#
# The steps run two at a time where one alone would leave a core idle (make -j2, each step's
# output printed whole when it ends): the AddressSanitizer run (one test at a time) beside the
# ThreadSanitizer build, then ThreadSanitizer's suites in two processes of one test at a time,
# of about equal length (the server's target and ClosedDescriptorTests, about 250 s on a quiet
# machine; the command line's other suites, about 230 s), where most tests wait on a process of
# tally's. Two `swift test` cannot share a build folder (the second waits for the first's lock,
# and with --ignore-lock cannot open the build database), so on Linux each half runs the test
# bundle itself, as `swift test --skip-build` would (it builds nothing and sets nothing the tests
# read); elsewhere the bundle is not a program, and the halves take turns through SwiftPM.
# Every sanitized process stops at its first report (halt_on_error), and none sleeps before it
# exits: ThreadSanitizer's default (atexit_sleep_ms=1000) waits a second in every process's exit
# so that threads still running can race with the exit handlers. tally's are joined before it
# exits (the batch workers, the server's event loops) or blocked (the signal watcher reading its
# pipe, the server log's flusher between flushes), so the second finds nothing there; and the
# suites start about 200 processes of tally's, over three minutes of waiting. Every access a
# process makes still goes through the checks.
TSAN_RUNTIME_OPTIONS = halt_on_error=1:atexit_sleep_ms=0
TSAN_SUITES_A = TallyServerTests|ClosedDescriptorTests
TSAN_SUITES_B = BatchTests|DocsCommandTests|DocsSafetyTests|InterruptionTests|OutputPathTests
TSAN_RUN = env TALLY_SANITIZER=thread TSAN_OPTIONS=$(TSAN_RUNTIME_OPTIONS) $(TSAN_SWIFTPM) test $(ONE_JOB) --skip-build $(TSAN_BUILD)
ifeq ($(shell uname),Linux)
TSAN_HALF = env TALLY_SANITIZER=thread TSAN_OPTIONS=$(TSAN_RUNTIME_OPTIONS) .build/tsan/debug/tallyPackageTests.xctest --testing-library swift-testing
else
TSAN_HALF = $(TSAN_RUN)
endif
test-sanitize: test-deps
	@$(SEED) .build/asan
	@$(SEED) .build/tsan
	@$(STEP) "build: AddressSanitizer" $(ASAN_SWIFTPM) build $(ONE_JOB) $(TESTS) $(ASAN_BUILD)
	@$(SIDE_BY_SIDE) sanitize-address-run sanitize-thread-build
	@$(SIDE_BY_SIDE) sanitize-thread-a sanitize-thread-b
	@$(STEP) "ThreadSanitizer: $(ALONE) alone" $(TSAN_HALF) --filter '$(ALONE)'

sanitize-address-run:
	@$(STEP) "AddressSanitizer: $(words $(subst |, ,$(ASAN_SUITES))) suites" env TALLY_SANITIZER=address \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp ASAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/asan.supp \
	  $(ASAN_SWIFTPM) test $(ONE_JOB) --skip-build --no-parallel $(ASAN_BUILD) --filter '$(ASAN_SUITES)'
sanitize-thread-build:
	@$(STEP) "build: ThreadSanitizer" $(TSAN_SWIFTPM) build $(ONE_JOB) $(TESTS) $(TSAN_BUILD)
sanitize-thread-a:
	@$(STEP) "ThreadSanitizer: $(TSAN_SUITES_A)" \
	  $(TSAN_HALF) --no-parallel --filter '$(TSAN_SUITES_A)' --skip '$(ALONE)'
sanitize-thread-b:
	@$(STEP) "ThreadSanitizer: $(words $(subst |, ,$(TSAN_SUITES_B))) suites of the command line" \
	  $(TSAN_HALF) --no-parallel --filter '$(TSAN_SUITES_B)'

# libFuzzer targets (Fuzz/) over the count, count-list, colour and label parsers, over scene
# building + SVG for arbitrary counts and sizes, and over the PNG deflater (any bytes must come
# back through zlib), each for FUZZ_SECONDS (default 60). Seeds are in
# Fuzz/Corpus; what the fuzzer learns stays in .build/fuzz; a crash stops the run and leaves its
# input in .build/fuzz/crashes (turn it into a regression test).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = FuzzCount FuzzCountList FuzzColor FuzzLabel FuzzScene FuzzDeflate
fuzz: deps
	cd Fuzz && $(SWIFTPM) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
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
	$(SWIFTPM) build $(ONE_JOB) $(TESTS)
	SNAPSHOT_TESTING_RECORD=all $(SWIFTPM) test $(ONE_JOB) --skip-build --filter SnapshotTests
	$(SWIFTPM) test $(ONE_JOB) --skip-build --filter SnapshotTests
	# The example package's references too (recording reports each one it writes as a failure).
	cd Examples/SnapshotExample && (SNAPSHOT_TESTING_RECORD=all $(SWIFTPM) test $(ONE_JOB) >/dev/null 2>&1 || true) \
		&& SNAPSHOT_TESTING_RECORD=never $(SWIFTPM) test $(ONE_JOB)
	$(MAKE) --no-print-directory docs-images

# The pictures of README.md and docs/: each is a `tally docs` region (SPEC §8), redrawn here;
# make test fails when one is out of date (`tally docs --check`).
DOCUMENTS = README.md docs
docs-images: build
	$(TALLY) docs $(DOCUMENTS)
	cd Examples/DocsExample && $(SWIFTPM) package $(ONE_JOB) --allow-writing-to-package-directory tally-docs

# Shell completion scripts, generated from the command definitions.
completions: build
	@mkdir -p share/completions
	$(TALLY) --generate-completion-script bash > share/completions/tally.bash
	$(TALLY) --generate-completion-script zsh > share/completions/_tally
	$(TALLY) --generate-completion-script fish > share/completions/tally.fish
	@echo "wrote share/completions/: tally.bash, _tally (zsh), tally.fish"

# The man page, generated from the command definitions by swift-argument-parser's generate-manual,
# dated by the last commit (so the same checkout gives the same page), or SOURCE_DATE_EPOCH.
# The tool itself rather than its plugin (the same page, byte for byte): the plugin compiles
# itself, builds ArgumentParser once more for the host's tools and plans every product anew
# (106 s of CPU in a fresh clone's make test); the tool is one module linked against the
# ArgumentParser this build already has.
MAN_DATE ?= $(shell if [ -n "$$SOURCE_DATE_EPOCH" ]; then date -u -d "@$$SOURCE_DATE_EPOCH" +%F; else git log -1 --format=%cs 2>/dev/null || date -u +%F; fi)
man: build
	@mkdir -p share/man
	$(SWIFTPM) build $(ONE_JOB) --product generate-manual
	.build/debug/generate-manual $(TALLY) --output-directory share/man --date $(MAN_DATE)
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
# Only the test target of that suite is built (TALLY_TEST_TARGETS, Package.swift).
NO_CAIRO_SWIFTPM = env TALLY_TEST_TARGETS=TallyProcessTests $(SWIFTPM)
test-without-cairo: deps
	@$(SEED) .build-without-cairo
	$(NO_CAIRO_SWIFTPM) build $(ONE_JOB) $(TESTS) --disable-default-traits --force-resolved-versions --scratch-path .build-without-cairo
	@# Only what depends on the trait: the build, the refusals of PNG and PDF, SVG still drawn.
	$(NO_CAIRO_SWIFTPM) test $(ONE_JOB) --skip-build --disable-default-traits --force-resolved-versions --scratch-path .build-without-cairo --filter WithoutCairoTests
	@if [ "$$(uname)" = Linux ] && ldd .build-without-cairo/debug/tally | grep -q libcairo; then \
	  echo "tally links libcairo with the Cairo trait off" >&2; exit 1; fi

# The docs' lists of options, then the DocC catalogue.
docs: docs-lists
	@$(MAKE) --no-print-directory docc

# The docs' lists of options, written from the options' declarations (RenderOption.swift): the
# synopses of tally render and tally badge (SPEC §6, §7), the reference's table of drawing
# options and the server's query parameters, each a region between
# `<!-- generated by make docs: … -->` and `<!-- end generated -->`
# (Sources/TallyOptions/GeneratedDocs.swift). A unit test fails make check, naming make docs,
# while one in the repository is out of date. tally is built in make check's environment
# (TALLY_CHECK), whose build of the tests has just built it: a build in another environment
# would plan anew and recompile every module (SWIFTPM above).
docs-lists: deps
	TALLY_CHECK=1 $(SWIFTPM) build $(ONE_JOB) --product tally
	$(TALLY) generated-docs

# The DocC catalogue of the Tally library (Sources/Tally/Tally.docc), warnings as errors (part of
# make test); the archive is under .build/plugins/Swift-DocC/outputs/.
docc: deps
	$(SWIFTPM) package $(ONE_JOB) generate-documentation --target Tally --warnings-as-errors >/dev/null
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
	$(SWIFTPM) build $(ONE_JOB) --product tally-server
	scripts/sweep $(TALLY)
