/// SPEC §2, "An inset for the last digits": where the unit that holds the count's last two
/// digits is too small at the picture's scale for its gates to read, it is drawn once more
/// beside the picture, enlarged until they do, as a map's inset repeats a detail too small to
/// read in place.
///
/// The unit repeated is the square being filled under the frame (in a hundred-block frame, its
/// twenty-five-unit being filled). Where that copy is still too small for its gates, the square
/// being filled inside it is repeated in turn, two levels down each time (a block's square
/// being filled sits in its row being filled), down to the hundred-block, skipping a level
/// whose contents already read where it stands: a chain of copies,
/// each one a square (or the twenty-five-unit), laid side by side along the free side. Every
/// copy is that unit drawn alone, so it shows the count's part for that unit and nothing more.
///
/// The copies go where the image has room without touching the picture: under it when the
/// picture is at least as wide as tall, else to its right, in pixels added to the free side and
/// never past the side the user fixed (a square at most, for `--size`). A copy's scale is the
/// smallest at which what it was drawn for reads (a hundred-block's gates, a block's squares),
/// times `Proportions.insetLegibleMargin`, or less where the room is less, shared in that
/// ratio among the copies. A thin frame of one pixel, in the ink of a wash's edge, outlines
/// each unit in its place (the picture, or the copy before) and its copy, so each is found
/// from the other. Nothing in the picture moves, and the count is the count: the accessible
/// text says nothing of the inset.
package struct Inset: Sendable {
    /// One copy: a unit being filled, drawn alone at its own scale beside the picture.
    package struct Copy: Sendable, Equatable {
        /// The unit repeated, and the count's part for it.
        package let level: UnitLevel
        package let count: UInt64
        /// What the copy is drawn to show: its gates where it is the last of its chain, else
        /// the units among which the next copy's unit stands (SPEC §2).
        package let shows: UnitLevel
        /// The copy's scale: output pixels per layout unit of the unit drawn alone.
        package let pixelsPerUnit: Double
        /// The copy's top left, in output pixels from the top left of the grown image, and its
        /// size in output pixels.
        package let at: (x: Double, y: Double)
        package let size: (width: Double, height: Double)

        /// Whether the copy shows its gates: the last digits read there.
        package var showsGates: Bool { Detail.automatic(pixelsPerUnit: pixelsPerUnit).showsUnits(of: .gate) }

        /// Whether what the copy was drawn for reads at its scale (SPEC §2): a hundred-block's
        /// or a twenty-five-unit's gates, a block's squares, or a hundred-block's quarters
        /// (the next copy's place).
        package var reads: Bool {
            Detail.automatic(pixelsPerUnit: pixelsPerUnit).showsUnits(of: shows)
        }

        package static func == (a: Copy, b: Copy) -> Bool {
            a.level == b.level && a.count == b.count && a.shows == b.shows && a.pixelsPerUnit == b.pixelsPerUnit
                && a.at == b.at && a.size == b.size
        }
    }

    /// The output pixels the image gains, to the right (`right`) or below.
    package let pixels: Double
    /// Whether the inset stands to the right of the picture, rather than under it.
    package let right: Bool
    /// The copies, from the one of the picture's unit being filled to the one of the smallest.
    package let copies: [Copy]
    /// Where the first copy's unit sits in the picture: its cell's top left, in layout units.
    let origin: Point

    /// The same inset at `factor` times the output pixels: an image drawn at a higher density
    /// (`--scale`) has the copies of its 1x image, each as many times larger.
    package func scaled(by factor: Double) -> Inset {
        guard factor != 1 else { return self }
        return Inset(
            pixels: pixels * factor, right: right,
            copies: copies.map { copy in
                Copy(
                    level: copy.level, count: copy.count, shows: copy.shows,
                    pixelsPerUnit: copy.pixelsPerUnit * factor, at: (x: copy.at.x * factor, y: copy.at.y * factor),
                    size: (width: copy.size.width * factor, height: copy.size.height * factor))
            }, origin: origin)
    }

    /// The units a copy of this level is drawn to show: gates for a hundred-block or a
    /// twenty-five-unit, the squares of its rows for a block; a hundred-block whose
    /// twenty-five-unit being filled has a copy of its own (`quartered`), its quarters.
    static func shown(by level: UnitLevel, quartered: Bool = false) -> UnitLevel {
        if quartered && level == .hundred { return .twentyFive }
        return level <= .hundred ? .gate : UnitLevel(rank: level.rank - 2)
    }

    /// The levels the inset may repeat under a frame, largest first: the squares being filled,
    /// two levels apart, down to the hundred-block (in a hundred-block frame, the twenty-five-unit).
    static func chain(under frame: UnitLevel) -> [UnitLevel] {
        if frame == .hundred { return [.twentyFive] }
        guard frame > .hundred else { return [] }
        let top = frame.shape == .row ? frame.rank - 1 : frame.rank - 2
        return stride(from: top, through: UnitLevel.hundred.rank, by: -2).map(UnitLevel.init(rank:))
    }

    /// The scale a copy is drawn at where the image has room: what it shows, read with a margin.
    static func wishedScale(showing shown: UnitLevel) -> Double {
        legibleScale(shown) * Proportions.insetLegibleMargin
    }

    /// The smallest scale at which units of a level read: pens and gaps legible.
    static func legibleScale(_ level: UnitLevel) -> Double {
        let features = Detail.features(of: level)
        return max(
            Proportions.legibleGapPixels / features.gap, Proportions.legibleStrokePixels / features.width)
    }

    /// The inset of a count's picture, or nil where none is needed or there is no room for it.
    /// - Parameters:
    ///   - frame: the frame the count is drawn in.
    ///   - pixelsPerUnit: the picture's scale.
    ///   - image: the image's size in output pixels before the inset.
    ///   - side: the side the user fixed, in output pixels: the image grows to it at most each
    ///     way, along the side with more room, with the default margin's share of it between
    ///     copies and after them, and the least margin between the picture and the inset.
    ///   - forced: `--inset`: copies wherever each is at least
    ///     `Proportions.insetSmallestEnlargement` times its unit in place, read or not; by
    ///     default (nil settings) only copies at a scale where what each was drawn for reads.
    package static func plan(
        count: UInt64, frame: UnitLevel, pixelsPerUnit: Double, image: (width: Double, height: Double), side: Double,
        forced: Bool = false
    ) -> Inset? {
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 0, count < frame.capacity else { return nil }
        // Where the gates already read in place, the picture needs no inset.
        guard !Detail.automatic(pixelsPerUnit: pixelsPerUnit).showsUnits(of: .gate) else { return nil }
        let whole = attempt(
            count: count, frame: frame, pixelsPerUnit: pixelsPerUnit, image: image, side: side, forced: forced,
            quartered: false)
        if whole?.copies.last?.showsGates == true || frame <= .hundred { return whole }
        // Where the room is too short for a hundred-block's gates (a picture of five rows and
        // more at 256 px), its twenty-five-unit being filled is copied once more, at the
        // scale its gates read, after the hundred-block's copy drawn to show its quarters
        // (none where they read in place): a quarter is a third of a square's side, and so
        // fits the room a square's gates do not.
        let quartered = attempt(
            count: count, frame: frame, pixelsPerUnit: pixelsPerUnit, image: image, side: side, forced: forced,
            quartered: true)
        return quartered?.copies.last?.showsGates == true ? quartered : whole
    }

    /// The inset of one chain: down to the hundred-block, or (`quartered`) to its
    /// twenty-five-unit being filled.
    private static func attempt(
        count: UInt64, frame: UnitLevel, pixelsPerUnit: Double, image: (width: Double, height: Double), side: Double,
        forced: Bool, quartered: Bool
    ) -> Inset? {
        // Only units being filled: a level whose part is zero holds nothing to read. A level
        // whose contents already read where it stands (in the picture, or in the copy before
        // at the scale it wishes) needs no copy: the next one's place is seen there.
        var levels: [(level: UnitLevel, shows: UnitLevel)] = []
        var standing = pixelsPerUnit
        for level in chain(under: frame) + (quartered ? [.twentyFive] : []) {
            guard count % level.capacity > 0 else { break }
            let shows = shown(by: level, quartered: quartered)
            if Detail.automatic(pixelsPerUnit: standing).showsUnits(of: shows) { continue }
            levels.append((level, shows))
            standing = wishedScale(showing: shows)
        }
        guard let first = levels.first else { return nil }
        let limit = (width: max(side, image.width), height: max(side, image.height))
        let gap = max(Proportions.minimumMarginPixels, (side * Proportions.marginShare).rounded())
        // Between the picture and the copies only the least margin: the picture's own margin
        // already stands there, and the pixels it leaves let a quarter's copy under a picture
        // of seven rows at 256 px read.
        let lead = Proportions.minimumMarginPixels
        let right = limit.width - image.width > limit.height - image.height
        // The room along the free side, and across it.
        let along = (right ? limit.width - image.width : limit.height - image.height) - lead - gap
        let across = (right ? image.height : image.width) - 2 * gap
        var best: [Copy]?
        for length in 1...levels.count {
            guard
                let copies = layout(
                    Array(levels.prefix(length)), count: count, right: right, along: along, across: across,
                    gap: gap, lead: lead, image: image)
            else { break }
            // Each copy at least half again its unit where it stands (the picture, or the copy
            // before), and by default each reads: never an illegible copy.
            let scales = [pixelsPerUnit] + copies.map(\.pixelsPerUnit)
            let enlarged = zip(scales, scales.dropFirst()).allSatisfy {
                $1 >= Proportions.insetSmallestEnlargement * $0
            }
            guard enlarged, forced || copies.allSatisfy(\.reads) else { break }
            best = copies
            if copies.last?.showsGates == true { break }
        }
        guard let copies = best else { return nil }
        let extent = copies.map { right ? $0.size.width : $0.size.height }.max() ?? 0
        return Inset(
            pixels: extent + lead + gap, right: right, copies: copies,
            origin: origin(of: first.level, in: frame, count: count, Placement(pixelsPerUnit: pixelsPerUnit)))
    }

    /// Copies of these levels side by side across the free side, each at its legible scale
    /// times the margin, all shrunk alike where the room across is less, each to the room
    /// along; nil where they do not fit.
    private static func layout(
        _ levels: [(level: UnitLevel, shows: UnitLevel)], count: UInt64, right: Bool, along: Double,
        across: Double, gap: Double, lead: Double, image: (width: Double, height: Double)
    ) -> [Copy]? {
        func acrossOf(_ point: Point) -> Double { right ? point.y : point.x }
        func alongOf(_ point: Point) -> Double { right ? point.x : point.y }
        let wished = levels.map { wishedScale(showing: $0.shows) }
        let room = across - Double(levels.count - 1) * gap
        let wanted = zip(levels, wished).map { acrossOf(Layout.cellSize($0.level)) * $1 }.reduce(0, +)
        guard room > 0, wanted > 0 else { return nil }
        let share = min(1, room / wanted)
        var copies: [Copy] = []
        var offset = 0.0
        for ((level, shows), wish) in zip(levels, wished) {
            let scale = min(wish * share, along / alongOf(Layout.cellSize(level)))
            guard scale > 0, scale.isFinite else { return nil }
            // Its children at whole-pixel steps of its own scale, from a pixel corner.
            let cell = Placement(pixelsPerUnit: scale).cellSize(level)
            let size = (width: (cell.x * scale).rounded(.up), height: (cell.y * scale).rounded(.up))
            copies.append(
                Copy(
                    level: level, count: count % level.capacity, shows: shows, pixelsPerUnit: scale, at: (x: 0, y: 0),
                    size: size))
            offset += (right ? size.height : size.width) + gap
        }
        let total = offset - gap
        // Each copy's size is rounded up to whole pixels: up to a pixel each past the share.
        guard total <= across + Double(levels.count) else { return nil }
        // Centred across the picture, in order, top aligned on the free side.
        var start = (((right ? image.height : image.width) - total) / 2).rounded(.down)
        return copies.map { copy in
            let at = right ? (x: image.width + lead, y: start) : (x: start, y: image.height + lead)
            start += (right ? copy.size.height : copy.size.width) + gap
            return Copy(
                level: copy.level, count: copy.count, shows: copy.shows, pixelsPerUnit: copy.pixelsPerUnit, at: at,
                size: copy.size)
        }
    }

    /// The top left of the cell of the unit of `level` being filled, in a unit of `frame`
    /// holding `count` placed by `placement`.
    private static func origin(of level: UnitLevel, in frame: UnitLevel, count: UInt64, _ placement: Placement)
        -> Point
    {
        var origin = Point(0, 0)
        var walking = frame
        var left = count
        while walking > level, let child = walking.child {
            let index = Int(left / child.capacity)
            origin = origin + placement.childOffset(walking, index)
            left %= child.capacity
            walking = child
        }
        return origin
    }

    /// The inset's marks in the picture's layout units: each copy, its unit drawn alone at its
    /// scale and moved beside the picture, then the thin frames of its place and of itself.
    /// - Parameters:
    ///   - pixelsPerUnit: the picture's scale.
    ///   - image: the grown image, in layout units: a frame keeps a pixel inside it (the
    ///     margin around a picture may be a single pixel, where the place's frame then runs on
    ///     its unit's outer pixels).
    package func marks(pixelsPerUnit: Double, image: Rect) -> [Mark] {
        let pixel = 1 / pixelsPerUnit
        let topLeft = Point(image.minX, image.minY)
        var marks: [Mark] = []
        // Where the unit being copied sits, in the picture's layout units, and its size there.
        var place = (origin: origin, size: Placement(pixelsPerUnit: pixelsPerUnit).cellSize(copies[0].level))
        for (index, copy) in copies.enumerated() {
            let placement = Placement(pixelsPerUnit: copy.pixelsPerUnit)
            let enlargement = copy.pixelsPerUnit / pixelsPerUnit
            let corner = Point(topLeft.x + copy.at.x / pixelsPerUnit, topLeft.y + copy.at.y / pixelsPerUnit)
            func move(_ point: Point) -> Point {
                Point(corner.x + point.x * enlargement, corner.y + point.y * enlargement)
            }
            let detail = Detail.automatic(pixelsPerUnit: copy.pixelsPerUnit)
            // Moved in place: the builder's marks and their segments are this copy's alone, so
            // no mark's segments are copied (a copy's partial cells hold hundreds of dots).
            var copied = SceneBuilder.marks(count: copy.count, frame: copy.level, detail: detail, placement: placement)
            for markIndex in copied.indices {
                copied[markIndex].width *= enlargement
                for index in copied[markIndex].segments.indices {
                    let segment = copied[markIndex].segments[index]
                    copied[markIndex].segments[index] = Segment(
                        move(segment.start), move(segment.end), control: segment.control.map(move))
                }
            }
            marks += copied
            let there = placement.cellSize(copy.level)
            var frames: [Segment] = []
            for (origin, size) in [place, (corner, Point(there.x * enlargement, there.y * enlargement))] {
                let minX = max(origin.x - pixel, image.minX + pixel)
                let minY = max(origin.y - pixel, image.minY + pixel)
                let maxX = min(origin.x + size.x + pixel, image.maxX - pixel)
                let maxY = min(origin.y + size.y + pixel, image.maxY - pixel)
                frames += Self.frame(
                    Rect(minX: minX, minY: minY, width: maxX - minX, height: maxY - minY), pixel: pixel)
            }
            marks.append(
                Mark(
                    kind: .edge, unit: copy.level.capacity, color: .c1, width: 0, segments: frames,
                    opacity: Proportions.progressOpacity))
            // The next copy's unit, where this copy draws it.
            if index + 1 < copies.count {
                let next = copies[index + 1].level
                let inside = Self.origin(of: next, in: copy.level, count: copy.count, placement)
                let size = placement.cellSize(next)
                place = (move(inside), Point(size.x * enlargement, size.y * enlargement))
            }
        }
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
