/// SPEC §6, `--of N`: the cells a goal holds that the count has not filled yet, drawn as faint
/// dotted `remaining` outlines, so 6,200 of 10,000 shows what is done and what is still to do.
///
/// Dots, not dashes: each dot is as long as its pen (at least an output pixel) and the gaps three
/// times that, so the pattern resolves at every size, never closing into a solid outline, and a
/// remaining cell carries a fraction of a done cell's ink (SPEC §2, "Weight follows quantity").
///
/// Below the frame, each child cell the goal holds is one of:
/// - filled as far as the goal holds it: nothing to add;
/// - held whole by the goal and empty: one outline of its cell, whose `unit` is its capacity;
/// - partly filled, or held only in part by the goal: its own children, the same way, where the
///   level of detail shows them (the rule `SceneBuilder` follows for the count's marks), else
///   nothing: the count's wash already shows that cell's progress.
/// In a gate the cells are the five stroke places: a remaining stroke is a dotted stroke, and a
/// remaining fifth place a dotted slash. So at full detail the `unit`s of the remaining marks add
/// up to the goal less the count. Remaining marks are never caps: a goal is never drawn complete.
enum RemainingCells {
    /// The remaining marks of `goal` in `frame` for `count` (at most the goal).
    static func marks(count: UInt64, goal: UInt64, frame: UnitLevel, detail: Detail, placement: Placement) -> [Mark] {
        var marks: [Mark] = []
        let pixel = onePixel(detail)
        add(frame, goal: min(goal, frame.capacity), count: count, at: Point(0, 0), detail, placement, pixel, &marks)
        return marks
    }

    /// The goal's cell outlined once, for a count beyond its goal: the frame of the goal, at the
    /// layout's origin, where its first cell sits whatever the count.
    static func goalOutline(_ goal: TallyCount, detail: Detail, placement: Placement) -> Mark {
        let level = UnitLevel.frame(for: goal)
        // Inside the goal's cell by two pens and two pixels, clear of the box a complete cell is
        // drawn with, so the goal's edge shows past it (12,000 of 10,000 is not 12,000). A
        // twenty-five-unit has no box, and its gates reach into its corners: its outline runs
        // on its border, around the gates, never through them.
        let pixel = onePixel(detail)
        let inset = level.shape == .quincunx ? 0 : 2 * pen(level, placement) + 2 * pixel
        // Its dots as close as designed at every size: one outline, never a weight to keep down.
        return outline(level, at: Point(0, 0), placement, pixel, inset: inset, spacing: 4)
    }

    /// One output pixel in layout units, the shortest dot; 0 without an output scale.
    private static func onePixel(_ detail: Detail) -> Double {
        if case .automatic(let pixelsPerUnit) = detail, pixelsPerUnit > 0 { return 1 / pixelsPerUnit }
        return 0
    }

    private static func add(
        _ level: UnitLevel, goal: UInt64, count: UInt64, at origin: Point, _ detail: Detail, _ placement: Placement,
        _ pixel: Double, _ marks: inout [Mark]
    ) {
        guard goal > count else { return }
        if level == .gate {
            for index in Int(count)..<Int(goal) {
                marks.append(strokePlace(index, gateAt: origin, placement, pixel))
            }
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
                marks.append(outline(child, at: at, placement, pixel))
            } else if child == .gate || detail.showsUnits(of: child.child ?? child, placement.proportions) {
                add(child, goal: held, count: filled, at: at, detail, placement, pixel, &marks)
            }
        }
    }

    /// The pen of a remaining outline: half the pen of a mark of the same cell, so the marks
    /// read first.
    private static func pen(_ level: UnitLevel, _ placement: Placement) -> Double {
        switch level.shape {
        case .stroke, .gate: placement.proportions.strokeWidth / 2
        case .quincunx: placement.proportions.quincunxCrossWidth / 2
        case .square: MarkShapes.squarePen(level, placement) / 2
        case .row: MarkShapes.squarePen(level.child!, placement) / 2
        }
    }

    /// A cell's outline, inset by half its pen (and `inset` more), in dots.
    private static func outline(
        _ level: UnitLevel, at origin: Point, _ placement: Placement, _ pixel: Double, inset: Double = 0,
        spacing: Double? = nil
    ) -> Mark {
        let pen = pen(level, placement)
        let size = placement.cellSize(level)
        let (x0, y0) = (origin.x + pen / 2 + inset, origin.y + pen / 2 + inset)
        let (x1, y1) = (origin.x + size.x - pen / 2 - inset, origin.y + size.y - pen / 2 - inset)
        let dot = max(pen, pixel)
        let sides = [
            Segment(x0, y0, x1, y0), Segment(x1, y0, x1, y1), Segment(x1, y1, x0, y1), Segment(x0, y1, x0, y0),
        ]
        return mark(level.capacity, pen, sides.flatMap { dots($0, dot, spacing: spacing ?? Self.spacing(pen, pixel)) })
    }

    /// How many dot lengths apart dots start: 4 while a remaining pen is drawn at half a mark's
    /// pen, up to 16 where the pen floor (SPEC §2, one output pixel) draws both at one pixel.
    /// A dot's round caps make it about twice as long as drawn, and a remaining row is outlined
    /// above and below where a done one is a single line; at 4 dot lengths apart a remaining row
    /// at 64 px carried 0.41× a done row's ink, over SPEC §2's 0.35×.
    static func spacing(_ pen: Double, _ pixel: Double) -> Double {
        let ratio = 2 * max(pen, pixel) / max(2 * pen, pixel)
        return 4 * ratio * ratio
    }

    /// The place of stroke `index` (0–3) or of the slash (4) in a gate, dotted.
    private static func strokePlace(
        _ index: Int, gateAt origin: Point, _ placement: Placement, _ pixel: Double
    ) -> Mark {
        // The places as designed, whatever the scale: a remaining place is never pixel-placed.
        let proportions = placement.proportions
        let segment =
            index < 4
            ? Segment(
                origin.x + proportions.strokeX(index), origin.y + proportions.strokeTop,
                origin.x + proportions.strokeX(index), origin.y + proportions.strokeBottom)
            : Segment(origin + proportions.slashStart, origin + proportions.slashEnd)
        let pen = pen(.gate, placement)
        return mark(1, pen, dots(segment, max(pen, pixel), spacing: spacing(pen, pixel)))
    }

    private static func mark(_ unit: UInt64, _ pen: Double, _ segments: [Segment]) -> Mark {
        Mark(
            kind: .remaining, unit: unit, color: Proportions.remainingColor, width: pen, segments: segments,
            opacity: Proportions.remainingOpacity)
    }

    /// Dots `dot` long along a segment, starting about `spacing` dot lengths apart, one at each
    /// end and the rest spread evenly between them (one dot where the segment is shorter than two).
    static func dots(_ segment: Segment, _ dot: Double, spacing: Double = 4) -> [Segment] {
        let dx = segment.end.x - segment.start.x
        let dy = segment.end.y - segment.start.y
        let total = (dx * dx + dy * dy).squareRoot()
        guard dot > 0, total > dot else { return [segment] }
        let count = max(1, Int(((total + (spacing - 1) * dot) / (spacing * dot)).rounded(.down)))
        guard count > 1 else { return [segment] }
        let step = (total - dot) / Double(count - 1)
        return (0..<count).map { index in
            let from = Double(index) * step / total
            let to = (Double(index) * step + dot) / total
            return Segment(
                segment.start.x + dx * from, segment.start.y + dy * from, segment.start.x + dx * to,
                segment.start.y + dy * to)
        }
    }
}
