/// The output pixel grid (SPEC §2, "Small sizes"; "The SVG at its declared size"): equal marks
/// look equal in every image with a size, PNG and SVG alike.
extension TallyScene {
    /// The scene with its axis-aligned pens landing on whole pixels when layout unit `x` is drawn
    /// at pixel `(x - visible.minX) × pixelsPerUnit` (and likewise `y`), as a PNG draws it.
    ///
    /// An anti-aliased line that straddles a pixel edge turns into two grey columns; the same
    /// line a little further along lands on one dark column. So, in a raster image:
    /// - the pen of a mark made only of horizontal and vertical segments (a stroke, a box, a
    ///   row's line) is rounded to whole pixels (at least 1), and each of its coordinates is
    ///   moved by under a pixel so the pen's edges fall on pixel edges (a pixel's middle for an
    ///   odd pen, its edge for an even one);
    /// - the ends of a diagonal mark move the same way, so a square's cross still meets the
    ///   corners of its box (its pen, the box's, stays as it was);
    /// - a progress fill's edges are rounded to pixel edges.
    /// Positions move by at most half a pixel, so the picture is the same, only sharper. It is
    /// for the clean style: the ink style's wobble is meant to be seen.
    ///
    /// - Parameters:
    ///   - pixelsPerUnit: the output scale (`Viewport.pixelsPerUnit`).
    ///   - visible: the layout box at the image's top left (`Viewport.visible`).
    package func snappedToPixels(pixelsPerUnit: Double, visible: Rect) -> TallyScene {
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 0 else { return self }
        let grid = PixelGrid(scale: pixelsPerUnit, origin: Point(visible.minX, visible.minY))
        let snapped = marks.map { mark -> Mark in
            if mark.kind == .caption { return mark }
            var mark = mark
            if mark.kind.isFilled {
                mark.segments = mark.segments.map { Segment(grid.edge($0.start), grid.edge($0.end)) }
                return mark
            }
            let pen = max(1, (mark.width * pixelsPerUnit).rounded())
            let axisAligned = mark.segments.allSatisfy {
                $0.control == nil && ($0.start.x == $0.end.x || $0.start.y == $0.end.y)
            }
            if axisAligned { mark.width = pen / pixelsPerUnit }
            let odd = pen.truncatingRemainder(dividingBy: 2) == 1
            mark.segments = mark.segments.map { segment in
                var moved = Segment(grid.centre(segment.start, odd: odd), grid.centre(segment.end, odd: odd))
                moved.control = segment.control
                return moved
            }
            return mark
        }
        return TallyScene(count: count, canvas: canvas, detail: detail, goal: goal, marks: snapped)
    }
}

/// Layout ↔ pixel arithmetic for `TallyScene.snappedToPixels`.
private struct PixelGrid {
    /// Pixels a layout unit.
    let scale: Double
    /// The layout point at the image's top left corner.
    let origin: Point

    /// A point moved to the nearest pixel edge.
    func edge(_ point: Point) -> Point {
        Point(snap(point.x, origin.x, odd: false), snap(point.y, origin.y, odd: false))
    }

    /// A point moved to where a pen's centre puts its edges on pixel edges: a pixel's middle
    /// for an odd pen, an edge for an even one.
    func centre(_ point: Point, odd: Bool) -> Point {
        Point(snap(point.x, origin.x, odd: odd), snap(point.y, origin.y, odd: odd))
    }

    @inline(__always)
    private func snap(_ value: Double, _ origin: Double, odd: Bool) -> Double {
        let pixel = (value - origin) * scale
        guard pixel.isFinite else { return value }
        let placed = odd ? Self.nearest(pixel - 0.5) + 0.5 : Self.nearest(pixel)
        return origin + placed / scale
    }

    /// `value.rounded()` (to nearest, halves away from zero) without the call into libm that
    /// `rounded()` is on x86-64: the whole part by conversion, then the exact remainder decides.
    /// The same result for every Double.
    @inline(__always)
    static func nearest(_ value: Double) -> Double {
        // From 2⁵² on every Double is whole (and past Int64 the conversion would trap).
        guard abs(value) < 4_503_599_627_370_496 else { return value }
        let whole = Double(Int64(value))
        let remainder = value - whole
        if remainder >= 0.5 { return whole + 1 }
        if remainder <= -0.5 { return whole - 1 }
        // -0.4 rounds to -0.0, as `rounded()` gives.
        return whole == 0 ? (value.sign == .minus ? -0.0 : 0) : whole
    }
}
