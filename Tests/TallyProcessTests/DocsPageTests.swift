import Foundation
import TallyCommands
import TallyTestSupport
import Testing

/// SPEC §8, "The page renders the same outside regions": cmark-gfm's HTML of everything outside
/// the regions is the same before and after a run, for every form of reference a region writes
/// (a scheme pair's `<picture>`, one fixed theme, a PNG, densities) and whatever follows its
/// closer (a heading, a list, emphasis, a quote, a table).
@Suite struct DocsPageTests {
    /// Each region's commands: one of each form of reference.
    static let commands = [
        "render 5 -o a.svg", "render 6 --theme light -o b.svg", "render 7 -o c.png", "render 8 --theme dark -o d.png",
        "render 9 --theme light --scale 1,2 -o e.png", "badge 10 --theme light -o f.svg",
    ]

    /// What may stand right after a closer.
    static let followers = [
        "## Usage", "- one\n- two", "*emphasis* and `code`", "> quoted", "| a | b |\n|---|---|\n| 1 | 2 |",
        "plain text",
        "<!-- a comment -->", "",
    ]

    @Test(
        .enabled(if: canAskCmarkGFM, "needs python3 with cmarkgfm (scripts/install-deps test installs it)"),
        .readByAnOutsideProgram)
    func thePageOutsideRegionsRendersTheSame() throws {
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var documents: [(url: URL, before: String)] = []
        for (index, command) in Self.commands.enumerated() {
            for (place, follower) in Self.followers.enumerated() {
                let name = "\(index)-\(place)"
                let output = command.replacingOccurrences(of: " -o ", with: " -o \(name)-")
                // A block region, then one inline after text, each with the follower right after.
                let text = """
                    # Page

                    <!-- tally \(output) -->
                    <!-- /tally -->
                    \(follower)

                    Text <!-- tally \(output.replacingOccurrences(of: " -o \(name)-", with: " -o \(name)-inline-")) --><!-- /tally -->
                    \(follower)

                    """
                let url = folder.appendingPathComponent("\(name).md")
                try text.write(to: url, atomically: true, encoding: .utf8)
                documents.append((url, text))
            }
        }
        _ = try DocsRun.update(paths: [folder.path], check: false, operations: SystemFileOperations(), say: { _ in })
        let after = try documents.map { try String(contentsOf: $0.url, encoding: .utf8) }
        #expect(zip(after, documents).allSatisfy { $0 != $1.before })
        let rendered = try cmarkGFMRender(documents.map(\.before) + after)
        for (index, document) in documents.enumerated() {
            let (before, written) = (rendered[index], rendered[documents.count + index])
            #expect(
                htmlOutsideRegions(written) == htmlOutsideRegions(before),
                "\(document.before)\n---\n\(after[index])\n---\n\(written)")
        }
    }
}
