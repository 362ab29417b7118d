import Foundation
import TallyOptions
import TallyTestSupport
import Testing

/// The docs' lists of options are written from the options' declarations (`make docs`), never
/// by hand: SPEC §6's synopsis of `tally render`, the reference's table of drawing options and
/// the server's query parameters (SPEC §6, `tally serve`). A list in the repository that differs
/// from what the declarations give fails here, in `make check`, naming `make docs`.
@Suite struct GeneratedDocsTests {
    @Test(arguments: GeneratedDocs.regions.map(\.name))
    func theDocsListsAreTheDeclarations(_ name: String) throws {
        let region = try #require(GeneratedDocs.regions.first { $0.name == name })
        let url = TallyProcess.packageRoot.appendingPathComponent(region.file)
        let document = try String(contentsOf: url, encoding: .utf8)
        let filled = try #require(
            GeneratedDocs.filled(document, region),
            "\(region.file) has no \(GeneratedDocs.opening(region.name)) … \(GeneratedDocs.closing)")
        // A Bool, so a failure prints the one line and not the two documents.
        let current = filled == document
        #expect(
            current,
            "\(region.file): its \(region.name) differ from RenderOption's declarations; run make docs (or make docs-lists, the lists alone)"
        )
    }

    /// SPEC §6's and §7's synopses, as the SPEC words them: every option of the command, in the
    /// spellings its command line takes, and none it does not take; at most 100 columns.
    @Test(arguments: [
        (
            "render synopsis", "tally render <count> [-o PATH|-] [-f svg|png|pdf|json|term]",
            [
                "[--size PX | --width PX | --height PX]", "[--theme light|dark|auto]", "[--style clean|ink]",
                "[--background COLOR|paper|none]", "[--fit content|frame]", "[--detail auto|full]", "[--animate]",
                "[--animate-from M]", "[--caption | --no-caption]", "[--inset | --no-inset]", "[--of N]",
                "[--ink COLOR]",
            ]
        ),
        (
            "badge synopsis", "tally badge <count> [-o PATH|-] [-f svg|png|pdf] [--scale F]",
            [
                "[--theme light|dark|auto]", "[--style flat|flat-square|for-the-badge]", "[--color COLOR]",
                "[--label-color COLOR]", "[--label TEXT]", "[--of N]", "[--c3 COLOR]",
            ]
        ),
    ])
    func theSynopsesAreTheSpecs(_ name: String, _ opening: String, _ literals: [String]) throws {
        let region = try #require(GeneratedDocs.regions.first { $0.name == name })
        let words = region.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(region.text.hasPrefix("```\n" + opening))
        for literal in literals { #expect(words.contains(literal), "\(literal) in \(words)") }
        let options = name == "badge synopsis" ? RenderOption.badgeOptions : RenderOption.all
        for option in RenderOption.allCases where option.name != "style" {
            let named = words.contains("[\(option.flag)") || words.contains("| \(option.flag)")
            #expect(named == options.contains(option), "\(name) and \(option.flag)")
        }
        for line in region.text.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }
    }

    /// The reference's table has a row for each drawing option, its cells unbroken by `|`.
    @Test func theTableHasARowAnOption() throws {
        let region = try #require(GeneratedDocs.regions.first { $0.name == "drawing options" })
        let rows = region.text.split(separator: "\n").dropFirst(2)
        #expect(rows.count == RenderOption.all.count)
        for (row, option) in zip(rows, RenderOption.all) {
            #expect(row.hasPrefix("| `\(option.flag)"), "\(row)")
            let cells = row.replacing("\\|", with: "").split(separator: "|", omittingEmptySubsequences: false)
            #expect(cells.count == 4, "two cells: \(row)")
        }
        #expect(region.text.contains("images are at most 16,384 px a side and 64 megapixels"))
    }

    /// The server's query parameters: every render option on `/{count}`, a badge's on `/badge/`,
    /// shields.io's spelling `labelColor` for `--label-color` (SPEC §7).
    @Test func theQueryParametersAreTheOptions() throws {
        let region = try #require(GeneratedDocs.regions.first { $0.name == "query parameters" })
        let lines = region.text.split(separator: "\n")
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("- `/{count}.svg`, `.png`, `.pdf`, `.json`: `size`, `width`, `height`, `scale`"))
        #expect(lines[1].hasPrefix("- `/badge/{count}.svg`, `.png`, `.pdf`: "))
        #expect(lines[1].contains("`labelColor`") && lines[1].contains("`style`"))
        for option in RenderOption.all { #expect(lines[0].contains("`\(option.queryName)`")) }
        for option in RenderOption.badgeOptions { #expect(lines[1].contains("`\(option.queryName)`")) }
        #expect(lines[2] == "- A switch (`animate`, `caption` or `inset`) is on alone or as `=true`, off as `=false`.")
    }

    /// A region is filled between its markers, whatever was there, and the rest kept.
    @Test func aRegionIsFilledBetweenItsMarkers() throws {
        let region = GeneratedDocs.Region(file: "x.md", name: "n", text: "- a\n")
        let document = "# T\n\n\(GeneratedDocs.opening("n"))\nold\n\(GeneratedDocs.closing)\n\nafter\n"
        #expect(
            GeneratedDocs.filled(document, region)
                == "# T\n\n<!-- generated by make docs: n -->\n\n- a\n\n<!-- end generated -->\n\nafter\n")
        #expect(GeneratedDocs.filled("# T\n", region) == nil)
    }
}
