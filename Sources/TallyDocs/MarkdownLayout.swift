/// What CommonMark (0.31, with GFM 0.29's tables) makes of a Markdown document, as far as
/// regions care (SPEC §8): which bytes are code, and which HTML comments stand as raw HTML.
///
/// tally reads Markdown with this scanner of its own, not with a parser package: no Swift
/// CommonMark parser builds offline here (swift-markdown is not in the package mirror; Ink does
/// not follow CommonMark), and a region needs only two answers from the parse. The scanner follows
/// cmark-gfm's block algorithm (`blocks.c`: containers matched line by line, then block starts,
/// then lazy continuation; tabs as stops of 4) and its inline rules for the two things that can
/// hide a comment (code spans, and raw HTML or autolinks that start first). `MarkdownLayoutTests`
/// checks every verdict against cmark-gfm itself on thousands of generated documents.
package struct MarkdownLayout {
    /// An HTML comment that a page receives as HTML (inline HTML, or in an HTML block).
    package struct Comment: Equatable, Sendable {
        /// The `<` of `<!--`, and the index after its `-->`.
        package var start: Int
        package var end: Int
        /// Whether nothing but container markers and blanks stands before it on its line, in an
        /// HTML block (so its line is HTML, and a region there may be a block region).
        package var startsLine: Bool
        /// Whether its line starts an HTML block that ends a GFM table: the line was meant as a
        /// row, and is not one.
        package var endsTable: Bool
        /// Whether it stands in a GFM table's cell, where `\|` is a `|` of the cell's text (GFM
        /// cuts the row at the other pipes before it reads anything else).
        package var inTableCell = false
    }

    package private(set) var comments: [Comment] = []
    /// Byte ranges that are code (code blocks, code spans, the fences' lines, and the HTML
    /// blocks whose content is not markup: `<pre>`, `<script>`, `<style>`, `<textarea>`, `<?`,
    /// `<!X`, CDATA), sorted and disjoint.
    package private(set) var code: [Range<Int>] = []

    /// Whether `index` is in code.
    package func isCode(_ index: Int) -> Bool {
        var low = 0
        var high = code.count
        while low < high {
            let middle = (low + high) / 2
            if code[middle].upperBound <= index { low = middle + 1 } else { high = middle }
        }
        return low < code.count && code[low].contains(index)
    }

    /// The layout of a Markdown document. A line ends where cmark-gfm ends one: at LF, at CRLF,
    /// and at a CR alone, whatever the other lines end in.
    package init(markdown bytes: [UInt8]) {
        var parser = BlockParser(bytes: bytes)
        parser.parse()
        comments = parser.comments.sorted { $0.start < $1.start }
        code = Self.merged(parser.code)
    }

    /// The layout of an HTML document, as a browser reads it: a comment between tags is one; a
    /// tag's attribute values and CDATA are text inside it, never a comment; and the content of
    /// `<script>`, `<style>`, `<textarea>`, `<title>`, `<xmp>` and `<pre>` is code (text, as a
    /// Markdown code block is: a region there is an example).
    package init(html bytes: [UInt8]) {
        var html = InlineHTML(bytes)
        var index = 0
        var lineStart = true
        var code: [Range<Int>] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lineStart = true
            } else if byte == UInt8(ascii: "<"), let end = html.comment(at: index) {
                comments.append(Comment(start: index, end: end, startsLine: lineStart, endsTable: false))
                lineStart = false
                index = end
                continue
            } else if byte == UInt8(ascii: "<"), let tag = Self.tag(in: bytes, at: index) {
                lineStart = false
                index = tag.end
                guard !tag.closing, Self.textElements.contains(tag.name) else { continue }
                // Its content, to its end tag (or the document's end), is text.
                let closer = Array("</".utf8) + tag.name
                var end = index
                while end < bytes.count {
                    if bytes[end] == UInt8(ascii: "<"),
                        bytes[end...].prefix(closer.count).map({ $0 | 0x20 }) == closer.map({ $0 | 0x20 })
                    {
                        break
                    }
                    end += 1
                }
                code.append(index..<end)
                index = end
                continue
            } else if byte == UInt8(ascii: "<"), bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
                // Text to its `]]>`: an opener there is not a comment.
                var end = index + 9
                while end < bytes.count && !bytes[end...].starts(with: Array("]]>".utf8)) { end += 1 }
                lineStart = false
                index = min(end + 3, bytes.count)
                continue
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
                && !(index < 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]))
            {
                lineStart = false
            }
            index += 1
        }
        self.code = Self.merged(code)
    }

    /// The elements whose content an HTML document's regions treat as text.
    private static let textElements: [[UInt8]] = ["script", "style", "textarea", "title", "xmp", "pre"].map {
        Array($0.utf8)
    }

    /// A start or end tag at `start` (`<name`, `</name`, then attributes, quoted values read
    /// whole, to `>`): its name in lower case, whether it closes, and the index after its `>`;
    /// nil where `<` starts no tag.
    fileprivate static func tag(in bytes: [UInt8], at start: Int) -> (name: [UInt8], closing: Bool, end: Int)? {
        var index = start + 1
        let closing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        guard index < bytes.count, isLetter(bytes[index]) else { return nil }
        var name: [UInt8] = []
        while index < bytes.count, isLetter(bytes[index]) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) {
            name.append(bytes[index] | 0x20)
            index += 1
        }
        var quote: UInt8? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (name, closing, index + 1)
            }
            index += 1
        }
        return nil
    }

    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}

/// Text gathered from several lines (a paragraph, an HTML block), with each byte's place in the
/// document; a line break between lines has the place of the line's end.
private struct Gathered {
    var text: [UInt8] = []
    var origin: [Int] = []
    var lines = 0

    mutating func append(_ bytes: [UInt8], _ range: Range<Int>) {
        lines += 1
        if lines > 1 {
            text.append(UInt8(ascii: "\n"))
            origin.append(max(range.lowerBound - 1, 0))
        }
        text += bytes[range]
        origin += Array(range)
    }

    /// The document's range for `start..<end` of the text.
    func range(_ start: Int, _ end: Int) -> Range<Int> {
        guard start < end else { return origin[start]..<origin[start] }
        return origin[start]..<(origin[end - 1] + 1)
    }
}

/// cmark-gfm's block parse, reduced to what regions need.
private struct BlockParser {
    enum Kind: Equatable {
        case document, quote
        case item(width: Int)
        case fence(marker: UInt8, length: Int)
        case indentedCode
        case html(type: Int, endsTable: Bool)
        case paragraph
        case table(columns: Int)
        case heading, thematicBreak
    }

    struct Block {
        var kind: Kind
        var hasChildren = false
        /// The content of a paragraph or HTML block, line by line.
        var lines: [Range<Int>] = []
        /// Whether a delimiter row under this paragraph failed to make it a table.
        var triedAsTable = false
    }

    let bytes: [UInt8]
    var open: [Block] = [Block(kind: .document)]
    var comments: [MarkdownLayout.Comment] = []
    var code: [Range<Int>] = []
    /// Inline content read once every block is: a reference may be defined after its use.
    var inlineContent: [(content: Gathered, start: Int, inTableCell: Bool)] = []
    /// The labels of the document's reference definitions, normalized.
    var definitions: Set<String> = []

    // The line being read, as cmark reads it: the byte and column reached, the first non-blank.
    var lineStart = 0
    var lineEnd = 0
    var offset = 0
    var column = 0
    var partialTab = false
    var firstNonspace = 0
    var firstNonspaceColumn = 0
    var indent: Int { firstNonspaceColumn - column }
    var blank: Bool { firstNonspace >= lineEnd }

    init(bytes: [UInt8]) { self.bytes = bytes }

    func peek(_ index: Int) -> UInt8 { index < lineEnd ? bytes[index] : 0 }

    mutating func parse() {
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while position < bytes.count {
            var end = position
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") { end += 1 }
            var next = end < bytes.count ? end + 1 : end
            if end < bytes.count && bytes[end] == UInt8(ascii: "\r") && next < bytes.count
                && bytes[next] == UInt8(ascii: "\n")
            {
                next += 1
            }
            readLine(position, end)
            position = next
        }
        while open.count > 1 { closeLast() }
        for (content, start, inTableCell) in inlineContent {
            scanInline(content, from: start, inTableCell: inTableCell)
        }
    }

    mutating func findFirstNonspace() {
        firstNonspace = offset
        firstNonspaceColumn = column
        var toTab = 4 - column % 4
        while firstNonspace < lineEnd {
            let byte = bytes[firstNonspace]
            if byte == UInt8(ascii: " ") {
                firstNonspace += 1
                firstNonspaceColumn += 1
                toTab -= 1
                if toTab == 0 { toTab = 4 }
            } else if byte == UInt8(ascii: "\t") {
                firstNonspace += 1
                firstNonspaceColumn += toTab
                toTab = 4
            } else {
                break
            }
        }
    }

    /// cmark's `S_advance_offset`: `count` columns (a tab may be consumed in part) or bytes.
    mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < lineEnd {
            if bytes[offset] == UInt8(ascii: "\t") {
                let toTab = 4 - column % 4
                if columns {
                    partialTab = toTab > count
                    let step = min(count, toTab)
                    column += step
                    offset += partialTab ? 0 : 1
                    count -= step
                } else {
                    partialTab = false
                    column += toTab
                    offset += 1
                    count -= 1
                }
            } else {
                partialTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    mutating func readLine(_ start: Int, _ end: Int) {
        (lineStart, lineEnd, offset, column, partialTab) = (start, end, start, 0, false)
        // 1. The open blocks this line continues.
        var matched = 1
        while matched < open.count {
            findFirstNonspace()
            switch open[matched].kind {
            case .quote:
                guard indent <= 3 && peek(firstNonspace) == UInt8(ascii: ">") else { break }
                advance(indent + 1, columns: true)
                if peek(offset) == UInt8(ascii: " ") || peek(offset) == UInt8(ascii: "\t") {
                    advance(1, columns: true)
                }
                matched += 1
                continue
            case .item(let width):
                if indent >= width {
                    advance(width, columns: true)
                } else if blank && open[matched].hasChildren {
                    advance(firstNonspace - offset, columns: false)
                } else {
                    break
                }
                matched += 1
                continue
            case .fence(let marker, let length):
                if indent <= 3 && peek(firstNonspace) == marker && closingFence(marker, at: firstNonspace) >= length {
                    // The closing fence: the line is the fence's, and the block ends.
                    code.append(lineStart..<lineEnd)
                    while open.count > matched { closeLast() }
                    return
                }
                matched += 1
                continue
            case .indentedCode:
                if indent >= 4 {
                    advance(4, columns: true)
                } else if blank {
                    advance(firstNonspace - offset, columns: false)
                } else {
                    break
                }
                matched += 1
                continue
            case .html(let type, _):
                guard !(type >= 6 && blank) else { break }
                matched += 1
                continue
            case .paragraph, .table:
                guard !blank else { break }
                matched += 1
                continue
            case .document, .heading, .thematicBreak:
                break
            }
            break
        }
        let allMatched = matched == open.count
        // 2. New blocks this line starts.
        var container = matched - 1
        var opened = false
        var consumed = false
        var maybeLazy = open.last?.kind == .paragraph
        func add(_ kind: Kind) -> Int {
            if !opened {
                while open.count > container + 1 { closeLast() }
                opened = true
            }
            // A leaf holds no blocks: it ends, and its parent takes the new one.
            while !canContain(open[container].kind) {
                closeLast()
                container -= 1
            }
            open[container].hasChildren = true
            open.append(Block(kind: kind))
            container = open.count - 1
            return container
        }
        scan: while true {
            switch open[container].kind {
            case .fence, .indentedCode, .html, .heading, .thematicBreak: break scan
            default: break
            }
            findFirstNonspace()
            let indented = indent >= 4
            let first = peek(firstNonspace)
            let isParagraph = open[container].kind == .paragraph
            if !indented && first == UInt8(ascii: ">") {
                advance(firstNonspace + 1 - offset, columns: false)
                if peek(offset) == UInt8(ascii: " ") || peek(offset) == UInt8(ascii: "\t") {
                    advance(1, columns: true)
                }
                _ = add(.quote)
            } else if !indented, let hashes = atxHeading(at: firstNonspace) {
                advance(firstNonspace + hashes - offset, columns: false)
                _ = add(.heading)
            } else if !indented, let fence = openingFence(at: firstNonspace) {
                _ = add(.fence(marker: fence.marker, length: fence.length))
                code.append(lineStart..<lineEnd)
                consumed = true
            } else if !indented, let type = htmlBlockStart(at: firstNonspace, interruptsParagraph: isParagraph) {
                let endsTable: Bool
                if case .table = open[container].kind { endsTable = true } else { endsTable = false }
                _ = add(.html(type: type, endsTable: endsTable))
            } else if !indented && isParagraph && isSetextUnderline(at: firstNonspace)
                && !isOnlyDefinitions(open[container].lines)
            {
                // The paragraph becomes a heading: its inline content is the same.
                closeLast()
                container -= 1
                consumed = true
            } else if !indented && !(isParagraph && !allMatched) && isThematicBreak(at: firstNonspace) {
                _ = add(.thematicBreak)
                closeLast()
                container = open.count - 1
                consumed = true
            } else if indent < 4, let width = listItem(interruptsParagraph: isParagraph) {
                _ = add(.item(width: width))
            } else if indented && !maybeLazy && !blank {
                advance(4, columns: true)
                _ = add(.indentedCode)
            } else if !indented, isParagraph, !blank, let columns = tableStart(container) {
                let header = open[container].lines.removeLast()
                // The lines above the header stay a paragraph, whose reference definitions
                // cmark-gfm does not read: they are its text.
                let paragraph = open.removeLast()
                inlineContent.append((gathered(paragraph.lines), 0, false))
                container -= 1
                scanRow(header, columns: columns)
                _ = add(.table(columns: columns))
                consumed = true
            } else {
                break
            }
            if consumed { break }
            if case .heading = open[container].kind { break }
            maybeLazy = false
        }
        guard !consumed else { return }
        // 3. The line's text, to the block it belongs to.
        findFirstNonspace()
        if !opened && matched < open.count && !blank && open.last?.kind == .paragraph {
            // A lazy continuation line.
            open[open.count - 1].lines.append(offset..<lineEnd)
            return
        }
        if !opened { while open.count > matched { closeLast() } }
        let tip = open.count - 1
        switch open[tip].kind {
        case .fence, .indentedCode:
            code.append(lineStart..<lineEnd)
        case .html(let type, _):
            open[tip].lines.append(offset..<lineEnd)
            if type <= 5 && htmlBlockEnds(type: type) { closeLast() }
        case .heading:
            inlineContent.append((gathered([offset..<lineEnd]), 0, false))
            closeLast()
        case .thematicBreak:
            closeLast()
        case .table(let columns):
            if !blank { scanRow(offset..<lineEnd, columns: columns) }
        case .paragraph:
            // cmark adds a paragraph's line from its first non-blank (a lazy line, above, from
            // where its containers ended): a reference definition may start it.
            open[tip].lines.append(firstNonspace..<lineEnd)
        case .document, .quote, .item:
            if !blank {
                _ = add(.paragraph)
                open[open.count - 1].lines.append(firstNonspace..<lineEnd)
            }
        }
    }

    func canContain(_ kind: Kind) -> Bool {
        switch kind {
        case .document, .quote, .item: return true
        default: return false
        }
    }

    /// Ends the innermost open block, reading the inline content of a paragraph or the
    /// comments of an HTML block.
    mutating func closeLast() {
        let block = open.removeLast()
        switch block.kind {
        case .paragraph:
            // Reference definitions at its start are no inline content: their titles are text.
            let content = gathered(block.lines)
            inlineContent.append((content, readDefinitions(content), false))
        case .html(let type, let endsTable):
            let text = gathered(block.lines)
            guard type == 2 || type >= 6 else {
                if let first = block.lines.first, let last = block.lines.last {
                    code.append(first.lowerBound..<last.upperBound)
                }
                return
            }
            scanHTMLBlock(text, endsTable: endsTable)
        default:
            break
        }
    }

    func gathered(_ lines: [Range<Int>]) -> Gathered {
        var result = Gathered()
        for line in lines { result.append(bytes, line) }
        return result
    }

    // MARK: Block starts

    func closingFence(_ marker: UInt8, at start: Int) -> Int {
        var run = start
        while run < lineEnd && bytes[run] == marker { run += 1 }
        var rest = run
        while rest < lineEnd && (bytes[rest] == UInt8(ascii: " ") || bytes[rest] == UInt8(ascii: "\t")) { rest += 1 }
        return rest == lineEnd ? run - start : 0
    }

    func openingFence(at start: Int) -> (marker: UInt8, length: Int)? {
        let marker = peek(start)
        guard marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") else { return nil }
        var run = start
        while run < lineEnd && bytes[run] == marker { run += 1 }
        guard run - start >= 3 else { return nil }
        if marker == UInt8(ascii: "`") && bytes[run..<lineEnd].contains(marker) { return nil }
        return (marker, run - start)
    }

    func atxHeading(at start: Int) -> Int? {
        var run = start
        while run < lineEnd && bytes[run] == UInt8(ascii: "#") { run += 1 }
        let count = run - start
        guard (1...6).contains(count) else { return nil }
        let after = peek(run)
        guard after == 0 || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") else { return nil }
        return count
    }

    func isSetextUnderline(at start: Int) -> Bool {
        let marker = peek(start)
        guard marker == UInt8(ascii: "=") || marker == UInt8(ascii: "-") else { return false }
        var index = start
        while index < lineEnd && bytes[index] == marker { index += 1 }
        while index < lineEnd && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
            index += 1
        }
        return index == lineEnd
    }

    func isThematicBreak(at start: Int) -> Bool {
        let marker = peek(start)
        guard marker == UInt8(ascii: "*") || marker == UInt8(ascii: "-") || marker == UInt8(ascii: "_") else {
            return false
        }
        var count = 0
        for byte in bytes[start..<lineEnd] {
            if byte == marker {
                count += 1
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                return false
            }
        }
        return count >= 3
    }

    /// A list item's marker at the first non-blank: the columns of its content, with the
    /// line's offset moved past the marker and its spaces as cmark's `parse_list_marker` does.
    mutating func listItem(interruptsParagraph: Bool) -> Int? {
        var index = firstNonspace
        let first = peek(index)
        var startsWithOne = true
        if first == UInt8(ascii: "*") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            index += 1
        } else {
            var digits = 0
            var value = 0
            while digits < 9, index < lineEnd, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0, peek(index) == UInt8(ascii: ".") || peek(index) == UInt8(ascii: ")") else { return nil }
            index += 1
            startsWithOne = value == 1
        }
        let after = peek(index)
        guard after == 0 || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") else { return nil }
        if interruptsParagraph {
            guard startsWithOne else { return nil }
            var rest = index
            while rest < lineEnd && (bytes[rest] == UInt8(ascii: " ") || bytes[rest] == UInt8(ascii: "\t")) {
                rest += 1
            }
            guard rest < lineEnd else { return nil }
        }
        let markerOffset = indent
        let markerLength = index - firstNonspace
        advance(index - offset, columns: false)
        let saved = (offset, column, partialTab)
        while column - saved.1 <= 5 && (peek(offset) == UInt8(ascii: " ") || peek(offset) == UInt8(ascii: "\t")) {
            advance(1, columns: true)
        }
        let spaces = column - saved.1
        if spaces >= 5 || spaces < 1 || offset >= lineEnd {
            (offset, column, partialTab) = saved
            if spaces > 0 { advance(1, columns: true) }
            return markerOffset + markerLength + 1
        }
        return markerOffset + markerLength + spaces
    }

    static let type1Names = ["pre", "script", "style", "textarea"]
    static let type6Names: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
        "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option",
        "p", "param", "section", "source", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
        "track", "ul",
    ]

    /// The type (1 to 7) of the HTML block that starts at `start`, as CommonMark §4.6 numbers them.
    func htmlBlockStart(at start: Int, interruptsParagraph: Bool) -> Int? {
        guard peek(start) == UInt8(ascii: "<") else { return nil }
        let line = Array(bytes[start..<lineEnd])
        func startsWith(_ text: String) -> Bool {
            let pattern = Array(text.utf8)
            guard line.count >= pattern.count else { return false }
            return zip(line, pattern).allSatisfy { lowercased($0) == $1 }
        }
        func endsName(at index: Int, slash: Bool) -> Bool {
            guard index < line.count else { return true }
            let byte = line[index]
            return byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: ">")
                || (slash && byte == UInt8(ascii: "/") && index + 1 < line.count
                    && line[index + 1] == UInt8(ascii: ">"))
        }
        for name in Self.type1Names where startsWith("<" + name) && endsName(at: name.count + 1, slash: false) {
            return 1
        }
        if startsWith("<!--") { return 2 }
        if startsWith("<?") { return 3 }
        if startsWith("<![CDATA[") { return 5 }
        if line.count > 2 && line[1] == UInt8(ascii: "!") && isLetter(line[2]) { return 4 }
        let nameStart = line.count > 1 && line[1] == UInt8(ascii: "/") ? 2 : 1
        var nameEnd = nameStart
        while nameEnd < line.count && (isLetter(line[nameEnd]) || isDigit(line[nameEnd])) { nameEnd += 1 }
        let name = String(decoding: line[nameStart..<nameEnd].map(lowercased), as: UTF8.self)
        if Self.type6Names.contains(name) && endsName(at: nameEnd, slash: true) { return 6 }
        guard !interruptsParagraph else { return nil }
        var tag = InlineHTML(line)
        let tagEnd = tag.openTag(at: 0) ?? tag.closingTag(at: 0)
        guard let tagEnd else { return nil }
        return line[tagEnd...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } ? 7 : nil
    }

    /// Whether this line ends the open HTML block of `type` 1 to 5.
    func htmlBlockEnds(type: Int) -> Bool {
        let line = bytes[firstNonspace..<lineEnd]
        return Self.htmlBlockEndings[type].contains { pattern in
            guard line.count >= pattern.count else { return false }
            return (line.startIndex...(line.endIndex - pattern.count)).contains { start in
                zip(line[start..<(start + pattern.count)], pattern).allSatisfy { lowercased($0) == $1 }
            }
        }
    }

    /// What ends an HTML block of each type, 1 to 5 (CommonMark §4.6), lowercase.
    static let htmlBlockEndings: [[[UInt8]]] = [
        [], ["</pre>", "</script>", "</style>", "</textarea>"], ["-->"], ["?>"], [">"], ["]]>"],
    ].map { $0.map { Array($0.utf8) } }

    /// A GFM table's columns, when this line is a delimiter row under the paragraph's last line
    /// with as many cells.
    mutating func tableStart(_ container: Int) -> Int? {
        // cmark-gfm tries a paragraph once: after a delimiter row whose cells its header's do
        // not match, no later line makes it a table.
        guard !open[container].triedAsTable else { return nil }
        let delimiters = TableRow.cells(bytes, firstNonspace..<lineEnd)
        guard bytes[firstNonspace..<lineEnd].contains(UInt8(ascii: "|")), !delimiters.isEmpty else { return nil }
        for cell in delimiters {
            var trimmed = ArraySlice(bytes[cell]).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            while let last = trimmed.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                trimmed.removeLast()
            }
            if trimmed.first == UInt8(ascii: ":") { trimmed.removeFirst() }
            if trimmed.last == UInt8(ascii: ":") { trimmed.removeLast() }
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
        }
        guard let header = open[container].lines.last,
            TableRow.cells(bytes, header).count == delimiters.count
        else {
            open[container].triedAsTable = true
            return nil
        }
        return delimiters.count
    }

    // MARK: Inline content

    /// A table row: each of the table's cells is inline content; cells past them are dropped.
    mutating func scanRow(_ line: Range<Int>, columns: Int) {
        for cell in TableRow.cells(bytes, line).prefix(columns) {
            inlineContent.append((gathered([cell]), 0, true))
        }
    }

    /// The reference definitions at the start of a paragraph's `content`, their labels kept:
    /// the index after the last.
    mutating func readDefinitions(_ content: Gathered) -> Int {
        LinkSyntax.definitionsEnd(content.text) { definitions.insert($0) }
    }

    /// Whether a paragraph of `lines` is reference definitions alone (so a setext underline
    /// under it is none: cmark reads the definitions first).
    func isOnlyDefinitions(_ lines: [Range<Int>]) -> Bool {
        let text = gathered(lines).text
        let end = LinkSyntax.definitionsEnd(text) { _ in }
        return end > 0 && end >= text.count
    }

    /// A `[` or `![` not yet closed, as cmark's bracket stack keeps it.
    struct Bracket {
        var position: Int
        var isImage: Bool
        /// False once a link closes after it: a link holds no link.
        var active = true
        /// Whether another bracket opened after it (then it is no shortcut reference).
        var bracketAfter = false
        /// How many comments were found before it.
        var commentsBefore: Int
    }

    /// Code spans, raw HTML and links in inline content from `start`, left to right as cmark
    /// reads them: a backslash escapes the next punctuation; a backtick run opens a code span
    /// when a run as long follows; `<` starts an autolink or raw HTML (a comment among them)
    /// when one is complete; a `]` closes a link or image when a destination and title, or a
    /// defined reference, follow. A destination and title are skipped (their text is an
    /// attribute's), and an image's description is the `alt` text: no comment of it is HTML.
    mutating func scanInline(_ content: Gathered, from start: Int = 0, inTableCell: Bool = false) {
        let text = content.text
        var backticks = BacktickSearch()
        var html = InlineHTML(text)
        var brackets: [Bracket] = []
        var index = start
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\") && index + 1 < text.count && isPunctuation(text[index + 1]) {
                index += 2
            } else if byte == UInt8(ascii: "`") {
                var runEnd = index
                while runEnd < text.count && text[runEnd] == UInt8(ascii: "`") { runEnd += 1 }
                if let close = backticks.closer(length: runEnd - index, after: runEnd, in: text) {
                    code.append(content.range(index, close))
                    index = close
                } else {
                    index = runEnd
                }
            } else if byte == UInt8(ascii: "<") {
                if let end = html.autolink(at: index) {
                    index = end
                } else if let end = html.comment(at: index) {
                    let range = content.range(index, end)
                    comments.append(
                        .init(
                            start: range.lowerBound, end: range.upperBound, startsLine: false, endsTable: false,
                            inTableCell: inTableCell))
                    index = end
                } else if let end = html.tag(at: index) {
                    index = end
                } else {
                    index += 1
                }
            } else if byte == UInt8(ascii: "[")
                || (byte == UInt8(ascii: "!") && index + 1 < text.count && text[index + 1] == UInt8(ascii: "["))
            {
                if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
                let isImage = byte == UInt8(ascii: "!")
                brackets.append(Bracket(position: index, isImage: isImage, commentsBefore: comments.count))
                index += isImage ? 2 : 1
            } else if byte == UInt8(ascii: "]"), let opener = brackets.popLast() {
                index += 1
                guard opener.active, let end = linkEnd(text, opener: opener, close: index - 1) else { continue }
                index = end
                if opener.isImage {
                    comments.removeSubrange(opener.commentsBefore...)
                } else {
                    for earlier in brackets.indices where !brackets[earlier].isImage {
                        brackets[earlier].active = false
                    }
                }
            } else {
                index += 1
            }
        }
    }

    /// Where a link or image whose text closes at `close` ends: after an inline destination
    /// and title, or after a reference (full, collapsed or shortcut) that the document defines;
    /// nil where it is no link.
    func linkEnd(_ text: [UInt8], opener: Bracket, close: Int) -> Int? {
        if let end = LinkSyntax.inlineLinkEnd(text, at: close + 1) { return end }
        let label = LinkSyntax.label(text, at: close + 1)
        let key: ArraySlice<UInt8>
        var end = close + 1
        if let label, !label.content.isEmpty {
            key = text[label.content]
            end = label.end
        } else if opener.bracketAfter {
            // A shortcut or collapsed reference is no link around other brackets.
            return nil
        } else {
            key = text[(opener.position + (opener.isImage ? 2 : 1))..<close]
            end = label?.end ?? end
        }
        guard key.count <= LinkSyntax.longestLabel, let name = LinkSyntax.normalized(key), definitions.contains(name)
        else { return nil }
        return end
    }

    /// The comments of an HTML block's raw text, as a browser reads them: each from `<!--` to
    /// the first `-->`, between tags (an attribute's value is text).
    mutating func scanHTMLBlock(_ content: Gathered, endsTable: Bool) {
        let text = content.text
        var html = InlineHTML(text)
        var index = 0
        var lineStart = true
        var first = true
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "<"), let end = html.comment(at: index) {
                let range = content.range(index, end)
                comments.append(
                    .init(
                        start: range.lowerBound, end: range.upperBound, startsLine: lineStart,
                        endsTable: first && endsTable))
                index = end
                lineStart = false
                first = false
                continue
            }
            if byte == UInt8(ascii: "<"), let tag = MarkdownLayout.tag(in: text, at: index) {
                // A tag's attribute values are text: a comment there is none.
                index = tag.end
                lineStart = false
                first = false
                continue
            }
            if byte == UInt8(ascii: "\n") {
                lineStart = true
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                lineStart = false
                first = false
            }
            index += 1
        }
    }
}

/// cmark's search for a code span's closing backtick run (`scan_to_closing_backticks`), with
/// its memory: once a search has read to the end, the last run of each length it saw is kept,
/// and a later opener of a length whose last kept run is before it finds no closer, without
/// reading. cmark-gfm does this (so "``` `a` x `b`" has one code span, not two), and so tally
/// does, to find code where GitHub does.
private struct BacktickSearch {
    static let longest = 1_000
    var readToTheEnd = false
    var lastRun = [Int](repeating: 0, count: longest + 1)

    /// The end of the closing run for an opening run of `length` that ends at `position`.
    mutating func closer(length: Int, after position: Int, in text: [UInt8]) -> Int? {
        guard length <= Self.longest, !(readToTheEnd && lastRun[length] <= position) else { return nil }
        var index = position
        while true {
            while index < text.count && text[index] != UInt8(ascii: "`") { index += 1 }
            guard index < text.count else { break }
            let start = index
            while index < text.count && text[index] == UInt8(ascii: "`") { index += 1 }
            if index - start <= Self.longest { lastRun[index - start] = start }
            if index - start == length { return index }
        }
        readToTheEnd = true
        return nil
    }
}

/// A GFM table row cut into cells: an optional leading pipe, cells split at each pipe that no
/// backslash escapes, and an empty cell after a trailing pipe dropped.
private enum TableRow {
    static func cells(_ bytes: [UInt8], _ line: Range<Int>) -> [Range<Int>] {
        var start = line.lowerBound
        while start < line.upperBound && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) {
            start += 1
        }
        if start < line.upperBound && bytes[start] == UInt8(ascii: "|") { start += 1 }
        var cells: [Range<Int>] = []
        var cellStart = start
        var index = start
        while index < line.upperBound {
            if bytes[index] == UInt8(ascii: "\\") && index + 1 < line.upperBound
                && bytes[index + 1] == UInt8(ascii: "|")
            {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "|") {
                cells.append(cellStart..<index)
                cellStart = index + 1
            }
            index += 1
        }
        let last = cellStart..<line.upperBound
        if !(bytes[last].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } && !cells.isEmpty) {
            cells.append(last)
        }
        return cells
    }
}

/// CommonMark's raw HTML and autolinks (§6.5, §6.6), each recognised at a `<`: the index after
/// it, or nil.
struct InlineHTML {
    let text: [UInt8]
    /// The last search for each end: where it started, and what it found. Searches go forward,
    /// so a text of many unclosed `<!--` or quotes is read once, not once for each.
    private var searches: [[UInt8]: (from: Int, found: Int?)] = [:]

    init(_ text: [UInt8]) { self.text = text }

    /// The first `needle` at `start` or after.
    mutating func find(_ needle: [UInt8], from start: Int) -> Int? {
        if let last = searches[needle], last.from <= start, last.found.map({ $0 >= start }) ?? true {
            return last.found
        }
        var index = start
        var found: Int? = nil
        while index + needle.count <= text.count {
            if text[index] == needle[0] && text[index...].starts(with: needle) {
                found = index
                break
            }
            index += 1
        }
        searches[needle] = (start, found)
        return found
    }

    /// `<!-->`, `<!--->`, or `<!--` to the first `-->`.
    mutating func comment(at start: Int) -> Int? {
        guard text[start...].starts(with: Array("<!--".utf8)) else { return nil }
        if text[(start + 4)...].starts(with: [UInt8(ascii: ">")]) { return start + 5 }
        if text[(start + 4)...].starts(with: Array("->".utf8)) { return start + 6 }
        return find(Array("-->".utf8), from: start + 4).map { $0 + 3 }
    }

    /// An open tag, closing tag, processing instruction, declaration or CDATA section.
    mutating func tag(at start: Int) -> Int? {
        if let end = openTag(at: start) ?? closingTag(at: start) { return end }
        if text[start...].starts(with: Array("<?".utf8)) {
            return find(Array("?>".utf8), from: start + 2).map { $0 + 2 }
        }
        if text[start...].starts(with: Array("<![CDATA[".utf8)) {
            return find(Array("]]>".utf8), from: start + 9).map { $0 + 3 }
        }
        if start + 2 < text.count && text[start + 1] == UInt8(ascii: "!") && isLetter(text[start + 2]) {
            return find([UInt8(ascii: ">")], from: start + 2).map { $0 + 1 }
        }
        return nil
    }

    mutating func openTag(at start: Int) -> Int? {
        var index = start + 1
        guard index < text.count, isLetter(text[index]) else { return nil }
        while index < text.count && (isLetter(text[index]) || isDigit(text[index]) || text[index] == UInt8(ascii: "-"))
        {
            index += 1
        }
        while true {
            let afterSpace = skipWhitespace(from: index)
            guard afterSpace < text.count else { return nil }
            let byte = text[afterSpace]
            if byte == UInt8(ascii: ">") { return afterSpace + 1 }
            if byte == UInt8(ascii: "/") {
                return afterSpace + 1 < text.count && text[afterSpace + 1] == UInt8(ascii: ">") ? afterSpace + 2 : nil
            }
            // An attribute: whitespace, a name, and perhaps a value.
            guard afterSpace > index, isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") else {
                return nil
            }
            index = afterSpace + 1
            while index < text.count
                && (isLetter(text[index]) || isDigit(text[index]) || "_.:-".utf8.contains(text[index]))
            {
                index += 1
            }
            let equals = skipWhitespace(from: index)
            guard equals < text.count, text[equals] == UInt8(ascii: "=") else { continue }
            let value = skipWhitespace(from: equals + 1)
            guard value < text.count else { return nil }
            let quote = text[value]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let close = find([quote], from: value + 1) else { return nil }
                index = close + 1
            } else {
                var end = value
                while end < text.count && !" \t\n\r\"'=<>`".utf8.contains(text[end]) { end += 1 }
                guard end > value else { return nil }
                index = end
            }
        }
    }

    mutating func closingTag(at start: Int) -> Int? {
        guard start + 2 < text.count, text[start + 1] == UInt8(ascii: "/"), isLetter(text[start + 2]) else {
            return nil
        }
        var index = start + 3
        while index < text.count && (isLetter(text[index]) || isDigit(text[index]) || text[index] == UInt8(ascii: "-"))
        {
            index += 1
        }
        index = skipWhitespace(from: index)
        return index < text.count && text[index] == UInt8(ascii: ">") ? index + 1 : nil
    }

    /// `<scheme:…>` or `<name@host>`.
    mutating func autolink(at start: Int) -> Int? {
        var index = start + 1
        guard index < text.count, isLetter(text[index]) else { return email(at: start) }
        while index < text.count && (isLetter(text[index]) || isDigit(text[index]) || "+.-".utf8.contains(text[index]))
        {
            index += 1
        }
        let schemeLength = index - start - 1
        guard (2...32).contains(schemeLength), index < text.count, text[index] == UInt8(ascii: ":") else {
            return email(at: start)
        }
        index += 1
        while index < text.count && text[index] > 0x20 && text[index] != UInt8(ascii: "<")
            && text[index] != UInt8(ascii: ">")
        {
            index += 1
        }
        return index < text.count && text[index] == UInt8(ascii: ">") ? index + 1 : nil
    }

    mutating func email(at start: Int) -> Int? {
        var index = start + 1
        while index < text.count
            && (isLetter(text[index]) || isDigit(text[index]) || ".!#$%&'*+/=?^_`{|}~-".utf8.contains(text[index]))
        {
            index += 1
        }
        guard index > start + 1, index < text.count, text[index] == UInt8(ascii: "@") else { return nil }
        index += 1
        var labelStart = index
        while true {
            while index < text.count
                && (isLetter(text[index]) || isDigit(text[index]) || text[index] == UInt8(ascii: "-"))
            {
                index += 1
            }
            let label = text[labelStart..<index]
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                index < text.count
            else { return nil }
            if text[index] == UInt8(ascii: ">") { return index + 1 }
            guard text[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            labelStart = index
        }
    }

    func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < text.count && " \t\n\r".utf8.contains(text[index]) { index += 1 }
        return index
    }
}

private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
private func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
/// ASCII punctuation, which a backslash escapes (CommonMark §2.4): the scanner's and the link
/// syntax's (`LinkSyntax`) test.
func isPunctuation(_ byte: UInt8) -> Bool {
    (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
        || (0x7B...0x7E).contains(byte)
}
