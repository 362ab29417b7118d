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
///
/// Each glyph's polylines are one literal table of numbers (`Glyph.points`), which the compiler
/// lays out in the binary: the font costs nothing to load, and setting a caption builds no array
/// of points (a table of glyphs of arrays of points cost 80K instructions when a caption was
/// first set, an eighth of a whole SVG of 9,999).
package enum StrokeFont {
    /// The height of a digit, in font units; `Caption` scales from it.
    package static let capHeight = 8.0
    /// How far the comma reaches below the baseline, in font units.
    package static let descent = 1.6
    /// The pen, in font units: a regular weight.
    package static let pen = 0.85

    /// One glyph: its polylines and how far the next glyph starts, in font units.
    package struct Glyph: Hashable, Sendable {
        /// Its polylines in font units (8 tall, baseline at y = 8) as x, y pairs, each polyline
        /// ended by `lineEnd`; scaled by `scale` and lifted by `lift` as drawn.
        let points: [Double]
        /// How large it is drawn against the table: 1, or `raisedScale` for a raised digit.
        let scale: Double
        /// How far it is drawn above the table's place, in font units.
        let lift: Double
        /// How far the next glyph starts, in font units.
        package let advance: Double
        /// The part of `advance` that is space after the ink.
        let space: Double

        /// The value that ends a polyline in `points` (no coordinate is negative).
        static let lineEnd = -1.0

        init(
            _ points: [Double], advance: Double, space: Double = StrokeFont.spacing, scale: Double = 1, lift: Double = 0
        ) {
            self.points = points
            self.advance = advance
            self.space = space
            self.scale = scale
            self.lift = lift
        }

        /// Each point of its polylines in font units, in order, and whether it starts a polyline.
        func forEachPoint(_ body: (_ point: Point, _ startsLine: Bool) -> Void) {
            var index = 0
            var startsLine = true
            while index < points.count {
                if points[index] == Self.lineEnd {
                    startsLine = true
                    index += 1
                    continue
                }
                body(Point(points[index] * scale, points[index + 1] * scale - lift), startsLine)
                startsLine = false
                index += 2
            }
        }
    }

    /// The glyph of a character; nil for a character the font does not have (or one of more
    /// than one Unicode scalar).
    package static func glyph(_ character: Character) -> Glyph? {
        let scalars = character.unicodeScalars
        guard let scalar = scalars.first, scalars.count == 1 else { return nil }
        return glyph(scalar)
    }

    /// The glyph of a Unicode scalar: every character the font has is one scalar, so text is
    /// set scalar by scalar, without the grapheme breaking of a walk by `Character`.
    package static func glyph(_ scalar: Unicode.Scalar) -> Glyph? {
        let end = Glyph.lineEnd
        switch scalar {
        case "0"..."9":
            return Glyph(digitPoints(Int(scalar.value - ("0" as Unicode.Scalar).value)), advance: digitAdvance)
        // The grouping comma: a short tail below the baseline.
        case ",": return Glyph([0.9, 7.1, 0.9, 8, 0.3, 9.6, end], advance: 0.9 + spacing)
        // The decimal point of a short form ("1.23M"): a dot on the baseline.
        case ".": return Glyph([0.6, 7.5, 0.6, 8, end], advance: 0.6 + spacing)
        // The times sign of a power of ten ("9.22×10¹⁸"): a small cross at the digits' middle.
        case "×": return Glyph([0.3, 2.7, 2.9, 5.3, end, 2.9, 2.7, 0.3, 5.3, end], advance: 3.2 + spacing)
        // The letters of the short forms (`Words.short`): K, M, B and T for thousands to trillions.
        case "K":
            return Glyph([0, 0, 0, 8, end, 4, 0, 0, 4.8, end, 1.5, 3.1, 4.1, 8, end], advance: 4 + spacing)
        case "M": return Glyph([0, 8, 0, 0, 2.5, 5.2, 5, 0, 5, 8, end], advance: 5 + spacing)
        case "B":
            return Glyph(
                [0, 3.8, 2.7, 3.8, 3.6, 2.9, 3.6, 0.9, 2.7, 0, 0, 0, 0, 8, 2.8, 8, 4, 6.8, 4, 4.9, 2.9, 3.8, end],
                advance: 4 + spacing)
        case "T": return Glyph([0, 0, 4.4, 0, end, 2.2, 0, 2.2, 8, end], advance: 4.4 + spacing)
        default:
            // The exponent's digits (`Words.superscriptDigits`): the digits scaled by
            // `raisedScale`, their tops `raise` above the digits' tops.
            guard let digit = Words.superscriptDigits.firstIndex(where: { $0.unicodeScalars.first == scalar })
            else { return nil }
            return Glyph(
                digitPoints(digit), advance: digitAdvance * raisedScale, space: spacing * raisedScale,
                scale: raisedScale, lift: raise)
        }
    }

    /// The width of a text set in the font, without the space after its last glyph.
    package static func width(of text: String) -> Double {
        var width = 0.0
        var lastSpace: Double?
        for scalar in text.unicodeScalars {
            guard let glyph = glyph(scalar) else { continue }
            width += glyph.advance
            lastSpace = glyph.space
        }
        guard let lastSpace else { return 0 }
        return width - lastSpace
    }

    /// The space between one glyph's ink and the next, in font units.
    static let spacing = 2.0

    /// A digit's advance: every digit is as wide, so columns of numbers line up.
    private static let digitAdvance = 4 + spacing

    /// How large a raised digit is against a digit: large enough that the exponent of a 7 px
    /// caption still has 5 px digits, which tell 10¹⁶ from 10¹⁸ at 64 px.
    static let raisedScale = 0.75
    /// How far a raised digit's top stands above the digits' tops, in font units.
    static let raise = 1.2

    /// A digit's polylines (`Glyph.points`).
    private static func digitPoints(_ digit: Int) -> [Double] {
        let end = Glyph.lineEnd
        switch digit {
        // 0: an oval.
        case 0: return [1.2, 0, 2.8, 0, 4, 1.4, 4, 6.6, 2.8, 8, 1.2, 8, 0, 6.6, 0, 1.4, 1.2, 0, end]
        // 1: a flag and a stem.
        case 1: return [0.9, 1.7, 2.6, 0, 2.6, 8, end]
        case 2: return [0.1, 1.6, 1.2, 0, 2.8, 0, 4, 1.4, 4, 2.9, 0, 8, 4.1, 8, end]
        // 3: two bowls meeting at the middle bar.
        case 3:
            return [
                0.1, 1.2, 1.2, 0, 2.8, 0, 3.9, 1.2, 3.9, 2.7, 2.9, 3.8, 1.6, 3.8, end,
                2.9, 3.8, 4, 4.9, 4, 6.7, 2.8, 8, 1.2, 8, 0, 6.8, end,
            ]
        case 4: return [3.1, 8, 3.1, 0, 0, 5.6, 4.2, 5.6, end]
        case 5: return [3.9, 0, 0.5, 0, 0.2, 3.7, 1.3, 3.1, 2.8, 3.1, 4, 4.4, 4, 6.7, 2.8, 8, 1.2, 8, 0, 6.9, end]
        // 6: a straight stroke down from the top right into its bowl, so at 7 px it is not an 8.
        case 6:
            return [3.4, 0, 0.5, 4.1, 0, 5.3, 0, 6.7, 1.2, 8, 2.8, 8, 4, 6.7, 4, 5, 2.8, 3.6, 1.2, 3.6, 0.5, 4.1, end]
        case 7: return [0, 0, 4, 0, 1.5, 8, end]
        // 8: a smaller bowl on a larger one.
        case 8:
            return [
                2, 3.7, 0.9, 3.7, 0.2, 2.9, 0.2, 0.9, 1.1, 0, 2.9, 0, 3.8, 0.9, 3.8, 2.9, 3.1, 3.7, 2, 3.7,
                0.9, 3.7, 0, 4.8, 0, 6.8, 1.2, 8, 2.8, 8, 4, 6.8, 4, 4.8, 3.1, 3.7, 2, 3.7, end,
            ]
        // 9: the 6 turned round.
        default:
            return [0.6, 8, 3.5, 3.9, 4, 2.7, 4, 1.3, 2.8, 0, 1.2, 0, 0, 1.3, 0, 3, 1.2, 4.4, 2.8, 4.4, 3.5, 3.9, end]
        }
    }
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
    /// labels in pixels).
    /// - Parameters:
    ///   - height: the height of a digit (rounded down to whole units, at least one).
    ///   - centreX: the middle of the text.
    ///   - top: the top of the digits.
    package init(_ text: String, height: Double, centreX: Double, top: Double) {
        self.init(text, height: height, top: top, placement: nil) { _ in centreX }
    }

    /// A caption set on the grid of whole units and centred where `centre` says once the ink's
    /// width is known (`Magnitude` keeps it inside the margins), then, with a `placement`, put
    /// into another space: every point p at `origin + p × scale` and every pen `scale` times as
    /// wide (a caption set in output pixels, placed in layout units). Set and placed in one pass
    /// over the glyphs, with no array in between.
    /// - Parameters:
    ///   - height: the height of a digit (rounded down to whole units, at least one).
    ///   - top: the top of the digits.
    ///   - centre: the middle of the text, given the width of its ink, pen included.
    package init(
        _ text: String, height: Double, top: Double, placement: (scale: Double, origin: Point)?,
        centre: (_ inkWidth: Double) -> Double
    ) {
        let set = Setting(text, height: height)
        let pen = set.pen
        // On the pixel grid as the scene's marks are (`PixelRounding`): the units here are pixels.
        let odd = PixelRounding.isOdd(pen)
        let left = PixelRounding.nearest(centre(set.inkHigh - set.inkLow + pen) - (set.inkLow + set.inkHigh) / 2)
        let top = PixelRounding.nearest(top)
        let (scale, origin) = placement ?? (1, Point(0, 0))
        // Without a placement, points stay as set (adding an origin of 0 would turn -0 into 0).
        func move(_ point: Point) -> Point {
            placement == nil ? point : Point(origin.x + point.x * scale, origin.y + point.y * scale)
        }
        var marks: [Mark] = []
        Setting.forEachGlyph(of: text, scale: set.scale) { glyph, scaled in
            var segments: [Segment] = []
            // At most one a point after a polyline's first.
            segments.reserveCapacity(glyph.points.count / 2)
            var previous: Point?
            glyph.forEachPoint { point, startsLine in
                let point = scaled(point)
                let placed = Point(
                    PixelRounding.centre(left + point.x, odd: odd), PixelRounding.centre(top + point.y, odd: odd))
                if !startsLine, let previous, previous != placed {
                    segments.append(Segment(move(previous), move(placed)))
                }
                previous = placed
            }
            // (A length times a scale of 1 is itself, bit for bit.)
            marks.append(Mark(kind: .caption, unit: 0, color: .c1, width: pen * scale, segments: segments))
        }
        self.marks = marks
        let corner = move(Point(left + set.inkLow - pen / 2, top + set.inkTop - pen / 2))
        self.inkBounds = Rect(
            minX: corner.x, minY: corner.y, width: (set.inkHigh - set.inkLow + pen) * scale,
            height: (set.inkBottom - set.inkTop + pen) * scale)
    }

    /// The text's scale, pen and ink extent, from its glyphs scaled to the height, measured from
    /// the text's start (to centre the ink itself: a "1" starts a unit into its advance).
    private struct Setting {
        let scale: Double
        let pen: Double
        let inkLow: Double
        let inkHigh: Double
        let inkTop: Double
        let inkBottom: Double

        init(_ text: String, height: Double) {
            let digitHeight = max(1, height.rounded(.down))
            scale = digitHeight / StrokeFont.capHeight
            pen = PixelRounding.pen(StrokeFont.pen * scale)
            var (low, high, top, bottom) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
            Self.forEachGlyph(of: text, scale: scale) { glyph, scaled in
                glyph.forEachPoint { point, _ in
                    let point = scaled(point)
                    low = min(low, point.x)
                    high = max(high, point.x)
                    top = min(top, point.y)
                    bottom = max(bottom, point.y)
                }
            }
            (inkLow, inkHigh, inkTop, inkBottom) = low > high ? (0, 0, 0, 0) : (low, high, top, bottom)
        }

        /// Each glyph of the text that the font has, and the function that
        /// scales a point of them to the height and moves it along by the advances before it:
        /// the one walk of the text that measuring the ink and setting the glyphs share.
        static func forEachGlyph(
            of text: String, scale: Double, _ body: (_ glyph: StrokeFont.Glyph, _ scaled: (Point) -> Point) -> Void
        ) {
            var advance = 0.0
            for scalar in text.unicodeScalars {
                guard let glyph = StrokeFont.glyph(scalar) else { continue }
                body(glyph) { Point(advance + $0.x * scale, $0.y * scale) }
                advance += glyph.advance * scale
            }
        }
    }
}
