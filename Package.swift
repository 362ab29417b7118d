// swift-tools-version: 6.1
import PackageDescription

/// `#if Cairo` in every target that draws or reads PNG and PDF, set from the trait explicitly
/// (SwiftPM does not pass a dependency's traits to all of its targets as conditions).
let cairoCondition: [SwiftSetting] = [.define("Cairo", .when(traits: ["Cairo"]))]
/// `#if Server` in the server's targets: with the Server trait off, nothing builds or links NIO.
let serverCondition: [SwiftSetting] = [.define("Server", .when(traits: ["Server"]))]

/// A product of the server's packages, only with the Server trait.
func serverProduct(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["Server"]))
}

// count → scene → bytes: one module per stage.
//   TallyGeometry  the pure core: a count becomes a TallyScene of marks (no I/O, no formats)
//   TallyBadge     a badge for a README line (SPEC §7): its strip, its number, its layout and
//                  its face (DejaVu Sans outlines as data), kept out of the notation's core
//   TallyEncoding  text encodings of a scene: the JSON scene and the structure words as JSON
//   TallyStyle     colours, themes, backgrounds and motion timing shared by every backend
//   TallySVG       the SVG backend, pure Swift
//   CCairo         the system Cairo library (libcairo2-dev / brew cairo)
//   CZlib          the system zlib, for the tests alone: they inflate tally's PNG data and check
//                  its checksums (tally computes them itself, so no command links libz)
//   TallyCairo     the PNG and PDF backends, through Cairo: behind the Cairo trait (on by
//                  default); `swift build --disable-default-traits` builds the pure-Swift
//                  library (SVG, JSON) without libcairo, and PNG or PDF is then an error
//   TallyTerminal  the terminal preview backend (`-f term`): braille cells, ANSI colours
//   TallyRender    count + settings → bytes in any format: the pipeline every front end shares
//   TallyOptions   the options model: each render and serve option's name, default, help,
//                  checks and one-line messages, and the canonical form of a render's settings;
//                  the command line and the server both feed it
//   TallyDocs      docs regions (SPEC §8): the region parser and the planner of `tally docs`,
//                  pure (no I/O, no options; TallyPOSIX only for ByteText): the command line
//                  reads, draws and writes for it
//   TallyCommands  the `tally` command line (swift-argument-parser)
//   TallySnapshotTesting  swift-snapshot-testing strategies for tally images
//   Tally          one import for library users: the labelled API over the modules above
//   TallyTool      the `tally` executable: a thin entry point over TallyCommands
//   TallyServer    `tally serve`: the same renderer over HTTP (Hummingbird), behind the Server
//                  trait (on by default)
//   TallyServerTool  the `tally-server` executable that `tally serve` runs (a separate binary,
//                  so every other command starts without NIO or Foundation)
// Benchmarks/ (speed measurements, `make bench`) and Fuzz/ are packages of their own.
let package = Package(
    name: "tally",
    // macOS 13: ContinuousClock and the concurrency the server and batch use. Linux is what CI
    // tests; macOS with Homebrew's Cairo is expected to work, not tested here.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["TallyTool"]),
        // `tally serve` executes this program, installed beside tally.
        .executable(name: "tally-server", targets: ["TallyServerTool"]),
        // One import for Swift users: the labelled API (`TallyMarks.svg(137)`) and every type it uses.
        .library(name: "Tally", targets: ["Tally"]),
        // Snapshot strategies (.scene, .svg, .png) for users' own tests of tally images.
        .library(name: "TallySnapshotTesting", targets: ["TallySnapshotTesting"]),
        // `swift package --allow-writing-to-package-directory tally-docs [--check]`: `tally docs`
        // over a package's README.md, docs/ and .docc catalogues (SPEC §8).
        .plugin(name: "TallyDocsPlugin", targets: ["TallyDocsPlugin"]),
        // Test-only: the command line's module for the fuzz targets in Fuzz/ (through
        // `@_spi(Fuzzing)`, the count-list parser). Not an API; nothing else should depend on it.
        .library(name: "TallyFuzzTargets", targets: ["TallyCommands"]),
    ],
    traits: [
        .trait(name: "Cairo", description: "PNG and PDF through the system's Cairo (libcairo2-dev, brew cairo)."),
        .trait(
            name: "Server",
            description:
                "`tally serve`: images over HTTP (Hummingbird, swift-service-lifecycle, swift-log, swift-metrics)."),
        .default(enabledTraits: ["Cairo", "Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        // `make docs`: the DocC catalogue of the Tally library, built with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The server (`tally serve`), behind the Server trait. Hummingbird without its default
        // traits: neither swift-configuration nor full Foundation is needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.25.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The one import of the C library (Glibc or Darwin) for every module that calls it.
        .target(name: "TallyPOSIX"),
        .target(name: "TallyGeometry"),
        .target(name: "TallyBadge", dependencies: ["TallyGeometry"]),
        .target(name: "TallyEncoding", dependencies: ["TallyGeometry"]),
        .target(name: "TallyStyle", dependencies: ["TallyGeometry", "TallyBadge"]),
        .target(name: "TallySVG", dependencies: ["TallyGeometry", "TallyBadge", "TallyEncoding", "TallyStyle"]),
        // Cairo's headers from the system (`make` installs libcairo2-dev or brew's cairo when
        // missing). Not linked: TallyCairo loads libcairo on the first PNG or PDF, so every
        // other command starts without mapping Cairo's libraries (CairoLibrary.swift).
        .systemLibrary(name: "CCairo"),
        // zlib's inflate and checksums, for the tests of tally's PNG data (it comes with Cairo's
        // headers: libcairo2-dev needs zlib1g-dev). The deflating and the checksums are tally's
        // own (ImageDeflater.swift and Checksums.swift say why), so no product links libz.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Without the Cairo trait this module is empty and nothing loads libcairo.
        .target(
            name: "TallyCairo",
            dependencies: [
                .target(name: "CCairo", condition: .when(traits: ["Cairo"])),
                "TallyGeometry", "TallyBadge", "TallyStyle", "TallyPOSIX",
            ], swiftSettings: cairoCondition),
        // The terminal preview (`-f term`): a scene in braille cells, pure Swift.
        .target(name: "TallyTerminal", dependencies: ["TallyGeometry", "TallyStyle"]),
        .target(
            name: "TallyRender",
            dependencies: [
                "TallyGeometry", "TallyBadge", "TallyEncoding", "TallyStyle", "TallySVG", "TallyCairo", "TallyTerminal",
            ],
            swiftSettings: cairoCondition),
        .target(
            name: "TallyOptions",
            dependencies: ["TallyGeometry", "TallyBadge", "TallyEncoding", "TallyStyle", "TallyRender", "TallyPOSIX"]),
        // TallyPOSIX for ByteText alone: a region's command keeps its bytes as the command line
        // keeps an argument's (SPEC §6).
        .target(name: "TallyDocs", dependencies: ["TallyPOSIX"]),
        .target(
            name: "TallyCommands",
            dependencies: [
                "TallyGeometry", "TallyBadge", "TallyEncoding", "TallyStyle", "TallySVG", "TallyRender", "TallyPOSIX",
                "TallyOptions", "TallyTerminal", "TallyDocs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TallySnapshotTesting",
            dependencies: [
                "TallyGeometry", "TallyEncoding", "TallyRender", "TallyCairo",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            swiftSettings: cairoCondition
        ),
        // The `tally` executable (the product is named tally; the target is not, so its build
        // folder cannot collide with the Tally module's on a case-insensitive file system).
        .executableTarget(name: "TallyTool", dependencies: ["TallyCommands", "TallyPOSIX"]),
        .target(
            name: "TallyServer",
            dependencies: [
                "TallyGeometry", "TallyBadge", "TallyEncoding", "TallySVG", "TallyRender", "TallyOptions", "TallyPOSIX",
                serverProduct("Hummingbird", "hummingbird"),
                serverProduct("HummingbirdCore", "hummingbird"),
                serverProduct("NIOCore", "swift-nio"),
                serverProduct("NIOPosix", "swift-nio"),
                serverProduct("NIOHTTP1", "swift-nio"),
                serverProduct("NIOHTTPTypes", "swift-nio-extras"),
                serverProduct("NIOHTTPTypesHTTP1", "swift-nio-extras"),
                serverProduct("HTTPTypes", "swift-http-types"),
                serverProduct("NIOConcurrencyHelpers", "swift-nio"),
                serverProduct("DequeModule", "swift-collections"),
                serverProduct("ServiceLifecycle", "swift-service-lifecycle"),
                serverProduct("Logging", "swift-log"),
                serverProduct("Metrics", "swift-metrics"),
                serverProduct("Prometheus", "swift-prometheus"),
            ],
            swiftSettings: serverCondition + cairoCondition
        ),
        // Its own options are tally serve's, parsed by the command line's declaration.
        .executableTarget(
            name: "TallyServerTool",
            dependencies: [
                "TallyServer", "TallyCommands", "TallyOptions", "TallyPOSIX",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: serverCondition),
        .plugin(
            name: "TallyDocsPlugin",
            capability: .command(
                intent: .custom(
                    verb: "tally-docs",
                    description:
                        "Keep the tally pictures in README.md, docs/ and .docc catalogues up to date (--check for CI)."
                ),
                // No declared permission: SwiftPM would refuse even `--check`, which writes
                // nothing, with its own exit 1 ("stale"). The plugin asks for
                // --allow-writing-to-package-directory itself when a run would write (exit 73).
                permissions: []),
            dependencies: ["TallyTool"]),
        .target(name: "Tally", dependencies: ["TallyGeometry", "TallyEncoding", "TallyStyle", "TallyRender"]),
        .testTarget(
            name: "TallyDocsTests",
            dependencies: [
                "TallyDocs", "TallyTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TallyBadgeTests",
            dependencies: [
                "TallyBadge", "TallyGeometry",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TallyGeometryTests",
            dependencies: [
                "TallyGeometry",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Helpers for the tests that run the built `tally` and other programs.
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport", swiftSettings: cairoCondition),
        .testTarget(
            name: "TallySVGTests",
            dependencies: [
                "TallyGeometry", "TallyBadge", "TallyStyle", "TallySVG", "TallyRender", "TallyTestSupport", "TallyTool",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TallyCairoTests",
            dependencies: [
                .target(name: "CCairo", condition: .when(traits: ["Cairo"])),
                .target(name: "CZlib", condition: .when(traits: ["Cairo"])), "TallyCairo", "TallyGeometry",
                "TallyBadge",
                "TallyStyle",
                "TallyRender", "TallyTestSupport", "TallyTool",
            ],
            swiftSettings: cairoCondition
        ),
        .testTarget(
            name: "TallySnapshotTests",
            dependencies: [
                "TallyGeometry", "TallyBadge", "TallyStyle", "TallyRender", "TallySnapshotTesting", "TallyCairo",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            swiftSettings: cairoCondition
        ),
        .testTarget(
            name: "TallyCommandTests",
            dependencies: [
                "TallyTool", "Tally", "TallyGeometry", "TallyBadge", "TallyEncoding", "TallyCairo", "TallyOptions",
                "TallyRender",
                "TallyTestSupport",
            ],
            swiftSettings: cairoCondition
        ),
        // The command line run as a process, on its files, descriptors and signals: the suites
        // the sanitizers and the trait-less build run (Makefile), apart from the rest of
        // TallyCommandTests, so those builds compile its files of tests and not the rest as well.
        .testTarget(
            name: "TallyProcessTests",
            dependencies: [
                "TallyTool", "Tally", "TallyGeometry", "TallyBadge", "TallyEncoding", "TallyCairo", "TallyOptions",
                "TallyRender",
                "TallyTestSupport",
            ],
            swiftSettings: cairoCondition
        ),
        .testTarget(
            name: "TallyServerTests",
            dependencies: [
                "TallyServer", "TallyServerTool", "TallyTool", "TallyRender", "TallyBadge", "TallyOptions",
                "TallyTestSupport",
                "TallyPOSIX",
                // The tests' own clients (TestClients.swift says why not HummingbirdTesting).
                serverProduct("Hummingbird", "hummingbird"),
                serverProduct("NIOCore", "swift-nio"),
                serverProduct("NIOConcurrencyHelpers", "swift-nio"),
                serverProduct("NIOEmbedded", "swift-nio"),
                serverProduct("HTTPTypes", "swift-http-types"),
                serverProduct("Logging", "swift-log"),
                serverProduct("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            swiftSettings: serverCondition + cairoCondition
        ),
    ]
)

// A build that runs a few suites builds only their test targets: TALLY_TEST_TARGETS, a comma
// list, is set by the Makefile for the sanitizers' and the trait-less builds (each in its own
// build folder), so none compiles a test target it never runs. Unset, every target is built.
if let only = Context.environment["TALLY_TEST_TARGETS"] {
    let kept = Set(only.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
