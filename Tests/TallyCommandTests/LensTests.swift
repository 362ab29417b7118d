import Foundation
import TallyRender
import TallyTestSupport
import Testing

@testable import TallyGeometry

/// SPEC §2, "A lens for the last digits", "One footprint", "Marks are only added, until a
/// collapse" and "One digits rule", as properties of the pictures the renderer lays out.
@Suite struct LensTests {
    /// The sizes the rules are stated at.
    static let sizes: [Double] = [32, 48, 64, 96, 128, 160, 256, 512]

    /// Every count from 0 to 10,000, and every 97th above it to 100,000, then every 997th to
    /// 10⁶: each pair (n, n + 1) of them, as whole renders. (Every count to 100,000 at eight
    /// sizes as whole renders is 1.6 million layouts, about seven minutes of the inner loop; the
    /// properties that walk every count to 100,000 do it on what decides them: the renderer's
    /// plans for the footprint and the lens's budget, the scenes the renderer draws for the marks.)
    static let counts: [UInt64] =
        Array(0...10_000) + Array(stride(from: 10_001, through: 100_000, by: 97))
        + Array(stride(from: 100_003, through: 1_000_000, by: 997))

    private static func layout(_ count: UInt64, size: Double, inset: Bool? = nil) throws -> (
        scene: TallyScene, viewport: Viewport
    ) {
        var settings = RenderSettings(side: .longer(size))
        settings.inset = inset
        let layout = try Renderer.layout(try #require(TallyCount(exactly: count)), .svg, settings)
        return (layout.scene, layout.viewport)
    }

    private static func pixels(_ viewport: Viewport) -> [Double] { [viewport.width, viewport.height] }

    /// One footprint, for every count from 0 to 100,000 and every 997th above it to 10⁶: wherever
    /// the picture alone (`--no-inset`) has one pixel size for n and n + 1, so does the default,
    /// whatever the last digits. On the renderer's plans (`Renderer.plan`), which decide the
    /// image's size before a mark is made; `oneFootprint` checks on whole renders that the plan's
    /// size is the image's.
    @Test(arguments: sizes)
    func oneFootprintForEveryCount(size: Double) throws {
        let settings = RenderSettings(side: .longer(size))
        var bareSettings = settings
        bareSettings.inset = false
        var previous: (count: UInt64, bare: [Double], image: [Double])?
        // Under a sanitizer, which checks memory and not density, pairs (n, n + 1) every 13th n.
        let dense =
            underSanitizer
            ? stride(from: UInt64(0), to: 100_000, by: 13).flatMap { [$0, $0 + 1] } : Array(UInt64(0)...100_000)
        let counts = dense + Array(stride(from: UInt64(100_997), through: 1_000_000, by: 997))
        for count in counts {
            let tally = try #require(TallyCount(exactly: count))
            let bare = Self.pixels(try Renderer.plan(tally, .svg, bareSettings).viewport)
            let image = Self.pixels(try Renderer.plan(tally, .svg, settings).viewport)
            if let previous, previous.count + 1 == count, previous.bare == bare, previous.image != image {
                Issue.record("\(previous.count) → \(count) at \(size) px: \(previous.image) → \(image)")
                return
            }
            previous = (count, bare, image)
        }
    }

    /// One footprint on whole renders: wherever the picture alone (`--no-inset`) has one pixel
    /// size for n and n + 1, so does the default, and the image is the size its plan says.
    @Test(arguments: sizes)
    func oneFootprint(size: Double) throws {
        var previous: (count: UInt64, bare: [Double], image: [Double])?
        for count in Self.counts {
            let bare = Self.pixels(try Self.layout(count, size: size, inset: false).viewport)
            let image = Self.pixels(try Self.layout(count, size: size).viewport)
            // Above 10,000 there is no lens (the caption states the count): the default is the
            // picture alone, so the footprint holds there for every count as it does for the
            // picture alone, and `marksAreOnlyAddedToAHundredThousand` walks every count.
            if count > 10_000 { #expect(image == bare, "\(count) at \(size) px: a lens above 10,000") }
            let planned = try Renderer.plan(
                try #require(TallyCount(exactly: count)), .svg, RenderSettings(side: .longer(size)))
            #expect(Self.pixels(planned.viewport) == image, "\(count) at \(size) px: drawn other than planned")
            if let previous, previous.count + 1 == count, previous.bare == bare {
                #expect(previous.image == image, "\(previous.count) → \(count) at \(size) px")
            }
            previous = (count, bare, image)
        }
    }

    /// A mark as the picture places it: its kind, unit and place (its first point; a wash and
    /// its edge, of which a picture has one, by kind and unit), lightened or not.
    private struct Identity: Hashable {
        let kind: MarkKind
        let unit: UInt64
        let x: Int64
        let y: Int64

        init(_ mark: Mark) {
            kind = mark.kind
            unit = mark.unit
            if mark.kind.isFilled {
                (x, y) = (0, 0)
            } else {
                let start = mark.segments.first?.start ?? Point(0, 0)
                (x, y) = (Int64((start.x * 1e6).rounded()), Int64((start.y * 1e6).rounded()))
            }
        }
    }

    /// The cell of the unit of `level` that holds mark number `index` (0-based) in a frame,
    /// placed as the picture places it.
    private static func cell(of level: UnitLevel, holding index: UInt64, in frame: UnitLevel, _ placement: Placement)
        -> Rect
    {
        var origin = Point(0, 0)
        var walking = frame
        var left = index
        while walking > level, let child = walking.child {
            origin = origin + placement.childOffset(walking, Int(left / child.capacity))
            left %= child.capacity
            walking = child
        }
        let size = placement.cellSize(level)
        return Rect(minX: origin.x, minY: origin.y, width: size.x, height: size.y)
    }

    /// Marks are only added: every mark of n's picture (the lens and the caption aside) is among
    /// n + 1's, save those inside the unit n + 1 completes (a gate's or a twenty-five-unit's wash
    /// and outline give way to its finished form, a hundred-block's detail to its box), and save
    /// where the frame or the picture's scale changes (SPEC §2's collapses, and the fit's next
    /// child, which rescales the picture).
    @Test(arguments: sizes)
    func marksAreOnlyAdded(size: Double) throws {
        var previous: (count: UInt64, scene: TallyScene, viewport: Viewport)?
        for count in Self.counts {
            let now = try Self.layout(count, size: size)
            defer { previous = (count, now.scene, now.viewport) }
            guard let before = previous, before.count + 1 == count,
                before.scene.canvas == now.scene.canvas,
                before.viewport.pixelsPerUnit == now.viewport.pixelsPerUnit,
                before.viewport.visible.minX == now.viewport.visible.minX,
                before.viewport.visible.minY == now.viewport.visible.minY
            else { continue }
            if let removed = Self.removedMark(
                before.scene.marks, now.scene.marks, count: count, frame: now.scene.canvas.level,
                pixelsPerUnit: now.viewport.pixelsPerUnit)
            {
                Issue.record(
                    "\(before.count) → \(count) at \(size) px removes a \(removed.kind) of unit \(removed.unit)")
                return
            }
        }
    }

    /// The first mark of `before` (the picture of count - 1; the lens and the caption aside) that
    /// `after` (the picture of `count`) no longer has, outside the unit `count` completes; nil
    /// where there is none. Both in one frame at one scale. The marks are in count order, so
    /// the two share a prefix, and only what follows it is looked up.
    static func removedMark(
        _ before: [Mark], _ after: [Mark], count: UInt64, frame: UnitLevel, pixelsPerUnit: Double
    ) -> Mark? {
        let before = before.filter { !$0.lens && $0.kind != .caption }
        let after = after.filter { !$0.lens && $0.kind != .caption }
        var shared = 0
        while shared < min(before.count, after.count), Identity(before[shared]) == Identity(after[shared]) {
            shared += 1
        }
        guard shared < before.count else { return nil }
        let kept = Set(after[shared...].map(Identity.init))
        // The unit count completes, if it completes one.
        var completed: Rect?
        var capacity: UInt64 = 5
        var level = UnitLevel.gate
        while capacity <= frame.capacity && count.isMultiple(of: capacity) {
            completed = Self.cell(
                of: level, holding: count - 1, in: frame, Placement(pixelsPerUnit: pixelsPerUnit, .standard))
            guard let next = UnitLevel.all.first(where: { $0.rank == level.rank + 1 }) else { break }
            level = next
            capacity = next.capacity
        }
        let pixel = 1 / pixelsPerUnit
        for mark in before[shared...] {
            if kept.contains(Identity(mark)) { continue }
            if let completed, let bounds = TallyScene.inkBounds(of: [mark]),
                bounds.minX >= completed.minX - 2 * pixel, bounds.maxX <= completed.maxX + 2 * pixel,
                bounds.minY >= completed.minY - 2 * pixel, bounds.maxY <= completed.maxY + 2 * pixel
            {
                continue
            }
            return mark
        }
        return nil
    }

    /// Marks are only added from 10,000 to 100,000 at every size, for every count: on the scenes
    /// the renderer draws there (a frame of 10⁵, its detail and whole-pixel placement at the
    /// picture's scale), before the pixel grid, which moves equal marks alike at one scale. There
    /// is no lens above 10,000 and every picture is captioned, so the picture's marks are the
    /// builder's: `marksAreOnlyAdded` checks the same on whole renders, every 97th pair.
    @Test(arguments: sizes)
    func marksAreOnlyAddedToAHundredThousand(size: Double) throws {
        let frame = UnitLevel(rank: 6)
        // The picture's scale by the blocks the fit shows (those holding any of the count),
        // taken from the renderer at each class's first and last count.
        var scales: [UInt64: Double] = [:]
        for blocks in UInt64(2)...10 {
            let (first, last) = (10_000 * (blocks - 1) + 1, 10_000 * blocks)
            let scale = try Self.layout(first, size: size).viewport.pixelsPerUnit
            #expect(try Self.layout(last, size: size).viewport.pixelsPerUnit == scale, "\(last) at \(size) px")
            scales[blocks] = scale
        }
        var previous: (count: UInt64, marks: [Mark], scale: Double)?
        for count in UInt64(10_001)...100_000 {
            let scale = try #require(scales[(count - 1) / 10_000 + 1])
            let marks = SceneBuilder.marks(
                count: count, frame: frame, detail: .automatic(pixelsPerUnit: scale),
                placement: Placement(pixelsPerUnit: scale, .standard))
            defer { previous = (count, marks, scale) }
            guard let before = previous, before.scale == scale else { continue }
            if let removed = Self.removedMark(
                before.marks, marks, count: count, frame: frame, pixelsPerUnit: scale)
            {
                Issue.record(
                    "\(before.count) → \(count) at \(size) px removes a \(removed.kind) of unit \(removed.unit)")
                return
            }
        }
    }

    /// The cases the rules were written from: one more never empties a square being filled.
    @Test(arguments: [(374, 256.0), (449, 256), (174, 128), (250, 160), (500, 64)] as [(UInt64, Double)])
    func oneMoreRemovesNothingOutsideTheCompletedUnit(count: UInt64, size: Double) throws {
        let before = try Self.layout(count, size: size)
        let after = try Self.layout(count + 1, size: size)
        let bare = try [count, count + 1].map { Self.pixels(try Self.layout($0, size: size, inset: false).viewport) }
        if bare[0] == bare[1] { #expect(Self.pixels(before.viewport) == Self.pixels(after.viewport)) }
        let detail = { (scene: TallyScene) in
            scene.marks.filter { !$0.lens && ($0.kind == .stroke || $0.kind == .slash) }.count
        }
        // The quarters that showed gates keep them (374 → 375 went from 58 detail marks to 9).
        #expect(detail(after.scene) >= detail(before.scene) - 24, "\(count) → \(count + 1) at \(size) px")
        #expect(
            after.scene.marks.contains { $0.lens } == before.scene.marks.contains { $0.lens },
            "the lens stays at \(count + 1)")
    }

    /// 999, 1,000 and 1,001, and 1,199 to 1,201, at 256 px: the image keeps its size where the
    /// picture alone does (999 and 1,000 are one row; 1,199 to 1,201 two).
    @Test func theHeightHoldsAtAHundred() throws {
        for run in [[999, 1_000], [1_199, 1_200, 1_201]] as [[UInt64]] {
            let sizes = try run.map { Self.pixels(try Self.layout($0, size: 256).viewport) }
            #expect(Set(sizes).count == 1, "\(run): \(sizes)")
        }
        let bare = try [999, 1_000].map { Self.pixels(try Self.layout($0, size: 256, inset: false).viewport) }
        #expect(bare[0] == bare[1])
    }

    /// The lens within its budget: its extent (its dotted outline) no larger than a finished row
    /// at the picture's scale, its frame never a closed square, its marks flagged, and every mark
    /// of it inside the band under the picture.
    @Test(arguments: [256.0, 512])
    func theLensStaysWithinItsBudget(size: Double) throws {
        for count: UInt64 in [137, 250, 301, 467, 792, 1_001, 2_524, 3_887, 6_395, 9_163, 9_999] {
            let (scene, viewport) = try Self.layout(count, size: size)
            let lens = scene.marks.filter(\.lens)
            guard !lens.isEmpty else { continue }
            let pixels = viewport.pixelsPerUnit
            let row = Placement(pixelsPerUnit: pixels, .standard).cellSize(.thousandRow)
            let bounds = try #require(TallyScene.inkBounds(of: lens.filter { $0.kind != .edge }))
            #expect(
                bounds.width * bounds.height * pixels * pixels <= row.x * row.y * pixels * pixels,
                "\(count) at \(size) px: the copy is larger than a finished row")
            let picture = try #require(
                TallyScene.inkBounds(of: scene.marks.filter { !$0.lens && $0.kind != .caption }))
            #expect(bounds.minY > picture.maxY, "\(count) at \(size) px: the lens overlaps the picture")
            // Nothing of the lens is a box: no closed square in a box's kind.
            #expect(!lens.contains { $0.kind == .box })
        }
    }

    /// The lens within its budget for every count from 0 to 100,000 and every 997th above it:
    /// the lens the renderer plans and draws (`Renderer.plan`, `Lens.marks`), dotted outline
    /// included, no larger than a finished row at the picture's scale, nothing of it a box, all of
    /// it in the band under the picture; and no lens above 10,000, where the caption says the
    /// count. (Its ink is more than a finished square's, by SPEC §2's choice: readers read the
    /// lens as drawn better than one lightened to a square's weight.)
    @Test(arguments: sizes)
    func theLensStaysWithinItsBudgetForEveryCount(size: Double) throws {
        let settings = RenderSettings(side: .longer(size))
        // Under a sanitizer, which checks memory and not density, every 13th count.
        let counts = sanitizerSample(Array(UInt64(0)...100_000), every: 13)
        for count in counts + Array(stride(from: UInt64(100_997), through: 1_000_000, by: 997)) {
            let plan = try Renderer.plan(try #require(TallyCount(exactly: count)), .svg, settings)
            guard let room = plan.lens, case .automatic(let pixels) = plan.detail else { continue }
            #expect(count < 10_000, "\(count) at \(size) px: a lens above 10,000")
            let lens = Lens.marks(
                count: count, frame: plan.canvas.level, room: room, pixelsPerUnit: pixels,
                image: plan.viewport.visible, picture: plan.picture.height, .standard)
            guard let bounds = TallyScene.inkBounds(of: lens.filter { $0.kind != .edge }) else { continue }
            let row = Placement(pixelsPerUnit: pixels, .standard).cellSize(.thousandRow)
            let band = plan.picture.visible.maxY
            if bounds.width * bounds.height > row.x * row.y || bounds.minY <= band - 1e-9
                || lens.contains(where: { $0.kind == .box })
            {
                Issue.record(
                    "\(count) at \(size) px: a lens of \(bounds) against a row of \(row), the band from \(band)")
                return
            }
        }
    }

    /// One digits rule: below 10,000 a picture writes its count exactly where it has neither
    /// gates that read in place nor a lens, whatever the last digits; `--no-inset` writes it
    /// wherever the default draws a lens.
    @Test(arguments: sizes)
    func oneDigitsRule(size: Double) throws {
        for count in stride(from: UInt64(101), through: 9_999, by: 7) {
            let plain = try Self.layout(count, size: size)
            let bare = try Self.layout(count, size: size, inset: false)
            let digits = plain.scene.marks.contains { $0.kind == .caption }
            let lens = plain.scene.marks.contains { $0.lens }
            #expect(!(digits && lens), "\(count) at \(size) px: digits and a lens")
            if lens {
                #expect(bare.scene.marks.contains { $0.kind == .caption }, "\(count) at \(size) px, --no-inset")
            }
        }
    }

    /// At 256 px a picture of up to four rows has a lens and writes no digits.
    @Test func fourRowsAt256HaveALensAndNoDigits() throws {
        for count: UInt64 in [301, 792, 1_418, 2_411, 2_524, 3_887, 4_649] {
            let scene = try Self.layout(count, size: 256).scene
            #expect(scene.marks.contains { $0.lens }, "\(count)")
            #expect(!scene.marks.contains { $0.kind == .caption }, "\(count)")
        }
    }

    /// Siblings of one size have one detail: 41 at 64 px shows its second quarter's gates and
    /// stroke, as its finished first quarter keeps its gates, never a wash.
    @Test func fortyOneAt64ShowsItsGates() throws {
        let scene = try Self.layout(41, size: 64).scene
        #expect(!scene.marks.contains { $0.kind == .progress })
        #expect(scene.marks.filter { $0.kind == .slash }.count == 5 + 3)
    }

    /// Small sizes: at 16 to 32 px a count under 25 is strokes that can be counted, never a
    /// tint bar; from 20 px, where two gates of a row have room, each stroke on its own pixels,
    /// two apart: 2 at 20 px is two strokes, 4 four, 9 a gate and four.
    @Test(arguments: [16.0, 20, 24, 32])
    func smallCountsAreStrokesThatCanBeCounted(size: Double) throws {
        for count in UInt64(1)...24 {
            let (scene, viewport) = try Self.layout(count, size: size)
            #expect(!scene.marks.contains { $0.kind == .progress }, "\(count) at \(size) px: a tint bar")
            let strokes = scene.marks.filter { $0.kind == .stroke }
            #expect(strokes.count == Int(count) - Int(count / 5), "\(count) at \(size) px")
            #expect(scene.marks.filter { $0.kind == .slash }.count == Int(count / 5), "\(count) at \(size) px")
            // Every stroke on its own pixels: any two whose heights overlap (a row of gates) stand
            // two pixels apart or more, and all inside the image.
            let spans = try strokes.map { stroke in
                let segment = try #require(stroke.segments.first)
                let x = (segment.start.x - viewport.visible.minX) * viewport.pixelsPerUnit
                let (top, bottom) = (min(segment.start.y, segment.end.y), max(segment.start.y, segment.end.y))
                return (x: x, top: top, bottom: bottom)
            }
            for (index, a) in spans.enumerated() {
                #expect(a.x > 0 && a.x < viewport.width, "\(count) at \(size) px: a stroke at \(a.x) px")
                for b in spans[(index + 1)...] where a.top < b.bottom && b.top < a.bottom {
                    #expect(abs(b.x - a.x) >= 2 - 1e-9, "\(count) at \(size) px: strokes \(abs(b.x - a.x)) px apart")
                }
            }
        }
    }

    /// Dotted outlines are one mark a cell: 863 at 512 px outlines its square being filled and
    /// its two quarters not complete, one `dotted` mark each, four segments each.
    @Test func dottedOutlinesAreOneMarkACell() throws {
        let scene = try Self.layout(863, size: 512, inset: false).scene
        let dotted = scene.marks.filter { $0.kind == .dotted }
        #expect(dotted.count == 3)
        #expect(dotted.allSatisfy { $0.segments.count == 4 })
    }
}
