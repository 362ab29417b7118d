import TallyGeometry

/// The face a badge's text is set in (SPEC §7): DejaVu Sans, a humanist sans of Verdana's family
/// (the face of the shields.io badges a tally badge sits beside), for printable ASCII, Latin-1
/// and the superscript digits of the short form's power of ten ("9.22×10¹⁸"). Its outlines, advances and kerning are data (`BadgeFontData.swift`, written by
/// `scripts/extract-badge-font`), so a badge's text is paths: the same in every viewer, with
/// no fonts installed, and its width exact, never estimated from a metrics table.
///
/// Why outlines and not the caption's stroke font or the Hershey fonts: measured side by side at
/// 11 px (docs/badges.md), a monoline face reaches the same contrast, but it is a 1 px
/// geometric pen, lighter and wider than the Verdana of the shields badges beside it, with no
/// kerning and no Latin-1; DejaVu Sans has Verdana's shapes, stems and colour.
package enum BadgeFont {
    /// The weight a text is set in: shields' for-the-badge style sets its message (a badge's
    /// value) in bold (SPEC §7). The bold face holds only what a value can write: digits, the
    /// grouping comma, the decimal point, `%`, `<`, `>`, the scales' letters and the raised power
    /// of ten.
    package enum Face: Sendable {
        case regular, bold
    }

    /// One character's outline and advance, in font units (y up, as fonts have it).
    struct Glyph: Sendable {
        let advance: Double
        /// The outline as the data writes it, parsed into closed contours (`contours(_:)`)
        /// where the glyph is set: a text sets a few of the face's glyphs, and parsing all of
        /// them up front cost about 85M instructions, most of a badge's run.
        let outline: Substring
    }

    /// The characters this face has, read once on first use. The data is read as bytes, a
    /// line at a time (`0041 1401 M700 1294 L…`): split as a `String`, by `Character`, the
    /// table and the kerning cost about 40M instructions, most of a badge's run.
    static let glyphs: [Unicode.Scalar: Glyph] = {
        var glyphs: [Unicode.Scalar: Glyph] = [:]
        glyphs.reserveCapacity(256)
        forEachLine(of: dataGlyphs) { line in
            var fields = Fields(line)
            guard let code = fields.hex(), let scalar = Unicode.Scalar(code), let advance = fields.number() else {
                return
            }
            glyphs[scalar] = Glyph(advance: advance, outline: Substring(fields.rest))
        }
        return glyphs
    }()

    /// Kerning by pair: the first scalar in the high half, the second in the low.
    static let kerning: [UInt64: Double] = {
        var pairs: [UInt64: Double] = [:]
        pairs.reserveCapacity(4_096)
        forEachLine(of: dataKerning) { line in
            var fields = Fields(line)
            guard let first = fields.hex(), let second = fields.hex(), let value = fields.number() else { return }
            pairs[UInt64(first) << 32 | UInt64(second)] = value
        }
        return pairs
    }()

    /// Calls `body` with each line of `text`, without its newline.
    static func forEachLine(of text: String, _ body: (Substring.UTF8View) -> Void) {
        let bytes = Substring(text).utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            body(bytes[start..<end])
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
    }

    /// The space-separated fields of a data line, read from the left.
    struct Fields {
        var rest: Substring.UTF8View

        init(_ line: Substring.UTF8View) { rest = line }

        /// The next field's bytes, and the rest after the space that ends it.
        mutating func next() -> Substring.UTF8View {
            let end = rest.firstIndex(of: UInt8(ascii: " ")) ?? rest.endIndex
            let field = rest[rest.startIndex..<end]
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
            return field
        }

        /// The next field as hexadecimal digits.
        mutating func hex() -> UInt32? {
            let field = next()
            guard !field.isEmpty, field.count <= 8 else { return nil }
            var value: UInt32 = 0
            for byte in field {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
                default: return nil
                }
            }
            return value
        }

        /// The next field as a decimal number (`-45`, `715.5`).
        mutating func number() -> Double? {
            var reader = DecimalReader()
            for byte in next() {
                guard reader.read(byte) else { return nil }
            }
            return reader.value
        }
    }

    /// A decimal number read a byte at a time: an optional `-`, digits and an optional
    /// fraction, its value the digits over a power of ten (one rounding, as `Double(String)`
    /// rounds it).
    struct DecimalReader {
        private var digits: Int64 = 0
        private var divisor: Int64 = 1
        private var negative = false
        private var inFraction = false
        /// Whether a byte of a number has been read.
        private(set) var started = false

        /// Takes one byte; false when it is not part of a number here.
        mutating func read(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < Int64.max / 10 - 9 else { return false }
                digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
                if inFraction { divisor *= 10 }
            case UInt8(ascii: "-") where !started: negative = true
            case UInt8(ascii: ".") where !inFraction: inFraction = true
            default: return false
            }
            started = true
            return true
        }

        /// The number read, or nil when no digit was.
        var value: Double? {
            guard started else { return nil }
            let magnitude = Double(digits) / Double(divisor)
            return negative ? -magnitude : magnitude
        }
    }

    /// The first character of a text that the face does not have, or nil.
    package static func firstMissing(in text: String, face: Face = .regular) -> Unicode.Scalar? {
        text.unicodeScalars.first { glyphs[$0] == nil }
    }

    /// What the face covers, for messages.
    package static let coverage =
        "printable ASCII, Latin-1 and superscript digits (U+0020 to U+007E, U+00A0 to U+00FF but the invisible soft hyphen U+00AD, U+2070, U+2074 to U+2079)"

    /// The kerning between two characters, in font units.
    static func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Double {
        kerning[UInt64(first.value) << 32 | UInt64(second.value)] ?? 0
    }

    /// The advance of a text at a size in pixels: the sum of its glyphs' advances and the kerning
    /// between them, and `tracking` pixels between each two characters (letter spacing).
    /// Characters the face lacks count as nothing (callers check first). `face` is the weight
    /// (for now the bold sets the regular data: its subset is being extracted).
    package static func width(of text: String, size: Double, tracking: Double = 0, face: Face = .regular) -> Double {
        var units = 0.0
        var previous: Unicode.Scalar?
        var characters = 0
        for scalar in text.unicodeScalars {
            guard let glyph = glyphs[scalar] else { continue }
            if let previous { units += kern(previous, scalar) }
            units += glyph.advance
            previous = scalar
            characters += 1
        }
        return units * size / dataUnitsPerEm + tracking * Double(max(0, characters - 1))
    }

    /// The outlines of a text set at a size in pixels, its baseline's left end at `origin`, y
    /// down, with `tracking` pixels between each two characters: closed contours to fill with
    /// the nonzero rule.
    package static func outlines(
        of text: String, size: Double, origin: Point, tracking: Double = 0, face: Face = .regular
    ) -> [[Segment]] {
        let scale = size / dataUnitsPerEm
        var contours: [[Segment]] = []
        var pen = 0.0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            guard let glyph = glyphs[scalar] else { continue }
            if let previous { pen += kern(previous, scalar) + tracking / scale }
            func placed(_ point: Point) -> Point {
                Point(origin.x + (pen + point.x) * scale, origin.y - point.y * scale)
            }
            for contour in BadgeFont.contours(glyph.outline) {
                contours.append(
                    contour.map { Segment(placed($0.start), placed($0.end), control: $0.control.map(placed)) })
            }
            pen += glyph.advance
            previous = scalar
        }
        return contours
    }

    /// Parses `M x y L x y Q cx cy x y Z …` into closed contours of segments, reading the
    /// outline's bytes: a command letter may touch its first number (`M391`).
    static func contours(_ text: Substring) -> [[Segment]] {
        var reader = OutlineReader()
        for byte in text.utf8 { reader.read(byte) }
        return reader.finished()
    }

    /// The state of `contours(_:)`: a struct read in place, since a nested function that
    /// changes the parser's variables keeps them in boxes on the heap.
    struct OutlineReader {
        private var contours: [[Segment]] = []
        private var current: [Segment] = []
        private var start = Point(0, 0)
        private var at = Point(0, 0)
        /// The command's numbers so far: at most four are used (a quadratic's).
        private var numbers = (0.0, 0.0, 0.0, 0.0)
        private var count = 0
        private var command = UInt8(ascii: "M")
        private var number = DecimalReader()

        mutating func read(_ byte: UInt8) {
            if byte == UInt8(ascii: " ") {
                endNumber()
            } else if byte == UInt8(ascii: "-") && number.started {
                endNumber()
                _ = number.read(byte)
            } else if !number.read(byte) {
                endNumber()
                endCommand()
                command = byte
            }
        }

        mutating func finished() -> [[Segment]] {
            endNumber()
            endCommand()
            return contours
        }

        private mutating func endNumber() {
            guard let value = number.value else { return }
            switch count {
            case 0: numbers.0 = value
            case 1: numbers.1 = value
            case 2: numbers.2 = value
            case 3: numbers.3 = value
            default: break
            }
            count += 1
            number = DecimalReader()
        }

        private mutating func endCommand() {
            switch command {
            case UInt8(ascii: "M") where count == 2:
                at = Point(numbers.0, numbers.1)
                start = at
            case UInt8(ascii: "L") where count == 2:
                let end = Point(numbers.0, numbers.1)
                current.append(Segment(at, end))
                at = end
            case UInt8(ascii: "Q") where count == 4:
                let end = Point(numbers.2, numbers.3)
                current.append(Segment(at, end, control: Point(numbers.0, numbers.1)))
                at = end
            case UInt8(ascii: "Z"):
                if at != start { current.append(Segment(at, start)) }
                if !current.isEmpty { contours.append(current) }
                current = []
                at = start
            default: break
            }
            count = 0
        }
    }
}
