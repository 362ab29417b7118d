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
        let snapped = marks.map { mark -> Mark in
            if mark.kind == .caption { return mark }
            var mark = mark
            if mark.kind.isFilled {
                mark.segments = mark.segments.map { segment in
                    Segment(
                        PixelGrid.edge(segment.start, pixelsPerUnit, visible),
                        PixelGrid.edge(segment.end, pixelsPerUnit, visible))
                }
                return mark
            }
            let pen = max(1, (mark.width * pixelsPerUnit).rounded())
            let axisAligned = mark.segments.allSatisfy {
                $0.control == nil && ($0.start.x == $0.end.x || $0.start.y == $0.end.y)
            }
            if axisAligned { mark.width = pen / pixelsPerUnit }
            let odd = pen.truncatingRemainder(dividingBy: 2) == 1
            mark.segments = mark.segments.map { segment in
                var moved = Segment(
                    PixelGrid.centre(segment.start, odd, pixelsPerUnit, visible),
                    PixelGrid.centre(segment.end, odd, pixelsPerUnit, visible))
                moved.control = segment.control
                return moved
            }
            return mark
        }
        return TallyScene(count: count, canvas: canvas, detail: detail, goal: goal, marks: snapped)
    }
}

/// Layout ↔ pixel arithmetic for `TallyScene.snappedToPixels`.
private enum PixelGrid {
    /// A point moved to the nearest pixel edge.
    static func edge(_ point: Point, _ scale: Double, _ visible: Rect) -> Point {
        Point(snap(point.x, visible.minX, scale) { $0.rounded() }, snap(point.y, visible.minY, scale) { $0.rounded() })
    }

    /// A point moved to where a pen's centre puts its edges on pixel edges: a pixel's middle
    /// for an odd pen, an edge for an even one.
    static func centre(_ point: Point, _ odd: Bool, _ scale: Double, _ visible: Rect) -> Point {
        let rule: (Double) -> Double = odd ? { ($0 - 0.5).rounded() + 0.5 } : { $0.rounded() }
        return Point(snap(point.x, visible.minX, scale, rule), snap(point.y, visible.minY, scale, rule))
    }

    private static func snap(_ value: Double, _ origin: Double, _ scale: Double, _ rule: (Double) -> Double) -> Double {
        let pixel = (value - origin) * scale
        guard pixel.isFinite else { return value }
        return origin + rule(pixel) / scale
    }
}
