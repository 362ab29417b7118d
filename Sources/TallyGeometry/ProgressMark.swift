/// SPEC §2, "Partial progress is never invisible" and "Never more than the truth": the mark a
/// unit being filled gets when it is too small to show its own children.
///
/// It is a wash over the unit's cell, counted in whole output pixels: of the cell's W × H whole
/// pixels it covers exactly ⌊share × W × H⌋, and at least one, where the share is the count's
/// part of the unit's capacity. The pixels fill in the unit's own fill order: whole columns left
/// to right for a row or a gate, whole pixel rows top to bottom for a square or a
/// twenty-five-unit, then the part of the next column or row. So the wash never shows more than
/// the count (10,001 is never drawn as 11,000), one stroke in a large unit is still a pixel,
/// and as a filled area in the strokes' colour at `Proportions.progressOpacity` (the lightest
/// thing in the picture that still meets 3:1 against the paper) it never looks like a cap,
/// which is always a line.
enum ProgressMark {
    /// The progress mark of `level`, filled with `count` (1 ..< capacity).
    /// - Parameters:
    ///   - origin: the cell's top left, on a pixel corner when the scene is placed at its
    ///     output scale (`Placement`).
    ///   - size: the cell's size as placed.
    ///   - pixelsPerUnit: the output scale.
    static func marks(_ level: UnitLevel, count: UInt64, at origin: Point, size: Point, pixelsPerUnit: Double)
        -> [Mark]
    {
        let horizontal = level.shape == .row || level.shape == .gate
        let pixels = cellPixels(size, pixelsPerUnit)
        let rects = cover(count: count, of: level.capacity, cellPixels: pixels, horizontal: horizontal)
        func segments(_ rects: [Rect]) -> [Segment] {
            rects.flatMap { rect in
                outline(
                    Rect(
                        minX: origin.x + rect.minX / pixelsPerUnit, minY: origin.y + rect.minY / pixelsPerUnit,
                        width: rect.width / pixelsPerUnit, height: rect.height / pixelsPerUnit))
            }
        }
        let tint = Mark(
            kind: .progress, unit: level.capacity, color: .c1, width: 0, segments: segments(rects),
            opacity: Proportions.progressTintOpacity)
        let edge = Mark(
            kind: .edge, unit: level.capacity, color: .c1, width: 0,
            segments: segments(leadingEdge(of: rects, horizontal: horizontal)), opacity: Proportions.progressOpacity)
        return [tint, edge]
    }

    /// The last whole pixels the wash covers along its fill order: for rows filled top to bottom,
    /// the lowest covered pixel of every column; for columns filled left to right, the rightmost
    /// of every row. One pixel thick, inside the covered area.
    static func leadingEdge(of rects: [Rect], horizontal: Bool) -> [Rect] {
        guard let first = rects.first else { return [] }
        // `first` is the whole lines, and a second rectangle the part of the next line.
        let part = rects.count > 1 ? rects[1] : nil
        if horizontal {
            // Columns: the part column's pixels, and the last whole column below them.
            var edge: [Rect] = []
            if let part { edge.append(part) }
            let from = part?.height ?? 0
            if first.width > 0 && from < first.height {
                edge.append(Rect(minX: first.maxX - 1, minY: from, width: 1, height: first.height - from))
            }
            return edge
        }
        var edge: [Rect] = []
        if let part { edge.append(part) }
        let from = part?.width ?? 0
        if first.height > 0 && from < first.width {
            edge.append(Rect(minX: from, minY: first.maxY - 1, width: first.width - from, height: 1))
        }
        return edge
    }

    /// The whole output pixels inside a cell, each way, at least one.
    static func cellPixels(_ size: Point, _ pixelsPerUnit: Double) -> (width: Double, height: Double) {
        (max(1, (size.x * pixelsPerUnit).rounded(.down)), max(1, (size.y * pixelsPerUnit).rounded(.down)))
    }

    /// How many of a cell's whole pixels `count` of `capacity` covers: its share, rounded down,
    /// and at least one.
    static func coveredPixels(count: UInt64, of capacity: UInt64, cellPixels: (width: Double, height: Double)) -> Double
    {
        let area = cellPixels.width * cellPixels.height
        // The share times the area, rounded down, in whole numbers where they are exact.
        let exact = (Double(count) / Double(capacity) * area).rounded(.down)
        return min(max(1, exact), area)
    }

    /// The covered pixels as at most two rectangles in pixels, from the cell's top left: whole
    /// lines (columns when `horizontal`), then the part of the next one.
    static func cover(
        count: UInt64, of capacity: UInt64, cellPixels: (width: Double, height: Double),
        horizontal: Bool
    ) -> [Rect] {
        let covered = coveredPixels(count: count, of: capacity, cellPixels: cellPixels)
        let line = horizontal ? cellPixels.height : cellPixels.width
        let whole = (covered / line).rounded(.down)
        let rest = covered - whole * line
        var rects: [Rect] = []
        if horizontal {
            if whole > 0 { rects.append(Rect(minX: 0, minY: 0, width: whole, height: line)) }
            if rest > 0 { rects.append(Rect(minX: whole, minY: 0, width: 1, height: rest)) }
        } else {
            if whole > 0 { rects.append(Rect(minX: 0, minY: 0, width: line, height: whole)) }
            if rest > 0 { rects.append(Rect(minX: 0, minY: whole, width: rest, height: 1)) }
        }
        return rects
    }

    /// A rectangle as four segments, clockwise from the top left, closing where it started.
    private static func outline(_ rect: Rect) -> [Segment] {
        [
            Segment(rect.minX, rect.minY, rect.maxX, rect.minY), Segment(rect.maxX, rect.minY, rect.maxX, rect.maxY),
            Segment(rect.maxX, rect.maxY, rect.minX, rect.maxY), Segment(rect.minX, rect.maxY, rect.minX, rect.minY),
        ]
    }
}
