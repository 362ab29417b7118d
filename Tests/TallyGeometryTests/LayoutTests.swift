import PropertyBased
import Testing

@testable import TallyGeometry

@Suite struct LayoutTests {
    /// Every mark, pen included, lies inside the frame.
    private func expectInsideFrame(_ scene: TallyScene) {
        let tolerance = 1e-9 * max(scene.canvas.width, 1)
        guard let ink = scene.inkBounds else { return }
        #expect(ink.minX >= -tolerance && ink.minY >= -tolerance, "count \(scene.count)")
        #expect(
            ink.maxX <= scene.canvas.width + tolerance && ink.maxY <= scene.canvas.height + tolerance,
            "count \(scene.count)")
    }

    @Test func everyMarkIsInsideTheFrameBelowTenThousand() {
        for n in UInt64(0)...10_001 { expectInsideFrame(scene(n)) }
    }

    @Test func everyMarkIsInsideTheFrameForAnyCount() async {
        await propertyCheck(count: 500, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max)) {
            digits, raw in
            expectInsideFrame(scene(countWithDigits(digits, raw)))
        }
        expectInsideFrame(scene(UInt64(Int64.max)))
    }

    @Test func theFrameIsTheSmallestUnitThatHoldsTheCount() {
        let cases: [(UInt64, UInt64)] = [
            (0, 25), (1, 25), (25, 25), (26, 100), (100, 100), (101, 1000), (1000, 1000),
            (1001, 10000), (10000, 10000), (10001, 100000), (UInt64(Int64.max), 10_000_000_000_000_000_000),
        ]
        for (count, unit) in cases {
            #expect(scene(count).canvas.level.capacity == unit, "count \(count)")
        }
    }

    @Test func countsInTheSameFrameHaveTheSameSize() {
        for (low, high) in [(UInt64(0), UInt64(25)), (26, 100), (101, 1000), (1001, 10000), (10001, 100000)] {
            #expect(scene(low).canvas == scene(high).canvas)
            #expect(scene(low).canvas.width == scene(high).canvas.width)
        }
        // Rows are ten squares wide; a block is as wide as a row and taller than wide, its rows
        // further apart than the squares in them.
        #expect(scene(1000).canvas.width > 10 * scene(100).canvas.width)
        #expect(scene(10000).canvas.width == scene(1000).canvas.width)
        #expect(scene(10000).canvas.height > scene(10000).canvas.width)
    }

    /// SPEC: "a mark keeps its position as the count grows until a collapse hides it".
    /// From n to n + 1 the marks of n come first, unchanged, unless a unit completes at n + 1
    /// (a multiple of 100) or a frame block collapses on leaving its frame (10⁴, 10⁶ …).
    @Test func marksKeepTheirPlaceAsTheCountGrows() {
        var previous = scene(0)
        for n in UInt64(1)...20_200 {
            let current = scene(n)
            let isFrameChange = current.canvas != previous.canvas
            if n % 100 != 0
                && !(isFrameChange && previous.canvas.level.shape == .square && previous.canvas.level > .hundred)
            {
                let prefix = Array(current.marks.prefix(previous.marks.count))
                if prefix != previous.marks {
                    Issue.record("marks of \(n - 1) moved or vanished at \(n)")
                    return
                }
            } else {
                // A collapse hides only marks of units smaller than the one completing. The
                // completing unit's own cap stays where it was; once its detail has collapsed
                // from under it, it is drawn opaque (a block's diagonal leaving its frame).
                let completing = collapsingUnit(from: previous, to: current)
                let survivors = Set(current.marks)
                for mark in previous.marks where !survivors.contains(mark) {
                    var opaque = mark
                    opaque.opacity = 1
                    let kept = mark.unit == completing && survivors.contains(opaque)
                    #expect(mark.unit < completing || kept, "\(mark.kind)(\(mark.unit)) vanished at \(n)")
                }
            }
            previous = current
        }
    }

    @Test func marksKeepTheirPlaceForLargeCounts() async {
        await propertyCheck(count: 300, input: Gen<Int>.value(in: 3...19), Gen<UInt64>.value(in: 0...UInt64.max)) {
            digits, raw in
            let n = max(countWithDigits(digits, raw), 1)
            guard n < UInt64(Int64.max), (n + 1) % 100 != 0 else { return }
            let before = scene(n)
            let after = scene(n + 1)
            guard before.canvas == after.canvas else { return }
            #expect(Array(after.marks.prefix(before.marks.count)) == before.marks, "count \(n)")
        }
    }

    private func collapsingUnit(from previous: TallyScene, to current: TallyScene) -> UInt64 {
        if current.canvas != previous.canvas && previous.canvas.level.shape == .square
            && previous.canvas.level > .hundred
        {
            return previous.canvas.level.capacity
        }
        var unit: UInt64 = 1
        for level in UnitLevel.all
        where level.capacity <= current.count.value && current.count.value % level.capacity == 0 {
            unit = level.capacity
        }
        return unit
    }

    /// SPEC: "the number of marks is bounded by the number of digits, not the count".
    @Test func everySceneHasFewerThanTwoThousandMarks() async {
        #expect(scene(UInt64(Int64.max)).marks.count < 2000)
        #expect(scene(8_999_999_999_999_999_999).marks.count < 2000)
        var largest = 0
        for n in UInt64(0)...10_000 { largest = max(largest, scene(n).marks.count) }
        #expect(largest < 2000)
        await propertyCheck(count: 500, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max)) {
            digits, raw in
            #expect(scene(countWithDigits(digits, raw)).marks.count < 2000)
        }
    }

    @Test func theLargestSceneStaysSmall() {
        // A count of nines at every level is the worst case: nine complete children everywhere.
        let worst = scene(8_999_999_999_999_999_999)
        #expect(worst.marks.count == expectedHistogram(8_999_999_999_999_999_999).values.reduce(0, +))
    }

    @Test func gatesFillCentreFirstThenNorthWestNorthEastSouthWestSouthEast() throws {
        // The first stroke of each gate, in fill order, sits in the gate cell the SPEC names.
        let strokes = scene(24).marks.filter { $0.kind == .stroke }
        try #require(strokes.count == 20 && strokes.allSatisfy { !$0.segments.isEmpty })
        let cells = stride(from: 0, to: 20, by: 4).map { index -> (Int, Int) in
            let start = strokes[index].segments[0].start
            return (Int(start.x / Proportions.standard.gateSide), Int(start.y / Proportions.standard.gateSide))
        }
        #expect(cells.map { $0.0 } == [1, 0, 2, 0, 2])
        #expect(cells.map { $0.1 } == [1, 0, 0, 2, 2])
    }

    @Test func theSlashRunsFromLowerLeftToUpperRightAcrossTheStrokes() throws {
        let marks = scene(5).marks
        try #require(marks.count == 5 && marks.allSatisfy { !$0.segments.isEmpty })
        let slash = marks[4].segments[0]
        #expect(marks[4].kind == .slash)
        #expect(slash.start.x < slash.end.x && slash.start.y > slash.end.y)
        let strokeXs = marks.prefix(4).map { $0.segments[0].start.x }
        #expect(strokeXs == strokeXs.sorted())
        #expect(slash.start.x < (strokeXs.first ?? 0) && slash.end.x > (strokeXs.last ?? .infinity))
    }

    @Test func hundredBlocksFillNorthWestNorthEastSouthWestSouthEast() throws {
        let crosses = scene(99).marks.filter { $0.kind == .cross && $0.unit == 25 }.compactMap {
            $0.segments.first?.start
        }
        try #require(crosses.count == 3)
        #expect(crosses[0].x < crosses[1].x && crosses[0].y == crosses[1].y)
        #expect(crosses[2].x == crosses[0].x && crosses[2].y > crosses[0].y)
    }

    @Test func rowsRunLeftToRightAndBlocksTopToBottom() throws {
        let boxes = scene(900).marks.filter { $0.kind == .box }.compactMap { $0.segments.first?.start }
        #expect(boxes.map(\.x) == boxes.map(\.x).sorted() && Set(boxes.map(\.y)).count == 1)
        let lines = scene(9000).marks.filter { $0.kind == .line }.compactMap { $0.segments.first?.start }
        #expect(lines.map(\.y) == lines.map(\.y).sorted() && Set(lines.map(\.x)).count == 1)
        let diagonal = try #require(scene(10_000).marks.last)
        #expect(diagonal.kind == .diagonal)
        let segment = try #require(diagonal.segments.first)
        #expect(segment.start.x < segment.end.x && segment.start.y < segment.end.y)
    }

    @Test func capsComeAfterTheDetailTheyClose() {
        #expect(scene(25).marks.last?.kind == .cross)
        #expect(scene(1000).marks.last?.kind == .line)
        #expect(scene(10_000).marks.last?.kind == .diagonal)
        #expect(scene(100).marks.map(\.kind) == [.box, .cross])
    }
}
