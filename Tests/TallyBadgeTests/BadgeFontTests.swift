import PropertyBased
import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// The badge face (SPEC §7 "Text as geometry"): its data is static text found by binary search,
/// and a glyph's outline is read where it is set by a byte-level reader. Every glyph must be
/// found and read exactly as the data says, number by number as `Double(String)` reads it, or a
/// badge's text would change shape; what the data lacks must be missing, and named.
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

    /// A glyph line of the data as a plain reader takes it: scalar, advance, outline.
    struct Line {
        let scalar: Unicode.Scalar
        let advance: Double
        let outline: Substring
    }

    /// Every glyph line of a face's data, split as text.
    static func lines(_ face: BadgeFont.Face) throws -> [Line] {
        let text = face == .regular ? BadgeFont.dataGlyphs.description : BadgeFont.dataBoldGlyphs.description
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            let scalar = try #require(UInt32(fields[0], radix: 16).flatMap(Unicode.Scalar.init), "\(line)")
            let advance = try #require(Double(String(fields[1])), "\(line)")
            return Line(scalar: scalar, advance: advance, outline: fields.count > 2 ? fields[2] : "")
        }
    }

    /// Every kerning record of a face's data, split as text: `FFFFSSSS±VVV`.
    static func pairs(_ face: BadgeFont.Face) throws -> [(Unicode.Scalar, Unicode.Scalar, Double)] {
        let text = face == .regular ? BadgeFont.dataKerning.description : BadgeFont.dataBoldKerning.description
        return try text.split(separator: "\n").map { line in
            let first = try #require(UInt32(line.prefix(4), radix: 16).flatMap(Unicode.Scalar.init), "\(line)")
            let second = try #require(
                UInt32(line.dropFirst(4).prefix(4), radix: 16).flatMap(Unicode.Scalar.init), "\(line)")
            let value = try #require(Double(String(line.dropFirst(8).drop { $0 == "+" })), "\(line)")
            return (first, second, value)
        }
    }

    /// The index finds every line of the data, with its advance and outline, and nothing else:
    /// every scalar from U+0000 to U+20FF (past the superscripts) is found exactly when the data
    /// has its line, so a binary search that missed an end or a neighbour would show here.
    @Test(arguments: [BadgeFont.Face.regular, .bold])
    func theIndexFindsEveryLineOfTheDataAndNothingElse(face: BadgeFont.Face) throws {
        let lines = try Self.lines(face)
        #expect(lines.count == BadgeFont.data(face).glyphCount)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.scalar.value < $1.scalar.value }, "sorted by scalar")
        var byScalar: [UInt32: Line] = [:]
        for line in lines {
            byScalar[line.scalar.value] = line
            let glyph = try #require(BadgeFont.glyph(line.scalar, face: face), "U+\(line.scalar.value)")
            #expect(glyph.advance == line.advance, "U+\(line.scalar.value)")
            #expect(String(decoding: glyph.outline, as: UTF8.self) == line.outline, "U+\(line.scalar.value)")
        }
        for value in UInt32(0)...0x20FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect((BadgeFont.glyph(scalar, face: face) != nil) == (byScalar[value] != nil), "U+\(value)")
        }
        for scalar: Unicode.Scalar in ["\u{4E0B}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}"] {
            #expect(BadgeFont.glyph(scalar, face: face) == nil)
        }
    }

    /// The kerning finds every pair of the data with its value, and any other pair of the
    /// pairs' letters is 0.
    @Test(arguments: [BadgeFont.Face.regular, .bold])
    func theKerningFindsEveryPairOfTheDataAndNothingElse(face: BadgeFont.Face) throws {
        let pairs = try Self.pairs(face)
        var values: [UInt64: Double] = [:]
        for (first, second, value) in pairs {
            #expect(BadgeFont.kern(first, second, face: face) == value, "U+\(first.value) U+\(second.value)")
            values[UInt64(first.value) << 32 | UInt64(second.value)] = value
        }
        #expect(values.count == pairs.count, "each pair once")
        let firsts = Set(pairs.map(\.0.value)).sorted()
        let seconds = Set(pairs.map(\.1.value)).sorted()
        for first in firsts {
            for second in seconds {
                let (a, b) = (Unicode.Scalar(first)!, Unicode.Scalar(second)!)
                #expect(BadgeFont.kern(a, b, face: face) == values[UInt64(first) << 32 | UInt64(second)] ?? 0)
            }
        }
        #expect(BadgeFont.kern("\u{4E0B}", "\u{8F7D}", face: face) == 0)
        #expect(BadgeFont.kern("\u{1F600}", "A", face: face) == 0)
    }

    /// The sizes the extraction gave (scripts/extract-badge-font): 1,441 glyphs and 2,224 pairs
    /// in the regular face, 34 glyphs and 6 pairs in the bold. A change means the data was
    /// written again, from another font or another set.
    @Test func theFacesHoldWhatTheExtractionWrote() throws {
        #expect(try Self.lines(.regular).count == 1_441)
        #expect(try Self.pairs(.regular).count == 2_224)
        #expect(try Self.lines(.bold).count == 34)
        #expect(try Self.pairs(.bold).count == 6)
    }

    @Test(arguments: [BadgeFont.Face.regular, .bold])
    func everyGlyphReadsAsItsDataSays(face: BadgeFont.Face) throws {
        for line in try Self.lines(face) {
            let glyph = try #require(BadgeFont.glyph(line.scalar, face: face))
            let read = BadgeFont.contours(glyph.outline)
            #expect(read == Self.reference(line.outline), "U+\(String(line.scalar.value, radix: 16))")
            #expect(line.outline.isEmpty || !read.isEmpty, "U+\(String(line.scalar.value, radix: 16))")
        }
    }

    /// Signs, fractions and a letter touching its number.
    @Test func theOutlineReaderTakesSignsFractionsAndTouchingLetters() {
        let contours = BadgeFont.contours("M-3 10.5 L2.5 -0.5 Q1 2 3 4 Z".utf8)
        #expect(
            contours == [
                [
                    Segment(Point(-3, 10.5), Point(2.5, -0.5)),
                    Segment(Point(2.5, -0.5), Point(3, 4), control: Point(1, 2)),
                    Segment(Point(3, 4), Point(-3, 10.5)),
                ]
            ])
    }

    // MARK: - Coverage (SPEC §7)

    /// Cyrillic, Greek and Latin Extended labels draw: each character found, the width the
    /// sum of DejaVu Sans's advances (read from the font, pinned), and outlines to fill.
    @Test func cyrillicGreekAndExtendedLatinLabelsDraw() throws {
        // DejaVu Sans 2.37's advances (font units of 2,048): з 1089, а 1255, г 1076, р 1300,
        // у 1212, к 1237, и 1331; λ 1212. No kerning among them.
        let advances: [(String, Double)] = [
            ("загрузки", 1089 + 1255 + 1076 + 1300 + 1212 + 1089 + 1237 + 1331),
            ("λ", 1212),
        ]
        for (label, units) in advances {
            #expect(BadgeFont.firstMissing(in: label) == nil, "\(label)")
            #expect(BadgeFont.width(of: label, size: 2048) == units, "\(label)")
            let contours = BadgeFont.outlines(of: label, size: 11, origin: Point(0, 14))
            #expect(contours.count >= label.count, "\(label)")
            #expect(contours.allSatisfy { !$0.isEmpty }, "\(label)")
        }
        for label in ["Ελληνικά", "Україна", "Ђорђе", "Łódź", "Ǆemal", "Ṽiệt", "ἀρχή", "Ԥ"] {
            #expect(BadgeFont.firstMissing(in: label) == nil, "\(label)")
            #expect(BadgeFont.width(of: label, size: 11) > 0, "\(label)")
            #expect(!BadgeFont.outlines(of: label, size: 11, origin: Point(0, 14)).isEmpty, "\(label)")
            #expect(throws: Never.self) { try Badge(count: .zero, label: label) }
        }
    }

    /// Characters outside the face are named: the first a text has, the first of a script the
    /// face lacks (下, U+4E0B), a combining mark (the face leaves them out: placing one on its
    /// letter needs the font's mark attachment), U+0526, past DejaVu's Cyrillic Supplement.
    @Test func charactersOutsideTheFaceAreNamed() throws {
        #expect(BadgeFont.firstMissing(in: "下载") == "\u{4E0B}")
        #expect(BadgeFont.firstMissing(in: "загрузки 下载") == "\u{4E0B}")
        #expect(BadgeFont.firstMissing(in: "e\u{301}") == "\u{301}")
        #expect(BadgeFont.firstMissing(in: "\u{483}") == "\u{483}")
        #expect(BadgeFont.firstMissing(in: "\u{526}") == "\u{526}")
        #expect(BadgeFont.firstMissing(in: "ok ✓") == "✓")
        #expect(throws: Badge.Problem.missingCharacter("\u{4E0B}")) {
            try Badge(count: .zero, label: "下载")
        }
        #expect(BadgeFont.coverage.contains("Greek") && BadgeFont.coverage.contains("Cyrillic"))
    }

    /// Kerning as the font's `kern` feature has it, pinned from DejaVu Sans 2.37's GPOS: A V
    /// −131, T o −348, and on the extended letters Ā V −131 and Ť o −348 (their base letters'
    /// classes), A Ț −159.
    @Test func kerningMatchesTheFont() {
        #expect(BadgeFont.kern("A", "V") == -131)
        #expect(BadgeFont.kern("T", "o") == -348)
        #expect(BadgeFont.kern("\u{100}", "V") == -131)
        #expect(BadgeFont.kern("\u{164}", "o") == -348)
        #expect(BadgeFont.kern("A", "\u{21A}") == -159)
        #expect(BadgeFont.kern("V", "A") != 0)
        #expect(BadgeFont.width(of: "AV", size: 2048) == 1401 + 1401 - 131)
        #expect(BadgeFont.width(of: "To", size: 2048) == 1251 + 1253 - 348)
    }

    // MARK: - The bold face

    /// DejaVu Sans Bold's advances, pinned from the font: its digits are tabular, 1425 units;
    /// `,` and `.` 778, `%` 2052; and its own kerning (T . −311, P , −376), not the regular's.
    @Test func boldAdvancesAndKerningAreTheBoldFonts() {
        for digit in "0123456789" {
            #expect(BadgeFont.width(of: String(digit), size: 2048, face: .bold) == 1425, "\(digit)")
        }
        #expect(BadgeFont.width(of: "1,234", size: 2048, face: .bold) == 4 * 1425 + 778)
        #expect(BadgeFont.width(of: "62%", size: 2048, face: .bold) == 2 * 1425 + 2052)
        #expect(BadgeFont.width(of: "1,234", size: 2048) == 4 * 1303 + 651)
        #expect(BadgeFont.kern("T", ".", face: .bold) == -311)
        #expect(BadgeFont.kern("P", ",", face: .bold) == -376)
        #expect(BadgeFont.width(of: "1", size: 11, face: .bold) == 1425.0 * 11 / 2048)
        let bold = BadgeFont.outlines(of: "8", size: 11, origin: Point(0, 14), face: .bold)
        let regular = BadgeFont.outlines(of: "8", size: 11, origin: Point(0, 14))
        #expect(!bold.isEmpty && bold != regular)
    }

    /// The bold face has every character a value can write (SPEC §7: the number, its short
    /// form, a share, `>999%`), and only those: a label's letters are the regular face's.
    @Test func theBoldFaceHasEveryValuesCharacters() async throws {
        await propertyCheck(
            count: 300, input: Gen<UInt64>.value(in: 0...UInt64(Int64.max)),
            Gen<UInt64>.value(in: 0...UInt64(Int64.max)), Gen<Int>.value(in: 1...19), Gen<Bool>.bool
        ) { raw, rawGoal, digits, withGoal in
            var power: UInt64 = 1
            for _ in 0..<digits { power *= 10 }
            let count = try #require(TallyCount(exactly: raw % power))
            let goal = withGoal ? TallyCount(exactly: max(1, rawGoal % power)) : nil
            let text = BadgeNumber.text(count, goal: goal)
            #expect(BadgeFont.firstMissing(in: text, face: .bold) == nil, "\(text)")
        }
        for text in [
            "9.22×10¹⁸", "1.00×10¹⁵", ">999%", "<1%", "1.23k", "1.23K", "4.5M", "6.7G", "8.9B", "1T", "2P", "3E",
        ] {
            #expect(BadgeFont.firstMissing(in: text, face: .bold) == nil, "\(text)")
        }
        #expect(BadgeFont.firstMissing(in: "downloads", face: .bold) == "d")
        #expect(BadgeFont.firstMissing(in: "1 2", face: .bold) == " ")
    }
}
