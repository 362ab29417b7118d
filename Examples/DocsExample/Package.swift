// swift-tools-version: 6.1
import PackageDescription

// How a package of yours keeps the tally pictures of its README.md and DocC catalogue: depend on
// tally, write regions, and run its command plugin (SPEC §8):
//
//   swift package --allow-writing-to-package-directory tally-docs   update them
//   swift package tally-docs --check                                for CI: writes nothing,
//                                                                   so it needs no permission
//
// `make test` runs the check, so the committed pictures here are what tally draws now.
let package = Package(
    name: "DocsExample",
    dependencies: [
        // In your project: .package(url: "<tally's repository>", from: "0.1.0")
        .package(path: "../..")
    ],
    targets: [
        // A library with a DocC catalogue, whose article holds a region too.
        .target(name: "Greeting")
    ]
)
