// swift-tools-version: 6.1
import PackageDescription

// A tiny app that uses tally as a library: one import, labelled calls, no force-unwrap.
// `make test` builds and runs it twice: as is, and with tally's Cairo trait off
// (TALLY_WITHOUT_CAIRO=1), where it writes SVG and JSON and links no Cairo at all.
let withoutCairo = Context.environment["TALLY_WITHOUT_CAIRO"] != nil

let package = Package(
    name: "TallyLibraryExample",
    dependencies: [.package(name: "tally", path: "../..", traits: withoutCairo ? [] : [.defaults])],
    targets: [
        .executableTarget(name: "TallyLibraryExample", dependencies: [.product(name: "Tally", package: "tally")])
    ]
)
