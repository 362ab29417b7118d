/// The output pixel grid (SPEC §2, "Small sizes"; "The SVG at its declared size"): equal marks
/// look equal in every image with a size, PNG and SVG alike.
extension TallyScene {
    /// Moves the axis-aligned pens to land on whole pixels when layout unit `x` is drawn
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
    package mutating func snapToPixels(pixelsPerUnit: Double, visible: Rect) {
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 0 else { return }
        let grid = PixelGrid(scale: pixelsPerUnit, origin: Point(visible.minX, visible.minY))
        // In place: a scene fresh from the builder owns its marks and their segments, so no
        // array is copied (the copies and their release were a fifth of an SVG's cost).
        // A caption is set on the grid by its own font; a dotted outline is made on pixel centres
        // with its sides half a pixel past its corners (`ProgressMark.dottedOutline`), which the
        // grid would move.
        for index in marks.indices where marks[index].kind != .caption && !marks[index].kind.isDashed {
            marks[index].snap(to: grid, pixelsPerUnit: pixelsPerUnit)
        }
    }
}

extension Mark {
    /// This mark on the pixel grid, as `TallyScene.snapToPixels` describes.
    fileprivate mutating func snap(to grid: PixelGrid, pixelsPerUnit: Double) {
        let filled = kind.isFilled
        let odd: Bool
        if filled {
            // A filled rectangle's corners go to pixel edges, where an even pen's centre goes.
            odd = false
        } else {
            let pen = PixelRounding.pen(width * pixelsPerUnit)
            let axisAligned = segments.allSatisfy {
                $0.control == nil && ($0.start.x == $0.end.x || $0.start.y == $0.end.y)
            }
            if axisAligned { width = pen / pixelsPerUnit }
            odd = PixelRounding.isOdd(pen)
        }
        // A path's segments meet end to start (a box's four sides, a filled rectangle's, each of
        // a partial cell's hundreds of dots): a start identical to the last end (bit for bit, so
        // -0 and NaN are not mistaken) snaps to the same place, so it is moved once.
        var last: (from: Point, to: Point)?
        for index in segments.indices {
            let (start, end) = (segments[index].start, segments[index].end)
            if let last, last.from.x.bitPattern == start.x.bitPattern, last.from.y.bitPattern == start.y.bitPattern {
                segments[index].start = last.to
            } else {
                segments[index].start = grid.centre(start, odd: odd)
            }
            segments[index].end = grid.centre(end, odd: odd)
            // A filled rectangle's sides are straight.
            if filled && segments[index].control != nil { segments[index].control = nil }
            last = (end, segments[index].end)
        }
    }
}

/// Layout ↔ pixel arithmetic for `TallyScene.snapToPixels`.
private struct PixelGrid {
    /// Pixels a layout unit.
    let scale: Double
    /// The layout point at the image's top left corner.
    let origin: Point

    /// A point moved to where a pen's centre puts its edges on pixel edges: a pixel's middle
    /// for an odd pen, an edge for an even one.
    @inline(__always)
    func centre(_ point: Point, odd: Bool) -> Point {
        Point(snap(point.x, origin.x, odd: odd), snap(point.y, origin.y, odd: odd))
    }

    @inline(__always)
    private func snap(_ value: Double, _ origin: Double, odd: Bool) -> Double {
        let pixel = (value - origin) * scale
        guard pixel.isFinite else { return value }
        return origin + PixelRounding.centre(pixel, odd: odd) / scale
    }
}

/// The pixel grid's rounding (SPEC §2, "Small sizes"), in one place for the scene's marks
/// (`TallyScene.snapToPixels`) and a caption's glyphs (`Caption`): pens of whole pixels, and
/// a pen's centre where its edges fall on pixel edges. Arithmetic only, never a call into libm,
/// with the results of `rounded()` and `truncatingRemainder(dividingBy:)` for every Double.
package enum PixelRounding {
    /// A pen `pixels` wide rounded to whole pixels, at least one.
    @inline(__always)
    package static func pen(_ pixels: Double) -> Double { max(1, nearest(pixels)) }

    /// Whether a whole number of pixels is odd: `value.truncatingRemainder(dividingBy: 2) == 1`.
    @inline(__always)
    package static func isOdd(_ value: Double) -> Bool {
        // Past 2⁵³ every Double is even; below 1 (or not whole) the remainder is not 1.
        guard value >= 1 && value < 9_007_199_254_740_992 else { return false }
        let whole = Int64(value)
        return Double(whole) == value && whole & 1 == 1
    }

    /// Where a pen's centre goes, in pixels from the image's corner: a pixel's middle for an odd
    /// pen, a pixel's edge for an even one.
    @inline(__always)
    package static func centre(_ pixel: Double, odd: Bool) -> Double {
        odd ? nearest(pixel - 0.5) + 0.5 : nearest(pixel)
    }

    /// `value.rounded()` (to nearest, halves away from zero) without the call into libm that
    /// `rounded()` is on x86-64: the whole part by conversion, then the exact remainder decides.
    /// The same result for every Double.
    @inline(__always)
    package static func nearest(_ value: Double) -> Double {
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
