import Foundation
import TallyTestSupport
import Testing

/// The README's images stay what tally draws now: each line of
/// Examples/docs-assets/assets.txt is drawn again and compared with the committed file.
@Suite struct DocsAssetsTests {
    static let folder = TallyProcess.packageRoot.appendingPathComponent("Examples/docs-assets")

    static var assets: [(file: String, arguments: [String])] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("assets.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let file = words.first, !file.hasPrefix("#") else { return nil }
            return (file, Array(words.dropFirst()))
        }
    }

    @Test func theCommittedImagesAreUpToDate() throws {
        let assets = Self.assets
        #expect(assets.count >= 5)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for asset in assets {
            let fresh = directory.appendingPathComponent(asset.file)
            let run = try TallyProcess.run(asset.arguments + ["-o", fresh.path])
            #expect(run.status == 0, "\(asset.file): \(run.stderr)")
            let committed = try? Data(
                contentsOf: Self.folder.appendingPathComponent("images").appendingPathComponent(asset.file))
            #expect(
                committed == (try Data(contentsOf: fresh)),
                "Examples/docs-assets/images/\(asset.file) is out of date: run make docs-assets")
        }
    }

    @Test func theReadmeShowsTheImages() throws {
        let readme = try String(
            contentsOf: TallyProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for asset in Self.assets where ["thresholds.svg", "light.svg", "dark.svg", "ink.svg"].contains(asset.file) {
            #expect(readme.contains("Examples/docs-assets/images/\(asset.file)"), "README does not show \(asset.file)")
        }
    }
}
