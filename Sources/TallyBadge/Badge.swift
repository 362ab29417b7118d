import TallyGeometry

/// A badge for a README line (SPEC §7): a label plate and a value plate in the geometry of a
/// shields.io "flat" badge, the value plate holding a strip of the count's marks and its
/// number. Everything is geometry here, text included (`BadgeFont`), in pixels at scale 1;
/// backends fill the shapes and stroke the marks they are given, with butt caps and mitred
/// joins: every pen is one pixel on pixel centres and every end on a pixel edge, so the strip
/// is crisp at 1× and 2×.
///
/// The strip reads at 20 px because it is one level of the notation, not all of them: the
/// complete units of the count's largest unit, each in its collapsed form (a stroke; a gate; a
/// cross for 25; box and cross for 100; box and line for a row, 1,000 or 100,000; box and
/// diagonal for a block, 10,000 or 1,000,000), then the unit being filled as a bar along the
/// floor of its cell covering exactly its share (at least a pixel, never rounded up) over a
/// dotted track that shows the cell's length. The number beside it says the magnitude, which
/// repeats every two levels in the shapes. With a goal, the cells are the goal's, in the
/// smallest unit that gives at most ten: done cells in their collapsed form, the partial one's
/// bar, and the rest as dotted tracks, quieter than the work done (SPEC §2, "Weight follows
/// quantity"); the number is the share, "62%".
package struct Badge: Hashable, Sendable {
    /// What a filled shape is; backends give each role its colour (`BadgePalette`).
    package enum Role: String, CaseIterable, Hashable, Sendable {
        /// The value plate's frame, in the label plate's colour.
        case frame
        /// The grey plate that holds the label.
        case labelPlate
        /// The paper plate that holds the marks and the number.
        case valuePlate
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
    /// The label, if any.
    package let label: String?
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

    /// Lays out the badge of a count.
    /// - Throws: `Problem` for a label the badge cannot write.
    package init(count: TallyCount, goal: TallyCount? = nil, label: String? = nil) throws(Problem) {
        typealias P = BadgeProportions
        if let label { try Self.check(label) }
        self.count = count
        self.goal = goal
        self.label = label
        value = BadgeNumber.text(count, goal: goal)
        height = P.height

        var x = 0.0
        let labelWidth = label.map { (2 * P.platePadding + BadgeFont.width(of: $0, size: P.fontSize)).rounded(.up) }
        let labelText = label.map {
            Shape(
                role: .labelText,
                contours: BadgeFont.outlines(of: $0, size: P.fontSize, origin: Point(P.platePadding, P.baseline)))
        }
        if let labelWidth { x = labelWidth }
        let valueStart = x
        x += P.platePadding
        let strip = BadgeStrip(count: count, goal: goal, left: x)
        marks = strip.marks
        if strip.width > 0 { x += strip.width + P.stripGap }
        let valueTextWidth = BadgeFont.width(of: value, size: P.fontSize)
        let valueText = Shape(
            role: .valueText, contours: BadgeFont.outlines(of: value, size: P.fontSize, origin: Point(x, P.baseline)))
        x = (x + valueTextWidth + P.platePadding).rounded(.up)
        width = x

        // Plates: the label's rounded on the left, the value's on the right (both sides where
        // there is no label); the value plate inside a frame of the label plate's colour.
        let r = P.cornerRadius
        let f = P.frameWidth
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
                        left: hasLabel ? 0 : r - f, right: r - f)
                ]))
        shapes = plates + (labelText.map { [$0] } ?? []) + [valueText]
    }

    /// Refuses what a badge cannot write: too long, control and format characters, characters
    /// outside the face.
    static func check(_ label: String) throws(Problem) {
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
