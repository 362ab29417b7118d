import Foundation
import PropertyBased
import TallyDocs
import Testing

/// The region parser (SPEC §8): text outside regions comes back byte for byte, a region tally
/// writes reads back as the same region, and code fences hold text.
@Suite struct RegionDocumentTests {
    /// Pieces of Markdown that can never form a region (no `tally` word), with the bytes that
    /// break naive parsers: CRLF, a lone CR, a byte order mark, bytes that are not UTF-8,
    /// fences, comments and their ends.
    static let plainTokens: [[UInt8]] = [
        Array("text ".utf8), Array("\n".utf8), Array("\r\n".utf8), [0x0D], Array("  ".utf8), Array("\t".utf8),
        Array("<!--".utf8), Array("-->".utf8), Array("<!-- note -->".utf8), Array("```".utf8), Array("~~~".utf8),
        Array("<img src=\"a.svg\">".utf8), [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], Array("é".utf8), Array("tall".utf8),
        Array("/".utf8), Array("# Title".utf8), Array("-".utf8), Array("`".utf8),
    ]

    /// Tokens that may form regions, or malformed ones.
    static let anyTokens: [[UInt8]] =
        plainTokens + [
            Array("<!-- tally ".utf8), Array("<!-- /tally -->".utf8), Array("tally".utf8), Array("render 1 ".utf8),
            Array("-o a.svg".utf8),
        ]

    /// A text of up to 60 tokens, as the tokens' indices (see `text(_:_:)`).
    static let tokenIndices = Gen<Int>.value(in: 0...1_000).array(of: 0...60)

    /// The text that `indices` pick from `tokens`.
    static func text(_ indices: [Int], _ tokens: [[UInt8]]) -> [UInt8] {
        indices.flatMap { tokens[$0 % tokens.count] }
    }

    @Test func textWithoutRegionsComesBackByteForByte() async throws {
        await propertyCheck(count: 2_000, input: Self.tokenIndices) { indices in
            let bytes = Self.text(indices, Self.plainTokens)
            for kind in [RegionDocument.Kind.markdown, .html] {
                let document = try #require(try? RegionDocument(bytes, kind: kind))
                #expect(document.regions.isEmpty)
                #expect(document.bytes == bytes)
            }
        }
    }

    /// With regions possible, a document either reads (and then is its bytes again) or fails
    /// naming a line of the document.
    @Test func anyDocumentReadsBackOrNamesALine() async throws {
        await propertyCheck(count: 2_000, input: Self.tokenIndices) { indices in
            let bytes = Self.text(indices, Self.anyTokens)
            // A line ends at LF, CRLF or a CR alone, as cmark-gfm reads it (SPEC §8).
            let lines =
                bytes.indices.filter {
                    bytes[$0] == UInt8(ascii: "\n")
                        || (bytes[$0] == UInt8(ascii: "\r") && bytes[($0 + 1)...].first != UInt8(ascii: "\n"))
                }.count + 1
            do {
                let document = try RegionDocument(bytes, kind: .markdown)
                #expect(document.bytes == bytes)
                for region in document.regions {
                    #expect((1...lines).contains(region.line))
                }
            } catch let error as RegionSyntaxError {
                #expect((1...lines).contains(error.line), "\(error)")
            }
        }
    }

    static let commands = [
        "render 137 -o images/137.svg", "badge 1234 --label downloads -o b.svg",
        "render 9999 --theme auto -o 'a b/c.png' --scale 1,2", "gallery 1,7,25 --size 96 -o g.svg", "x",
    ]
    /// References as tally writes them, and arbitrary bodies without a comment in them.
    static let references = [
        "<img src=\"a.svg\" alt=\"1 tally mark\" width=\"9\" height=\"40\">", "",
        "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"a-dark.png\"><img src=\"a.png\" alt=\"x\"></picture>",
        "![137 tally marks](count)", "é \u{FEFF}",
    ]

    /// Any region written by `body(for:reference:)` reads back as the same region with the
    /// same body, in a document of either line ending, with or without a byte order mark, a
    /// final newline or indentation, and with text around it left as it was.
    @Test func aRegionTallyWritesReadsBackTheSame() async throws {
        await propertyCheck(
            count: 1_000,
            input: Self.tokenIndices, Self.tokenIndices, Gen<Int>.value(in: 0...1_000), Gen<Int>.value(in: 0...15)
        ) { beforeIndices, afterIndices, pick, flags in
            let before = Self.text(beforeIndices, Self.plainTokens)
            let after = Self.text(afterIndices, Self.plainTokens)
            let command = Self.commands[pick % Self.commands.count]
            let reference = Self.references[pick / 7 % Self.references.count]
            let crlf = flags & 1 != 0
            let inline = flags & 2 != 0
            let indent: [UInt8] = flags & 4 != 0 ? Array("  ".utf8) : []
            let bom: [UInt8] = flags & 8 != 0 ? [0xEF, 0xBB, 0xBF] : []
            let newline = Array((crlf ? "\r\n" : "\n").utf8)
            // The text before ends its line, closing any fence it opened, so the region is one.
            let fenceClosed = Array("\n```\n".utf8)
            let opener = Array("<!-- tally \(command) -->".utf8)
            let closer = Array("<!-- /tally -->".utf8)
            let head = bom + Array("x".utf8) + newline + before + fenceClosed
            let placeholder = Array((inline ? "old" : "\nold\n").utf8)
            let original = head + indent + opener + placeholder + closer + after
            let read = try RegionDocument(original, kind: .html)
            let region = try #require(read.regions.first)
            #expect(read.regions.count == 1)
            #expect(region.command == command)
            #expect(region.indent == indent)
            let body = read.body(for: region, reference: reference)
            let written = read.replacingBodies([body]).bytes
            let reread = try RegionDocument(written, kind: .html)
            let again = try #require(reread.regions.first)
            #expect(again.command == command && again.body == body && again.line == region.line)
            #expect(again.isBlock == !inline)
            // Everything outside the region is as it was.
            #expect(written.starts(with: head + indent + opener))
            #expect(written.suffix(closer.count + after.count) == ArraySlice(closer + after))
            // Writing the same reference again changes nothing.
            #expect(reread.replacingBodies([reread.body(for: again, reference: reference)]).bytes == written)
        }
    }

    @Test func crlfDocumentsGetCRLFBodies() throws {
        let text = Array("# T\r\n<!-- tally render 1 -o a.svg -->\r\n<!-- /tally -->\r\nend".utf8)
        let document = try RegionDocument(text, kind: .markdown)
        let region = try #require(document.regions.first)
        #expect(region.line == 2)
        #expect(document.body(for: region, reference: "R") == Array("\r\nR\r\n".utf8))
        #expect(document.bytes == text)
    }

    /// A document whose lines end in a lone CR (classic Mac OS) is read line by line, fences
    /// included, and its new bodies end their lines in CR (SPEC §8: never silently skipped).
    @Test func loneCRDocumentsAreReadByTheirLines() throws {
        let text = Array(
            "# T\r```\r<!-- tally render 1 -o x.svg -->\r```\r<!-- tally render 1 -o a.svg -->\r<!-- /tally -->\rend"
                .utf8)
        let document = try RegionDocument(text, kind: .markdown)
        #expect(document.regions.count == 1)
        let region = try #require(document.regions.first)
        #expect(region.line == 5)
        #expect(region.command == "render 1 -o a.svg")
        #expect(document.body(for: region, reference: "R") == Array("\rR\r".utf8))
        #expect(document.bytes == text)
        // A lone CR inside an LF document ends a line too, as cmark-gfm reads it.
        let mixed = Array("a\rb\n<!-- tally render 1 -o a.svg -->\n<!-- /tally -->\n".utf8)
        #expect(try RegionDocument(mixed, kind: .markdown).regions.first?.line == 3)
    }

    /// A command's bytes that are not UTF-8 are kept as the command line keeps an argument's
    /// (one private-use scalar a byte), and the reference writes them back as those bytes.
    @Test func aCommandKeepsBytesThatAreNotUTF8() throws {
        let text = Array("<!-- tally render 1 -o caf".utf8) + [0xE9] + Array(".svg -->\n<!-- /tally -->\n".utf8)
        let document = try RegionDocument(text, kind: .markdown)
        let region = try #require(document.regions.first)
        #expect(region.command == "render 1 -o caf\u{10FFE9}.svg")
        #expect(
            document.body(for: region, reference: "caf\u{10FFE9}.svg")
                == Array("\ncaf".utf8) + [0xE9] + Array(".svg\n".utf8))
    }

    @Test func aDocumentWithoutAFinalNewlineKeepsIt() throws {
        let text = Array("<!-- tally render 1 -o a.svg -->\n<!-- /tally -->".utf8)
        let document = try RegionDocument(text, kind: .markdown)
        let region = try #require(document.regions.first)
        let written = document.replacingBodies([document.body(for: region, reference: "R")]).bytes
        #expect(written == Array("<!-- tally render 1 -o a.svg -->\nR\n<!-- /tally -->".utf8))
    }

    @Test func aByteOrderMarkStaysAndTheFirstLineCanHoldARegion() throws {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<!-- tally render 1 -o a.svg --><!-- /tally -->\n".utf8)
        let document = try RegionDocument(text, kind: .markdown)
        let region = try #require(document.regions.first)
        #expect(region.line == 1 && !region.isBlock)
        let written = document.replacingBodies([document.body(for: region, reference: "R")]).bytes
        #expect(written == [0xEF, 0xBB, 0xBF] + Array("<!-- tally render 1 -o a.svg -->R<!-- /tally -->\n".utf8))
    }

    @Test func regionsInCodeFencesAreText() throws {
        for fence in ["```", "~~~", "````", "  ```sh"] {
            let close = fence.drop(while: { $0 == " " }).prefix(while: { $0 == "`" || $0 == "~" })
            let text = Array(
                "a\n\(fence)\n<!-- tally render -1 -->\n<!-- /tally -->\n\(close)\n<!-- tally render 2 -o b.svg -->\n<!-- /tally -->\n"
                    .utf8)
            let document = try RegionDocument(text, kind: .markdown)
            #expect(document.regions.map(\.command) == ["render 2 -o b.svg"], "\(fence)")
            #expect(document.regions.first?.line == 6)
            #expect(document.bytes == text)
        }
        // A shorter fence, or the other marker, does not close one.
        let text = Array("````\n```\n~~~\n<!-- tally render 1 -->\n".utf8)
        #expect(try RegionDocument(text, kind: .markdown).regions.isEmpty)
        // HTML has no fences.
        let html = Array("```\n<!-- tally render 1 -o a.svg -->\n<!-- /tally -->\n```\n".utf8)
        #expect(try RegionDocument(html, kind: .html).regions.count == 1)
    }

    @Test func malformedRegionsNameTheirLine() {
        let cases: [(String, Int, String)] = [
            ("a\n<!-- tally render 1 -o a.svg -->\nno end\n", 2, "no closing"),
            ("<!-- tally render 1 -o a.svg -->\n\n<!-- tally render 2 -o b.svg -->\n<!-- /tally -->\n", 3, "inside"),
            ("a\nb\n<!-- /tally -->\n", 3, "no region open"),
            ("<!-- tally render 1\n-o a.svg\n", 1, "no -->"),
        ]
        for (text, line, words) in cases {
            #expect {
                try RegionDocument(Array(text.utf8), kind: .markdown)
            } throws: { error in
                guard let error = error as? RegionSyntaxError else { return false }
                return error.line == line && error.message.contains(words)
            }
        }
    }

    /// SPEC §8, "a region is what the page shows": a `<!-- /tally -->` that Markdown reads as
    /// code or text closes nothing, so the user's text before it is never taken for a region's
    /// body; the region is an error naming its opener's line and the closer's, and the document
    /// is left as it is.
    @Test func aCloserInCodeOrTextClosesNothing() {
        let cases: [(String, Int, String)] = [
            // A code span on the opener's line (an inline region).
            ("Run <!-- tally badge 5 -o b.svg --> then type `<!-- /tally -->` to close.\n", 1, "line 1 is in code"),
            // A later fence (a block region).
            ("<!-- tally badge 5 -o b.svg -->\ntext\n\n```\n<!-- /tally -->\n```\nmore\n", 1, "line 5 is in code"),
            // Indented code after a blank line.
            ("# A\n\n<!-- tally badge 5 -o b.svg -->\nmine\n\n    <!-- /tally -->\n", 3, "line 6 is in code"),
        ]
        for (text, line, words) in cases {
            #expect {
                try RegionDocument(Array(text.utf8), kind: .markdown)
            } throws: { error in
                guard let error = error as? RegionSyntaxError else { return false }
                return error.line == line && error.message.contains(words)
            }
        }
        // A real closer after one in code: the region ends at the comment, the code stays text.
        let text = "Run <!-- tally badge 5 -o b.svg --><!-- /tally --> then `<!-- /tally -->` ok.\n"
        let document = try? RegionDocument(Array(text.utf8), kind: .markdown)
        #expect(document?.regions.count == 1)
        #expect(document?.bytes == Array(text.utf8))
    }

    /// SPEC §8: a link's destination and title, a reference definition's title and an image's
    /// description are text on the page (an attribute's value, or the `alt`): an opener there
    /// is warned of and never run, and a closer there closes nothing.
    @Test func linkTitlesAndImageDescriptionsHoldNoRegion() throws {
        let region = "<!-- tally badge 5 -o b.svg --><!-- /tally -->"
        for text in [
            "[docs](https://example.com \"\(region)\")\n", "![a \(region) b](i.png)\n",
            "[ref]: https://example.com '\(region)'\n\n[ref]\n", "[ref]:\n  /u\n  (t \(region))\n",
            "![a \(region)][ref]\n\n[ref]: i.png\n", "[a](<u> (\(region)))\n",
            "![a [b](c) \(region)](d)\n",
        ] {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            #expect(document.regions.isEmpty, "\(text)")
            #expect(document.warnings.map(\.isRun) == [false], "\(text)")
        }
        // No link (no such definition, no `)`, a title not apart from its destination): the
        // comment is inline HTML, and the region runs.
        for text in [
            "![a \(region)][nope]\n", "[a](u \"t\" \(region)\n", "[a](u\"\(region)\")\n", "[a \(region)](u)\n",
            "[ref]: u \"t\" x \(region)\n",
        ] {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            #expect(document.regions.count == 1, "\(text)")
        }
        // A closer in a title closes nothing: the region is an error naming both lines.
        #expect {
            try RegionDocument(
                Array("<!-- tally badge 5 -o b.svg -->\nsee [x](u \"<!-- /tally -->\")\n".utf8), kind: .markdown)
        } throws: { error in
            guard let error = error as? RegionSyntaxError else { return false }
            return error.line == 1 && error.message.contains("line 2 is not a comment where it stands")
        }
    }

    /// Lines end where cmark-gfm ends them, at LF, CRLF and a CR alone, mixed in one document:
    /// the fence closes on its CR line, and the region after it is read and named by its line.
    @Test func mixedLineEndsAreLinesAsCmarkGFMReadsThem() throws {
        let text =
            "# T\r\n```\r<!-- tally render 1 -o x.svg -->\r```\n<!-- tally render 2 -o a.svg -->\r<!-- /tally -->\r\nend"
        let document = try RegionDocument(Array(text.utf8), kind: .markdown)
        let region = try #require(document.regions.first)
        #expect(document.regions.count == 1 && region.line == 5 && region.command == "render 2 -o a.svg")
        // A body's lines end as the document's first line does.
        #expect(document.body(for: region, reference: "R") == Array("\r\nR\r\n".utf8))
        #expect(document.bytes == Array(text.utf8))
    }

    /// A region after text closes on its own line; one that closes on a later line is an
    /// error at its opener, saying so (not a closer "with no region open").
    @Test func anInlineRegionClosedOnALaterLineNamesItsOpener() {
        #expect {
            try RegionDocument(Array("text <!-- tally render 1 -o a.svg -->\n<!-- /tally -->\n".utf8), kind: .markdown)
        } throws: { error in
            guard let error = error as? RegionSyntaxError else { return false }
            return error.line == 1 && error.message.contains("closes on line 2")
        }
        // Once a region is read in between, a stray closer after it is its own error, at its line.
        let text =
            "x <!-- tally render 1 -o a.svg -->\n<!-- tally render 2 -o b.svg -->\n<!-- /tally -->\n<!-- /tally -->\n"
        #expect {
            try RegionDocument(Array(text.utf8), kind: .markdown)
        } throws: { error in
            guard let error = error as? RegionSyntaxError else { return false }
            return error.line == 4 && error.message.contains("with no region open")
        }
    }

    @Test func anOpenerMaySpanLinesAndCountsThem() throws {
        let text = Array(
            "<!-- tally render 1\n  -o a.svg -->\n<!-- /tally -->\n<!-- tally render 2 -o b.svg --><!-- /tally -->".utf8
        )
        let document = try RegionDocument(text, kind: .markdown)
        #expect(document.regions.map(\.line) == [1, 4])
        #expect(document.regions.first?.command == "render 1\n  -o a.svg")
    }

    @Test func aRowOfRegionsIsOneLine() throws {
        let text = Array(
            "<!-- tally badge 1 -o a.svg -->A<!-- /tally --> <!-- tally badge 2 -o b.svg --><!-- /tally --> tail <!-- tally badge 3 -->\n"
                .utf8)
        let document = try RegionDocument(text, kind: .markdown)
        #expect(document.regions.map(\.command) == ["badge 1 -o a.svg", "badge 2 -o b.svg"])
        #expect(document.regions.allSatisfy { $0.line == 1 && !$0.isBlock })
        let written = document.replacingBodies(["X", "Y"].map { Array($0.utf8) }).bytes
        #expect(
            written
                == Array(
                    "<!-- tally badge 1 -o a.svg -->X<!-- /tally --> <!-- tally badge 2 -o b.svg -->Y<!-- /tally --> tail <!-- tally badge 3 -->\n"
                        .utf8))
    }

    /// SPEC §8: a region may stand wherever raw inline HTML may; its reference then goes on
    /// its line.
    @Test func inlineRegionsStandWhereRawHTMLMay() throws {
        let documents = [
            "[![CI](https://img.shields.io/ci.svg)](https://x) <!-- tally badge 1 -o a.svg --><!-- /tally -->\n",
            "| a | b |\n|---|---|\n| x | <!-- tally render 2 -o b.svg --><!-- /tally --> |\n",
            "* <!-- tally render 3 -o c.svg --><!-- /tally -->\n* b\n",
            "1. <!-- tally render 4 -o d.svg --><!-- /tally -->\n2. b\n",
            "> quoted <!-- tally render 5 -o e.svg --><!-- /tally -->\n",
            "text\nmore text <!-- tally render 6 -o f.svg -->old<!-- /tally --> and more\n",
        ]
        for (index, text) in documents.enumerated() {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            let region = try #require(document.regions.first, "\(text)")
            #expect(document.regions.count == 1 && document.warnings.isEmpty, "\(text)")
            #expect(region.command.hasPrefix("\(index < 1 ? "badge" : "render") \(index + 1) "), "\(text)")
            #expect(!region.isBlock, "\(text)")
            let written = document.replacingBodies([document.body(for: region, reference: "<img alt=\"a|b\">")])
            // One line, and no `|` to cut a table cell.
            let reference = #"<img alt="a&#124;b">"#
            #expect(written.bytes.count == text.utf8.count - region.body.count + reference.utf8.count)
            #expect(written.bytes.filter { $0 == UInt8(ascii: "\n") }.count == text.filter { $0 == "\n" }.count)
            #expect(String(decoding: written.bytes, as: UTF8.self).contains("-->" + reference + "<!-- /tally -->"))
        }
    }

    /// SPEC §8: code is what CommonMark says is code; an opener there is text, and no warning.
    @Test func codeIsWhatCommonMarkSaysIsCode() throws {
        let documents = [
            "- ```\n  <!-- tally render 1 -->\n  <!-- /tally -->\n  ```\n",
            "1. ~~~\n   <!-- tally render 1 --><!-- /tally -->\n   ~~~\n",
            "> ```\n> <!-- tally render 1 -->\n> <!-- /tally -->\n> ```\n",
            "    <!-- tally render 1 -->\n    <!-- /tally -->\n",
            "text\n\n\t<!-- tally render 1 --><!-- /tally -->\n",
            "a `<!-- tally render 1 --><!-- /tally -->` b\n",
            "a ``x\nb <!-- tally render 1 --><!-- /tally -->`` c\n",
            "<pre>\n<!-- tally render 1 --><!-- /tally -->\n</pre>\n",
        ]
        for text in documents {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            #expect(document.regions.isEmpty && document.warnings.isEmpty, "\(text)")
            #expect(document.bytes == Array(text.utf8))
        }
        // A tab-indented fence is indented code: it holds no later line.
        let text = Array("\t```\n\n<!-- tally render 2 -o b.svg -->\n<!-- /tally -->\n".utf8)
        #expect(try RegionDocument(text, kind: .markdown).regions.map(\.line) == [3])
    }

    /// SPEC §8: an opener outside code that is not run is a warning naming its line.
    @Test func openersNotRunAreWarnings() throws {
        let unclosed = try RegionDocument(Array("# T\n\nx <!-- tally render 1 -o a.svg -->\n".utf8), kind: .markdown)
        #expect(unclosed.regions.isEmpty && unclosed.warnings.map(\.line) == [3])
        let inComment = try RegionDocument(Array("<!-- a <!-- tally render 1 -o a.svg --> -->\n".utf8), kind: .markdown)
        #expect(inComment.regions.isEmpty && inComment.warnings.map(\.line) == [1])
        // A row that starts with a region is an HTML block that ends the table: run, and said.
        let row = try RegionDocument(
            Array("| a | b |\n|---|---|\n<!-- tally render 1 -o a.svg --><!-- /tally --> | x |\n".utf8), kind: .markdown
        )
        #expect(row.regions.map(\.line) == [3] && row.warnings.map(\.line) == [3])
        #expect(row.warnings.first?.message.contains("table") == true)
    }

    /// A paragraph of thousands of unclosed comments, quotes or backtick runs is read once, not
    /// once for each: a search that reached the end is not repeated (a quadratic reading takes
    /// over 15 s for each of these 100 KB in a debug build, a linear one a tenth of that).
    @Test func unclosedConstructsAreReadInLinearTime() throws {
        for piece in ["a <!-- b ", "<a title='x ", "`` ` ", "x <!-- tally render 1 -o a.svg "] {
            let text = Array(("x " + String(repeating: piece, count: 10_000) + "-->\n").utf8)
            let start = ContinuousClock.now
            let document = try RegionDocument(text, kind: .markdown)
            #expect(document.bytes == text)
            #expect(ContinuousClock.now - start < .seconds(5), "\(piece)")
        }
    }

    /// A block region in a quote or list item gets a body whose lines stay in it.
    @Test func blockRegionsInContainersKeepTheirLinesInThem() throws {
        let cases = [
            ("> <!-- tally render 1 -o a.svg -->\n> <!-- /tally -->\n", "\n> R\n> "),
            ("- <!-- tally render 1 -o a.svg -->\n  <!-- /tally -->\n", "\n  R\n  "),
            ("> 1. <!-- tally render 1 -o a.svg -->\n>    <!-- /tally -->\n", "\n>    R\n>    "),
            // A closer outside the opener's quote or item stays outside it: the page outside
            // regions is the same (SPEC §8).
            ("> <!-- tally render 1 -o a.svg -->\n<!-- /tally -->\n", "\n> R\n"),
            ("- <!-- tally render 1 -o a.svg -->\n<!-- /tally -->\n", "\n  R\n"),
            ("> <!-- tally render 1 -o a.svg -->\n>\t<!-- /tally -->\n", "\n> R\n>\t"),
        ]
        for (text, body) in cases {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            let region = try #require(document.regions.first)
            #expect(region.isBlock)
            #expect(document.body(for: region, reference: "R") == Array(body.utf8), "\(text)")
        }
    }

    @Test func otherCommentsAreText() throws {
        for text in ["<!-- tallyho -->\n", "<!-- a tally -->\n", "x <!-- tally render 1 -->\n", "<!--tally-->\n"] {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            #expect(document.regions.isEmpty, "\(text)")
        }
    }
}

/// A region's command line, cut as a shell cuts a simple command.
@Suite struct CommandWordsTests {
    @Test func quotesAndEscapes() throws {
        #expect(try CommandWords.split("render 1  -o a.svg") == ["render", "1", "-o", "a.svg"])
        #expect(try CommandWords.split("badge 1 --label 'my downloads'") == ["badge", "1", "--label", "my downloads"])
        #expect(
            try CommandWords.split(#"badge 1 --label "say \"hi\" \n""#) == ["badge", "1", "--label", #"say "hi" \n"#])
        #expect(try CommandWords.split(#"a\ b ''"#) == ["a b", ""])
        #expect(try CommandWords.split("a\n\tb") == ["a", "b"])
        #expect(throws: CommandWordsError.unclosedQuote("'")) { try CommandWords.split("badge 'x") }
        #expect(throws: CommandWordsError.trailingBackslash) { try CommandWords.split("badge x\\") }
    }

    @Test func joinedWordsSplitBackTheSame() async throws {
        let pieces = ["a", " ", "'", "\"", "\\", "é", "--label", "1,2", "$x", "*", "\t", ""]
        await propertyCheck(
            count: 1_000,
            input: Gen<Int>.value(in: 0...1_000).array(of: 0...4).array(of: 0...5)
        ) { indices in
            let words = indices.map { word in word.map { pieces[$0 % pieces.count] }.joined() }
            #expect((try? CommandWords.split(CommandWords.join(words))) == words)
        }
    }

    /// Many inline regions on one line take about as long as as many on their own lines: the
    /// end of a region's line is looked up, never walked to (10,000 on one line did not finish
    /// in 300 s).
    @Test func regionsOnOneLineAreReadInLinearTime() throws {
        let region = "<!-- tally render 5 -o a.svg --><!-- /tally -->"
        func seconds(_ text: String) throws -> Double {
            let bytes = Array(text.utf8)
            let start = Date()
            _ = try RegionDocument(bytes, kind: .markdown)
            return Date().timeIntervalSince(start)
        }
        let count = 10_000
        let oneLine = try seconds("Badges: " + String(repeating: region + " ", count: count) + "\n")
        let lines = try seconds(String(repeating: "Badge: " + region + "\n", count: count))
        #expect(oneLine < 3 * lines + 0.5, "one line \(oneLine) s, lines \(lines) s")
    }

    /// SPEC §8, in HTML documents: an opener in a tag's attribute or in CDATA is not a comment
    /// (a warning, never run), and the content of `<script>`, `<style>`, `<textarea>`, `<title>`,
    /// `<xmp>` and `<pre>` is text (an example, as code is in Markdown: no warning).
    @Test func inHTMLAttributesCDATAAndTextElementsHoldNoRegion() throws {
        let region = "<!-- tally render 5 -o a.svg --><!-- /tally -->"
        let warned = [
            "<p><a href=\"x\" title=\"\(region)\">docs</a></p>\n",
            "<img alt='\(region)' src=\"a.png\">\n",
            "<svg><![CDATA[\(region)]]></svg>\n",
        ]
        for text in warned {
            let document = try RegionDocument(Array(text.utf8), kind: .html)
            #expect(document.regions.isEmpty, "\(text)")
            #expect(document.warnings.count == 1 && document.warnings.allSatisfy { !$0.isRun }, "\(text)")
            #expect(document.bytes == Array(text.utf8))
        }
        for element in ["script", "style", "textarea", "title", "xmp", "pre", "PRE"] {
            let text = "<\(element) class=\"x\">\n\(region)\n</\(element)>\n<p>after</p>\n"
            let document = try RegionDocument(Array(text.utf8), kind: .html)
            #expect(document.regions.isEmpty && document.warnings.isEmpty, "\(element)")
        }
        // Between tags a region runs, after text elements too.
        let text = "<pre>\(region)</pre>\n<p>\(region)</p>\n"
        #expect(try RegionDocument(Array(text.utf8), kind: .html).regions.count == 1)
    }

    /// SPEC §8, where no reference keeps the page: text after a region that starts its line,
    /// and a region line under a line of badges, are run and warned of with the fix; text
    /// before a region, and a region at the end of the badges' line, are not warned of.
    @Test func aRegionStartingALineIsWarnedOfWhereItChangesThePage() throws {
        let region = "<!-- tally render 3 -o a.svg --><!-- /tally -->"
        let warned: [(String, String)] = [
            ("* \(region) see [docs](x)\n", "the text after it shows as typed"),
            ("> \(region) `code`\n", "the text after it shows as typed"),
            ("[![a](a.svg)](x)\n\(region)\n[![b](b.svg)](y)\n", "splits the row of badges"),
        ]
        for (text, words) in warned {
            let document = try RegionDocument(Array(text.utf8), kind: .markdown)
            #expect(document.regions.count == 1, "\(text)")
            #expect(document.warnings.count == 1 && document.warnings.allSatisfy(\.isRun), "\(text)")
            #expect(document.warnings.first?.message.contains(words) == true, "\(text)")
        }
        for text in [
            "* see [docs](x) \(region)\n", "[![a](a.svg)](x) \(region)\n[![b](b.svg)](y)\n", "# Title\n\n\(region)\n",
        ] {
            #expect(try RegionDocument(Array(text.utf8), kind: .markdown).warnings.isEmpty, "\(text)")
        }
    }

    /// GFM reads `\|` in a table cell as `|`: a region's command there reads it so, and its
    /// opener stays as written; outside a table `\|` stays as it is.
    @Test func anEscapedPipeInATableCellIsAPipe() throws {
        let cell = "<!-- tally render 5 --label \"a \\| b\" -o a.svg --><!-- /tally -->"
        let table = try RegionDocument(Array("| x | y |\n|---|---|\n| 1 | \(cell) |\n".utf8), kind: .markdown)
        #expect(table.regions.first?.command == "render 5 --label \"a | b\" -o a.svg")
        #expect(table.bytes == Array("| x | y |\n|---|---|\n| 1 | \(cell) |\n".utf8))
        let text = try RegionDocument(Array("Text \(cell)\n".utf8), kind: .markdown)
        #expect(text.regions.first?.command == "render 5 --label \"a \\| b\" -o a.svg")
    }
}
