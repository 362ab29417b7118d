// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets over tally's parsers, its scene and SVG building and its PNG deflater:
// `make fuzz` builds them with -sanitize=fuzzer,address and runs each for a bounded time. A
// separate package because libFuzzer brings its own `main`; it depends on tally by path.
let package = Package(
    name: "TallyFuzz",
    dependencies: [.package(name: "tally", path: "..")],
    targets: [
        // libFuzzer's driver, shared by the targets.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzCount", dependencies: ["FuzzDriver", .product(name: "Tally", package: "tally")]),
        .executableTarget(
            name: "FuzzCountList", dependencies: ["FuzzDriver", .product(name: "TallyFuzzTargets", package: "tally")]),
        .executableTarget(
            name: "FuzzColor", dependencies: ["FuzzDriver", .product(name: "Tally", package: "tally")]),
        .executableTarget(
            name: "FuzzLabel",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "tally"),
            ]),
        .executableTarget(
            name: "FuzzScene",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "tally"),
            ]),
        .executableTarget(
            name: "FuzzDeflate",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "tally"),
            ]),
    ]
)
