import Foundation
import TallyTestSupport
import Testing

/// `tally docs` as a user runs it (SPEC §8): regions in a fresh folder become images with the
/// command's bytes and references; a second run changes nothing; `--check` names stale regions
/// and writes nothing; a bad region names its line and changes no file.
@Suite(.runsTallysThreads) struct DocsCommandTests {
    static let readme = """
        # A project

        Some text that stays.

        <!-- tally render 137 -o images/137.svg -->
        <!-- /tally -->

        <!-- tally badge 6200 --of 10000 --label funded -o images/funded.svg -->
        <!-- /tally -->

        <!-- tally render 9999 --theme auto --size 128 -o images/9999.png -->
        <!-- /tally -->

        More text, and a fence:

        ```
        <!-- tally render -5 -->
        ```
        """

    /// Every file below `folder`, with its bytes and modification time, to see what a run
    /// changed.
    static func snapshot(_ folder: URL) throws -> [String: (Data, timespec)] {
        var files: [String: (Data, timespec)] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        while let name = enumerator.nextObject() as? String {
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), info.st_mtim)
        }
        return files
    }

    static func same(_ a: [String: (Data, timespec)], _ b: [String: (Data, timespec)]) -> Bool {
        a.count == b.count
            && a.allSatisfy { name, value in
                guard let other = b[name] else { return false }
                return other.0 == value.0 && other.1.tv_sec == value.1.tv_sec && other.1.tv_nsec == value.1.tv_nsec
            }
    }

    static func lineNumber(of needle: String, in text: String) throws -> Int {
        let lines = text.components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(needle) }) + 1
    }

    @Test(.processTimeLimit(minutes: 2))
    func aFreshFolderGetsImagesAndReferencesThenStaysStill() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let readmeURL = folder.appendingPathComponent("README.md")
        try Self.readme.write(to: readmeURL, atomically: true, encoding: .utf8)

        let run = try TallyProcess.run(["docs", "README.md"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOf: readmeURL, encoding: .utf8)

        // The SVG is render's bytes, and its reference carries describe's title and a size.
        let svg = try Data(contentsOf: folder.appendingPathComponent("images/137.svg"))
        #expect(svg == (try TallyProcess.run(["render", "137"])).stdout)
        let title = try #require(try TallyProcess.run(["describe", "137"]).text.split(separator: "\n").first)
        #expect(written.contains("<img src=\"images/137.svg\" alt=\"\(title)"))
        #expect(
            written.range(
                of: #"src="images/137.svg" alt="[^"]*" width="256" height="\d+""#, options: .regularExpression) != nil)
        // The badge's alt is its label and share; its bytes are badge's.
        #expect(written.contains("alt=\"funded: 6,200 of 10,000 (62%)\""))
        let badge = try TallyProcess.run(["badge", "6200", "--of", "10000", "--label", "funded"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("images/funded.svg")) == badge.stdout)
        // The PNG that follows the scheme is a light and dark pair in a <picture>.
        #expect(
            written.contains(
                "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"images/9999-dark.png\"><img src=\"images/9999.png\""
            ))
        // Each is transparent, as the auto SVG is (SPEC §3): drawn for a page of its own scheme.
        let light = try TallyProcess.run(
            ["render", "9999", "--theme", "light", "--background", "none", "--size", "128", "-f", "png"])
        let dark = try TallyProcess.run(
            ["render", "9999", "--theme", "dark", "--background", "none", "--size", "128", "-f", "png"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("images/9999.png")) == light.stdout)
        #expect(try Data(contentsOf: folder.appendingPathComponent("images/9999-dark.png")) == dark.stdout)
        // The text around the regions, and the fenced example, are as they were.
        #expect(
            written.hasPrefix("# A project\n\nSome text that stays.\n\n<!-- tally render 137 -o images/137.svg -->\n<"))
        #expect(written.hasSuffix("<!-- /tally -->\n\nMore text, and a fence:\n\n```\n<!-- tally render -5 -->\n```"))

        // A second run writes nothing: the same bytes and modification times; --check passes.
        let before = try Self.snapshot(folder)
        let again = try TallyProcess.run(["docs", "README.md"], directory: folder)
        #expect(again.status == 0, "\(again.stderr)")
        let check = try TallyProcess.run(["docs", "--check", "README.md"], directory: folder)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(Self.same(before, try Self.snapshot(folder)))

        // One region's count changed: --check names its line, exits 1 and writes nothing.
        let changed = written.replacingOccurrences(of: "render 137 -o", with: "render 138 -o")
        try Data(changed.utf8).write(to: readmeURL)
        let stale = try Self.snapshot(folder)
        let failed = try TallyProcess.run(["docs", "--check", "README.md"], directory: folder)
        #expect(failed.status == 1)
        let line = try Self.lineNumber(of: "render 138", in: changed)
        #expect(failed.stderr.contains("README.md:\(line): image 'images/137.svg' is out of date"), "\(failed.stderr)")
        #expect(failed.stderr.contains("README.md:\(line): the reference is out of date"))
        #expect(!failed.stderr.contains("README.md:\(try Self.lineNumber(of: "badge 6200", in: changed)):"))
        #expect(Self.same(stale, try Self.snapshot(folder)))

        // A bad region: the run fails naming its line with render's own message, and no file
        // changes, though the other region is stale.
        let bad = changed.replacingOccurrences(of: "render 9999 --theme", with: "render -1 --theme")
        try Data(bad.utf8).write(to: readmeURL)
        let untouched = try Self.snapshot(folder)
        let refused = try TallyProcess.run(["docs", "README.md"], directory: folder)
        let badLine = try Self.lineNumber(of: "render -1", in: bad)
        expectOneLineError(refused, status: 64, mentioning: "README.md:\(badLine): count '-1' is negative")
        #expect(Self.same(untouched, try Self.snapshot(folder)))
    }

    @Test(.processTimeLimit(minutes: 1))
    func aFolderIsSearchedAndOutputIsRelativeToEachDocument() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let guide = folder.appendingPathComponent("docs/guides")
        try FileManager.default.createDirectory(at: guide, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
        let region = "<!-- tally render 5 --theme light -o img/five.svg -->\r\n<!-- /tally -->\r\n"
        try Data(("\u{FEFF}# Guide\r\n" + region).utf8).write(to: guide.appendingPathComponent("use.markdown"))
        try Data(("<p>\n" + region).utf8).write(to: folder.appendingPathComponent("docs/page.html"))
        try Data(region.utf8).write(to: folder.appendingPathComponent(".hidden/skipped.md"))
        try Data("no regions".utf8).write(to: folder.appendingPathComponent("docs/notes.txt"))

        let run = try TallyProcess.run(["docs", "docs"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("2 regions in 2 documents"), "\(run.stderr)")
        for path in ["docs/guides/img/five.svg", "docs/img/five.svg"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".hidden/img").path))
        let use = try Data(contentsOf: guide.appendingPathComponent("use.markdown"))
        #expect(
            use.starts(
                with: Data(
                    "\u{FEFF}# Guide\r\n<!-- tally render 5 --theme light -o img/five.svg -->\r\n<picture><img src=\"img/five.svg\""
                        .utf8)))
        #expect(use.suffix(19) == Data("\r\n<!-- /tally -->\r\n".utf8))
    }

    /// Every file of a light and dark pair, and of a density, is the command's bytes with that
    /// theme and scale (a pair shares one layout, so this checks the sharing too).
    @Test(.processTimeLimit(minutes: 1))
    func pairsAndDensitiesAreTheCommandsBytes() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = """
            <!-- tally render 10999 --size 96 -o a.svg -->
            <!-- /tally -->
            <!-- tally badge 137 --label stars --of 200 -o b.svg -->
            <!-- /tally -->
            <!-- tally render 99 --theme auto --scale 1,2 --size 64 -o c.png -->
            <!-- /tally -->
            """
        try Data(page.utf8).write(to: folder.appendingPathComponent("page.md"))
        let run = try TallyProcess.run(["docs", "page.md"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let expected: [(String, [String])] = [
            ("a.svg", ["render", "10999", "--size", "96"]),
            ("a-light.svg", ["render", "10999", "--size", "96", "--theme", "light"]),
            ("a-dark.svg", ["render", "10999", "--size", "96", "--theme", "dark"]),
            ("b.svg", ["badge", "137", "--label", "stars", "--of", "200"]),
            ("b-light.svg", ["badge", "137", "--label", "stars", "--of", "200", "--theme", "light"]),
            ("b-dark.svg", ["badge", "137", "--label", "stars", "--of", "200", "--theme", "dark"]),
            ("c.png", ["render", "99", "--theme", "light", "--background", "none", "--size", "64", "-f", "png"]),
            (
                "c@2x.png",
                [
                    "render", "99", "--theme", "light", "--background", "none", "--scale", "2", "--size", "64", "-f",
                    "png",
                ]
            ),
            ("c-dark.png", ["render", "99", "--theme", "dark", "--background", "none", "--size", "64", "-f", "png"]),
            (
                "c-dark@2x.png",
                [
                    "render", "99", "--theme", "dark", "--background", "none", "--scale", "2", "--size", "64", "-f",
                    "png",
                ]
            ),
        ]
        for (file, arguments) in expected {
            let drawn = try TallyProcess.run(arguments)
            #expect(drawn.status == 0)
            #expect(try Data(contentsOf: folder.appendingPathComponent(file)) == drawn.stdout, "\(file)")
        }
        let written = try String(contentsOf: folder.appendingPathComponent("page.md"), encoding: .utf8)
        #expect(written.contains("srcset=\"c-dark.png 1x, c-dark@2x.png 2x\""))
        #expect(written.contains("<img src=\"c.png\" srcset=\"c.png 1x, c@2x.png 2x\""))
    }

    /// SPEC §8: in a `.docc` catalogue the inside is the catalogue: an article writes into the
    /// catalogue's `Images/`, whether it is named from outside the catalogue or from its own
    /// folder, and the same `-o` gives the same files and reference; outside is refused.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)"), .processTimeLimit(minutes: 1))
    func anArticleWritesIntoItsCataloguesImages() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let articles = folder.appendingPathComponent("Foo.docc/Articles")
        try FileManager.default.createDirectory(at: articles, withIntermediateDirectories: true)
        let article = articles.appendingPathComponent("a.md")
        let region = "# A\n\n<!-- tally render 137 --scale 1,2 -o ../Images/x.png -->\n<!-- /tally -->\n"
        try Data(region.utf8).write(to: article)
        let inside = try TallyProcess.run(["docs", "a.md"], directory: articles)
        #expect(inside.status == 0, "\(inside.stderr)")
        let images = folder.appendingPathComponent("Foo.docc/Images")
        #expect(try FileManager.default.contentsOfDirectory(atPath: images.path).sorted() == ["x.png", "x@2x.png"])
        let written = try String(contentsOf: article, encoding: .utf8)
        #expect(written.contains("-->\n![137 tally marks: "))
        #expect(written.contains("](x)\n<!-- /tally -->"))
        let outside = try TallyProcess.run(["docs", "--check", "Foo.docc"], directory: folder)
        #expect(outside.status == 0, "\(outside.stderr)")

        try Data(region.replacingOccurrences(of: "../Images", with: "../../Images").utf8).write(to: article)
        for (directory, path) in [(articles, "a.md"), (folder, "Foo.docc/Articles/a.md")] {
            let refused = try TallyProcess.run(["docs", path], directory: directory)
            expectOneLineError(
                refused, status: 64, mentioning: "\(path):3: -o '../../Images/x.png' leaves the catalogue")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Images").path))
    }

    /// An image written again replaces the file atomically: a hard link to the old one keeps
    /// the old bytes.
    @Test(.processTimeLimit(minutes: 1))
    func imagesAreReplacedAtomically() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("page.md")
        try Data("<!-- tally render 3 -o a.svg -->\n<!-- /tally -->\n".utf8).write(to: page)
        #expect(try TallyProcess.run(["docs", "page.md"], directory: folder).status == 0)
        let image = folder.appendingPathComponent("a.svg")
        let old = try Data(contentsOf: image)
        try FileManager.default.linkItem(at: image, to: folder.appendingPathComponent("old.svg"))
        try Data("<!-- tally render 4 -o a.svg -->\n<!-- /tally -->\n".utf8).write(to: page)
        #expect(try TallyProcess.run(["docs", "page.md"], directory: folder).status == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("old.svg")) == old)
        #expect(try Data(contentsOf: image) != old)
    }

    @Test(.processTimeLimit(minutes: 1))
    func badRegionsAreNamedEachWithItsLine() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = """
            <!-- tally render 1 -o ../out.svg -->
            <!-- /tally -->
            <!-- tally render 1 -o a.svg -->
            <!-- tally render 2 -o b.svg -->
            <!-- /tally -->
            """
        try Data(text.utf8).write(to: folder.appendingPathComponent("a.md"))
        try Data(
            "<!-- tally render 1 -o x.svg -->\n<!-- /tally -->\n<!-- tally render 2 -o x.svg -->\n<!-- /tally -->\n"
                .utf8
        )
        .write(to: folder.appendingPathComponent("b.md"))
        let run = try TallyProcess.run(["docs", "."], directory: folder)
        #expect(run.status == 64)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("tally: error: ") }, "\(run.stderr)")
        #expect(
            lines.contains {
                $0.contains("a.md:3: a region opened inside the region of line 3")
                    || $0.contains("a.md:4: a region opened inside")
            }, "\(run.stderr)")
        #expect(lines.contains { $0.contains("b.md:3: 'x.svg' is written by b.md:1 too") }, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.md", "b.md"])
    }

    /// SPEC §8: an opener outside code that is not run is a warning naming FILE:LINE, never
    /// "0 regions in 0 documents"; it keeps the exit code, and code stays silent.
    @Test(.processTimeLimit(minutes: 1))
    func openersNotRunAreWarnedOfByLine() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "# Page\n\nText <!-- tally render 1 -o a.svg --> and no closer.\n\n    <!-- tally render 2 -->\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("page.md"))
        for arguments in [["docs", "page.md"], ["docs", "--check", "page.md"]] {
            let run = try TallyProcess.run(arguments, directory: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(run.stderr)")
            #expect(
                lines.first?.hasPrefix("tally: warning: page.md:3: this region was not run") == true, "\(run.stderr)")
            #expect(
                lines.last == "tally: no region run, 1 opener not run (see the warnings): up to date", "\(run.stderr)")
            #expect(!run.stderr.contains("0 regions"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["page.md"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("page.md")) == Data(text.utf8))
    }

    /// A README as they are written: a region wherever Markdown puts a picture, and examples of
    /// regions in code (SPEC §8).
    static let readmeWithInlineRegions = """
        # A project

        [![CI](https://img.shields.io/badge/build-passing-green.svg)](https://example.com/ci) [![Crates](https://img.shields.io/badge/crates.io-1.0-orange.svg)](https://example.com/crates) [![License](https://img.shields.io/badge/license-MIT-blue.svg)](LICENSE) <!-- tally badge 1234 --label downloads -o img/downloads.svg --><!-- /tally -->

        A project that counts things.

        | Count | Picture |
        |------:|---------|
        | 12 | <!-- tally render 12 -o img/12.svg --><!-- /tally --> |
        | 137 | marks |

        * three <!-- tally render 3 -o img/3.svg --><!-- /tally -->
        * a plain item

        1. seven <!-- tally render 7 -o img/7.svg --><!-- /tally -->
        2. the second

        > in a quote <!-- tally render 25 -o img/25.svg --><!-- /tally -->
        > and more of it

        - An example in a list item:

          ```markdown
          <!-- tally render 99 -o img/fence.svg --><!-- /tally -->
          ```

        An indented example:

        \t<!-- tally render 98 -o img/indented.svg --><!-- /tally -->

        In a sentence, `<!-- tally render 97 -o img/span.svg --><!-- /tally -->` is code.

        """

    /// Rendered by cmark-gfm (GitHub's parser), the README keeps its structure when tally writes
    /// its references: the table its rows, the badge row one paragraph (now of four images), the
    /// lists and the quote their items; the regions in code stay as they were.
    @Test(
        .enabled(if: canAskCmarkGFM, "needs python3 with cmarkgfm (scripts/install-deps test installs it)"),
        .processTimeLimit(minutes: 1), .readByAnOutsideProgram)
    func inlineRegionsKeepTheDocumentsStructure() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Self.readmeWithInlineRegions
        let url = folder.appendingPathComponent("README.md")
        try before.write(to: url, atomically: true, encoding: .utf8)
        let run = try TallyProcess.run(["docs", "README.md"], directory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("5 regions in 1 document: wrote 15 images and 1 document"), "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        let after = try String(contentsOf: url, encoding: .utf8)
        // Each region outside code holds a reference on its line; those in code are as they were.
        let references = after.matches(of: /--><(img|picture)[^\n]*?<!-- \/tally -->/).map {
            String(after[$0.range].dropFirst(3).dropLast("<!-- /tally -->".count))
        }
        #expect(references.count == 5)
        #expect(
            after.split(separator: "\n", omittingEmptySubsequences: false).count
                == before.split(separator: "\n", omittingEmptySubsequences: false).count)
        for name in ["fence", "indented", "span"] {
            #expect(after.contains("-o img/\(name).svg --><!-- /tally -->"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("img/\(name).svg").path))
        }
        for name in ["downloads", "12", "3", "7", "25"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("img/\(name).svg").path))
        }
        let rendered = try cmarkGFMRender([before, after])
        var stripped = rendered[1]
        for reference in references { stripped = stripped.replacingOccurrences(of: reference, with: "") }
        #expect(stripped == rendered[0], "\(rendered[1])")
        func count(_ needle: String, in text: some StringProtocol) -> Int {
            text.components(separatedBy: needle).count - 1
        }
        #expect(count("<tr>", in: rendered[1]) == 3 && count("<li>", in: rendered[1]) == 5)
        #expect(count("<blockquote>", in: rendered[1]) == 1)
        let badgeRow = try #require(rendered[1].firstMatch(of: /<p>[^\n]*shields[^\n]*<\/p>/))
        #expect(count("<img ", in: badgeRow.output) == 4, "\(badgeRow.output)")
    }

    /// The repository keeps its own pictures this way (SPEC §8): README.md and docs/ hold at
    /// least ten regions, and they are what tally draws now.
    @Test(.processTimeLimit(minutes: 3))
    func theRepositorysDocumentsAreUpToDate() throws {
        try startingAProcess()
        let run = try TallyProcess.run(
            ["docs", "--check", "README.md", "docs"], directory: TallyProcess.packageRoot, timeout: 170)
        #expect(run.status == 0, "\(run.stderr)")
        let regions = try #require(
            run.stderr.firstMatch(of: /(\d+) regions in/).flatMap { Int($0.output.1) })
        #expect(regions >= 10)
        // The same through swift-argument-parser (`--` is not read by the plain reader).
        let parsed = try TallyProcess.run(
            ["docs", "--check", "--", "README.md", "docs"], directory: TallyProcess.packageRoot, timeout: 170)
        #expect(parsed.status == 0 && parsed.stderr == run.stderr, "\(parsed.stderr)")
    }
}
