import TallyGeometry

/// The face a badge's text is set in (SPEC §7): DejaVu Sans, a humanist sans of Verdana's family
/// (the face of the shields.io badges a tally badge sits beside), for Latin (ASCII, Latin-1,
/// Latin Extended), Greek and Cyrillic as far as the font draws them (`coverage`), and the
/// superscript digits of the short form's power of ten ("9.22×10¹⁸"); and DejaVu Sans Bold for
/// a value's characters alone (`Face.bold`). Its outlines, advances and kerning are data
/// (`BadgeFontData.swift`, `BadgeFontBoldData.swift`, written by `scripts/extract-badge-font`),
/// so a badge's text is paths: the same in every viewer, with no fonts installed, and its width
/// exact, never estimated from a metrics table. The data is static strings found by binary
/// search, so a text costs the glyphs and pairs it sets, whatever the size of the face.
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

    /// One face's data (`BadgeFontData.swift`, `BadgeFontBoldData.swift`): static strings in
    /// the binary's read-only data, so nothing is read at start. A text's glyphs are found by
    /// binary search of the index and its kerning by binary search of the pairs: a text reads
    /// the lines it sets, never the whole face (1,441 glyphs and 2,224 pairs in the regular).
    struct FaceData {
        /// A line a glyph, sorted by scalar: `0041 1401 M700 1294 L…`.
        let glyphs: UnsafeBufferPointer<UInt8>
        /// `CCCCOOOOOO\n` a glyph: its scalar and its line's byte offset in `glyphs`, hex.
        let index: UnsafeBufferPointer<UInt8>
        /// `FFFFSSSS±VVV\n` a pair, sorted by the pair: the scalars in hex, the adjustment.
        let kerning: UnsafeBufferPointer<UInt8>
        let unitsPerEm: Double

        /// The length of an index record and of a kerning record, their newlines included.
        static let indexRecord = 11
        static let kerningRecord = 13

        init(glyphs: StaticString, index: StaticString, kerning: StaticString, unitsPerEm: Double) {
            self.glyphs = Self.bytes(glyphs)
            self.index = Self.bytes(index)
            self.kerning = Self.bytes(kerning)
            self.unitsPerEm = unitsPerEm
        }

        static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        }

        /// How many glyphs the index holds (its last record has no newline).
        var glyphCount: Int { (index.count + 1) / Self.indexRecord }

        /// The glyph of a scalar, or nil when the face does not have it.
        func glyph(_ scalar: Unicode.Scalar) -> Glyph? {
            let count = glyphCount
            guard let record = Self.search(index, count: count, stride: Self.indexRecord, digits: 4, for: scalar.value)
            else { return nil }
            let start = Int(Self.hex(index, at: record * Self.indexRecord + 4, digits: 6))
            let end =
                record + 1 < count
                ? Int(Self.hex(index, at: (record + 1) * Self.indexRecord + 4, digits: 6)) - 1 : glyphs.count
            // `CCCC advance outline`: the scalar and its space, the advance, a space, the outline.
            var at = start + 5
            var advance = DecimalReader()
            while at < end, glyphs[at] != UInt8(ascii: " ") {
                _ = advance.read(glyphs[at])
                at += 1
            }
            let outline = at < end ? UnsafeBufferPointer(rebasing: glyphs[(at + 1)..<end]) : .init(start: nil, count: 0)
            return Glyph(advance: advance.value ?? 0, outline: outline)
        }

        /// The kerning between two scalars, in font units.
        func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Double {
            guard first.value <= 0xFFFF, second.value <= 0xFFFF else { return 0 }
            let count = (kerning.count + 1) / Self.kerningRecord
            guard
                let record = Self.search(
                    kerning, count: count, stride: Self.kerningRecord, digits: 8,
                    for: first.value << 16 | second.value)
            else { return 0 }
            let at = record * Self.kerningRecord + 8
            let magnitude = Double(Self.decimal(kerning, at: at + 1, digits: 3))
            return kerning[at] == UInt8(ascii: "-") ? -magnitude : magnitude
        }

        /// The record whose leading `digits` hex digits read `key`, of `count` records of
        /// `stride` bytes sorted by that key.
        static func search(
            _ records: UnsafeBufferPointer<UInt8>, count: Int, stride: Int, digits: Int, for key: UInt32
        ) -> Int? {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let found = hex(records, at: middle * stride, digits: digits)
                if found == key { return middle }
                if found < key { low = middle + 1 } else { high = middle }
            }
            return nil
        }

        /// The hexadecimal number (upper case) of `digits` bytes at `at`.
        static func hex(_ bytes: UnsafeBufferPointer<UInt8>, at: Int, digits: Int) -> UInt32 {
            var value: UInt32 = 0
            for byte in bytes[at..<(at + digits)] {
                value =
                    value << 4
                    | UInt32(byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : byte &- UInt8(ascii: "A") &+ 10)
            }
            return value
        }

        /// The decimal number of `digits` bytes at `at`.
        static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, at: Int, digits: Int) -> Int {
            var value = 0
            for byte in bytes[at..<(at + digits)] { value = value * 10 + Int(byte &- UInt8(ascii: "0")) }
            return value
        }
    }

    /// One character's outline and advance, in font units (y up, as fonts have it).
    struct Glyph {
        let advance: Double
        /// The outline's bytes in the face's data, as the data writes it, parsed into closed
        /// contours (`contours(_:)`) where the glyph is set.
        let outline: UnsafeBufferPointer<UInt8>
    }

    /// A face's data: pointers to its static strings, made where they are used (no global
    /// to initialise).
    static func data(_ face: Face) -> FaceData {
        switch face {
        case .regular:
            FaceData(glyphs: dataGlyphs, index: dataGlyphIndex, kerning: dataKerning, unitsPerEm: dataUnitsPerEm)
        case .bold:
            FaceData(
                glyphs: dataBoldGlyphs, index: dataBoldGlyphIndex, kerning: dataBoldKerning,
                unitsPerEm: dataBoldUnitsPerEm)
        }
    }

    /// The glyph of a scalar in a face, or nil when the face does not have it.
    static func glyph(_ scalar: Unicode.Scalar, face: Face = .regular) -> Glyph? {
        data(face).glyph(scalar)
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
        let data = data(face)
        return text.unicodeScalars.first { GlyphCache.shared.advance($0, face: face, in: data) == nil }
    }

    /// What the regular face covers, for `--help` and messages: the ranges DejaVu Sans draws
    /// in the blocks the data takes (scripts/extract-badge-font). Unassigned code points
    /// within them (U+0378, U+1F16, …) are no characters; combining marks (U+0300 to U+036F and
    /// Cyrillic's) are left out, since setting one on its letter needs the font's mark
    /// attachment, and a label with one is refused like any character outside the face.
    package static let coverage =
        "Latin (printable ASCII, Latin-1, Latin Extended), Greek, Cyrillic and superscript digits as far as DejaVu Sans has them (U+0020 to U+007E, U+00A0 to U+00FF but the invisible soft hyphen U+00AD, U+0100 to U+024F, U+0370 to U+03FF, U+0400 to U+0525 but the combining marks U+0483 to U+0489, U+1E00 to U+1EFB, U+1F00 to U+1FFE, U+2070, U+2074 to U+2079)"

    /// The kerning between two characters, in font units.
    static func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar, face: Face = .regular) -> Double {
        data(face).kern(first, second)
    }

    /// The advance of a text at a size in pixels: the sum of its glyphs' advances and the kerning
    /// between them, and `tracking` pixels between each two characters (letter spacing).
    /// Characters the face lacks count as nothing (callers check first). `face` is the weight:
    /// the bold has only a value's characters (`Face`).
    package static func width(of text: String, size: Double, tracking: Double = 0, face: Face = .regular) -> Double {
        let data = data(face)
        var units = 0.0
        var previous: Unicode.Scalar?
        var characters = 0
        for scalar in text.unicodeScalars {
            guard let advance = GlyphCache.shared.advance(scalar, face: face, in: data) else { continue }
            if let previous { units += GlyphCache.shared.kern(previous, scalar, face: face, in: data) }
            units += advance
            previous = scalar
            characters += 1
        }
        return units * size / data.unitsPerEm + tracking * Double(max(0, characters - 1))
    }

    /// The outlines of a text set at a size in pixels, its baseline's left end at `origin`, y
    /// down, with `tracking` pixels between each two characters: closed contours to fill with
    /// the nonzero rule.
    package static func outlines(
        of text: String, size: Double, origin: Point, tracking: Double = 0, face: Face = .regular
    ) -> [[Segment]] {
        let data = data(face)
        let scale = size / data.unitsPerEm
        var contours: [[Segment]] = []
        var pen = 0.0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            guard let glyph = GlyphCache.shared.glyph(scalar, face: face, in: data) else { continue }
            if let previous { pen += GlyphCache.shared.kern(previous, scalar, face: face, in: data) + tracking / scale }
            func placed(_ point: Point) -> Point {
                Point(origin.x + (pen + point.x) * scale, origin.y - point.y * scale)
            }
            for contour in glyph.contours {
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
    static func contours(_ bytes: some Sequence<UInt8>) -> [[Segment]] {
        var reader = OutlineReader()
        for byte in bytes { reader.read(byte) }
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
