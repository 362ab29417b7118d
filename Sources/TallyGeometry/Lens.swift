/// SPEC §2, "A lens for the last digits": where a picture of rows is too small for its gates,
/// the twenty-five-unit where the next mark goes is drawn once more under the picture, enlarged
/// until its gates read, as a map's locator inset repeats a detail: framed apart, tied to its
/// place by a leader, and lighter than what it magnifies.
///
/// The design, and why:
/// - **One footprint.** Whether a picture has a lens, and the room it takes, depend on its
///   frame, its scale and its size alone (`Lens.Room.plan`), never on the count's last digits:
///   every count a picture of the same rows draws has the same band, so a README picture of a
///   growing count never moves the page at a hundred. Where the band holds nothing (a complete
///   row: no mark goes next inside it) it stays empty.
/// - **The quarter, not the hundred.** The square being filled shows its quarters in place
///   (crosses, and the quarter being filled outlined); what does not read there is the last 0 to
///   24, so the lens repeats the twenty-five-unit: a third of a square's side, it fits under a
///   row where a square with legible gates would be taller than the picture (the old inset,
///   2.25 times the picture at the median).
/// - **A lens, not a box.** Its frame is four corner brackets, never a closed square in a
///   box's tone and weight, and its place is marked by a one-pixel leader from under the square
///   being filled, in the light ink of the dotted outlines, so nothing of it reads as a unit.
/// - **Within its budget.** Its area is at most a finished row's at the picture's scale. Its
///   marks are the twenty-five-unit's as drawn at the copy's scale, opaque: a first sheet of
///   fresh readers, given a lens in one-pixel pens lightened to the dots' ink so that it
///   weighed no more than a finished square, missed strokes and slashes in 4 of 10 lenses
///   (docs/design.md); the ink budget of one finished square is not kept.
/// The lens's marks carry `lens` in the scene (and the JSON scene): they repeat the count,
/// never add to it, and the accessible text says nothing of them.
package enum Lens {
    /// The room a picture keeps under it for its lens: planned from its frame, scale and size.
    package struct Room: Hashable, Sendable {
        /// Output pixels the image grows by, at the bottom.
        package let pixels: Double
        /// The lens's scale: output pixels per layout unit of the twenty-five-unit drawn alone.
        package let pixelsPerUnit: Double
        /// The copy's side in output pixels (its cell, whole pixels).
        package let side: Double
        /// The least margin between the picture and the lens's frame, in output pixels.
        package let lead: Double

        /// The same room at `factor` times the output pixels (`--scale`): the copy of the 1x
        /// image, as many times larger.
        package func scaled(by factor: Double) -> Room {
            guard factor != 1 else { return self }
            return Room(
                pixels: pixels * factor, pixelsPerUnit: pixelsPerUnit * factor, side: side * factor, lead: lead * factor
            )
        }

        /// The lens room of a picture, or nil where it has none: a frame of rows (101 to
        /// 10,000), whose gates do not read in place, with room under it (never past the side
        /// the user fixed) for a copy at least `Proportions.insetGlanceMargin` times the least
        /// legible scale, and no larger than a finished row.
        /// - Parameters:
        ///   - frame: the frame the picture is drawn in.
        ///   - pixelsPerUnit: the picture's scale.
        ///   - image: the image's size in output pixels before the lens.
        ///   - side: the side the user fixed, in output pixels.
        ///   - proportions: the proportions the picture is drawn with.
        package static func plan(
            frame: UnitLevel, pixelsPerUnit: Double, image: (width: Double, height: Double), side: Double,
            _ proportions: Proportions
        ) -> Room? {
            guard pixelsPerUnit.isFinite, pixelsPerUnit > 0,
                wanted(frame: frame, pixelsPerUnit: pixelsPerUnit, proportions)
            else { return nil }
            let unit = proportions.cellSize(.twentyFive).x
            let legible = legibleScale(proportions)
            let lead = Proportions.minimumMarginPixels
            let gap = max(Proportions.minimumMarginPixels, (side * Proportions.marginShare).rounded())
            // The room under the picture, to a square of the side fixed at most.
            let limit = max(side, image.width)
            let room = limit - image.height - lead - gap - 2 * framing
            // At most a finished row's area at the picture's scale.
            let row = Placement(pixelsPerUnit: pixelsPerUnit, proportions).cellSize(.thousandRow)
            let rowArea = row.x * pixelsPerUnit * row.y * pixelsPerUnit
            // The lens's extent is its dotted outline, `padding` outside the copy's cell.
            let largest = min(room, rowArea.squareRoot() - 2 * (padding + 1), image.width - 2 * gap)
            let wished = legible * Proportions.insetLegibleMargin * unit
            let copySide = min(wished, largest).rounded(.down)
            guard copySide >= legible * Proportions.insetGlanceMargin * unit else { return nil }
            let scale = copySide / unit
            // The copy's cell as the builder places it at its scale, in whole pixels.
            let cell = (Placement(pixelsPerUnit: scale, proportions).cellSize(.twentyFive).x * scale).rounded(.up)
            return Room(pixels: cell + lead + gap + 2 * framing, pixelsPerUnit: scale, side: cell, lead: lead)
        }
    }

    /// Whether a picture's last digits do not read in place: a picture of rows (a frame of 1,000
    /// or 10,000) whose gates' strokes do not stand the legible gap apart. There a lens is drawn
    /// where it has room, and the count written where it has none (`Magnitude.writesDigits`).
    package static func wanted(frame: UnitLevel, pixelsPerUnit: Double, _ proportions: Proportions) -> Bool {
        (frame == .thousandRow || frame == .tenThousandBlock)
            && !Detail.automatic(pixelsPerUnit: pixelsPerUnit).showsUnits(of: .gate, proportions)
    }

    /// The smallest scale at which a gate's strokes read: pens and gaps legible.
    package static func legibleScale(_ proportions: Proportions) -> Double {
        let features = Detail.features(of: .gate, proportions)
        return max(Proportions.legibleGapPixels / features.gap, Proportions.legibleStrokePixels / features.width)
    }

    /// The output pixels between the copy's cell and its dotted outline, so the gates at its
    /// sides are never read as part of it, and between that outline and the corner brackets.
    static let padding = 3.0
    static let bracketGap = 2.0
    /// The pixels from the copy's cell to the outer edge of its brackets, each side.
    static let framing = padding + bracketGap + 1

    /// The lens's marks for `count` in a picture of `frame` at `pixelsPerUnit`, in the picture's
    /// layout units: the twenty-five-unit where the next mark goes, drawn alone at the room's
    /// scale with its cell dotted, its corner brackets, and the leader from its place. Empty
    /// where no mark goes next inside the frame (a complete frame).
    /// - Parameters:
    ///   - image: the grown image, in layout units.
    ///   - picture: the image's height before the lens, in output pixels.
    ///   - proportions: the proportions the picture, and so its lens, is drawn with.
    package static func marks(
        count: UInt64, frame: UnitLevel, room: Room, pixelsPerUnit: Double, image: Rect, picture: Double,
        _ proportions: Proportions
    ) -> [Mark] {
        guard count < frame.capacity else { return [] }
        let pixel = 1 / pixelsPerUnit
        let placement = Placement(pixelsPerUnit: pixelsPerUnit, proportions)
        // Where the square holding the next mark sits, and its quarter.
        var squareOrigin = Point(0, 0)
        var walking = frame
        var left = count
        while walking > .hundred, let child = walking.child {
            squareOrigin = squareOrigin + placement.childOffset(walking, Int(left / child.capacity))
            left %= child.capacity
            walking = child
        }
        let quarterIndex = Int(left / UnitLevel.twentyFive.capacity)
        let quarterOrigin = squareOrigin + placement.childOffset(.hundred, quarterIndex)
        let quarterSize = placement.cellSize(.twentyFive)
        let squareSize = placement.cellSize(.hundred)
        let inQuarter = left % UnitLevel.twentyFive.capacity

        // The copy, centred under its place where the image lets it be.
        let scale = room.pixelsPerUnit
        let enlargement = scale / pixelsPerUnit
        let placeX = quarterOrigin.x + quarterSize.x / 2
        // The brackets' outer pixel, and the least margin beyond it.
        let inset = framing + Proportions.minimumMarginPixels
        let half = room.side / 2 * pixel
        let minX = image.minX + inset * pixel
        let maxX = image.maxX - inset * pixel - room.side * pixel
        var copyX = ((placeX - half - image.minX) * pixelsPerUnit).rounded(.down) * pixel + image.minX
        copyX = min(max(copyX, minX), max(minX, maxX))
        let copyY = image.minY + (picture + room.lead + framing) * pixel
        let corner = Point(copyX, copyY)
        func move(_ point: Point) -> Point {
            Point(corner.x + point.x * enlargement, corner.y + point.y * enlargement)
        }
        let detail = Detail.automatic(pixelsPerUnit: scale)
        let copyPlacement = Placement(pixelsPerUnit: scale, proportions)
        var copied = SceneBuilder.marks(
            count: inQuarter, frame: .twentyFive, detail: detail, placement: copyPlacement)
        // Room for the outline below and the brackets' mark: the builder's array is made to fit.
        copied.reserveCapacity(copied.count + 2)
        // Its cell dotted, a few pixels out, as a cell being filled is in place.
        let framed = room.side + 2 * padding
        copied.append(
            ProgressMark.dottedOutline(
                of: Rect(minX: -padding, minY: -padding, width: framed, height: framed),
                unit: UnitLevel.twentyFive.capacity, at: Point(0, 0), pixelsPerUnit: scale))
        for index in copied.indices {
            copied[index].width *= enlargement
            copied[index].lens = true
            for segment in copied[index].segments.indices {
                let old = copied[index].segments[segment]
                copied[index].segments[segment] = Segment(
                    move(old.start), move(old.end), control: old.control.map(move))
            }
        }
        var marks = copied
        // Corner brackets a little outside the dotted outline, and the leader from its place.
        let side = room.side * pixel
        let gap = (padding + bracketGap) * pixel
        let arm = max(3, (room.side / 5).rounded()) * pixel
        let (x0, y0) = (corner.x - gap - pixel, corner.y - gap - pixel)
        let (x1, y1) = (corner.x + side + gap, corner.y + side + gap)
        var bars: [Rect] = []
        bars.reserveCapacity(9)  // two a corner, and the leader
        // The four corners in reading order, by the bits of their number: no array of tuples,
        // a generic type the runtime would make for this one loop.
        for number in 0..<4 {
            let (right, down) = (number & 1 == 0, number < 2)
            let (x, y) = (right ? x0 : x1, down ? y0 : y1)
            let armX = right ? x : x - arm + pixel
            let armY = down ? y : y - arm + pixel
            bars.append(Rect(minX: armX, minY: y, width: arm, height: pixel))
            bars.append(Rect(minX: x, minY: armY, width: pixel, height: arm))
        }
        // The leader: a one-pixel line from under the square being filled to the top brackets'
        // level, at the middle of its quarter (inside the copy's span, so it meets the lens).
        let leaderX =
            ((min(max(placeX, corner.x), corner.x + side) - image.minX) * pixelsPerUnit).rounded(.down)
            * pixel + image.minX
        let top = squareOrigin.y + squareSize.y + 2 * pixel
        if y0 - top >= pixel {
            bars.append(Rect(minX: leaderX, minY: top, width: pixel, height: y0 - top))
        }
        var segments: [Segment] = []
        segments.reserveCapacity(4 * bars.count)
        for bar in bars { ProgressMark.appendOutline(of: bar, to: &segments) }
        marks.append(
            Mark(
                kind: .edge, unit: UnitLevel.twentyFive.capacity, color: .c1, width: 0, segments: segments,
                opacity: Proportions.progressOpacity, lens: true))
        return marks
    }
}
