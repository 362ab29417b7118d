import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// The badge face's outlines (SPEC §7 "Text as geometry") are read from its data where a glyph
/// is set, by a byte-level reader: every glyph must read exactly as the data says, number by
/// number as `Double(String)` reads it, or a badge's text would change shape.
@Suite struct BadgeFontTests {
    /// The outline as a plain reader takes it: words split at spaces, a letter starting a
    /// command (and touching its first number), every number through `Double(String)`.
    static func reference(_ text: Substring) -> [[Segment]] {
        var contours: [[Segment]] = []
        var current: [Segment] = []
        var start = Point(0, 0)
        var at = Point(0, 0)
        var numbers: [Double] = []
        var command: Character = "M"
        func finish() {
            switch command {
            case "M" where numbers.count == 2:
                (at, start) = (Point(numbers[0], numbers[1]), Point(numbers[0], numbers[1]))
            case "L" where numbers.count == 2:
                current.append(Segment(at, Point(numbers[0], numbers[1])))
                at = Point(numbers[0], numbers[1])
            case "Q" where numbers.count == 4:
                current.append(Segment(at, Point(numbers[2], numbers[3]), control: Point(numbers[0], numbers[1])))
                at = Point(numbers[2], numbers[3])
            case "Z":
                if at != start { current.append(Segment(at, start)) }
                if !current.isEmpty { contours.append(current) }
                current = []
                at = start
            default: break
            }
            numbers = []
        }
        for word in text.split(separator: " ") {
            var rest = word[...]
            if let first = rest.first, first.isLetter {
                finish()
                command = first
                rest = rest.dropFirst()
            }
            if !rest.isEmpty, let number = Double(String(rest)) { numbers.append(number) }
        }
        finish()
        return contours
    }

    /// The advances and kerning read from the data, line by line, as a plain reader takes them.
    @Test func theTablesHoldEveryLineOfTheData() throws {
        var advances = 0
        for line in BadgeFont.dataGlyphs.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            let code = try #require(UInt32(fields[0], radix: 16).flatMap(Unicode.Scalar.init))
            let glyph = try #require(BadgeFont.glyphs[code], "U+\(fields[0])")
            #expect(glyph.advance == Double(String(fields[1])), "U+\(fields[0])")
            #expect(glyph.outline == (fields.count > 2 ? fields[2] : ""), "U+\(fields[0])")
            advances += 1
        }
        #expect(advances == BadgeFont.glyphs.count)
        var pairs = 0
        for line in BadgeFont.dataKerning.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let first = try #require(UInt64(fields[0], radix: 16))
            let second = try #require(UInt64(fields[1], radix: 16))
            #expect(BadgeFont.kerning[first << 32 | second] == Double(String(fields[2])), "\(line)")
            pairs += 1
        }
        #expect(pairs == BadgeFont.kerning.count && pairs > 100)
    }

    @Test func everyGlyphReadsAsItsDataSays() throws {
        #expect(BadgeFont.glyphs.count > 190)
        for (scalar, glyph) in BadgeFont.glyphs {
            let read = BadgeFont.contours(glyph.outline)
            #expect(read == Self.reference(glyph.outline), "U+\(String(scalar.value, radix: 16))")
            #expect(glyph.outline.isEmpty || !read.isEmpty, "U+\(String(scalar.value, radix: 16))")
        }
        // Signs, fractions and a letter touching its number.
        let contours = BadgeFont.contours("M-3 10.5 L2.5 -0.5 Q1 2 3 4 Z")
        #expect(
            contours == [
                [
                    Segment(Point(-3, 10.5), Point(2.5, -0.5)),
                    Segment(Point(2.5, -0.5), Point(3, 4), control: Point(1, 2)),
                    Segment(Point(3, 4), Point(-3, 10.5)),
                ]
            ])
    }
}
