import Foundation
@preconcurrency import SnapshotTesting
import Testing
import TallyGeometry
import TallyRender
import TallyStyle

/// Golden SVG text: a few counts in each style and theme, compared byte for byte with the
/// references in `Snapshots/svg/` (`make snapshots` records them anew).
@Suite struct SVGGoldenTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots/svg").path

    /// Never record in a normal run: a missing reference fails. `SNAPSHOT_TESTING_RECORD=all`
    /// (what `make snapshots` sets) records.
    static var record: SnapshotTestingConfiguration.Record {
        ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"].flatMap(SnapshotTestingConfiguration.Record.init(rawValue:)) ?? .never
    }

    /// Text compared line by line, stored with the `.svg` extension so the references open as images.
    static var svgText: Snapshotting<String, String> { Snapshotting(pathExtension: "svg", diffing: .lines) }

    static let variants: [(String, RenderSettings)] = [
        ("light", RenderSettings()),
        ("dark", RenderSettings(appearance: Appearance(theme: .dark, background: .paper))),
        ("auto", RenderSettings(appearance: Appearance(theme: .auto))),
        ("ink", RenderSettings(style: .ink, seed: 1)),
    ]

    @Test(arguments: [UInt64(0), 7, 25, 137, 1000, 10_000])
    func golden(_ count: UInt64) throws {
        for (name, settings) in Self.variants {
            var settings = settings
            settings.side = .longer(512)
            let svg = String(decoding: try render(count, settings), as: UTF8.self)
            let failure = verifySnapshot(of: svg, as: Self.svgText, named: name, record: Self.record,
                                         snapshotDirectory: Self.snapshots, testName: "tally-\(count)")
            if let failure { Issue.record(Comment(rawValue: failure)) }
        }
    }
}
