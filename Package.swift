// swift-tools-version: 6.1
import PackageDescription

// count → scene → bytes: one module per stage.
//   TallyGeometry  the pure core: a count becomes a Scene of marks (no I/O, no formats)
//   TallyEncoding  text encodings of a scene: the JSON scene and the structure words as JSON
//   TallyStyle     colours, themes, backgrounds and motion timing shared by every backend
//   TallySVG       the SVG backend, pure Swift
//   CCairo         the system Cairo library (libcairo2-dev / brew cairo)
//   CZlib          the system zlib, for writing PNG image data
//   TallyCairo     the PNG and PDF backends, through Cairo
//   TallyRender    count + settings → bytes in any format: the pipeline every front end shares
//   TallyCommands  the `tally` command line (swift-argument-parser)
//   TallySnapshotTesting  swift-snapshot-testing strategies for tally images
//   Tally          one import for library users: the labelled API over the modules above
//   TallyTool      the `tally` executable: a thin entry point over TallyCommands
//   TallyBenchmarks  speed measurements (google/swift-benchmark), run with `make bench`
let package = Package(
    name: "tally",
    products: [
        .executable(name: "tally", targets: ["TallyTool"]),
        // One import for Swift users: the labelled API (`Tally.svg(137)`) and every type it uses.
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallyGeometry", targets: ["TallyGeometry"]),
        .library(name: "TallyEncoding", targets: ["TallyEncoding"]),
        .library(name: "TallyStyle", targets: ["TallyStyle"]),
        .library(name: "TallySVG", targets: ["TallySVG"]),
        .library(name: "TallyCairo", targets: ["TallyCairo"]),
        .library(name: "TallyRender", targets: ["TallyRender"]),
        // Snapshot strategies (.scene, .svg, .png) for users' own tests of tally images.
        .library(name: "TallySnapshotTesting", targets: ["TallySnapshotTesting"]),
        // The command line's module, for the fuzz targets in Fuzz/ (`@_spi(Fuzzing)`); not an API.
        .library(name: "TallyCommands", targets: ["TallyCommands"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
    ],
    targets: [
        .target(name: "TallyGeometry"),
        .target(name: "TallyEncoding", dependencies: ["TallyGeometry"]),
        .target(name: "TallyStyle", dependencies: ["TallyGeometry"]),
        .target(name: "TallySVG", dependencies: ["TallyGeometry", "TallyEncoding", "TallyStyle"]),
        // Cairo from the system: `make` installs libcairo2-dev (apt) or cairo (brew) when missing.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        // zlib deflates our PNGs (it comes with Cairo's headers: libcairo2-dev needs zlib1g-dev).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "TallyCairo", dependencies: ["CCairo", "CZlib", "TallyGeometry", "TallyStyle"]),
        .target(name: "TallyRender", dependencies: ["TallyGeometry", "TallyEncoding", "TallyStyle", "TallySVG", "TallyCairo"]),
        .target(
            name: "TallyCommands",
            dependencies: [
                "TallyGeometry", "TallyEncoding", "TallyStyle", "TallySVG", "TallyRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TallySnapshotTesting",
            dependencies: [
                "TallyGeometry", "TallyEncoding", "TallyRender", "TallyCairo",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        // The `tally` executable (the product is named tally; the target is not, so its build
        // folder cannot collide with the Tally module's on a case-insensitive file system).
        .executableTarget(name: "TallyTool", dependencies: ["TallyCommands"]),
        .target(name: "Tally", dependencies: ["TallyGeometry", "TallyEncoding", "TallyStyle", "TallyRender"]),
        // Speed goals live here, never in timed tests: `make bench`.
        .executableTarget(
            name: "TallyBenchmarks",
            dependencies: [
                "TallyGeometry", "TallyEncoding", "TallyRender",
                .product(name: "Benchmark", package: "swift-benchmark"),
            ],
            path: "Benchmarks/TallyBenchmarks"
        ),
        .testTarget(
            name: "TallyGeometryTests",
            dependencies: [
                "TallyGeometry",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Helpers for the tests that run the built `tally` and other programs.
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport"),
        .testTarget(
            name: "TallySVGTests",
            dependencies: [
                "TallyGeometry", "TallyStyle", "TallySVG", "TallyRender", "TallyTestSupport", "TallyTool",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TallyCairoTests",
            dependencies: ["CCairo", "TallyCairo", "TallyGeometry", "TallyStyle", "TallyRender", "TallyTestSupport", "TallyTool"]
        ),
        .testTarget(
            name: "TallySnapshotTests",
            dependencies: [
                "TallyGeometry", "TallyStyle", "TallyRender", "TallySnapshotTesting", "TallyCairo",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .testTarget(
            name: "TallyCommandTests",
            dependencies: ["TallyTool", "Tally", "TallyGeometry", "TallyEncoding", "TallyCairo", "TallyTestSupport"]
        ),
    ]
)
