import TallyGeometry

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
