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

@Suite struct HelpTests {
    @Test(arguments: [
        ["--help"], ["render", "--help"], ["batch", "--help"], ["gallery", "--help"], ["describe", "--help"],
        ["help", "render"],
    ])
    func helpShowsExamples(_ arguments: [String]) throws {
        let run = try TallyProcess.run(arguments)
        #expect(run.status == 0)
        #expect(run.text.contains("Examples:") && run.text.contains("tally "), "\(arguments)")
    }

    @Test func versionAndCompletions() throws {
        let version = try TallyProcess.run(["--version"])
        #expect(version.status == 0 && version.text.split(separator: ".").count == 3)
        for shell in ["bash", "zsh", "fish"] {
            let run = try TallyProcess.run(["--generate-completion-script", shell])
            #expect(run.status == 0 && run.text.contains("gallery") && run.text.contains("animate-from"), "\(shell)")
        }
    }

    /// The man page is made from the same command definitions (`make man`); its source, the
    /// tool description, carries every command's examples.
    @Test func theManPageSourceHasTheExamples() throws {
        let run = try TallyProcess.run(["--experimental-dump-help"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let command = try #require(object["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        for name in ["render", "batch", "gallery", "describe"] {
            let sub = try #require(subcommands.first { $0["commandName"] as? String == name })
            #expect((sub["discussion"] as? String)?.contains("Examples:") == true, "\(name)")
        }
    }
}
