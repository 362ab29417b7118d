/// SPEC §6, `--of N`: the cells a goal holds that the count has not filled yet, drawn as faint
/// dashed `remaining` outlines, so 6,200 of 10,000 shows what is done and what is still to do.
///
/// Below the frame, each child cell the goal holds is one of:
/// - filled as far as the goal holds it: nothing to add;
/// - held whole by the goal and empty: one outline of its cell, whose `unit` is its capacity;
/// - partly filled, or held only in part by the goal: its own children, the same way, where the
///   level of detail shows them (the rule `SceneBuilder` follows for the count's marks), else
///   nothing: the count's wash already shows that cell's progress.
/// In a gate the cells are the five stroke places: a remaining stroke is a dashed stroke, and a
/// remaining fifth place a dashed slash. So at full detail the `unit`s of the remaining marks add
/// up to the goal less the count. Remaining marks are never caps: a goal is never drawn complete.
enum RemainingCells {
    /// The remaining marks of `goal` in `frame` for `count` (at most the goal).
    static func marks(count: UInt64, goal: UInt64, frame: UnitLevel, detail: Detail, placement: Placement) -> [Mark] {
        var marks: [Mark] = []
        let dash = dashLength(detail)
        add(frame, goal: min(goal, frame.capacity), count: count, at: Point(0, 0), detail, placement, dash, &marks)
        return marks
    }

    /// The goal's cell outlined once, for a count beyond its goal: the frame of the goal, at the
    /// layout's origin, where its first cell sits whatever the count.
    static func goalOutline(_ goal: TallyCount, detail: Detail, placement: Placement) -> Mark {
        let level = UnitLevel.frame(for: goal)
        return outline(level, at: Point(0, 0), placement, dashLength(detail))
    }

    /// The shortest dash: about 2.5 output pixels, so dashes stay dashes at any size.
    private static func dashLength(_ detail: Detail) -> Double {
        if case .automatic(let pixelsPerUnit) = detail, pixelsPerUnit > 0 { return 2.5 / pixelsPerUnit }
        return 0
    }

    private static func add(
        _ level: UnitLevel, goal: UInt64, count: UInt64, at origin: Point, _ detail: Detail, _ placement: Placement,
        _ dash: Double, _ marks: inout [Mark]
    ) {
        guard goal > count else { return }
        if level == .gate {
            for index in Int(count)..<Int(goal) { marks.append(strokePlace(index, gateAt: origin, dash)) }
            return
        }
        guard let child = level.child else { return }
        let capacity = child.capacity
        for index in 0..<level.childCount {
            let start = UInt64(index) * capacity
            guard goal > start else { break }
            let held = min(goal - start, capacity)
            let filled = count > start ? min(count - start, capacity) : 0
            guard filled < held else { continue }
            let at = origin + placement.childOffset(level, index)
            if filled == 0 && held == capacity {
                marks.append(outline(child, at: at, placement, dash))
            } else if child == .gate || detail.showsUnits(of: child.child ?? child) {
                add(child, goal: held, count: filled, at: at, detail, placement, dash, &marks)
            }
        }
    }

    /// The pen of a remaining outline: half the pen of a mark of the same cell, so the marks
    /// read first.
    private static func pen(_ level: UnitLevel) -> Double {
        switch level.shape {
        case .stroke, .gate: Proportions.strokeWidth / 2
        case .quincunx: Proportions.quincunxCrossWidth / 2
        case .square: MarkShapes.squarePen(level) / 2
        case .row: MarkShapes.squarePen(level.child!) / 2
        }
    }

    /// A cell's outline, inset by half its pen, in dashes.
    private static func outline(_ level: UnitLevel, at origin: Point, _ placement: Placement, _ dash: Double) -> Mark {
        let pen = pen(level)
        let size = placement.cellSize(level)
        let (x0, y0) = (origin.x + pen / 2, origin.y + pen / 2)
        let (x1, y1) = (origin.x + size.x - pen / 2, origin.y + size.y - pen / 2)
        let length = max(min(x1 - x0, y1 - y0) / 9, dash)
        let sides = [
            Segment(x0, y0, x1, y0), Segment(x1, y0, x1, y1), Segment(x1, y1, x0, y1), Segment(x0, y1, x0, y0),
        ]
        return mark(level.capacity, pen, sides.flatMap { dashes($0, length) })
    }

    /// The place of stroke `index` (0–3) or of the slash (4) in a gate, dashed.
    private static func strokePlace(_ index: Int, gateAt origin: Point, _ dash: Double) -> Mark {
        let segment =
            index < 4
            ? Segment(
                origin.x + Proportions.strokeXs[index], origin.y + Proportions.strokeTop,
                origin.x + Proportions.strokeXs[index], origin.y + Proportions.strokeBottom)
            : Segment(origin + Proportions.slashStart, origin + Proportions.slashEnd)
        let length = max((Proportions.strokeBottom - Proportions.strokeTop) / 5, dash)
        return mark(1, pen(.gate), dashes(segment, length))
    }

    private static func mark(_ unit: UInt64, _ pen: Double, _ segments: [Segment]) -> Mark {
        Mark(
            kind: .remaining, unit: unit, color: Proportions.remainingColor, width: pen, segments: segments,
            opacity: Proportions.remainingOpacity)
    }

    /// A segment cut into an odd number of equal dashes and gaps, dashes at both ends, each
    /// about `length` long (one dash where it is shorter than three).
    static func dashes(_ segment: Segment, _ length: Double) -> [Segment] {
        let dx = segment.end.x - segment.start.x
        let dy = segment.end.y - segment.start.y
        let total = (dx * dx + dy * dy).squareRoot()
        let count = length > 0 ? max(1, Int((total / length + 1) / 2)) : 1
        let parts = Double(2 * count - 1)
        return (0..<count).map { index in
            let from = Double(2 * index) / parts
            let to = Double(2 * index + 1) / parts
            return Segment(
                segment.start.x + dx * from, segment.start.y + dy * from, segment.start.x + dx * to,
                segment.start.y + dy * to)
        }
    }
}
