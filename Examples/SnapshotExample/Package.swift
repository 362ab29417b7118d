// swift-tools-version: 6.1
import Foundation
import PackageDescription

// This example uses the tally checkout two folders up; SwiftPM names a local package after its
// folder, whatever the clone is called.
let tallyFolder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let tally = tallyFolder.lastPathComponent

// How a project of yours locks its tally images in snapshot tests: depend on tally's
// TallySnapshotTesting product and swift-snapshot-testing, then assert with .scene, .svg or .png.
let package = Package(
    name: "SnapshotExample",
    dependencies: [
        // In your project: .package(url: "<tally's repository>", from: "0.1.0")
        .package(path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
    ],
    targets: [
        .testTarget(
            name: "TallyImageTests",
            dependencies: [
                .product(name: "Tally", package: tally),
                .product(name: "TallySnapshotTesting", package: tally),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        )
    ]
)
