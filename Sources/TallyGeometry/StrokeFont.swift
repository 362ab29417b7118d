/// The core's own stroke font for captions (`--caption`) and gallery labels: digits, the
/// grouping comma, and the point and letters of short forms ("1.23M", "9.22E18") as polylines, drawn with the same round pen as the tally.
///
/// Why not a system font: text through a font engine depends on the fonts a machine has
/// installed, so the same arguments would give different PNG and PDF bytes on different
/// machines (SPEC §5: deterministic output), and SVG text would look different in every
/// browser. Strokes from the core look the same in every backend and on every machine. The
/// glyphs are drawn for this project on a grid 8 units tall (the digits' height, baseline at
/// y = 8, y grows downwards), 4 units wide.
package enum StrokeFont {
    /// The height of a digit, in font units; `Caption` scales from it.
    package static let capHeight = 8.0
    /// How far the comma reaches below the baseline, in font units.
    package static let descent = 1.6
    /// The pen, in font units: a regular weight.
    package static let pen = 0.85

    /// One glyph: its polylines and how far the next glyph starts, in font units.
    package struct Glyph: Hashable, Sendable {
        /// Polylines in font units (8 tall, baseline at y = 8).
        package let strokes: [[Point]]
        /// How far the next glyph starts, in font units.
        package let advance: Double
    }

    /// The glyph of a character; nil for a character the font does not have.
    package static func glyph(_ character: Character) -> Glyph? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digits[Int(ascii - UInt8(ascii: "0"))]
        case UInt8(ascii: ","): return comma
        case UInt8(ascii: "."): return point
        default: return letters[character]
        }
    }

    /// The width of a text set in the font, without the space after its last glyph.
    package static func width(of text: String) -> Double {
        let glyphs = text.compactMap(glyph)
        guard let last = glyphs.last else { return 0 }
        return glyphs.dropLast().reduce(0) { $0 + $1.advance } + last.advance - spacing
    }

    /// The space between one glyph's ink and the next, in font units.
    static let spacing = 2.0

    private static func points(_ pairs: [(Double, Double)]) -> [Point] { pairs.map { Point($0.0, $0.1) } }

    private static let digits: [Glyph] = [
        // 0: an oval.
        [[(1.2, 0), (2.8, 0), (4, 1.4), (4, 6.6), (2.8, 8), (1.2, 8), (0, 6.6), (0, 1.4), (1.2, 0)]],
        // 1: a flag and a stem.
        [[(0.9, 1.7), (2.6, 0), (2.6, 8)]],
        // 2
        [[(0.1, 1.6), (1.2, 0), (2.8, 0), (4, 1.4), (4, 2.9), (0, 8), (4.1, 8)]],
        // 3: two bowls meeting at the middle bar.
        [
            [(0.1, 1.2), (1.2, 0), (2.8, 0), (3.9, 1.2), (3.9, 2.7), (2.9, 3.8), (1.6, 3.8)],
            [(2.9, 3.8), (4, 4.9), (4, 6.7), (2.8, 8), (1.2, 8), (0, 6.8)],
        ],
        // 4
        [[(3.1, 8), (3.1, 0), (0, 5.6), (4.2, 5.6)]],
        // 5
        [[(3.9, 0), (0.5, 0), (0.2, 3.7), (1.3, 3.1), (2.8, 3.1), (4, 4.4), (4, 6.7), (2.8, 8), (1.2, 8), (0, 6.9)]],
        // 6: a straight stroke down from the top right into its bowl, so at 7 px it is not an 8.
        [
            [
                (3.4, 0), (0.5, 4.1), (0, 5.3), (0, 6.7), (1.2, 8), (2.8, 8), (4, 6.7), (4, 5), (2.8, 3.6), (1.2, 3.6),
                (0.5, 4.1),
            ]
        ],
        // 7
        [[(0, 0), (4, 0), (1.5, 8)]],
        // 8: a smaller bowl on a larger one.
        [
            [
                (2, 3.7), (0.9, 3.7), (0.2, 2.9), (0.2, 0.9), (1.1, 0), (2.9, 0), (3.8, 0.9), (3.8, 2.9), (3.1, 3.7),
                (2, 3.7),
                (0.9, 3.7), (0, 4.8), (0, 6.8), (1.2, 8), (2.8, 8), (4, 6.8), (4, 4.8), (3.1, 3.7), (2, 3.7),
            ]
        ],
        // 9: the 6 turned round.
        [
            [
                (0.6, 8), (3.5, 3.9), (4, 2.7), (4, 1.3), (2.8, 0), (1.2, 0), (0, 1.3), (0, 3), (1.2, 4.4), (2.8, 4.4),
                (3.5, 3.9),
            ]
        ],
    ].map { Glyph(strokes: $0.map(points), advance: 4 + spacing) }

    /// The grouping comma: a short tail below the baseline.
    private static let comma = Glyph(strokes: [points([(0.9, 7.1), (0.9, 8), (0.3, 9.6)])], advance: 0.9 + spacing)

    /// The decimal point of a short form ("1.23M"): a dot on the baseline.
    private static let point = Glyph(strokes: [points([(0.6, 7.5), (0.6, 8)])], advance: 0.6 + spacing)

    /// The letters of the short forms (`Words.short`): K, M, B and T for thousands to trillions,
    /// E for a power of ten.
    private static let letters: [Character: Glyph] = [
        "K": Glyph(
            strokes: [points([(0, 0), (0, 8)]), points([(4, 0), (0, 4.8)]), points([(1.5, 3.1), (4.1, 8)])],
            advance: 4 + spacing),
        "M": Glyph(strokes: [points([(0, 8), (0, 0), (2.5, 5.2), (5, 0), (5, 8)])], advance: 5 + spacing),
        "B": Glyph(
            strokes: [
                points([
                    (0, 3.8), (2.7, 3.8), (3.6, 2.9), (3.6, 0.9), (2.7, 0), (0, 0), (0, 8), (2.8, 8),
                    (4, 6.8), (4, 4.9), (2.9, 3.8),
                ])
            ], advance: 4 + spacing),
        "T": Glyph(strokes: [points([(0, 0), (4.4, 0)]), points([(2.2, 0), (2.2, 8)])], advance: 4.4 + spacing),
        "E": Glyph(
            strokes: [points([(3.9, 0), (0, 0), (0, 8), (3.9, 8)]), points([(0, 3.9), (3.2, 3.9)])],
            advance: 3.9 + spacing),
    ]
}

/// Text written in `StrokeFont`: a count under the tally (`Magnitude`, `--caption`), a gallery's
/// tile labels.
package struct Caption: Hashable, Sendable {
    /// The caption's glyphs as marks (kind `caption`, colour c2, unit 0), in reading order.
    package let marks: [Mark]
    /// The caption's ink, pen included.
    package let inkBounds: Rect

    /// A caption of a given size and place, in any units (a gallery writes its labels in pixels).
    /// - Parameters:
    ///   - height: the height of a digit.
    ///   - centreX: the middle of the text.
    ///   - top: the top of the digits.
    package init(_ text: String, height: Double, centreX: Double, top: Double) {
        let scale = height / StrokeFont.capHeight
        let width = StrokeFont.width(of: text) * scale
        let left = centreX - width / 2
        var marks: [Mark] = []
        var x = left
        for character in text {
            guard let glyph = StrokeFont.glyph(character) else { continue }
            var segments: [Segment] = []
            for line in glyph.strokes {
                for (from, to) in zip(line, line.dropFirst()) {
                    segments.append(
                        Segment(
                            Point(x + from.x * scale, top + from.y * scale), Point(x + to.x * scale, top + to.y * scale)
                        ))
                }
            }
            marks.append(Mark(kind: .caption, unit: 0, color: .c2, width: StrokeFont.pen * scale, segments: segments))
            x += glyph.advance * scale
        }
        self.marks = marks
        let half = StrokeFont.pen * scale / 2
        self.inkBounds = Rect(
            minX: left - half, minY: top - half, width: width + 2 * half,
            height: (StrokeFont.capHeight + StrokeFont.descent) * scale + 2 * half)
    }
}
