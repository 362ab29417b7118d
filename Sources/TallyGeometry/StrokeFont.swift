/// The core's own stroke font for captions (`--caption`) and gallery labels: digits, the
/// grouping comma, and the point, letters, times sign and raised digits of short forms
/// ("1.23M", "9.22×10¹⁸") as polylines, drawn with the same round pen as the tally.
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
        /// The part of `advance` that is space after the ink.
        let space: Double

        init(strokes: [[Point]], advance: Double, space: Double = StrokeFont.spacing) {
            self.strokes = strokes
            self.advance = advance
            self.space = space
        }
    }

    /// The glyph of a character; nil for a character the font does not have.
    package static func glyph(_ character: Character) -> Glyph? {
        guard let ascii = character.asciiValue else {
            if character == "×" { return times }
            return Words.superscriptDigits.firstIndex(of: character).map { raisedDigits[$0] }
        }
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
        return glyphs.dropLast().reduce(0) { $0 + $1.advance } + last.advance - last.space
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

    /// The times sign of a power of ten ("9.22×10¹⁸"): a small cross at the digits' middle.
    private static let times = Glyph(
        strokes: [points([(0.3, 2.7), (2.9, 5.3)]), points([(2.9, 2.7), (0.3, 5.3)])], advance: 3.2 + spacing)

    /// How large a raised digit is against a digit: large enough that the exponent of a 7 px
    /// caption still has 5 px digits, which tell 10¹⁶ from 10¹⁸ at 64 px.
    static let raisedScale = 0.75
    /// How far a raised digit's top stands above the digits' tops, in font units.
    static let raise = 1.2

    /// The exponent's digits (`Words.superscriptDigits`, in that order): the digits scaled by
    /// `raisedScale`, their tops `raise` above the digits' tops.
    private static let raisedDigits: [Glyph] = digits.map { digit in
        Glyph(
            strokes: digit.strokes.map { line in line.map { Point($0.x * raisedScale, $0.y * raisedScale - raise) } },
            advance: digit.advance * raisedScale, space: digit.space * raisedScale)
    }

    /// The letters of the short forms (`Words.short`): K, M, B and T for thousands to trillions.
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
    ]
}

/// Text written in `StrokeFont`: a count under the tally (`Magnitude`, `--caption`), a gallery's
/// tile labels. It is set on a grid of whole units (output pixels, where it is drawn): its
/// digits a whole number of units tall from a whole unit, its pen a whole number of units, and
/// every point where the pen's edges fall on the grid (a unit's middle for an odd pen, its edge
/// for an even one), so the strokes are crisp at 7 px (SPEC §2, "Magnitude in the picture").
package struct Caption: Hashable, Sendable {
    /// The caption's glyphs as marks (kind `caption`, colour c1, the ink, unit 0), in reading order.
    package let marks: [Mark]
    /// The caption's ink, pen included.
    package let inkBounds: Rect

    /// A caption of a given size and place, on the grid of whole units (a gallery writes its
    /// labels in pixels; `Magnitude` sets a caption in pixels and then places it, `placed`).
    /// - Parameters:
    ///   - height: the height of a digit (rounded down to whole units, at least one).
    ///   - centreX: the middle of the text.
    ///   - top: the top of the digits.
    package init(_ text: String, height: Double, centreX: Double, top: Double) {
        let set = Setting(text, height: height)
        let pen = set.pen
        // On the pixel grid as the scene's marks are (`PixelRounding`): the units here are pixels.
        let odd = PixelRounding.isOdd(pen)
        let left = PixelRounding.nearest(centreX - (set.inkLow + set.inkHigh) / 2)
        let top = PixelRounding.nearest(top)
        let marks = set.glyphLines.map { lines in
            var segments: [Segment] = []
            for line in lines {
                var previous: Point?
                for point in line {
                    let placed = Point(
                        PixelRounding.centre(left + point.x, odd: odd), PixelRounding.centre(top + point.y, odd: odd))
                    if let previous, previous != placed { segments.append(Segment(previous, placed)) }
                    previous = placed
                }
            }
            return Mark(kind: .caption, unit: 0, color: .c1, width: pen, segments: segments)
        }
        self.marks = marks
        self.inkBounds = Rect(
            minX: left + set.inkLow - pen / 2, minY: top + set.inkTop - pen / 2, width: set.inkHigh - set.inkLow + pen,
            height: set.inkBottom - set.inkTop + pen)
    }

    /// The width of the caption's ink, pen included, at `height`: what `init` would give as
    /// `inkBounds.width`, without placing the marks (a layout measures before it places).
    package static func inkWidth(_ text: String, height: Double) -> Double {
        let set = Setting(text, height: height)
        return set.inkHigh - set.inkLow + set.pen
    }

    /// The text's glyphs scaled to the height, as polylines from the text's start (to centre the
    /// ink itself: a "1" starts a unit into its advance), with the ink's extent, measured in the
    /// same pass.
    private struct Setting {
        var glyphLines: [[[Point]]] = []
        let pen: Double
        var inkLow = Double.infinity
        var inkHigh = -Double.infinity
        var inkTop = Double.infinity
        var inkBottom = -Double.infinity

        init(_ text: String, height: Double) {
            let digitHeight = max(1, height.rounded(.down))
            let scale = digitHeight / StrokeFont.capHeight
            pen = PixelRounding.pen(StrokeFont.pen * scale)
            var advance = 0.0
            for character in text {
                guard let glyph = StrokeFont.glyph(character) else { continue }
                glyphLines.append(
                    glyph.strokes.map { line in
                        line.map { point in
                            let scaled = Point(advance + point.x * scale, point.y * scale)
                            inkLow = min(inkLow, scaled.x)
                            inkHigh = max(inkHigh, scaled.x)
                            inkTop = min(inkTop, scaled.y)
                            inkBottom = max(inkBottom, scaled.y)
                            return scaled
                        }
                    })
                advance += glyph.advance * scale
            }
            if inkLow > inkHigh { (inkLow, inkHigh, inkTop, inkBottom) = (0, 0, 0, 0) }
        }
    }

    private init(marks: [Mark], inkBounds: Rect) {
        self.marks = marks
        self.inkBounds = inkBounds
    }

    /// The caption in another space: every point p at `origin + p × scale` and every pen `scale`
    /// times as wide (a caption set in output pixels, placed in layout units).
    package func placed(scale: Double, origin: Point) -> Caption {
        func move(_ point: Point) -> Point { Point(origin.x + point.x * scale, origin.y + point.y * scale) }
        let marks = self.marks.map { mark in
            var mark = mark
            mark.width *= scale
            mark.segments = mark.segments.map { Segment(move($0.start), move($0.end)) }
            return mark
        }
        let corner = move(Point(inkBounds.minX, inkBounds.minY))
        return Caption(
            marks: marks,
            inkBounds: Rect(
                minX: corner.x, minY: corner.y, width: inkBounds.width * scale, height: inkBounds.height * scale))
    }
}
