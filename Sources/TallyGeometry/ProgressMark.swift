/// SPEC §2, "Partial progress is never invisible": the mark a unit being filled gets when it is
/// too small to show its own children.
///
/// It is a wash: the cells the count fills, in fill order (whole children merged, then the child
/// being filled, and so on down to where cells are smaller than `Proportions.progressMinimumPixels`),
/// filled in the strokes' colour at `Proportions.progressOpacity`. It shows where the hidden
/// marks are and about how many, it is at least the minimum size each way however small the
/// progress, and as a light fill rather than a line or an outline it never looks like a cap.
enum ProgressMark {
    /// The progress mark of `level`, filled with `count` (1 ..< capacity), whose cell is at `origin`.
    static func mark(_ level: UnitLevel, count: UInt64, at origin: Point, pixelsPerUnit: Double) -> Mark {
        let minimum = Proportions.progressMinimumPixels / pixelsPerUnit
        let size = Layout.cellSize(level)
        let bounds = Rect(minX: origin.x, minY: origin.y, width: size.x, height: size.y)
        var rects: [Rect] = []
        collect(level, count: count, at: origin, minimum: minimum, bounds: bounds, into: &rects)
        return Mark(kind: .progress, unit: level.capacity, color: .c1, width: 0,
                    segments: rects.flatMap(outline), opacity: Proportions.progressOpacity)
    }

    /// The filled cells of a unit, from its whole children down.
    private static func collect(_ level: UnitLevel, count: UInt64, at origin: Point, minimum: Double,
                                bounds: Rect, into rects: inout [Rect]) {
        let size = Layout.cellSize(level)
        // A gate's children are strokes, which have no cell: gates always end the descent.
        guard let child = level.child, case let childSize = Layout.cellSize(child), min(childSize.x, childSize.y) >= minimum else {
            rects.append(fraction(of: level, count: count, at: origin, minimum: minimum, bounds: bounds))
            return
        }
        let complete = Int(count / child.capacity)
        let rest = count % child.capacity
        func cell(_ index: Int) -> Rect {
            let offset = origin + Layout.childOffset(level, index)
            return Rect(minX: offset.x, minY: offset.y, width: childSize.x, height: childSize.y)
        }
        if complete > 0 {
            switch level.shape {
            case .row:
                // Squares left to right: one strip over them and the gaps between.
                rects.append(Rect(minX: origin.x, minY: origin.y, width: cell(complete - 1).maxX - origin.x, height: size.y))
            case .square where level != .hundred:
                // Rows top to bottom.
                rects.append(Rect(minX: origin.x, minY: origin.y, width: size.x, height: cell(complete - 1).maxY - origin.y))
            case .square:
                // NW, NE, SW: the top half once both upper quarters are full.
                if complete >= 2 {
                    rects.append(Rect(minX: origin.x, minY: origin.y, width: size.x, height: childSize.y))
                    if complete == 3 { rects.append(cell(2)) }
                } else {
                    rects.append(cell(0))
                }
            default:
                // The dice-five's gates, each in its own cell.
                for index in 0..<complete { rects.append(cell(index)) }
            }
        }
        if rest > 0 {
            collect(child, count: rest, at: origin + Layout.childOffset(level, complete), minimum: minimum,
                    bounds: bounds, into: &rects)
        }
    }

    /// The share of a small cell that `count` fills, along its fill direction (rows and gates
    /// left to right, squares and the dice-five top to bottom), made at least `minimum` each way
    /// and kept inside `bounds`.
    private static func fraction(of level: UnitLevel, count: UInt64, at origin: Point, minimum: Double,
                                 bounds: Rect) -> Rect {
        let size = Layout.cellSize(level)
        let share = Double(count) / Double(level.capacity)
        let horizontal = level.shape == .row || level.shape == .gate
        let width = min(max(horizontal ? size.x * share : size.x, minimum), bounds.width)
        let height = min(max(horizontal ? size.y : size.y * share, minimum), bounds.height)
        let x = min(origin.x, bounds.maxX - width)
        let y = min(origin.y, bounds.maxY - height)
        return Rect(minX: x, minY: y, width: width, height: height)
    }

    /// A rectangle as four segments, clockwise from the top left, closing where it started.
    private static func outline(_ rect: Rect) -> [Segment] {
        [Segment(rect.minX, rect.minY, rect.maxX, rect.minY), Segment(rect.maxX, rect.minY, rect.maxX, rect.maxY),
         Segment(rect.maxX, rect.maxY, rect.minX, rect.maxY), Segment(rect.minX, rect.maxY, rect.minX, rect.minY)]
    }
}
