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
///
/// Read at a glance (SPEC §2, "Readable at a glance"): the covered share is a light tint with a
/// solid leading edge, and the whole cell is marked by dots on its border, so a reader sees how
/// far the edge has come across a cell whose full size is in view, as on a gauge. Tint, edge
/// and dots together stay lighter than a finished sibling (SPEC §2, "Weight follows quantity").
enum ProgressMark {
    /// The progress mark of `level`, filled with `count` (1 ..< capacity).
    /// - Parameters:
    ///   - origin: the cell's top left, on a pixel corner when the scene is placed at its
    ///     output scale (`Placement`).
    ///   - size: the cell's size as placed.
    ///   - pixelsPerUnit: the output scale.
    ///   - finishedInk: the ink of a finished sibling drawn at this scale (`inkPixels`), which
    ///     the wash never outweighs.
    static func marks(
        _ level: UnitLevel, count: UInt64, at origin: Point, size: Point, pixelsPerUnit: Double, finishedInk: Double
    ) -> [Mark] {
        let horizontal = fillsColumns(level)
        let pixels = cellPixels(size, pixelsPerUnit)
        let rects = cover(count: count, of: level.capacity, cellPixels: pixels, horizontal: horizontal)
        let front = leadingEdge(of: rects, horizontal: horizontal)
        func segments(_ rects: [Rect]) -> [Segment] {
            rects.flatMap { rect in
                outline(
                    Rect(
                        minX: origin.x + rect.minX / pixelsPerUnit, minY: origin.y + rect.minY / pixelsPerUnit,
                        width: rect.width / pixelsPerUnit, height: rect.height / pixelsPerUnit))
            }
        }
        // The cell's empty part shows through its dotted outline, drawn by the unit it stands in.
        let edges = front
        let covered = rects.reduce(0) { $0 + $1.width * $1.height }
        let edgePixels = edges.reduce(0) { $0 + $1.width * $1.height }
        let tint = Mark(
            kind: .progress, unit: level.capacity, color: .c1, width: 0, segments: segments(rects),
            opacity: tintOpacity(covered: covered, edges: edgePixels, finishedInk: finishedInk))
        let edge = Mark(
            kind: .edge, unit: level.capacity, color: .c1, width: 0, segments: segments(edges),
            opacity: Proportions.progressOpacity)
        return [tint, edge]
    }

    /// The tint's opacity: `Proportions.progressTintOpacity`, or less where the covered area is
    /// large against a finished sibling's ink, so tint, edge and dots together never outweigh it
    /// (SPEC §2, "Weight follows quantity"); never below `Proportions.faintestTintOpacity`.
    ///
    /// Ink is counted as the light theme shows it, where blending in sRGB makes a tint darker
    /// than its opacity: a pixel of tint at opacity α as 1.9 α of a solid pixel of the strokes'
    /// colour, a pixel of edge or dot (at `Proportions.progressOpacity`) as 0.8 of one, and the
    /// sibling's caps, in the lighter c2 and c3, as 0.8 of their area.
    static func tintOpacity(covered: Double, edges: Double, finishedInk: Double) -> Double {
        guard covered > 0 else { return Proportions.progressTintOpacity }
        let budget = 0.8 * finishedInk - 0.8 * edges
        let fitting = budget / (1.9 * covered)
        let opacity = min(Proportions.progressTintOpacity, max(Proportions.faintestTintOpacity, fitting))
        // Three decimals, as the SVG writes it, so every output draws the same tint.
        return (opacity * 1_000).rounded(.down) / 1_000
    }

    /// The ink of some marks in output pixels: each stroked segment's length times its pen, the
    /// pen at least a pixel as drawn (SPEC §2, "Level of detail"); fills are not counted.
    static func inkPixels(_ marks: [Mark], pixelsPerUnit: Double) -> Double {
        marks.reduce(0) { total, mark in
            guard !mark.kind.isFilled else { return total }
            let pen = max(mark.width * pixelsPerUnit, Proportions.minimumPenPixels)
            // A dotted outline lays down one pen in three along its length; a translucent pen
            // (the dots' 55%) its opacity's share.
            let share = (mark.kind.isDashed ? 1.0 / 3 : 1) * mark.opacity
            return mark.segments.reduce(total) { sum, segment in
                let (dx, dy) = (segment.end.x - segment.start.x, segment.end.y - segment.start.y)
                return sum + (dx * dx + dy * dy).squareRoot() * pixelsPerUnit * pen * share
            }
        }
    }

    /// The ink of some marks as `tintOpacity` weighs it against a finished sibling: the stroked
    /// pens (`inkPixels`), a pixel of edge or dot as 0.8 of a solid one, and a pixel of tint at
    /// opacity α as 1.9 α (the light theme's sRGB blending).
    static func ink(_ marks: [Mark], pixelsPerUnit: Double) -> Double {
        marks.reduce(inkPixels(marks, pixelsPerUnit: pixelsPerUnit)) { total, mark in
            guard mark.kind.isFilled else { return total }
            let weight = mark.kind == .edge ? 0.8 : 1.9 * mark.opacity
            // Closed rectangles, four segments each: the top side's length by the right side's.
            let area = stride(from: 0, to: mark.segments.count - 3, by: 4).reduce(0.0) { area, first in
                let (top, right) = (mark.segments[first], mark.segments[first + 1])
                return area + abs(top.end.x - top.start.x) * abs(right.end.y - right.start.y)
            }
            return total + weight * area * pixelsPerUnit * pixelsPerUnit
        }
    }

    /// Whether a unit's wash fills whole columns left to right (rows, gates, and the
    /// twenty-five-unit, whose first stroke then reads as an upright stroke, never as a row's
    /// line), or whole pixel rows top to bottom (squares, whose rows or quarters fill downwards).
    static func fillsColumns(_ level: UnitLevel) -> Bool {
        level.shape == .row || level.shape == .gate || level.shape == .quincunx
    }

    /// One dotted outline (kind `dotted`) of a rectangle of whole pixels, given in pixels from
    /// `origin` (in layout units, on a pixel corner): its four sides through the centres of its
    /// outer pixels, each its own piece of the path from half a pixel before its first corner to
    /// half a pixel past its last, so the dash pattern (one pen on, two off) starts afresh at
    /// every corner and covers each corner's pixel whole: every corner is a dot, and along each
    /// side a dot every three pixels. One path: where the sides meet, the pixel is painted once.
    static func dottedOutline(of rect: Rect, unit: UInt64, at origin: Point, pixelsPerUnit: Double) -> Mark {
        let pixel = 1 / pixelsPerUnit
        let half = pixel / 2
        let (x0, y0) = (origin.x + (rect.minX + 0.5) * pixel, origin.y + (rect.minY + 0.5) * pixel)
        let (x1, y1) = (origin.x + (rect.maxX - 0.5) * pixel, origin.y + (rect.maxY - 0.5) * pixel)
        return Mark(
            kind: .dotted, unit: unit, color: .c1, width: pixel,
            segments: [
                Segment(x0 - half, y0, x1 + half, y0), Segment(x1, y0 - half, x1, y1 + half),
                Segment(x1 + half, y1, x0 - half, y1), Segment(x0, y1 + half, x0, y0 - half),
            ],
            opacity: Proportions.progressOpacity)
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

    /// `outline(rect)` appended to `segments`, without an array of its own (a partial cell's
    /// dots number in hundreds).
    static func appendOutline(of rect: Rect, to segments: inout [Segment]) {
        segments.append(Segment(rect.minX, rect.minY, rect.maxX, rect.minY))
        segments.append(Segment(rect.maxX, rect.minY, rect.maxX, rect.maxY))
        segments.append(Segment(rect.maxX, rect.maxY, rect.minX, rect.maxY))
        segments.append(Segment(rect.minX, rect.maxY, rect.minX, rect.minY))
    }

    /// A rectangle as four segments, clockwise from the top left, closing where it started.
    static func outline(_ rect: Rect) -> [Segment] {
        var segments: [Segment] = []
        segments.reserveCapacity(4)
        appendOutline(of: rect, to: &segments)
        return segments
    }
}
