import TallyGeometry

/// A badge for a README line (SPEC §7): a label plate and a value plate in the geometry of a
/// shields.io badge of one of its styles (`BadgeStyle`: flat, flat-square, for-the-badge), the
/// value plate holding a strip of the count's marks and its number. Everything is geometry
/// here, text included (`BadgeFont`), in pixels at scale 1; backends fill the shapes and stroke
/// the marks they are given, with butt caps and mitred joins: every pen is one pixel on pixel
/// centres and every end on a pixel edge, so the strip is crisp at 1×, 2× and 3×.
///
/// The strip (`BadgeStrip`) is the count's leading digit in tally marks, a gate's slash every
/// fifth, and the unit being filled as a short, lighter stroke; the number beside it names the
/// magnitude (`BadgeNumber`). With a goal the strip's slots are its tenths, then its edge and
/// at most one gate past it; the number is the share, "62%". The strip has one width for every
/// count, so a badge's width follows its label and its number text alone, and a threshold
/// changes only the marks inside it.
package struct Badge: Hashable, Sendable {
    /// What a filled shape is; backends give each role its colour (`BadgePalette`).
    package enum Role: String, CaseIterable, Hashable, Sendable {
        /// The value plate's frame, in the label plate's colour.
        case frame
        /// The grey plate that holds the label.
        case labelPlate
        /// The paper plate that holds the marks and the number.
        case valuePlate
        /// The label's glyphs again, 1 px lower, drawn under them (the flat style's shadow).
        case labelShadow
        /// The number's glyphs again, 1 px lower, drawn under them (the flat style's shadow).
        case valueShadow
        /// The label's glyphs.
        case labelText
        /// The number's glyphs.
        case valueText
    }

    /// A region to fill with the nonzero rule: closed contours, a segment with a control point
    /// being a quadratic.
    package struct Shape: Hashable, Sendable {
        package let role: Role
        package let contours: [[Segment]]
        /// How far below its contours the shape is drawn, in pixels: a shadow is its text's
        /// contours again, lower, so a backend may draw the outline once and place it twice.
        package let offset: Double

        package init(role: Role, contours: [[Segment]], offset: Double = 0) {
            (self.role, self.contours, self.offset) = (role, contours, offset)
        }

        /// The contours where they are drawn: moved down by `offset`.
        package var placedContours: [[Segment]] { Badge.moved(contours, down: offset) }
    }

    /// Why a badge cannot be made.
    package enum Problem: Error, Hashable, Sendable {
        /// A label longer than `BadgeProportions.maximumLabelCharacters`.
        case labelTooLong(Int)
        /// A control character in the label.
        case labelControlCharacter(Unicode.Scalar)
        /// An invisible format character in the label (Unicode category Cf: the soft hyphen,
        /// zero-width joiners, bidi controls): the face has no glyph for it, and a badge, never
        /// broken across lines, would show nothing where the label has something.
        case labelFormatCharacter(Unicode.Scalar)
        /// A character the badge's face does not have.
        case missingCharacter(Unicode.Scalar)
    }

    /// The count.
    package let count: TallyCount
    /// The goal, if any.
    package let goal: TallyCount?
    /// The label, if any, as given (the title's); for-the-badge draws it in capitals.
    package let label: String?
    /// shields.io's style the badge is drawn in.
    package let style: BadgeStyle
    /// The text on the value plate: the number ("1,234", "1.23M"), or with a goal the share ("62%").
    package let value: String
    /// The size in pixels at scale 1.
    package let width: Double
    package let height: Double
    /// Plates and text, back to front.
    package let shapes: [Shape]
    /// The strip's marks, drawn over the value plate.
    package let marks: [Mark]

    /// The accessible name: "downloads: 1,234", "downloads: 6,200 of 10,000 (62%)"; without a
    /// label, the title of the count ("1,234 tally marks").
    package var title: String {
        guard let label else { return Words.title(for: count, goal: goal) }
        let amount = goal == nil ? Words.grouped(count.value) : Words.title(for: count, goal: goal)
        return "\(label): \(amount)"
    }

    /// Lays out the badge of a count in a style (flat, the default, is the geometry of
    /// `BadgeProportions`; the others are `BadgeStyle.metrics`).
    /// - Throws: `Problem` for a label the badge cannot write.
    package init(
        count: TallyCount, goal: TallyCount? = nil, label: String? = nil, style: BadgeStyle = .flat
    ) throws(Problem) {
        typealias P = BadgeProportions
        if let label { try Self.check(label) }
        let m = style.metrics
        self.count = count
        self.goal = goal
        self.label = label
        self.style = style
        value = BadgeNumber.text(count, goal: goal)
        height = m.height

        let labelText = label.map { m.upperCase ? Self.capitals($0, face: .regular) : $0 }
        let valueFace: BadgeFont.Face = m.boldValue ? .bold : .regular
        let valueText = m.upperCase ? Self.capitals(value, face: valueFace) : value

        var x = 0.0
        let labelWidth = labelText.map {
            (2 * m.padding + BadgeFont.width(of: $0, size: m.fontSize, tracking: m.tracking)).rounded(.up)
        }
        let labelContours = labelText.map {
            BadgeFont.outlines(
                of: $0, size: m.fontSize, origin: Point(m.padding, m.baseline), tracking: m.tracking)
        }
        if let labelWidth { x = labelWidth }
        let valueStart = x
        x += m.padding
        let strip = BadgeStrip(count: count, goal: goal, left: x)
        // The strip is laid out on flat's icon box; a taller style moves it down whole pixels,
        // so its pens stay on pixel centres.
        marks = Self.moved(strip.marks, down: m.iconTop - P.iconTop)
        if strip.width > 0 { x += strip.width + P.stripGap }
        let valueTextWidth = BadgeFont.width(of: valueText, size: m.fontSize, tracking: m.tracking, face: valueFace)
        let valueContours = BadgeFont.outlines(
            of: valueText, size: m.fontSize, origin: Point(x, m.baseline), tracking: m.tracking, face: valueFace)
        x = (x + valueTextWidth + m.padding).rounded(.up)
        width = x

        // Plates: the label's rounded on the left, the value's on the right (both sides where
        // there is no label); the value plate inside a frame of the label plate's colour.
        let r = m.cornerRadius
        let f = P.frameWidth
        let inner = max(0, r - f)
        let hasLabel = labelWidth != nil
        var plates: [Shape] = []
        if let labelWidth {
            plates.append(
                Shape(
                    role: .labelPlate,
                    contours: [Self.plate(0, 0, labelWidth, height, left: r, right: 0)]))
        }
        plates.append(
            Shape(
                role: .frame,
                contours: [Self.plate(valueStart, 0, width - valueStart, height, left: hasLabel ? 0 : r, right: r)]))
        plates.append(
            Shape(
                role: .valuePlate,
                contours: [
                    Self.plate(
                        valueStart + (hasLabel ? 0 : f), f, width - valueStart - (hasLabel ? f : 2 * f), height - 2 * f,
                        left: hasLabel ? 0 : inner, right: inner)
                ]))
        var texts: [Shape] = []
        if m.shadow {
            // shields' flat draws each text twice, the first 1 px lower in a shadow's colour.
            if let labelContours {
                texts.append(Shape(role: .labelShadow, contours: labelContours, offset: BadgeMetrics.shadowOffset))
            }
            texts.append(Shape(role: .valueShadow, contours: valueContours, offset: BadgeMetrics.shadowOffset))
        }
        if let labelContours { texts.append(Shape(role: .labelText, contours: labelContours)) }
        texts.append(Shape(role: .valueText, contours: valueContours))
        shapes = plates + texts
    }

    /// Text in capitals, as for-the-badge writes it: each character upper-cased where the face
    /// has its capital (`ß` is `SS`), else kept (`µ`, whose capital is Greek), so a label the
    /// face can write stays one it can write.
    static func capitals(_ text: String, face: BadgeFont.Face) -> String {
        var out = ""
        for character in text {
            let upper = character.uppercased()
            out += BadgeFont.firstMissing(in: upper, face: face) == nil ? upper : String(character)
        }
        return out
    }

    /// Contours moved down by `dy` pixels.
    static func moved(_ contours: [[Segment]], down dy: Double) -> [[Segment]] {
        guard dy != 0 else { return contours }
        return contours.map { $0.map { moved($0, down: dy) } }
    }

    /// Marks moved down by `dy` pixels.
    static func moved(_ marks: [Mark], down dy: Double) -> [Mark] {
        guard dy != 0 else { return marks }
        return marks.map { mark in
            var mark = mark
            mark.segments = mark.segments.map { moved($0, down: dy) }
            return mark
        }
    }

    private static func moved(_ segment: Segment, down dy: Double) -> Segment {
        Segment(
            Point(segment.start.x, segment.start.y + dy), Point(segment.end.x, segment.end.y + dy),
            control: segment.control.map { Point($0.x, $0.y + dy) })
    }

    /// Refuses what a badge cannot write: too long, control and format characters, characters
    /// outside the face.
    package static func check(_ label: String) throws(Problem) {
        let characters = label.count
        if characters > BadgeProportions.maximumLabelCharacters { throw .labelTooLong(characters) }
        for scalar in label.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control: throw .labelControlCharacter(scalar)
            case .format: throw .labelFormatCharacter(scalar)
            default: continue
            }
        }
        if let missing = BadgeFont.firstMissing(in: label) { throw .missingCharacter(missing) }
    }

    /// A rectangle with its left and right corners rounded by these radii (quadratic corners).
    static func plate(_ x: Double, _ y: Double, _ w: Double, _ h: Double, left: Double, right: Double) -> [Segment] {
        let (x2, y2) = (x + w, y + h)
        var path: [Segment] = []
        var at = Point(x + left, y)
        func line(_ point: Point) {
            if point != at { path.append(Segment(at, point)) }
            at = point
        }
        func corner(_ control: Point, _ end: Point) {
            if end != at { path.append(Segment(at, end, control: control)) }
            at = end
        }
        line(Point(x2 - right, y))
        corner(Point(x2, y), Point(x2, y + right))
        line(Point(x2, y2 - right))
        corner(Point(x2, y2), Point(x2 - right, y2))
        line(Point(x + left, y2))
        corner(Point(x, y2), Point(x, y2 - left))
        line(Point(x, y + left))
        corner(Point(x, y), Point(x + left, y))
        return path
    }
}
