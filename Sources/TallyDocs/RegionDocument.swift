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
/// - An opening comment is recognised where a line's first non-blank text is `<!--`, blanks,
///   and the word `tally` followed by a blank, or right after a region's closing comment on
///   its line (blanks between), so a row of badges is one line; it ends at the first `-->`,
///   which may be on a later line. The region ends at the first closing comment (`<!--`, blanks, `/tally`,
///   blanks, `-->`) after it, on any line.
/// - In Markdown, lines inside a fenced code block (``` or ~~~) are text, never regions, so
///   documentation can show a region as an example.
/// - An opening comment inside a region (nested), a region with no closing comment, and a
///   closing comment with no region open are errors, named by their line.
/// - Lines end in LF or CRLF, or, in a document with CRs and no LF (classic Mac OS), in CR:
///   such a document is read line by line as any other, never skipped.
package struct RegionDocument: Equatable, Sendable {
    /// The document's syntax: Markdown has code fences; HTML has none.
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

    /// Cuts `bytes` into text and regions.
    /// - Throws: `RegionSyntaxError` naming the line of the first malformed region.
    package init(_ bytes: [UInt8], kind: Kind) throws(RegionSyntaxError) {
        var scanner = Scanner(bytes: bytes, kind: kind)
        pieces = try scanner.pieces()
        lineEnding = Self.firstLineEnding(bytes)
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
    /// as the opening comment is, when the opening comment ends its line; inline otherwise.
    /// The reference's bytes are those of the `-o` it names, as the command line keeps them
    /// (`ByteText`): a byte that is not UTF-8 stays that byte.
    package func body(for region: Region, reference: String) -> [UInt8] {
        let reference = ByteText.bytes(reference)
        guard region.isBlock else { return reference }
        return lineEnding + region.indent + reference + lineEnding + region.indent
    }

    private static func firstLineEnding(_ bytes: [UInt8]) -> [UInt8] {
        switch lineBreak(of: bytes) {
        case UInt8(ascii: "\r"): return [UInt8(ascii: "\r")]
        default:
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return [UInt8(ascii: "\n")] }
            return newline > 0 && bytes[newline - 1] == UInt8(ascii: "\r")
                ? Array("\r\n".utf8) : [UInt8(ascii: "\n")]
        }
    }

    /// The byte that ends a line: CR in a document with CRs and no LF at all (classic Mac OS),
    /// else LF (which CRLF ends in too; a lone CR in such a document is text).
    static func lineBreak(of bytes: [UInt8]) -> UInt8 {
        bytes.contains(UInt8(ascii: "\r")) && !bytes.contains(UInt8(ascii: "\n"))
            ? UInt8(ascii: "\r") : UInt8(ascii: "\n")
    }
}

/// One region of a document: the command in its opening comment, what tally wrote between the
/// markers, and the closing comment.
package struct Region: Equatable, Sendable {
    /// The line of the opening comment, from 1.
    package var line: Int
    /// The blanks before the opening comment on its line.
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
    var position = 0
    var line = 1

    /// The byte lines end in: LF, or CR in a classic Mac OS document.
    let newline: UInt8

    init(bytes: [UInt8], kind: RegionDocument.Kind) {
        self.bytes = bytes
        self.kind = kind
        newline = RegionDocument.lineBreak(of: bytes)
    }

    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    mutating func pieces() throws(RegionSyntaxError) -> [RegionDocument.Piece] {
        var pieces: [RegionDocument.Piece] = []
        var textStart = 0
        var fence: (marker: UInt8, length: Int)? = nil
        // A byte order mark is text before the first line's content.
        if bytes.starts(with: Self.byteOrderMark) { position = 3 }
        while position < bytes.count {
            let lineStart = position
            let lineEnd = endOfLine(from: position)
            let contentStart = skipBlanks(from: lineStart, to: lineEnd)
            if kind == .markdown {
                let indent = contentStart - lineStart
                if let open = fence {
                    if indent <= 3, closesFence(open, at: contentStart, end: lineEnd) { fence = nil }
                    advance(to: lineEnd)
                    continue
                }
                if indent <= 3, let opened = opensFence(at: contentStart, end: lineEnd) {
                    fence = opened
                    advance(to: lineEnd)
                    continue
                }
            }
            if var commandStart = openerCommand(at: contentStart) {
                var indentStart = lineStart
                var openerStart = contentStart
                while true {
                    let region = try readRegion(
                        indentStart: indentStart, openerStart: openerStart, commandStart: commandStart)
                    if textStart < openerStart { pieces.append(.text(Array(bytes[textStart..<openerStart]))) }
                    pieces.append(.region(region))
                    textStart = position
                    // Another region may follow on the closing comment's line (a row of badges);
                    // anything else there is text.
                    let next = skipBlanks(from: position, to: endOfLine(from: position))
                    guard next < bytes.count, let nextCommand = openerCommand(at: next) else { break }
                    (indentStart, openerStart, commandStart) = (position, next, nextCommand)
                }
                advance(to: endOfLine(from: position))
                continue
            }
            if closer(at: contentStart) != nil {
                throw RegionSyntaxError(line: line, "a closing <!-- /tally --> with no region open")
            }
            advance(to: lineEnd)
        }
        if textStart < bytes.count { pieces.append(.text(Array(bytes[textStart...]))) }
        return pieces
    }

    /// Reads a region whose opening comment starts at `openerStart`, leaving `position` after
    /// its closing comment.
    mutating func readRegion(indentStart: Int, openerStart: Int, commandStart: Int) throws(RegionSyntaxError)
        -> Region
    {
        let openerLine = line
        guard let commandEnd = find(Self.commentClose, from: commandStart) else {
            throw RegionSyntaxError(line: openerLine, "the opening <!-- tally … has no -->")
        }
        let openerEnd = commandEnd + Self.commentClose.count
        // Every byte kept, as the command line keeps an argument's: `-o` names the file it says.
        let command = ByteText.decode(bytes[commandStart..<commandEnd]).trimmingBlanks()
        advance(to: openerEnd)
        let bodyStart = position
        while position < bytes.count {
            if let closerEnd = closer(at: position) {
                let region = Region(
                    line: openerLine, indent: Array(bytes[indentStart..<openerStart]),
                    opener: Array(bytes[openerStart..<openerEnd]), command: command,
                    body: Array(bytes[bodyStart..<position]), closer: Array(bytes[position..<closerEnd]))
                position = closerEnd
                return region
            }
            if bytes[position] == newline {
                line += 1
                position += 1
                let contentStart = skipBlanks(from: position, to: endOfLine(from: position))
                if openerCommand(at: contentStart) != nil {
                    throw RegionSyntaxError(
                        line: line, "a region opened inside the region of line \(openerLine); close that one first")
                }
                continue
            }
            position += 1
        }
        throw RegionSyntaxError(line: openerLine, "the region has no closing <!-- /tally -->")
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

    /// A fence opening at `start`: three or more backticks or tildes (a backtick fence's info
    /// string holds no backtick, as CommonMark says).
    func opensFence(at start: Int, end: Int) -> (marker: UInt8, length: Int)? {
        guard start < end, bytes[start] == UInt8(ascii: "`") || bytes[start] == UInt8(ascii: "~") else { return nil }
        let marker = bytes[start]
        var run = start
        while run < end && bytes[run] == marker { run += 1 }
        guard run - start >= 3 else { return nil }
        if marker == UInt8(ascii: "`") && bytes[run..<end].contains(marker) { return nil }
        return (marker, run - start)
    }

    /// Whether the line from `start` closes `fence`: as many markers or more, then blanks.
    func closesFence(_ fence: (marker: UInt8, length: Int), at start: Int, end: Int) -> Bool {
        var run = start
        while run < end && bytes[run] == fence.marker { run += 1 }
        guard run - start >= fence.length else { return false }
        return skipBlanks(from: run, to: end) == contentEnd(lineEnd: end)
    }

    /// The end of a line's content, before its `\n` or `\r\n`.
    func contentEnd(lineEnd: Int) -> Int {
        var end = lineEnd
        if end > 0 && bytes[end - 1] == newline { end -= 1 }
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") && newline != UInt8(ascii: "\r") { end -= 1 }
        return end
    }

    /// The index after the line's `\n`, or the end of the document.
    func endOfLine(from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == newline { return index + 1 }
            index += 1
        }
        return index
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

    func find(_ needle: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index...].starts(with: needle) { return index }
            index += 1
        }
        return nil
    }

    /// Moves to `end`, counting the newlines passed.
    mutating func advance(to end: Int) {
        while position < end {
            if bytes[position] == newline { line += 1 }
            position += 1
        }
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
