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
        value = Self.valueText(count, goal: goal)
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

    /// The largest share a badge writes in full (SPEC §7); a larger one is written `>999%`.
    package static let largestShareWritten = 999

    /// "1,234" in full up to `fullNumberCharacters`, else the caption's short form ("12.3M",
    /// cut, never rounded up); with a goal, the share ("62%"), and over 999% `>999%`: a count of
    /// Int64.max toward a goal of 1 would otherwise write 22 characters, wider than the count's
    /// own badge. The exact share stays in the title.
    static func valueText(_ count: TallyCount, goal: TallyCount?) -> String {
        if let goal {
            let digits = Words.percentDigits(count, of: goal)
            if digits.count > String(largestShareWritten).count { return ">\(largestShareWritten)%" }
            return Words.percent(count, of: goal)
        }
        return Words.number(count.value, within: BadgeProportions.fullNumberCharacters)
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

/// The strip of a badge: cells of one unit, in the notation's collapsed forms (see `Badge`).
struct BadgeStrip {
    private(set) var marks: [Mark] = []
    private(set) var width = 0.0

    init(count: TallyCount, goal: TallyCount?, left: Double) {
        let value = count.value
        let unit: UnitLevel
        let cells: UInt64
        if let goal, value < goal.value {
            unit = Self.goalUnit(goal.value)
            cells = (goal.value - 1) / unit.capacity + 1
        } else {
            guard value > 0 else { return }
            unit = UnitLevel.all.last { $0.capacity <= value } ?? .stroke
            cells = (value - 1) / unit.capacity + 1
        }
        let done = value / unit.capacity
        let rest = value % unit.capacity
        var x = left
        for index in 0..<cells {
            let cellWidth = Self.cellWidth(unit)
            // A goal's last cell is only as long as its share of a unit (SPEC §7), and the strip
            // ends where that cell's ink does, so the number keeps its usual distance.
            let isShortLastCell =
                goal.map { $0.value > value && $0.value % unit.capacity != 0 } == true
                && index == cells - 1
            let length = isShortLastCell ? Self.lastGoalCellLength(unit, goal: goal?.value ?? 0) : cellWidth
            let cell: [Mark]
            if index < done {
                cell = Self.icon(unit, x: x)
            } else if index == done && rest > 0 {
                cell = Self.partial(unit, rest: rest, x: x, length: length)
            } else {
                cell = [Self.track(unit, from: x, length: length)]
            }
            marks += cell
            x += (isShortLastCell ? Self.inkEnd(of: cell, from: x) : cellWidth) + BadgeProportions.iconGap
        }
        width = x - BadgeProportions.iconGap - left
    }

    /// The length of a goal's last cell that the goal fills only in part: its share of a cell
    /// in whole pixels, rounded down, at least one.
    static func lastGoalCellLength(_ unit: UnitLevel, goal: UInt64) -> Double {
        let share = goal % unit.capacity
        // ⌊share / capacity × cell⌋ without overflow.
        let pixels = unit.capacity.dividingFullWidth(share.multipliedFullWidth(by: UInt64(cellWidth(unit)))).quotient
        return Double(max(1, pixels))
    }

    /// How far right of `x` a cell's marks reach: a fill's edge, a butt-capped dot's end, half
    /// the pen past an upright stroke's centre.
    static func inkEnd(of cell: [Mark], from x: Double) -> Double {
        var end = x
        for mark in cell {
            for segment in mark.segments {
                let upright = segment.start.x == segment.end.x
                end = max(end, segment.start.x, segment.end.x + (upright ? mark.width / 2 : 0))
            }
        }
        return end - x
    }

    /// The unit of a goal's cells: the smallest that gives at most `maximumGoalCells`.
    static func goalUnit(_ goal: UInt64) -> UnitLevel {
        UnitLevel.all.first { (goal - 1) / $0.capacity + 1 <= BadgeProportions.maximumGoalCells } ?? .largest
    }

    /// A cell's width: a stroke is one pen, a gate its four strokes two pixels apart, everything
    /// else the icon box.
    static func cellWidth(_ unit: UnitLevel) -> Double {
        switch unit.shape {
        case .stroke: BadgeProportions.pen
        case .gate: 7
        default: BadgeProportions.iconSide
        }
    }

    /// Top and bottom of the icon box, and its pen centres.
    private static var top: Double { BadgeProportions.iconTop }
    private static var bottom: Double { BadgeProportions.iconTop + BadgeProportions.iconSide }

    private static func mark(_ kind: MarkKind, _ unit: UnitLevel, _ color: ColorToken, _ segments: [Segment]) -> Mark {
        Mark(kind: kind, unit: unit.capacity, color: color, width: BadgeProportions.pen, segments: segments)
    }

    /// A complete unit in its collapsed form, its left edge at `x`.
    static func icon(_ unit: UnitLevel, x: Double) -> [Mark] {
        let (t, b) = (top + 0.5, bottom - 0.5)
        let (l, r) = (x + 0.5, x + cellWidth(unit) - 0.5)
        let box = mark(
            .box, unit, .c3, [Segment(l, t, r, t), Segment(r, t, r, b), Segment(r, b, l, b), Segment(l, b, l, t)])
        switch unit.shape {
        case .stroke:
            return [mark(.stroke, unit, .c1, [Segment(l, top, l, bottom)])]
        case .gate:
            return strokes(4, x: x) + [
                mark(.slash, unit, .accent, [Segment(x - 0.5, b - 1, x + cellWidth(unit) + 0.5, t + 1)])
            ]
        case .quincunx:
            return [mark(.cross, unit, .c2, [Segment(l, t, r, b), Segment(r, t, l, b)])]
        case .square where unit == .hundred:
            return [box, mark(.cross, unit, .c2, [Segment(l, t, r, b), Segment(r, t, l, b)])]
        case .square:
            return [box, mark(.diagonal, unit, .c2, [Segment(l, t, r, b)])]
        case .row:
            let middle = (top + bottom) / 2
            return [box, mark(.line, unit, .c1, [Segment(x, middle, x + cellWidth(unit), middle)])]
        }
    }

    /// `n` strokes two pixels apart from `x`: a gate's, or the strokes of a partial gate.
    static func strokes(_ n: Int, x: Double) -> [Mark] {
        (0..<n).map { index in
            let at = x + 0.5 + 2 * Double(index)
            return mark(.stroke, .stroke, .c1, [Segment(at, top, at, bottom)])
        }
    }

    /// The unit being filled: a partial gate as its strokes; anything larger as a bar along the
    /// cell's floor covering its exact share in whole pixels (at least one), then the track to
    /// the cell's end (`length`, shorter than a cell for a goal's last one), where a dot fits.
    static func partial(_ unit: UnitLevel, rest: UInt64, x: Double, length: Double) -> [Mark] {
        if unit == .gate { return strokes(Int(rest), x: x) }
        if unit == .stroke { return [] }
        let cell = cellWidth(unit)
        // ⌊rest / capacity × cell⌋ in whole pixels, at least one, without overflow.
        let share = unit.capacity.dividingFullWidth(rest.multipliedFullWidth(by: UInt64(cell))).quotient
        let covered = max(1, Double(share))
        let y0 = bottom - BadgeProportions.barHeight
        let bar = Mark(
            kind: .progress, unit: unit.capacity, color: .c1, width: 0,
            segments: [
                Segment(x, y0, x + covered, y0), Segment(x + covered, y0, x + covered, bottom),
                Segment(x + covered, bottom, x, bottom), Segment(x, bottom, x, y0),
            ], opacity: Proportions.progressOpacity)
        // A pixel of space between the bar and the dots; no track where not a dot is left.
        let trackLength = length - covered - 1
        return trackLength >= 1 ? [bar, track(unit, from: x + covered + 1, length: trackLength)] : [bar]
    }

    /// A dotted track along the cell's floor: the length of a cell still to fill, in dots one
    /// pixel long, one apart, quiet beside the work done: each dot a segment one pixel long,
    /// which the strip's butt-capped pen draws as exactly one pixel.
    static func track(_ unit: UnitLevel, from x: Double, length: Double) -> Mark {
        let y = bottom - 0.5
        var segments: [Segment] = []
        var at = x
        while at + 1 <= x + length + 0.001 {
            segments.append(Segment(at, y, at + 1, y))
            at += 2
        }
        return Mark(
            kind: .remaining, unit: unit.capacity, color: Proportions.remainingColor, width: BadgeProportions.pen,
            segments: segments)
    }
}
