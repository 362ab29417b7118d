// swift-tools-version: 6.1
import PackageDescription

// Speed goals live here and in scripts/bench, never in timed tests: `make bench`. A separate
// package (as Fuzz/ is), so tally's own builds and tests never compile the benchmarks or
// google/swift-benchmark; it depends on tally by path, through the `Tally` library.
let package = Package(
    name: "TallyBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "tally", path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", exact: "0.1.2"),
    ],
    targets: [
        .executableTarget(
            name: "TallyBenchmarks",
            dependencies: [
                .product(name: "Tally", package: "tally"),
                .product(name: "Benchmark", package: "swift-benchmark"),
            ],
            path: "TallyBenchmarks"
        )
    ]
)
