import Foundation
import TallyDocs
import TallyTestSupport
import Testing

/// What cmark-gfm makes of each `<!-- tally render N -->` of some documents, from the node
/// that holds it in its XML: `html` (an `html_inline`, or an `html_block` of markup), `code` (a
/// `code` span, a `code_block`, or an `html_block` of `<pre>`, `<script>`, `<style>`,
/// `<textarea>`, `<?`, `<!X` or CDATA, whose content is no markup), `text` (anything else, or
/// left out). cmarkgfm renders only HTML, so the script calls cmark-gfm's own
/// `cmark_render_xml`, which its library exports, through cffi.
let cmarkVerdictScript = #"""
    import json, re, sys, cffi
    import cmarkgfm._cmark as native
    from cmarkgfm import cmark
    from xml.etree import ElementTree
    from html.parser import HTMLParser
    abi = cffi.FFI()
    abi.cdef("char *cmark_render_xml(void *root, int options);")
    lib = abi.dlopen(native.__file__)
    cmark.core_extensions_ensure_registered()
    class Comments(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=False)
            self.found = []
        def handle_comment(self, data):
            self.found.append("<!--" + data + "-->")
        @staticmethod
        def of(text):
            parser = Comments()
            parser.feed(text)
            parser.close()
            return parser.found
    raw = re.compile(r"\s*<(pre|script|style|textarea)([\s>]|$)|\s*<\?|\s*<![A-Za-z]|\s*<!\[CDATA\[", re.I)
    def verdicts(text):
        parser = cmark.parser_new(0)
        for name in ["table", "autolink", "strikethrough", "tagfilter", "tasklist"]:
            cmark.parser_attach_syntax_extension(parser, cmark.find_syntax_extension(name))
        cmark.parser_feed(parser, text)
        root = cmark.parser_finish(parser)
        xml = abi.string(lib.cmark_render_xml(abi.cast("void *", int(native.ffi.cast("uintptr_t", root))), 0))
        cmark.parser_free(parser)
        found = {}
        def walk(node, in_image):
            tag = node.tag.split("}")[-1]
            # A fence's info string is no content, and never a comment on the page.
            for n in re.findall(r"<!-- tally render (\d+) -->", node.get("info", "")):
                found[n] = "code"
            # Raw HTML's comments as a browser reads them: an attribute's value is text.
            comments = ""
            if tag == "html_inline" and not in_image and (node.text or "").startswith("<!--"):
                comments = node.text
            elif tag == "html_block" and not raw.match(node.text or ""):
                comments = " ".join(Comments.of(node.text))
            for n in re.findall(r"<!-- tally render (\d+) -->", node.text or ""):
                if "<!-- tally render %s -->" % n in comments:
                    found[n] = "html"
                elif tag in ("code", "code_block") or (tag == "html_block" and raw.match(node.text)):
                    found[n] = "code"
            for child in node:
                walk(child, in_image or tag == "image")
        walk(ElementTree.fromstring(xml), False)
        return {n: found.get(n, "text") for n in re.findall(r"<!-- tally render (\d+) -->", text)}
    json.dump([verdicts(d) for d in json.load(sys.stdin)], sys.stdout)
    """#

/// tally's reading of Markdown (SPEC §8: code is what CommonMark says is code; a region may
/// stand wherever raw inline HTML may) agrees with cmark-gfm's.
@Suite struct MarkdownLayoutTests {
    /// Documents built at random from CommonMark's block and inline constructs (containers
    /// nested, lazy lines, tabs, code of every kind, tables, HTML blocks), each opener numbered.
    struct Generator {
        var state: UInt64
        var next = 0

        mutating func random(_ bound: Int) -> Int {
            // SplitMix64: the same documents on every run and platform.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }

        mutating func pick(_ choices: [String]) -> String { choices[random(choices.count)] }

        mutating func region() -> String {
            next += 1
            return "<!-- tally render \(next) --><!-- /tally -->"
        }

        /// A piece of inline content: text, badges, markup, a region, a region in a code span.
        mutating func inline() -> String {
            switch random(21) {
            case 0, 1: return region()
            case 2: return "`" + region() + "`"
            case 3: return "`` a " + region() + " ``"
            case 4: return "`"
            case 5: return "\\`"
            case 6: return "[![CI](https://img.shields.io/badge/ci-passing-green.svg)](https://example.com/ci)"
            case 7: return pick(["<span>", "</span>", "<b title=\"`\">", "<https://example.com/`>", "*em*"])
            case 8: return "\t"
            case 9: return pick(["``", "```"])
            case 10: return "[a " + region() + "](https://example.com)"
            case 15:
                // A region in a link's title or destination: text in an attribute.
                let title = pick(["\"t ", "'t ", "(t ", "\"\\\" ", "\""])
                let close = pick(["\"", "'", ")", ""])
                return pick(["[a](https://example.com ", "[a](<u> ", "![i](i.png ", "[a]( ", "[a](u\n"]) + title
                    + region() + close + pick([")", " )", "", "\n)"])
            case 16: return "![alt " + region() + pick(["](i.png)", "][ref]", "]", "][]", "](<i.png>)", "] (i.png)"])
            case 17:
                return pick(["[ref]", "[Ref][]", "[a][ref]", "[a][nope]", "[ref" + region() + "]", "[a [b](c) d](e)"])
            case 18: return pick(["\\[", "\\]", "\\(", "\\\"", "[", "]", "(", ")", "](u)", "!["])
            case 19:
                let quote = pick(["\"", "'"])
                return pick(["<b title=", "<img alt=", "<a href="]) + quote + region() + quote + pick([">", " />"])
            case 20: return "[`" + region() + "`](u \"t\")"
            default: return pick(["text", "a", "more words", "x"])
            }
        }

        mutating func inlineLine() -> String {
            (0...random(4)).map { _ in inline() }.joined(separator: pick([" ", " ", "", "  "]))
        }

        /// Up to a few blocks, as lines without container prefixes.
        mutating func blocks(depth: Int) -> [String] {
            var lines: [String] = []
            for _ in 0...random(3) {
                lines += block(depth: depth)
                if random(3) == 0 { lines.append(pick(["", " ", "\t"])) }
            }
            return lines
        }

        mutating func block(depth: Int) -> [String] {
            let indent = pick(["", "", "", " ", "  ", "   ", "    ", "\t", " \t"])
            switch random(depth < 2 ? 15 : 11) {
            case 0, 1: return (0...random(2)).map { _ in indent + inlineLine() }
            case 2: return [pick(["# ", "## ", "#\t"]) + inlineLine()]
            case 3:
                let fence = pick(["```", "~~~", "````", "``` sh", "~~~ ~"])
                let close = random(6) == 0 ? "" : String(fence.prefix { $0 == "`" || $0 == "~" })
                return [indent + fence, indent + inlineLine(), region()] + (close.isEmpty ? [] : [indent + close])
            case 4: return [pick(["    ", "\t", "  \t", "     "]) + inlineLine(), pick(["    ", "\t"]) + region()]
            case 5:
                let tag = pick([
                    "<div>", "<pre>", "<p align=\"center\">", "<span class=\"x\">", "<details>", "<PRE class=x>",
                ])
                let close = "</" + tag.dropFirst().prefix { $0.isLetter } + ">"
                return [indent + tag, inlineLine(), region()] + (random(4) == 0 ? [] : [close])
            case 6: return [indent + region()]
            case 7:
                // A cell past the header's is dropped: a region there is not on the page.
                let rows = (0...random(2)).map { _ in
                    (random(4) == 0 ? "" : "| ") + inline() + " | " + inline()
                        + pick([" |", "", " | x |", " | " + region() + " |"])
                }
                return [
                    pick(["| a | b |", "a | b", "| a |", "| a | b | c |", "| a \\| b |"]),
                    pick(["|---|---|", "| :-- | --: |", "---|---", "|---|", "|---|---|---|"]),
                ] + rows
            case 8: return [pick(["---", "***", "___", "==="])]
            case 9: return [inlineLine(), pick(["===", "---", "  ---"])]
            case 10: return [indent + inlineLine() + " " + region()]
            case 14:
                // Reference definitions: a title may hold a region, on the line or the next.
                let label = pick(["[ref]", "[Ref]", "[ ref ]", "[a\\]b]", "[]"])
                let destination = pick([" https://example.com", " <u>", "", " u", "\n  /u"])
                let title = pick([
                    " \"t " + region() + "\"", "\n  'title " + region() + "'", " (t " + region() + ")", "",
                    " \"t\" trailing " + region(),
                ])
                return (indent + label + ":" + destination + title).split(separator: "\n").map(String.init)
                    + (random(2) == 0 ? [inlineLine()] : [])
            case 11:
                // A block quote, its lines lazy now and then.
                return blocks(depth: depth + 1).map { line in
                    random(5) == 0 ? line : pick(["> ", ">", ">\t", " > "]) + line
                }
            default:
                // A list item: its first line after the marker, the others indented as its
                // content is (or not quite).
                let marker = pick(["- ", "* ", "+ ", "1. ", "2) ", "-\t", "1.  ", "-     ", "10. "])
                let width = marker.contains("\t") ? 2 : marker.count
                let inner = blocks(depth: depth + 1)
                return inner.enumerated().map { index, line in
                    if index == 0 { return marker + line }
                    return pick([String(repeating: " ", count: width), "\t", "  ", ""]) + line
                }
            }
        }

        mutating func document() -> String {
            next = 0
            // CRLF now and then (a line break is two bytes, and a CR before it is no content);
            // now and then every line's end at random: cmark-gfm ends a line at LF, CRLF and CR.
            let lineBreak = pick(["\n", "\n", "\r\n", "mixed"])
            let lines = blocks(depth: 0)
            var text = ""
            for (index, line) in lines.enumerated() {
                text += line
                if index < lines.count - 1 || random(2) == 0 {
                    text += lineBreak == "mixed" ? pick(["\n", "\r\n", "\r"]) : lineBreak
                }
            }
            return text
        }
    }

    /// tally's verdict for each numbered opener: `code`, `html` (a comment it reads), or
    /// `text`.
    static func verdicts(_ document: String) -> [Int: String] {
        let bytes = Array(document.utf8)
        let layout = MarkdownLayout(markdown: bytes)
        let comments = Set(layout.comments.map(\.start))
        var result: [Int: String] = [:]
        let prefix = Array("<!-- tally render ".utf8)
        var index = 0
        while index + prefix.count <= bytes.count {
            if bytes[index] == prefix[0] && bytes[index...].starts(with: prefix) {
                let digits = bytes[(index + prefix.count)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
                if let number = Int(String(decoding: digits, as: UTF8.self)) {
                    result[number] = layout.isCode(index) ? "code" : comments.contains(index) ? "html" : "text"
                }
            }
            index += 1
        }
        return result
    }

    @Test(
        .enabled(if: canAskCmarkGFM, "needs python3 with cmarkgfm (scripts/install-deps test installs it)"),
        .processTimeLimit(minutes: 1), .readByAnOutsideProgram)
    func everyOpenerIsWhereCmarkGFMPutsIt() throws {
        // GENERATOR_SEED=N reads other documents, to explore; the test's own are seed 51's.
        let seed = ProcessInfo.processInfo.environment["GENERATOR_SEED"].flatMap { UInt64($0) } ?? 51
        var generator = Generator(state: seed)
        let documents = (0..<2_000).map { _ in generator.document() }
        let answers: [[String: String]] = try askCmarkGFM(cmarkVerdictScript, documents)
        let expected = answers.map { verdicts in
            Dictionary(uniqueKeysWithValues: verdicts.compactMap { key, value in Int(key).map { ($0, value) } })
        }
        var disagreements = 0
        for (document, cmark) in zip(documents, expected) {
            let tally = Self.verdicts(document)
            // The document reads, and every opener outside code is run or warned of.
            let read = try RegionDocument(Array(document.utf8), kind: .markdown)
            #expect(
                read.regions.count + read.warnings.filter { !$0.isRun }.count
                    == cmark.values.filter { $0 != "code" }.count,
                "\(document)")
            guard tally != cmark else { continue }
            disagreements += 1
            // DUMP_DISAGREEMENTS=FOLDER keeps each document the two read differently, to study.
            if let folder = ProcessInfo.processInfo.environment["DUMP_DISAGREEMENTS"] {
                try? Data(document.utf8).write(to: URL(fileURLWithPath: folder + "/\(disagreements).md"))
            }
            if disagreements <= 5 {
                Issue.record(
                    "tally \(tally.sorted { $0.key < $1.key }) but cmark-gfm \(cmark.sorted { $0.key < $1.key }) in:\n\(document)"
                )
            }
        }
        #expect(disagreements == 0, "\(disagreements) of \(documents.count) documents")
        // Every verdict was seen, so the documents test each.
        let seen = Set(expected.flatMap(\.values))
        #expect(seen == ["html", "code", "text"], "\(seen)")
    }
}
