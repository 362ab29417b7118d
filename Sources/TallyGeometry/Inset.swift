/// SPEC §2, "An inset for the last digits" (`--inset`): where the unit that holds the count's
/// last two digits is too small at the picture's scale for its gates to read, it is drawn once
/// more beside the picture, enlarged until they do, as a map's inset repeats a detail too small
/// to read in place.
///
/// The unit repeated is the hundred-block being filled (or, where the frame is a hundred-block,
/// its twenty-five-unit being filled). The inset goes where the image has room without touching
/// the picture: under it when the picture is at least as wide as tall, else to its right, in
/// pixels added to the free side and never past the side the user fixed (a square at most, for
/// `--size`). Its scale is the smallest at which a gate's strokes stand a legible gap apart,
/// times `Proportions.insetLegibleMargin`, or less where the room is less. A thin frame of one
/// pixel, in the ink of a wash's edge, outlines the unit in the picture and its inset, so each
/// is found from the other. Nothing in the picture moves, and the count is the count: the
/// accessible text says nothing of the inset.
package struct Inset: Sendable {
    /// The output pixels the image gains, to the right (`right`) or below.
    package let pixels: Double
    /// Whether the inset stands to the right of the picture, rather than under it.
    package let right: Bool
    /// The inset's scale: output pixels per layout unit of the unit repeated.
    let pixelsPerUnit: Double
    /// The unit repeated, its part of the count, and its cell's top left in the picture.
    let level: UnitLevel
    let count: UInt64
    let origin: Point
    /// The inset's top left, in output pixels from the top left of the grown image.
    let at: (x: Double, y: Double)

    /// The inset of a count's picture, or nil where none is needed or there is no room for one
    /// larger than the unit in place.
    /// - Parameters:
    ///   - frame: the frame the count is drawn in.
    ///   - pixelsPerUnit: the picture's scale.
    ///   - image: the image's size in output pixels before the inset.
    ///   - side: the side the user fixed, in output pixels: the image grows to it at most each
    ///     way, along the side with more room, with the default margin's share of it between
    ///     the picture and the inset and after it.
    package static func plan(
        count: UInt64, frame: UnitLevel, pixelsPerUnit: Double, image: (width: Double, height: Double), side: Double
    ) -> Inset? {
        let limit = (width: max(side, image.width), height: max(side, image.height))
        let gap = max(Proportions.minimumMarginPixels, (side * Proportions.marginShare).rounded())
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 0, frame > .twentyFive else { return nil }
        let level: UnitLevel = frame == .hundred ? .twentyFive : .hundred
        let rest = count % level.capacity
        // Only a unit being filled: its last digits are what cannot be read.
        guard rest > 0, count < frame.capacity else { return nil }
        let legible = Proportions.legibleGapPixels / Detail.features(of: .gate).gap
        // Where the gates already read in place, the picture needs no inset.
        guard !Detail.automatic(pixelsPerUnit: pixelsPerUnit).showsUnits(of: .gate) else { return nil }
        let placement = Placement(pixelsPerUnit: pixelsPerUnit)
        var origin = Point(0, 0)
        var walking = frame
        var left = count
        while walking > level, let child = walking.child {
            let index = Int(left / child.capacity)
            origin = origin + placement.childOffset(walking, index)
            left %= child.capacity
            walking = child
        }
        let cell = Layout.cellSize(level)
        let right = limit.width - image.width > limit.height - image.height
        // The room along the free side, and across it.
        let along = (right ? limit.width - image.width : limit.height - image.height) - 2 * gap
        let across = (right ? image.height : image.width) - 2 * gap
        let fitting = min(along / (right ? cell.x : cell.y), across / (right ? cell.y : cell.x))
        let scale = min(legible * Proportions.insetLegibleMargin, fitting)
        guard scale >= Proportions.insetSmallestEnlargement * pixelsPerUnit else { return nil }
        // Its children at whole-pixel steps of its own scale, from a pixel corner.
        let size = Placement(pixelsPerUnit: scale).cellSize(level)
        let width = (size.x * scale).rounded(.up)
        let height = (size.y * scale).rounded(.up)
        let pixels = (right ? width : height) + 2 * gap
        let at =
            right
            ? (x: image.width + gap, y: ((image.height - height) / 2).rounded(.down))
            : (x: ((image.width - width) / 2).rounded(.down), y: image.height + gap)
        return Inset(
            pixels: pixels, right: right, pixelsPerUnit: scale, level: level, count: rest, origin: origin, at: at)
    }

    /// The inset's marks in the picture's layout units: the unit drawn alone at the inset's
    /// scale, moved beside the picture, and the two thin frames.
    /// - Parameters:
    ///   - pixelsPerUnit: the picture's scale.
    ///   - topLeft: the layout point at the grown image's top left pixel corner.
    package func marks(pixelsPerUnit: Double, topLeft: Point) -> [Mark] {
        let detail = Detail.automatic(pixelsPerUnit: self.pixelsPerUnit)
        let placement = Placement(pixelsPerUnit: self.pixelsPerUnit)
        let enlargement = self.pixelsPerUnit / pixelsPerUnit
        let corner = Point(topLeft.x + at.x / pixelsPerUnit, topLeft.y + at.y / pixelsPerUnit)
        var marks = SceneBuilder.marks(count: count, frame: level, detail: detail, placement: placement).map { mark in
            var moved = mark
            moved.width *= enlargement
            moved.segments = mark.segments.map { segment in
                func move(_ point: Point) -> Point {
                    Point(corner.x + point.x * enlargement, corner.y + point.y * enlargement)
                }
                return Segment(move(segment.start), move(segment.end), control: segment.control.map(move))
            }
            return moved
        }
        let pixel = 1 / pixelsPerUnit
        // The unit in place, its cell as the picture places it, and the inset's cell.
        let here = Placement(pixelsPerUnit: pixelsPerUnit).cellSize(level)
        let there = placement.cellSize(level)
        var frames: [Segment] = []
        for (origin, size) in [
            (origin, here), (corner, Point(there.x * enlargement, there.y * enlargement)),
        ] {
            frames += Self.frame(
                Rect(
                    minX: origin.x - pixel, minY: origin.y - pixel, width: size.x + 2 * pixel,
                    height: size.y + 2 * pixel), pixel: pixel)
        }
        marks.append(
            Mark(
                kind: .edge, unit: level.capacity, color: .c1, width: 0, segments: frames,
                opacity: Proportions.progressOpacity))
        return marks
    }

    /// A one-pixel outline just inside a rectangle, as four filled bars.
    private static func frame(_ rect: Rect, pixel: Double) -> [Segment] {
        [
            Rect(minX: rect.minX, minY: rect.minY, width: rect.width, height: pixel),
            Rect(minX: rect.minX, minY: rect.maxY - pixel, width: rect.width, height: pixel),
            Rect(minX: rect.minX, minY: rect.minY + pixel, width: pixel, height: rect.height - 2 * pixel),
            Rect(minX: rect.maxX - pixel, minY: rect.minY + pixel, width: pixel, height: rect.height - 2 * pixel),
        ].flatMap(ProgressMark.outline)
    }
}
