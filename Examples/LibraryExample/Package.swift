// swift-tools-version: 6.1
import PackageDescription

// A tiny app that uses tally as a library: one import, labelled calls, no force-unwrap.
// `make test` builds and runs it.
let package = Package(
    name: "TallyLibraryExample",
    dependencies: [.package(name: "tally", path: "../..")],
    targets: [
        .executableTarget(name: "TallyLibraryExample", dependencies: [.product(name: "Tally", package: "tally")]),
    ]
)
