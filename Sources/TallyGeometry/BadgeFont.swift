/// The face a badge's text is set in (SPEC §7): DejaVu Sans, a humanist sans of Verdana's family
/// (the face of the shields.io badges a tally badge sits beside), for printable ASCII, Latin-1
/// and the superscript digits of the short form's power of ten ("9.22×10¹⁸"). Its outlines, advances and kerning are data (`BadgeFontData.swift`, written by
/// `scripts/extract-badge-font`), so a badge's text is paths: the same in every viewer, with
/// no fonts installed, and its width exact, never estimated from a metrics table.
///
/// Why outlines and not the caption's stroke font or the Hershey fonts: measured side by side at
/// 11 px (README, "Badges"), a monoline face reaches the same contrast, but it is a 1 px
/// geometric pen, lighter and wider than the Verdana of the shields badges beside it, with no
/// kerning and no Latin-1; DejaVu Sans has Verdana's shapes, stems and colour.
package enum BadgeFont {
    /// One character's outline and advance, in font units (y up, as fonts have it).
    struct Glyph: Sendable {
        let advance: Double
        /// The outline as the data writes it, parsed into closed contours (`contours(_:)`)
        /// where the glyph is set: a text sets a few of the face's glyphs, and parsing all of
        /// them up front cost about 85M instructions, most of a badge's run.
        let outline: Substring
    }

    /// The characters this face has, read once on first use.
    static let glyphs: [Unicode.Scalar: Glyph] = {
        var glyphs: [Unicode.Scalar: Glyph] = [:]
        for line in dataGlyphs.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count >= 2, let code = UInt32(fields[0], radix: 16), let scalar = Unicode.Scalar(code),
                let advance = Double(fields[1])
            else { continue }
            glyphs[scalar] = Glyph(advance: advance, outline: fields.count > 2 ? fields[2] : "")
        }
        return glyphs
    }()

    /// Kerning by pair: the first scalar in the high half, the second in the low.
    static let kerning: [UInt64: Double] = {
        var pairs: [UInt64: Double] = [:]
        for line in dataKerning.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let first = UInt64(fields[0], radix: 16),
                let second = UInt64(fields[1], radix: 16),
                let value = Double(fields[2])
            else { continue }
            pairs[first << 32 | second] = value
        }
        return pairs
    }()

    /// The first character of a text that the face does not have, or nil.
    package static func firstMissing(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { glyphs[$0] == nil }
    }

    /// What the face covers, for messages.
    package static let coverage =
        "printable ASCII, Latin-1 and superscript digits (U+0020 to U+007E, U+00A0 to U+00FF, U+2070, U+2074 to U+2079)"

    /// The kerning between two characters, in font units.
    static func kern(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Double {
        kerning[UInt64(first.value) << 32 | UInt64(second.value)] ?? 0
    }

    /// The advance of a text at a size in pixels: the sum of its glyphs' advances and the kerning
    /// between them. Characters the face lacks count as nothing (callers check first).
    package static func width(of text: String, size: Double) -> Double {
        var units = 0.0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            guard let glyph = glyphs[scalar] else { continue }
            if let previous { units += kern(previous, scalar) }
            units += glyph.advance
            previous = scalar
        }
        return units * size / dataUnitsPerEm
    }

    /// The outlines of a text set at a size in pixels, its baseline's left end at `origin`, y
    /// down: closed contours to fill with the nonzero rule.
    package static func outlines(of text: String, size: Double, origin: Point) -> [[Segment]] {
        let scale = size / dataUnitsPerEm
        var contours: [[Segment]] = []
        var pen = 0.0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            guard let glyph = glyphs[scalar] else { continue }
            if let previous { pen += kern(previous, scalar) }
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
    /// outline's bytes: a command letter may touch its first number (`M391`), numbers are
    /// decimal with an optional sign and fraction, each read as its digits over a power of ten
    /// (one rounding, as `Double(String)` rounds it).
    static func contours(_ text: Substring) -> [[Segment]] {
        var contours: [[Segment]] = []
        var current: [Segment] = []
        var start = Point(0, 0)
        var at = Point(0, 0)
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        var command = UInt8(ascii: "M")
        var digits: Int64 = 0
        var divisor: Int64 = 1
        var negative = false
        var inNumber = false
        var inFraction = false
        func endNumber() {
            guard inNumber else { return }
            let value = Double(digits) / Double(divisor)
            numbers.append(negative ? -value : value)
            (digits, divisor, negative, inNumber, inFraction) = (0, 1, false, false, false)
        }
        func finish() {
            switch command {
            case UInt8(ascii: "M") where numbers.count == 2:
                at = Point(numbers[0], numbers[1])
                start = at
            case UInt8(ascii: "L") where numbers.count == 2:
                let end = Point(numbers[0], numbers[1])
                current.append(Segment(at, end))
                at = end
            case UInt8(ascii: "Q") where numbers.count == 4:
                let end = Point(numbers[2], numbers[3])
                current.append(Segment(at, end, control: Point(numbers[0], numbers[1])))
                at = end
            case UInt8(ascii: "Z"):
                if at != start { current.append(Segment(at, start)) }
                if !current.isEmpty { contours.append(current) }
                current = []
                at = start
            default: break
            }
            numbers.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
                if inFraction { divisor *= 10 }
                inNumber = true
            case UInt8(ascii: "-"):
                endNumber()
                negative = true
                inNumber = true
            case UInt8(ascii: "."):
                inFraction = true
                inNumber = true
            case UInt8(ascii: " "):
                endNumber()
            default:
                endNumber()
                finish()
                command = byte
            }
        }
        endNumber()
        finish()
        return contours
    }
}
