import PropertyBased
import Testing
@testable import TallyGeometry

@Suite struct LevelOfDetailTests {
    /// Where a cap's unit lies: its box for crosses, boxes and diagonals; for a row's line, the
    /// strip of the row (the line's length, and the row's height around it).
    private func region(of cap: Mark) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let points = cap.segments.flatMap { [$0.start, $0.end] }
        var (minX, minY) = (points.map(\.x).min()!, points.map(\.y).min()!)
        var (maxX, maxY) = (points.map(\.x).max()!, points.map(\.y).max()!)
        let half = cap.width / 2
        (minX, minY, maxX, maxY) = (minX - half, minY - half, maxX + half, maxY + half)
        if cap.kind == .line {
            let rowHeight = (maxX - minX) / 10  // a row is ten squares: about this tall
            minY -= rowHeight
            maxY += rowHeight
        }
        return (minX, minY, maxX, maxY)
    }

    private func isInside(_ mark: Mark, _ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        mark.segments.allSatisfy { segment in
            [segment.start, segment.end].allSatisfy { $0.x >= box.minX && $0.x <= box.maxX && $0.y >= box.minY && $0.y <= box.maxY }
        }
    }

    private func isCap(_ mark: Mark) -> Bool { mark.kind != .stroke && mark.kind != .slash }

    /// The rules of SPEC §2 "Level of detail", for one count at one scale.
    private func checkDetail(count n: UInt64, pixelsPerUnit: Double) {
        let full = scene(n)
        let reduced = scene(n, .automatic(pixelsPerUnit: pixelsPerUnit))
        let fullMarks = Set(full.marks)
        let shown = Set(reduced.marks)
        // 1. Level of detail only leaves marks out; it never moves or adds one.
        #expect(shown.isSubset(of: fullMarks), "count \(n) at \(pixelsPerUnit) px/unit")
        // 2. Order is kept.
        #expect(full.marks.filter { shown.contains($0) } == reduced.marks)
        // 3. A complete frame keeps its cap (the cross, line or diagonal over it, a hundred-block
        //    its box too); a partial frame keeps the caps of all its complete children.
        let frameLevel = full.frame.level
        let kept: [Mark]
        if n == frameLevel.capacity {
            kept = full.marks.filter { $0.unit == frameLevel.capacity }
        } else {
            let child = frameLevel.child!
            kept = full.marks.filter { isCap($0) && $0.unit == child.capacity && !(child.shape == .row && $0.kind == .box) }
        }
        for mark in kept {
            #expect(shown.contains(mark), "count \(n): \(mark.kind)(\(mark.unit)) dropped at \(pixelsPerUnit) px/unit")
        }
        // 4. Where anything of a complete unit is drawn, the unit's cap is drawn too.
        for cap in full.marks where isCap(cap) && !shown.contains(cap) {
            let area = region(of: cap)
            let inside = reduced.marks.first { $0.unit < cap.unit && isInside($0, area) }
            #expect(inside == nil, "count \(n): \(inside.map { "\($0.kind)(\($0.unit))" } ?? "") drawn without the \(cap.kind)(\(cap.unit)) over it")
        }
    }

    @Test(arguments: [0.01, 0.05, 0.2, 0.35, 0.8, 1.5, 3, 10])
    func detailIsDroppedNeverCapsBelowTenThousand(pixelsPerUnit: Double) {
        for n in stride(from: UInt64(0), through: 10_001, by: 7) { checkDetail(count: n, pixelsPerUnit: pixelsPerUnit) }
        for n: UInt64 in [25, 99, 100, 137, 999, 1000, 9999, 10000] { checkDetail(count: n, pixelsPerUnit: pixelsPerUnit) }
    }

    @Test func detailIsDroppedNeverCapsForAnyCount() async {
        await propertyCheck(count: 300, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
                            Gen<Double>.double(in: -12...4)) { digits, raw, logScale in
            checkDetail(count: countWithDigits(digits, raw), pixelsPerUnit: pow10(logScale))
        }
    }

    /// More pixels never show less.
    @Test func moreSpaceShowsMoreDetail() async {
        await propertyCheck(count: 300, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
                            Gen<Double>.double(in: -12...4)) { digits, raw, logScale in
            let n = countWithDigits(digits, raw)
            let small = Set(scene(n, .automatic(pixelsPerUnit: pow10(logScale))).marks)
            let large = Set(scene(n, .automatic(pixelsPerUnit: pow10(logScale + 0.5))).marks)
            #expect(small.isSubset(of: large), "count \(n)")
        }
    }

    @Test func largeOutputShowsEverything() {
        for n: UInt64 in [24, 99, 137, 9999] {
            #expect(scene(n, .automatic(pixelsPerUnit: 10)) == Scene(count: tallyCount(n), detail: .automatic(pixelsPerUnit: 10)))
            #expect(scene(n, .automatic(pixelsPerUnit: 10)).marks == scene(n).marks)
        }
    }

    @Test func tinyOutputShowsTheCompleteChildrenOnly() {
        // 137 drawn a few pixels wide: the complete hundred-block, nothing of the 37.
        let tiny = scene(137, .automatic(pixelsPerUnit: 0.05))
        #expect(tiny.marks.map(\.kind) == [.box, .cross])
        // 24 at 16 px: gates are too fine; the twenty-five-unit being filled has no complete child.
        #expect(scene(24, .automatic(pixelsPerUnit: 16 / 30)).marks.isEmpty == false)
        #expect(scene(24, .automatic(pixelsPerUnit: 0.1)).marks.filter { $0.kind == .stroke }.count < 20)
    }

    @Test func legibilityFollowsTheThresholds() {
        let strokeFeatures = Detail.features(of: .gate)
        let enough = Proportions.legibleGapPixels / strokeFeatures.gap
        let widthEnough = Proportions.legibleStrokePixels / strokeFeatures.width
        let threshold = max(enough, widthEnough)
        #expect(Detail.automatic(pixelsPerUnit: threshold * 1.001).showsUnits(of: .gate))
        #expect(!Detail.automatic(pixelsPerUnit: threshold * 0.999).showsUnits(of: .gate))
        #expect(Detail.full.showsUnits(of: .stroke))
    }
}

private func pow10(_ exponent: Double) -> Double {
    var value = 1.0
    let whole = Int(exponent.rounded(.down))
    for _ in 0..<abs(whole) { value = whole < 0 ? value / 10 : value * 10 }
    let fraction = exponent - Double(whole)
    // 10^fraction by a short series on e^(fraction·ln 10) keeps Foundation out of the tests.
    var term = 1.0, sum = 1.0
    let x = fraction * 2.302585092994046
    for k in 1..<30 { term *= x / Double(k); sum += term }
    return value * sum
}
