import Foundation
import TallyDocs
import TallyTestSupport
import Testing

/// SPEC §8, "The page renders the same outside regions": for every place a region may stand,
/// cmark-gfm's HTML of the text outside regions is the same before and after a run. Checked on
/// generated documents (every construct `MarkdownLayoutTests.Generator` makes, regions of every
/// reference form, text right after closers) and on real READMEs with regions put in them.
@Suite struct PageRenderingTests {
    /// A generated document's `<!-- tally render N --><!-- /tally -->` as a region of the
    /// planner's stand-in commands: each reference form (one image, a scheme pair, densities, a
    /// badge's pair) in turn, and every fifth one that starts its line a block region, its
    /// closer on the next line.
    static func regions(_ document: String) -> String {
        document.replacing(/(^|\n[ \t>]*)?<!-- tally render (\d+) --><!-- \/tally -->/) { match in
            let number = Int(match.output.2) ?? 0
            let command = [
                "render \(number).svg", "render \(number).svg auto", "render \(number).png scales=1,2",
                "badge \(number).svg auto",
            ][number % 4]
            let prefix = String(match.output.1 ?? "")
            let lineBreak = match.output.1 != nil && number % 5 == 0 ? "\n" : ""
            return prefix + "<!-- tally \(command) -->" + lineBreak + "<!-- /tally -->"
        }
    }

    /// The document after a run, or nil where the run refuses it or warns that the page will
    /// change (a region at a list item's start, or on a line of a one-badge-a-line row: SPEC §8
    /// names those places and their fix).
    static func afterARun(_ document: String) -> (text: String, regions: Int)? {
        let plan = DocsPlannerTests.plan([("page.md", document)])
        guard plan.failures.isEmpty, plan.warnings.count == plan.openersNotRun else { return nil }
        guard let written = plan.writes.last(where: { !$0.isImage }) else { return (document, plan.regions) }
        return (String(decoding: written.bytes, as: UTF8.self), plan.regions)
    }

    /// Compares each document's page before and after a run; how many regions ran.
    static func expectTheSamePage(_ documents: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (documents: Int, regions: Int)
    {
        let runs = documents.map(afterARun)
        let kept = zip(documents, runs).compactMap { document, run in run.map { (document, $0) } }
        let rendered = try cmarkGFMRender(kept.map(\.0) + kept.map(\.1.text), sourceLocation: sourceLocation)
        var failures = 0
        for (index, (before, after)) in kept.enumerated() {
            let (page, written) = (rendered[index], rendered[kept.count + index])
            guard htmlOutsideRegions(page) != htmlOutsideRegions(written) else { continue }
            failures += 1
            if failures <= 3 {
                Issue.record(
                    "the page changed outside regions:\n\(before)\n--- after a run:\n\(after.text)\n--- before:\n\(page)\n--- after:\n\(written)",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(failures == 0, "\(failures) of \(kept.count) documents", sourceLocation: sourceLocation)
        return (kept.count, kept.map(\.1.regions).reduce(0, +))
    }

    @Test(
        .enabled(if: canAskCmarkGFM, "needs python3 with cmarkgfm (scripts/install-deps test installs it)"),
        .processTimeLimit(minutes: 1), .readByAnOutsideProgram)
    func generatedDocumentsRenderTheSameOutsideRegions() throws {
        var generator = MarkdownLayoutTests.Generator(state: 52)
        let documents = (0..<2_000).map { _ in Self.regions(generator.document()) }
        let checked = try Self.expectTheSamePage(documents)
        // Most documents are read and run (the rest hold a region that is refused or warned of),
        // so the property is held where regions stand, not on documents left as they were.
        #expect(checked.documents >= 1_700 && checked.regions >= 2_500, "\(checked)")
    }

    /// Five READMEs of the packages tally builds with (their checkouts beside the build), each
    /// with a block region after every blank line and an inline one at the end of every line,
    /// in two documents.
    @Test(
        .enabled(if: canAskCmarkGFM, "needs python3 with cmarkgfm (scripts/install-deps test installs it)"),
        .processTimeLimit(minutes: 1), .readByAnOutsideProgram)
    func realREADMEsRenderTheSameOutsideRegions() throws {
        let checkouts = try #require(Self.checkouts, "no package checkouts beside the test binary")
        var documents: [String] = []
        for package in ["swift-nio", "swift-collections", "swift-snapshot-testing", "hummingbird", "swift-metrics"] {
            let readme = try String(
                contentsOf: checkouts.appendingPathComponent("\(package)/README.md"), encoding: .utf8)
            let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
            var number = 0
            func region() -> String {
                number += 1
                return "<!-- tally render \(number) --><!-- /tally -->"
            }
            let blocks = lines.map { $0.isEmpty ? "\n" + region() + "\n" : String($0) }
            let inline = lines.map { $0.isEmpty ? "" : $0 + " " + region() }
            documents += [blocks.joined(separator: "\n"), inline.joined(separator: "\n")].map(Self.regions)
        }
        let checked = try Self.expectTheSamePage(documents)
        #expect(checked.documents == documents.count, "a README was refused or warned of: \(checked)")
        #expect(checked.regions >= 500, "\(checked)")
    }

    /// The package checkouts of the build that made this test binary (`.build/checkouts`).
    static let checkouts: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<6 {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("checkouts")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("swift-nio/README.md").path) {
                return candidate
            }
        }
        return nil
    }()
}
