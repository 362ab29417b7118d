import TallyPOSIX

/// A Markdown or HTML document cut into the text tally leaves alone and the regions it keeps
/// (SPEC §8):
///
/// ```
/// <!-- tally badge 1234 --label downloads -o images/downloads.svg -->
/// …the reference tally wrote last time…
/// <!-- /tally -->
/// ```
///
/// The document is read as bytes, never decoded, so every byte outside the regions (a byte
/// order mark, CRLF line endings, bytes that are not UTF-8, a last line without a newline) comes
/// back exactly as it was: `bytes` is the input whenever parsing succeeds.
///
/// - An opening comment (`<!--`, blanks, the word `tally`, a blank, … `-->`) is one where
///   Markdown puts an HTML comment on the page (`MarkdownLayout`): inline, after text or badges,
///   in a table cell, at the start of a list item, in a block quote, or in an HTML block. In code
///   (fenced or indented code blocks, in list items and quotes too; code spans; `<pre>`), it is
///   text, so documentation can show a region as an example. An HTML document is all HTML.
/// - An opening comment that starts its line (after blanks, `>` and list markers) opens a block
///   region: it ends at the first closing comment (`<!--`, blanks, `/tally`, blanks, `-->`) after
///   it, on any line. Any other opens an inline region, whose closing comment is on the line
///   where the opener's `-->` is.
/// - A region opened inside a region, a block region with no closing comment, a closing comment
///   with no region open and an opener with no `-->` are errors, named by their line. An opening
///   comment outside code that is not run (an inline one with no closer on its line, one that
///   Markdown does not read as a comment) is a warning, named by its line.
/// - Lines end in LF or CRLF, or, in a document with CRs and no LF (classic Mac OS), in CR:
///   such a document is read line by line as any other, never skipped.
package struct RegionDocument: Equatable, Sendable {
    /// The document's syntax: Markdown has code; HTML has none.
    package enum Kind: Sendable, Equatable {
        case markdown, html

        /// The kind a file's name implies: `.html` and `.htm` are HTML, everything else
        /// Markdown.
        package init(path: String) {
            let lowered = path.lowercased()
            self = lowered.hasSuffix(".html") || lowered.hasSuffix(".htm") ? .html : .markdown
        }
    }

    /// A run of the document: text tally leaves alone, or a region.
    package enum Piece: Equatable, Sendable {
        case text([UInt8])
        case region(Region)
    }

    /// The document in order: concatenated, the pieces are the document's bytes.
    package private(set) var pieces: [Piece]

    /// The line ending a region's new body uses: the document's first one (CRLF or LF), LF
    /// for a document of one line.
    package let lineEnding: [UInt8]

    /// The opening comments outside code that are not run, in document order.
    package let warnings: [RegionWarning]

    /// The document's syntax.
    package let kind: Kind

    /// Cuts `bytes` into text and regions.
    /// - Throws: `RegionSyntaxError` naming the line of the first malformed region.
    package init(_ bytes: [UInt8], kind: Kind) throws(RegionSyntaxError) {
        var scanner = Scanner(bytes: bytes, kind: kind)
        pieces = try scanner.pieces()
        warnings = scanner.warnings.sorted { $0.line < $1.line }
        lineEnding = Self.firstLineEnding(bytes)
        self.kind = kind
    }

    /// The regions, in document order.
    package var regions: [Region] {
        pieces.compactMap { piece in
            if case .region(let region) = piece { return region }
            return nil
        }
    }

    /// The document's bytes: the text as it was, and each region as it now is.
    package var bytes: [UInt8] {
        var result: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .region(let region): result += region.bytes
            }
        }
        return result
    }

    /// The document with the regions' bodies replaced, in order; the text around them, the
    /// openers and the closers stay as they are.
    /// - Precondition: one body for each region.
    package func replacingBodies(_ bodies: [[UInt8]]) -> RegionDocument {
        precondition(bodies.count == regions.count, "one body a region")
        var copy = self
        var next = 0
        for index in copy.pieces.indices {
            guard case .region(var region) = copy.pieces[index] else { continue }
            region.body = bodies[next]
            next += 1
            copy.pieces[index] = .region(region)
        }
        return copy
    }

    /// The body a reference gets in `region`: on its own line between the markers, indented
    /// as the opening comment is (in a quote or list item, with its continuation), when the
    /// opening comment ends its line; inline otherwise, on the opener's line, where in Markdown
    /// each `|` is `&#124;`, so a table cell holding it stays one cell (GFM cuts cells at every
    /// `|`, in HTML too). The reference's bytes are those of the `-o` it names, as the command
    /// line keeps them (`ByteText`): a byte that is not UTF-8 stays that byte.
    package func body(for region: Region, reference: String) -> [UInt8] {
        let reference = ByteText.bytes(reference)
        guard region.isBlock else {
            guard kind == .markdown, reference.contains(UInt8(ascii: "|")) else { return reference }
            return reference.flatMap { $0 == UInt8(ascii: "|") ? Array("&#124;".utf8) : [$0] }
        }
        return lineEnding + region.indent + reference + lineEnding + Self.closerPrefix(of: region)
    }

    /// What the closer's line starts with: the blanks and quote markers it has now, so a
    /// closer that stands outside the opener's quote or list item stays outside it (the page
    /// outside regions is unchanged: SPEC §8); the opener's indent where the closer does not
    /// start its line.
    private static func closerPrefix(of region: Region) -> [UInt8] {
        guard let lineBreak = region.body.lastIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        else { return region.indent }
        let prefix = region.body[(lineBreak + 1)...]
        let isPrefix = prefix.allSatisfy {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">")
        }
        return isPrefix ? Array(prefix) : region.indent
    }

    /// The document's first line ending (LF, CRLF, or CR alone), which the lines tally writes
    /// end in; LF in a document of one line.
    private static func firstLineEnding(_ bytes: [UInt8]) -> [UInt8] {
        guard let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            return [UInt8(ascii: "\n")]
        }
        return isLineBreak(bytes, at: end) ? [bytes[end]] : Array("\r\n".utf8)
    }

    /// Whether the byte at `index` ends a line: an LF (alone, or of a CRLF), or a CR that no LF
    /// follows. cmark-gfm and browsers end a line at each, in one document or mixed.
    package static func isLineBreak(_ bytes: [UInt8], at index: Int) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "\n"): return true
        case UInt8(ascii: "\r"): return index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n")
        default: return false
        }
    }
}

/// One region of a document: the command in its opening comment, what tally wrote between the
/// markers, and the closing comment.
package struct Region: Equatable, Sendable {
    /// The line of the opening comment, from 1.
    package var line: Int
    /// What the lines of a block region's body start with: the blanks and quote markers before
    /// the opening comment on its line, list markers as spaces; empty for an opening comment
    /// after text.
    package var indent: [UInt8]
    /// The opening comment as written, `<!--` to `-->`: tally never rewrites it.
    package var opener: [UInt8]
    /// The command line after the word `tally`, as written (blanks at either end removed).
    package var command: String
    /// What is between the markers: the reference tally wrote last time, or anything.
    package var body: [UInt8]
    /// The closing comment as written.
    package var closer: [UInt8]

    /// The region's bytes: opener, body, closer.
    package var bytes: [UInt8] { opener + body + closer }

    /// Whether the opening comment ends its line, so the reference goes on a line of its own.
    package var isBlock: Bool { body.first == UInt8(ascii: "\n") || body.first == UInt8(ascii: "\r") }
}

/// An opening comment that is not run, or run where the page will not show it as meant: its
/// line and the one-line reason.
package struct RegionWarning: Equatable, Sendable {
    /// The line of the opening comment, from 1.
    package let line: Int
    package let message: String
    /// Whether its region is run all the same.
    package let isRun: Bool

    package init(line: Int, _ message: String, isRun: Bool = false) {
        (self.line, self.message, self.isRun) = (line, message, isRun)
    }
}

/// A region that cannot be read: its line and the one-line reason.
package struct RegionSyntaxError: Error, Equatable, Sendable {
    /// The line the problem is on, from 1.
    package let line: Int
    /// What is wrong, in the words of SPEC §6's messages.
    package let message: String

    package init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }
}

/// The byte-level scan behind `RegionDocument`.
private struct Scanner {
    let bytes: [UInt8]
    let kind: RegionDocument.Kind
    /// Where each line's break is, to name an index's line: the LF of an LF or a CRLF, and a CR
    /// alone (cmark-gfm ends a line at each, in one document or mixed).
    let breaks: [Int]
    var warnings: [RegionWarning] = []

    init(bytes: [UInt8], kind: RegionDocument.Kind) {
        self.bytes = bytes
        self.kind = kind
        breaks = bytes.indices.filter { RegionDocument.isLineBreak(bytes, at: $0) }
    }

    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The line of `index`, from 1.
    func line(at index: Int) -> Int {
        var low = 0
        var high = breaks.count
        while low < high {
            let middle = (low + high) / 2
            if breaks[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low + 1
    }

    /// The first index of `index`'s line (after a byte order mark on the first).
    func startOfLine(at index: Int) -> Int {
        let lineIndex = line(at: index) - 1
        if lineIndex > 0 { return breaks[lineIndex - 1] + 1 }
        return bytes.starts(with: Self.byteOrderMark) ? min(3, index) : 0
    }

    /// The end of `index`'s line's content, before its line break.
    func endOfContent(from index: Int) -> Int {
        // The first line break at or after `index`, found in `breaks` (a walk to it, once for
        // each of ten thousand regions on one line, made a run quadratic).
        let following = line(at: index) - 1
        var end = following < breaks.count ? breaks[following] : bytes.count
        if end > index && end < bytes.count && bytes[end] == UInt8(ascii: "\n") && bytes[end - 1] == UInt8(ascii: "\r")
        {
            end -= 1
        }
        return end
    }

    mutating func pieces() throws(RegionSyntaxError) -> [RegionDocument.Piece] {
        let layout =
            kind == .markdown
            ? MarkdownLayout(markdown: bytes) : MarkdownLayout(html: bytes)
        var pieces: [RegionDocument.Piece] = []
        var textStart = 0
        var regionSpans: [Range<Int>] = []
        var openersRead: Set<Int> = []
        // Regions that start their lines, warned of once every region is known (the rest of a
        // line of regions is regions, not text).
        var lineStarters: [(opener: Int, closerEnd: Int)] = []
        // The line of the last opener after text that did not close on its line: a closer
        // after it is that region's, misplaced.
        var inlineOpenerNotClosed: Int? = nil
        for (position, comment) in layout.comments.enumerated() {
            if let last = regionSpans.last, comment.start < last.upperBound {
                // In a region's body: only what tally wrote belongs there.
                if openerCommand(at: comment.start) != nil {
                    throw RegionSyntaxError(
                        line: line(at: comment.start),
                        "a region opened inside the region of line \(line(at: last.lowerBound)); close that one first")
                }
                continue
            }
            if closer(at: comment.start) != nil {
                if let opener = inlineOpenerNotClosed {
                    throw RegionSyntaxError(
                        line: opener,
                        "a region after text closes on its own line, and this one closes on line \(line(at: comment.start)); put <!-- /tally --> right after its -->, or start a line with the region"
                    )
                }
                throw RegionSyntaxError(line: line(at: comment.start), "a closing <!-- /tally --> with no region open")
            }
            guard let commandStart = openerCommand(at: comment.start) else { continue }
            openersRead.insert(comment.start)
            let openerLine = line(at: comment.start)
            let openerEnd = comment.end
            // A region that starts its line may close on any later line (a block region); one
            // after text, in a cell or an item closes on its own line (an inline region). Its
            // closer is a comment the page reads as one: a `<!-- /tally -->` that Markdown reads
            // as code or text (a code span, a later fence, indented code, a link's title) closes
            // nothing, so the text before it is never taken for the region's.
            let limit = comment.startsLine ? bytes.count : endOfContent(from: openerEnd)
            let closerStart = layout.comments[(position + 1)...].lazy.prefix { $0.start < limit }
                .first { $0.start >= openerEnd && self.closer(at: $0.start) != nil }?.start
            guard let closerStart, let closerEnd = closer(at: closerStart) else {
                if let text = firstCloser(from: openerEnd, to: limit) {
                    throw RegionSyntaxError(
                        line: openerLine,
                        "the region has no closing <!-- /tally -->: the one on line \(line(at: text)) is \(layout.isCode(text) ? "in code, which Markdown shows as text" : "not a comment where it stands (inside a tag, an attribute or another comment)")"
                    )
                }
                if comment.startsLine {
                    throw RegionSyntaxError(line: openerLine, "the region has no closing <!-- /tally -->")
                }
                warnings.append(
                    RegionWarning(
                        line: openerLine,
                        "this region was not run: an inline region closes on its own line; write <!-- /tally --> after its -->"
                    ))
                inlineOpenerNotClosed = openerLine
                continue
            }
            try checkNothingOpens(in: openerEnd..<closerStart, openerLine: openerLine)
            if kind == .markdown && comment.startsLine && !comment.endsTable {
                lineStarters.append((comment.start, closerEnd))
            }
            if comment.endsTable {
                warnings.append(
                    RegionWarning(
                        line: openerLine,
                        "GFM reads a line that starts with <!-- as HTML, which ends the table above it; start the row with | to keep it in the table",
                        isRun: true))
            }
            var command = ByteText.decode(bytes[commandStart..<(openerEnd - Self.commentClose.count)]).trimmingBlanks()
            // In a table cell GFM reads `\|` as `|` (a label "a \| b" is "a | b" on the page).
            if comment.inTableCell { command = command.replacing("\\|", with: "|") }
            let region = Region(
                line: openerLine, indent: comment.startsLine ? continuation(before: comment.start) : [],
                opener: Array(bytes[comment.start..<openerEnd]), command: command,
                body: Array(bytes[openerEnd..<closerStart]), closer: Array(bytes[closerStart..<closerEnd]))
            if textStart < comment.start { pieces.append(.text(Array(bytes[textStart..<comment.start]))) }
            pieces.append(.region(region))
            textStart = closerEnd
            regionSpans.append(comment.start..<closerEnd)
            inlineOpenerNotClosed = nil
        }
        if textStart < bytes.count { pieces.append(.text(Array(bytes[textStart...]))) }
        for (opener, closerEnd) in lineStarters {
            warnOfALineStartingWithARegion(opener, closerEnd, regions: regionSpans)
        }
        try warnOfOpenersNotRead(layout: layout, read: openersRead, regions: regionSpans)
        return pieces
    }

    /// SPEC §8, where no reference can keep the page: a region that starts its line makes
    /// Markdown read the line as an HTML block. Text after it on the line then shows as typed
    /// (a list item `* <region> see [docs](…)`), and a region line under a line of badges splits
    /// the row into two paragraphs. Both are run, and warned of with the fix.
    mutating func warnOfALineStartingWithARegion(_ opener: Int, _ closerEnd: Int, regions: [Range<Int>]) {
        let lineEnd = endOfContent(from: opener)
        guard closerEnd <= lineEnd else { return }
        let line = line(at: opener)
        // Text after it: a byte that is neither blank, nor in a later region of the line, nor
        // in an HTML tag (which an HTML block shows as it would a paragraph).
        var index = closerEnd
        var text = false
        var next = regions.firstIndex { $0.lowerBound >= closerEnd } ?? regions.count
        while index < lineEnd && !text {
            if next < regions.count && regions[next].lowerBound == index {
                index = regions[next].upperBound
                next += 1
            } else if bytes[index] == UInt8(ascii: "<"),
                let close = bytes[index..<lineEnd].firstIndex(of: UInt8(ascii: ">"))
            {
                index = close + 1
            } else {
                text = !isBlank(bytes[index], newlines: false)
                index += 1
            }
        }
        if text {
            warnings.append(
                RegionWarning(
                    line: line,
                    "the line starts with this region, so Markdown reads the whole line as HTML and the text after it shows as typed (links and code too); put the region after the text",
                    isRun: true))
            return
        }
        let start = startOfLine(at: opener)
        guard start > 0, bytes[start..<opener].allSatisfy({ isBlank($0, newlines: false) }) else { return }
        let above = startOfLine(at: start - 1)
        let previous = bytes[skipBlanks(from: above, to: start - 1)..<endOfContent(from: above)]
        if previous.starts(with: Array("[![".utf8)) || previous.starts(with: Array("![".utf8)),
            previous.last == UInt8(ascii: ")")
        {
            warnings.append(
                RegionWarning(
                    line: line,
                    "a region on its own line splits the row of badges above it into two paragraphs; write it at the end of the line above, after a space",
                    isRun: true))
        }
    }

    /// The start of the first closing comment that starts in `start..<end`.
    func firstCloser(from start: Int, to end: Int) -> Int? {
        var index = start
        while let found = find(Self.commentOpen, from: index, to: min(end + Self.commentOpen.count, bytes.count)),
            found < end
        {
            if closer(at: found) != nil { return found }
            index = found + 1
        }
        return nil
    }

    /// An opening comment at the start of a line inside a region's body is a region nested in
    /// it: a region whose closer was forgotten.
    func checkNothingOpens(in body: Range<Int>, openerLine: Int) throws(RegionSyntaxError) {
        for lineBreak in body where RegionDocument.isLineBreak(bytes, at: lineBreak) {
            let start = skipBlanks(from: lineBreak + 1, to: body.upperBound)
            if start < body.upperBound, openerCommand(at: start) != nil {
                throw RegionSyntaxError(
                    line: line(at: start),
                    "a region opened inside the region of line \(openerLine); close that one first")
            }
        }
    }

    /// Every `<!-- tally` outside code and regions that is not a comment tally reads: an
    /// opening comment with no `-->` is an error, anything else a warning (SPEC §8: nothing is
    /// skipped in silence).
    mutating func warnOfOpenersNotRead(layout: MarkdownLayout, read: Set<Int>, regions: [Range<Int>])
        throws(RegionSyntaxError)
    {
        var regionIndex = 0
        var index = 0
        var nextClose: Int? = nil
        while let start = find(Self.commentOpen, from: index, to: bytes.count) {
            index = start + 1
            while regionIndex < regions.count && regions[regionIndex].upperBound <= start { regionIndex += 1 }
            if regionIndex < regions.count && regions[regionIndex].contains(start) { continue }
            guard !read.contains(start), openerCommand(at: start) != nil, !layout.isCode(start) else { continue }
            // The first `-->` after it: once found, it serves every opener before it.
            if nextClose.map({ $0 < start + Self.commentOpen.count }) ?? true {
                nextClose = find(Self.commentClose, from: start + Self.commentOpen.count, to: bytes.count)
            }
            guard nextClose != nil else {
                throw RegionSyntaxError(line: line(at: start), "the opening <!-- tally … has no -->")
            }
            warnings.append(
                RegionWarning(
                    line: line(at: start),
                    "this <!-- tally … was not run: Markdown does not read it as an HTML comment where it stands (inside another comment, a link, or a table cell past the header's)"
                ))
        }
    }

    /// The blanks and block quote markers before a region's opening comment on its line, with
    /// each list marker as spaces: what the lines of a block region's body start with, so they
    /// stay in the quote or list item the opener is in.
    func continuation(before opener: Int) -> [UInt8] {
        let prefix = bytes[startOfLine(at: opener)..<opener]
        guard kind == .markdown else { return Array(prefix) }
        return prefix.map { byte in
            byte == UInt8(ascii: ">") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
                ? byte : UInt8(ascii: " ")
        }
    }

    /// Where the command starts, when an opening comment (`<!--`, blanks, `tally`, a blank)
    /// starts at `start`.
    func openerCommand(at start: Int) -> Int? {
        // The first byte alone rules out almost every position, without making a slice.
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<"), bytes[start...].starts(with: Self.commentOpen)
        else { return nil }
        let word = skipBlanks(from: start + Self.commentOpen.count, to: bytes.count, newlines: true)
        guard bytes[word...].starts(with: Array("tally".utf8)) else { return nil }
        let after = word + 5
        guard after < bytes.count, isBlank(bytes[after], newlines: true) else { return nil }
        return after
    }

    /// The end of a closing comment (`<!--`, blanks, `/tally`, blanks, `-->`) at `start`.
    func closer(at start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<"), bytes[start...].starts(with: Self.commentOpen)
        else { return nil }
        let word = skipBlanks(from: start + Self.commentOpen.count, to: bytes.count, newlines: true)
        guard bytes[word...].starts(with: Array("/tally".utf8)) else { return nil }
        let end = skipBlanks(from: word + 6, to: bytes.count, newlines: true)
        guard bytes[end...].starts(with: Self.commentClose) else { return nil }
        return end + Self.commentClose.count
    }

    func find(_ needle: [UInt8], from start: Int, to end: Int) -> Int? {
        var index = start
        while index + needle.count <= end {
            if bytes[index] == needle[0] && bytes[index...].starts(with: needle) { return index }
            index += 1
        }
        return nil
    }

    func skipBlanks(from start: Int, to end: Int, newlines: Bool = false) -> Int {
        var index = start
        while index < end && isBlank(bytes[index], newlines: newlines) { index += 1 }
        return index
    }

    func isBlank(_ byte: UInt8, newlines: Bool) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            || (newlines && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")))
    }
}

extension String {
    /// The text without spaces, tabs and line breaks at either end.
    func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
