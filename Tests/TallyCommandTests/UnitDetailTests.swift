import TallyRender
import Testing

@testable import TallyGeometry

/// SPEC §2, "Detail by a unit's own size, wherever it stands": a complete unit drawn at a given
/// pixel size shows the marks it shows drawn alone at that size, save the collapsed forms of
/// complete squares inside larger structures (a hundred-block's box and cross, a block's box
/// and diagonal, each cap left out in a box under 8 px, and a square inside a complete row, its
/// box alone); and "Structure is kept at completions": one more never empties the picture.
@Suite struct UnitDetailTests {
    static let sizes: [Double] = [32, 48, 64, 96, 128, 256]

    /// Every count to 100,000, every 997th above it to 10⁹, and around every power of ten up to
    /// the largest count (`Int64.max`), where the frames change.
    static let counts: [UInt64] = {
        var counts = Array(0...UInt64(100_000))
        counts += stride(from: UInt64(100_997), through: 1_000_000_000, by: 997)
        var power: UInt64 = 1_000_000_000
        while power <= UInt64(Int64.max) / 10 {
            power *= 10
            counts += [power - 1, power, power + 1]
        }
        counts.append(UInt64(Int64.max))
        return counts
    }()

    /// What the viewport of a count's picture depends on at one size (SPEC §2, "The frame and
    /// the fit", and the caption's band under "Magnitude in the picture"): its frame, how many
    /// of the frame's children the fit shows, and its number of digits (the caption's digits
    /// are all as wide, so its width follows their number); below 10,000, whether its last
    /// digits are there to read.
    struct PictureClass: Hashable {
        let frame: UnitLevel
        let shownChildren: Int
        let digits: Int
        /// Below 10,000, whether the square and the quarter being filled hold anything: the
        /// caption comes where the last digits read nowhere, so with them the band and the scale.
        let lastDigits: [Bool]
    }

    static func pictureClass(_ count: UInt64) -> PictureClass {
        var frame = UnitLevel.smallestFrame
        while frame.capacity < count { frame = UnitLevel(rank: frame.rank + 1) }
        var shown = 0
        if frame > .smallestFrame, let child = frame.child {
            let (quotient, remainder) = count.quotientAndRemainder(dividingBy: child.capacity)
            shown = max(1, min(Int(quotient) + (remainder > 0 ? 1 : 0), frame.childCount))
        }
        var digits = 1
        var rest = count / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let lastDigits = count < 10_000 ? [count % 100 > 0, count % 25 > 0] : []
        return PictureClass(frame: frame, shownChildren: shown, digits: digits, lastDigits: lastDigits)
    }

    /// The output pixels per layout unit of a count's picture at a size, as every format draws it.
    private func pixelsPerUnit(_ count: UInt64, size: Double) throws -> Double {
        let value = try #require(TallyCount(exactly: count))
        return try Renderer.layout(value, .svg, RenderSettings(side: .longer(size))).viewport.pixelsPerUnit
    }

    /// The marks whose every point lies in a cell (pens aside), in count order.
    private func marks(_ marks: [Mark], inCellAt origin: Point, size: Point) -> [Mark] {
        let slack = 1e-6 * max(1, size.x, size.y)
        func inside(_ point: Point) -> Bool {
            point.x >= origin.x - slack && point.x <= origin.x + size.x + slack && point.y >= origin.y - slack
                && point.y <= origin.y + size.y + slack
        }
        return marks.filter { mark in
            mark.kind.isTally && mark.segments.allSatisfy { inside($0.start) && inside($0.end) }
        }
    }

    /// Whether the unit at `origin` is drawn as a wash: a `progress` mark of its capacity starts
    /// in its cell (it covers at least a whole pixel, so it can reach past a cell under one).
    private func isWashed(_ level: UnitLevel, at origin: Point, in scene: TallyScene, _ placement: Placement) -> Bool {
        let size = placement.cellSize(level)
        let slack = 1e-6 * max(1, size.x, size.y)
        return scene.marks.contains { mark in
            guard mark.kind == .progress, mark.unit == level.capacity, let first = mark.segments.first else {
                return false
            }
            return first.start.x >= origin.x - slack && first.start.x <= origin.x + size.x + slack
                && first.start.y >= origin.y - slack && first.start.y <= origin.y + size.y + slack
        }
    }

    /// Whether two lists of marks are the same, the second moved by `offset`, within rounding.
    private func same(_ inPicture: [Mark], _ alone: [Mark], movedBy offset: Point) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
        func close(_ a: Point, _ b: Point) -> Bool { close(a.x, b.x + offset.x) && close(a.y, b.y + offset.y) }
        guard inPicture.count == alone.count else { return false }
        return zip(inPicture, alone).allSatisfy { a, b in
            a.kind == b.kind && a.unit == b.unit && a.color == b.color && close(a.width, b.width)
                && a.opacity == b.opacity && a.segments.count == b.segments.count
                && zip(a.segments, b.segments).allSatisfy { close($0.start, $1.start) && close($0.end, $1.end) }
        }
    }

    /// Every complete unit of a count's scene at a scale against that unit drawn alone at the
    /// same scale; the problems found, in words.
    private func problems(count: UInt64, pixelsPerUnit: Double) -> [String] {
        let detail = Detail.automatic(pixelsPerUnit: pixelsPerUnit)
        let placement = Placement(detail, .standard)
        let scene = TallyScene(count: TallyCount(exactly: count)!, detail: detail)
        let frame = scene.canvas.level
        var problems: [String] = []
        /// - Parameter gate: a gate's place in its twenty-five-unit, whose column sets its
        ///   strokes' places at small sizes (SPEC §2, "Small sizes").
        func checkComplete(_ level: UnitLevel, at origin: Point, inLightenedSquare: Bool = false, gate: Int? = nil) {
            let size = placement.cellSize(level)
            // A gate's strokes and slash may reach into the empty cells beside it (SPEC §2, "Small
            // sizes"): a left gate's 2 px to its right, a right gate's 2.5 px to its left, the
            // centre one's both; never as far as the other gate of its row.
            let column = gate.map { Int(Layout.quincunxCell($0).column) } ?? 1
            let left = level == .gate && column != 0 ? 2.5 / pixelsPerUnit : 0
            let right = level == .gate && column != 2 ? 2 / pixelsPerUnit : 0
            let drawn = marks(
                scene.marks, inCellAt: Point(origin.x - left, origin.y), size: Point(size.x + left + right, size.y)
            ).filter { $0.unit <= level.capacity }
            if level.shape == .square {
                // A complete square inside a larger structure: its collapsed form.
                let cap: MarkKind = level == .hundred ? .cross : .diagonal
                let boxPixels = size.x * pixelsPerUnit
                let expected: [MarkKind] = boxPixels >= 8 ? [.box, cap] : [.box]
                if drawn.map(\.kind) != expected {
                    problems.append("\(count): the complete \(level.name) at \(origin) is \(drawn.map(\.kind))")
                }
                return
            }
            // Alone: the unit as the frame of its own capacity (a gate too, which a scene would
            // place in a twenty-five-unit).
            var alone = SceneBuilder.marks(count: level.capacity, frame: level, detail: detail, placement: placement)
            let unit =
                gate == nil
                ? [] : SceneBuilder.marks(count: 25, frame: .twentyFive, detail: detail, placement: placement)
            if let gate, unit.count >= 5 * gate + 5 {
                // A gate alone in its twenty-five-unit, moved to the cell's corner.
                let offset = placement.childOffset(.twentyFive, gate)
                alone = unit[(5 * gate)..<(5 * gate + 5)].map { mark in
                    var moved = mark
                    moved.segments = mark.segments.map {
                        Segment(
                            Point($0.start.x - offset.x, $0.start.y - offset.y),
                            Point($0.end.x - offset.x, $0.end.y - offset.y))
                    }
                    return moved
                }
            }
            // A quarter of a square being filled inside a larger structure may be its cross
            // alone, where its gates would make the square outweigh a finished one (SPEC §2,
            // "Weight follows quantity"); `theSquareBeingFilledNeverOutweighsAFinishedOne`.
            let lightened = inLightenedSquare && level == .twentyFive && drawn.map(\.kind) == [.cross]
            if !lightened && !same(drawn, alone, movedBy: origin) {
                problems.append(
                    "\(count): the complete \(level.name) at \(origin) has \(drawn.count) marks, alone \(alone.count)")
            }
        }
        func walkPartial(_ level: UnitLevel, count: UInt64, at origin: Point) {
            guard level > .gate, let child = level.child else { return }
            let complete = Int(count / child.capacity)
            let beingFilledInside = level == .hundred && frame != .hundred
            for index in 0..<complete {
                checkComplete(
                    child, at: origin + placement.childOffset(level, index), inLightenedSquare: beingFilledInside,
                    gate: child == .gate ? index : nil)
            }
            let rest = count % child.capacity
            guard rest > 0 else { return }
            let at = origin + placement.childOffset(level, complete)
            // A child too small for its own detail is a wash: no complete unit inside it is drawn.
            if isWashed(child, at: at, in: scene, placement) { return }
            walkPartial(child, count: rest, at: at)
        }
        if count < frame.capacity {
            walkPartial(frame, count: count, at: Point(0, 0))
        } else if frame.shape == .square, frame > .hundred, let row = frame.child {
            // A complete frame block keeps its ten rows, each a complete row as drawn alone.
            // (Any other complete frame is the unit alone.)
            for index in 0..<frame.childCount { checkComplete(row, at: placement.childOffset(frame, index)) }
        }
        return problems
    }

    /// The property over every count of `counts` at every size of `sizes`. Which detail a
    /// complete unit gets depends on its level and the picture's scale, and the scale on the
    /// picture's class (`PictureClass`), so each class is drawn once, from its fullest count
    /// (every digit below the frame's child a nine: a complete unit of every level) and the
    /// first and last of its counts; one count in 2,003 checks that its scale is its class's.
    /// Each picture class with the counts that stand for it: the first and last of its counts
    /// and, where it is one, its fullest (every digit below the frame's child a nine: a complete
    /// unit of every level); and one count in 2,003 with its class, to check its scale.
    static let classes: (representatives: [PictureClass: [UInt64]], sampled: [(UInt64, PictureClass)]) = {
        var members: [PictureClass: [UInt64]] = [:]
        var sampled: [(UInt64, PictureClass)] = []
        for (index, count) in counts.enumerated() {
            let key = pictureClass(count)
            if members[key] == nil {
                members[key] = [count]
            } else if members[key]!.count == 1 {
                members[key]!.append(count)
            } else {
                members[key]![1] = count
            }
            if index % 2_003 == 0 { sampled.append((count, key)) }
        }
        for key in members.keys {
            var fullest: UInt64 = 24
            if key.frame > .smallestFrame, let child = key.frame.child {
                fullest = UInt64(key.shownChildren - 1) * child.capacity + child.capacity - 1
            }
            if fullest <= UInt64(Int64.max), pictureClass(fullest) == key, !members[key]!.contains(fullest) {
                members[key]!.append(fullest)
            }
        }
        return (members, sampled)
    }()

    /// The property over every count of `counts` at every size of `sizes`. Which detail a
    /// complete unit gets depends on its level and the picture's scale, and the scale on the
    /// picture's class (`PictureClass`), so each class is drawn from the counts that stand for
    /// it; the sampled counts check that a class has one scale.
    @Test(arguments: sizes)
    func completeUnitsDrawAsAlone(size: Double) throws {
        var scales: [PictureClass: Double] = [:]
        for (key, representatives) in Self.classes.representatives {
            let scale = try pixelsPerUnit(representatives[0], size: size)
            scales[key] = scale
            for count in representatives {
                #expect(try pixelsPerUnit(count, size: size) == scale, "\(count) at \(size) px: its class's scale")
                let found = problems(count: count, pixelsPerUnit: scale)
                #expect(found.isEmpty, "at \(size) px: \(found.prefix(3).joined(separator: "; "))")
            }
        }
        for (count, key) in Self.classes.sampled {
            #expect(try pixelsPerUnit(count, size: size) == scales[key], "\(count) at \(size) px: its class's scale")
        }
    }

    /// The complete unit `level` at `origin` in a count's picture at a size: its marks.
    private func completeUnit(_ count: UInt64, size: Double, _ level: UnitLevel, at index: Int) throws -> [Mark] {
        let scale = try pixelsPerUnit(count, size: size)
        let detail = Detail.automatic(pixelsPerUnit: scale)
        let placement = Placement(detail, .standard)
        let scene = TallyScene(count: try #require(TallyCount(exactly: count)), detail: detail)
        let origin = index == 0 ? Point(0, 0) : placement.childOffset(scene.canvas.level, index)
        return marks(scene.marks, inCellAt: origin, size: placement.cellSize(level))
    }

    /// "One more never makes the picture emptier", the step after a threshold: 26's complete
    /// twenty-five-unit keeps 25's gates under its cross, and 1,001's complete row keeps
    /// 1,000's ten boxes under its line, at 32 to 128 px.
    @Test(arguments: [32.0, 48, 64, 96, 128])
    func theStepAfterAThresholdKeepsItsStructure(size: Double) throws {
        let twentyFive = try completeUnit(25, size: size, .twentyFive, at: 0)
        let twentySix = try completeUnit(26, size: size, .twentyFive, at: 0)
        #expect(twentyFive.count == 26, "25 at \(size) px: five gates of five marks, and the cross")
        #expect(twentySix.count >= twentyFive.count, "26 at \(size) px: its first quarter is \(twentySix.map(\.kind))")
        let thousand = try completeUnit(1_000, size: size, .thousandRow, at: 0).filter { $0.kind == .box }
        let thousandAndOne = try completeUnit(1_001, size: size, .thousandRow, at: 0).filter { $0.kind == .box }
        #expect(thousand.count == 10, "1,000 at \(size) px: ten boxes")
        #expect(thousandAndOne.count >= thousand.count, "1,001 at \(size) px: \(thousandAndOne.count) boxes")
    }

    /// 10,000 at 128 px, its caption's band included, keeps the boxes 9,999 draws (about 90 of
    /// them), and each row of 10,000 the ten boxes 1,000 draws.
    @Test func theCaptionsBandCostsNoStructure() throws {
        func boxes(_ count: UInt64) throws -> Int {
            let value = try #require(TallyCount(exactly: count))
            let layout = try Renderer.layout(value, .svg, RenderSettings(side: .longer(128)))
            return layout.scene.marks.filter { $0.kind == .box }.count
        }
        let before = try boxes(9_999)
        #expect(before >= 90)
        #expect(try boxes(10_000) >= before)
        #expect(try boxes(10_000) == 100)
    }

    /// The output pixels a unit's light marks cover, weighed as `ProgressMark.tintOpacity`
    /// weighs them against a finished sibling: a pixel of edge or of a dotted outline's dots as
    /// 0.8 of a solid one, a pixel of tint at opacity α as 1.9 α.
    private func lightInk(_ marks: [Mark], pixelsPerUnit: Double) -> Double {
        marks.reduce(0) { total, mark in
            if mark.kind == .dotted {
                // A dotted outline: one pixel in three along its path, each as 0.8 of a solid one.
                let length = mark.segments.reduce(0.0) {
                    $0 + abs($1.end.x - $1.start.x) + abs($1.end.y - $1.start.y)
                }
                return total + 0.8 * length * pixelsPerUnit / 3
            }
            guard mark.kind.isFilled else { return total }
            let weight = mark.kind == .edge ? 0.8 : 1.9 * mark.opacity
            // Closed rectangles of four segments each.
            let area = stride(from: 0, to: mark.segments.count - 3, by: 4).reduce(0.0) { area, first in
                let side = mark.segments[first]
                let next = mark.segments[first + 1]
                return area + abs(side.end.x - side.start.x) * abs(next.end.y - next.start.y)
            }
            return total + weight * area * pixelsPerUnit * pixelsPerUnit
        }
    }

    /// SPEC §2, "The partial unit shows its whole cell": where a unit being filled inside a
    /// larger structure is drawn with its children (not as a wash), its cell and the cell of
    /// every child not complete are each one dotted outline, and its light marks (those outlines
    /// and the wash of the child being filled) weigh at most what a finished sibling does (SPEC
    /// §2, "Weight follows quantity"); 863 at 256 px is eight boxes and a dotted square.
    @Test(arguments: [32.0, 64, 128, 256, 512])
    func thePartialUnitShowsItsWholeCell(size: Double) throws {
        var checked = 0
        for count: UInt64 in [38, 63, 137, 506, 863, 1_746, 2_372, 2_743, 4_184, 6_272, 12_345, 99_999, 1_234_567] {
            let scale = try pixelsPerUnit(count, size: size)
            let detail = Detail.automatic(pixelsPerUnit: scale)
            let placement = Placement(detail, .standard)
            let scene = TallyScene(count: try #require(TallyCount(exactly: count)), detail: detail)
            let frame = scene.canvas.level
            // One `dotted` mark of the unit's capacity whose path runs through the centres of the
            // cell's outer pixels: its corners within a pixel of the cell's.
            func dotted(_ unit: UInt64, cornersOf origin: Point, _ size: Point) -> Bool {
                let pixel = 1 / scale
                return scene.marks.contains { mark in
                    guard mark.kind == .dotted, mark.unit == unit, mark.segments.count == 4,
                        let bounds = TallyScene.inkBounds(of: [mark])
                    else { return false }
                    return abs(bounds.minX - origin.x) <= pixel && abs(bounds.minY - origin.y) <= pixel
                        && abs(bounds.maxX - (origin.x + size.x)) <= 1.5 * pixel
                        && abs(bounds.maxY - (origin.y + size.y)) <= 1.5 * pixel
                }
            }
            // Cells under 3 px a side, and gates', are not outlined (a smudge, and the strokes' own).
            // A twenty-five-unit's under 8 px neither, where a dotted square reads as a cross.
            func outlined(_ level: UnitLevel, _ size: Point) -> Bool {
                let least: Double = level == .twentyFive ? 8 : 3
                return level > .gate && (size.x * scale).rounded(.down) >= least
                    && (size.y * scale).rounded(.down) >= least
            }
            func walk(_ level: UnitLevel, count: UInt64, at origin: Point, isFrame: Bool) throws {
                guard level > .gate, let child = level.child else { return }
                let cell = placement.cellSize(level)
                let inCell = marks(scene.marks, inCellAt: origin, size: cell)
                if !isFrame {
                    #expect(
                        !outlined(level, cell) || dotted(level.capacity, cornersOf: origin, cell),
                        "\(count) at \(size) px: the \(level.name) being filled has no dotted outline")
                    // Every child not complete, the one being filled included.
                    for index in Int(count / child.capacity)..<level.childCount {
                        let at = origin + placement.childOffset(level, index)
                        #expect(
                            !outlined(child, placement.cellSize(child))
                                || dotted(child.capacity, cornersOf: at, placement.cellSize(child)),
                            "\(count) at \(size) px: the child \(index) of the \(level.name) is not dotted")
                    }
                    // A finished sibling: the first of two complete units in their parent.
                    let parent = UnitLevel(rank: level.rank + 1)
                    let pair = SceneBuilder.marks(
                        count: 2 * level.capacity, frame: parent, detail: detail, placement: placement)
                    let sibling = marks(pair, inCellAt: Point(0, 0), size: cell)
                    let siblingInk = ProgressMark.inkPixels(sibling, pixelsPerUnit: scale)
                    let light = lightInk(inCell, pixelsPerUnit: scale)
                    #expect(
                        light <= siblingInk,
                        "\(count) at \(size) px: the \(level.name) being filled carries \(light) of light ink, a finished one \(siblingInk)"
                    )
                    checked += 1
                }
                let rest = count % child.capacity
                guard rest > 0 else { return }
                let at = origin + placement.childOffset(level, Int(count / child.capacity))
                if !isWashed(child, at: at, in: scene, placement) {
                    try walk(child, count: rest, at: at, isFrame: false)
                }
            }
            try walk(frame, count: count, at: Point(0, 0), isFrame: true)
        }
        if size >= 256 { #expect(checked > 0, "at \(size) px some unit being filled is drawn with its children") }
    }

    /// SPEC §2, "Weight follows quantity": the square being filled, drawn with its children
    /// (complete quarters, the quarter being filled, the dots of its cell), carries at most the
    /// ink of a finished sibling square (its box and cross), at every size from 32 to 256 px and
    /// every scale a picture of 101 to 9,999 is drawn at there, for every count a square holds.
    /// Ink is as `ProgressMark` weighs it: a stroked pen's length times its width (at least a
    /// pixel), a tint or a dot by its area (`lightInk`).
    @Test func theSquareBeingFilledNeverOutweighsAFinishedOne() throws {
        // The scales: one count of each picture class from 101 to 9,999 (its frame and how many
        // of the frame's children it shows) at every whole size.
        let rows: [UInt64] = (1...9).map { 100 * $0 + 1 }
        let blocks: [UInt64] = (0...8).map { 1_000 * $0 + 1_001 }
        let stand = rows + blocks
        var scales = Set<Double>()
        for size in 32...256 {
            for count in stand { scales.insert(try pixelsPerUnit(count, size: Double(size))) }
        }
        var worst: (ratio: Double, scale: Double, count: UInt64) = (0, 0, 0)
        for scale in scales.sorted() {
            let detail = Detail.automatic(pixelsPerUnit: scale)
            let placement = Placement(detail, .standard)
            let cell = placement.cellSize(.hundred)
            let second = placement.childOffset(.thousandRow, 1)
            // A finished square: the first of two in a row.
            let pair = SceneBuilder.marks(count: 200, frame: .thousandRow, detail: detail, placement: placement)
            let finished = ProgressMark.inkPixels(marks(pair, inCellAt: Point(0, 0), size: cell), pixelsPerUnit: scale)
            // Each quarter's first and last counts, where a quarter completes or is nearly full.
            for rest: UInt64 in [1, 2, 24, 25, 26, 49, 50, 51, 74, 75, 76, 97, 98, 99] {
                let row = SceneBuilder.marks(
                    count: 100 + rest, frame: .thousandRow, detail: detail, placement: placement)
                let filling = marks(row, inCellAt: second, size: cell)
                let ink =
                    ProgressMark.inkPixels(filling.filter { $0.kind != .dotted }, pixelsPerUnit: scale)
                    + lightInk(filling, pixelsPerUnit: scale)
                if ink / finished > worst.ratio { worst = (ink / finished, scale, 100 + rest) }
            }
        }
        #expect(
            worst.ratio <= 1,
            "\(worst.count) at \(worst.scale) px a unit: the square being filled carries \(worst.ratio) × a finished one's ink"
        )
    }

    /// 863 at 256 px: eight boxes, and a dotted square with two crosses on top and a bar below.
    @Test func eightHundredAndSixtyThreeShowsItsNinthSquare() throws {
        let layout = try Renderer.layout(863, .svg, RenderSettings(side: .longer(256), inset: false))
        let kinds = layout.scene.marks.map(\.kind)
        #expect(kinds.filter { $0 == .box }.count == 8)
        #expect(layout.scene.marks.filter { $0.kind == .cross && $0.unit == 25 }.count == 2)
        #expect(layout.scene.marks.contains { $0.kind == .progress && $0.unit == 25 })
        // The square's cell, dotted; its quarters, about 7 px, are not (a dotted square that
        // small reads as one more cross beside its finished siblings').
        #expect(layout.scene.marks.filter { $0.kind == .dotted && $0.unit == 100 }.count == 1)
        #expect(layout.scene.marks.filter { $0.kind == .dotted && $0.unit == 25 }.isEmpty)
    }
}
