import PropertyBased
import Testing

@testable import TallyGeometry

/// The drawing's proportions are one value (`Proportions`): a picture drawn with other
/// proportions has every mark placed and sized from them, by SPEC §2's structure, and the
/// standard value is the design.
@Suite struct ProportionsTests {
    /// The design's values, written out: what every picture is drawn with by default
    /// (docs/design.md: twenty-five-units 17.5 apart, squares 28, rows 43).
    @Test func theStandardIsTheDesign() {
        let standard = Proportions.standard
        #expect(standard.gateSide == 10 && standard.quincunxSide == 30)
        #expect((0..<4).map(standard.strokeX) == [1.85, 3.95, 6.05, 8.15])
        #expect(standard.strokeSpacing == 2.1)
        #expect(standard.strokeTop == 0.9 && standard.strokeBottom == 9.1 && standard.strokeWidth == 0.9)
        #expect(standard.slashStart == Point(0.8, 7.2) && standard.slashEnd == Point(9.2, 2.8))
        #expect(standard.slashWidth == 1.1)
        #expect(standard.quincunxCrossInset == 1 && standard.quincunxCrossWidth == 1.5)
        #expect(standard.seam == 17.5 && standard.squareGap == 28 && standard.rowGap == 43)
        #expect(standard.squareCapWidth == 2.6 && standard.rowLineWidth == 3.2)
        // The frames of SPEC §2 at those proportions; the public canvas is the standard one.
        #expect(Canvas(level: .hundred) == Canvas(level: .hundred, standard))
        #expect(Canvas(level: .hundred).width == 77.5)
        #expect(Canvas(level: .thousandRow).width == 1_027 && Canvas(level: .thousandRow).height == 77.5)
        #expect(Canvas(level: .tenThousandBlock).width == 1_027 && Canvas(level: .tenThousandBlock).height == 1_162)
    }

    /// The public scene is the scene of the standard value, mark for mark, at every detail.
    @Test func theDefaultSceneIsTheStandardOne() async {
        await propertyCheck(
            count: 300, input: Gen<UInt64>.value(in: 0...20_000), Gen<Double>.value(in: 0.02...4)
        ) { value, pixelsPerUnit in
            let count = tallyCount(value)
            for detail in [Detail.full, .automatic(pixelsPerUnit: pixelsPerUnit)] {
                #expect(
                    TallyScene(count: count, detail: detail)
                        == TallyScene(count: count, detail: detail, proportions: .standard))
            }
        }
    }

    /// SPEC §2: with any proportions, every mark of every count to 10,000 sits where the
    /// structure and the value put it, pen, ends and all: an independent statement of the layout
    /// (`expectedMarks`) agrees with the scene mark for mark, so no mark reads anything but the
    /// value it is drawn with.
    @Test func everyMarkIsPlacedFromTheValue() async {
        await propertyCheck(count: 400, input: Gen<UInt64>.value(in: 0...UInt64.max), Gen<UInt64>.value(in: 0...10_000))
        {
            seed, value in
            let proportions = Self.proportions(seed)
            let scene = TallyScene(count: tallyCount(value), proportions: proportions)
            let expected = Self.expectedMarks(value, proportions)
            #expect(Self.same(scene.marks, expected), "\(value) with \(proportions)")
            let size = Self.frameSize(UnitLevel.frame(for: tallyCount(value)), proportions)
            #expect(Self.close(scene.canvas.width, size.x) && Self.close(scene.canvas.height, size.y))
        }
    }

    /// Each proportion changed alone moves exactly the marks it governs, by what the value
    /// says, and no other mark: the standard scene and the changed one differ only there.
    @Test(arguments: Self.changes.indices)
    func eachProportionChangedAloneMovesWhatItGoverns(_ index: Int) {
        let (name, change, governs) = Self.changes[index]
        var changed = Proportions.standard
        change(&changed)
        for value in [UInt64(3), 24, 25, 73, 100, 137, 1_234, 9_999, 10_000] {
            let standard = TallyScene(count: tallyCount(value), proportions: .standard)
            let drawn = TallyScene(count: tallyCount(value), proportions: changed)
            #expect(Self.same(drawn.marks, Self.expectedMarks(value, changed)), "\(name): \(value)")
            #expect(drawn.marks.count == standard.marks.count, "\(name): \(value)")
            for (old, new) in zip(standard.marks, drawn.marks) where !governs(old) {
                #expect(old == new, "\(name) moved a \(old.kind.rawValue)(\(old.unit)) of \(value)")
            }
        }
    }

    /// A picture drawn at a scale, with its whole-pixel steps and its level of detail, has the
    /// value's frame and the value's pens: whole pixels move units, never resize a pen
    /// (SPEC §2, "Small sizes").
    @Test func aScaledPictureHasTheValuesFrameAndPens() async {
        await propertyCheck(
            count: 300, input: Gen<UInt64>.value(in: 0...UInt64.max), Gen<UInt64>.value(in: 0...200_000),
            Gen<Double>.value(in: 0.05...3)
        ) { seed, value, pixelsPerUnit in
            let proportions = Self.proportions(seed)
            let count = tallyCount(value)
            let scene = TallyScene(
                count: count, detail: .automatic(pixelsPerUnit: pixelsPerUnit), proportions: proportions)
            if value <= 10_000 {
                let frame = Self.frameSize(UnitLevel.frame(for: count), proportions)
                #expect(Self.close(scene.canvas.width, frame.x) && Self.close(scene.canvas.height, frame.y))
            }
            #expect(scene.canvas == Canvas(level: scene.canvas.level, proportions))
            for mark in scene.marks {
                let pen: Double? =
                    switch (mark.kind, mark.unit) {
                    case (.stroke, _): proportions.strokeWidth
                    case (.slash, _): proportions.slashWidth
                    case (.cross, 25): proportions.quincunxCrossWidth
                    case (.box, 100), (.cross, 100): proportions.squareCapWidth
                    case (.line, 1_000): proportions.rowLineWidth
                    default: nil
                    }
                if let pen { #expect(Self.close(mark.width, pen), "\(mark.kind.rawValue) of \(value)") }
            }
        }
    }

    // MARK: The value's layout, written out again

    /// Proportions within the ranges a drawing could use, drawn from a seed: every length
    /// above 0, the strokes inside their cell, the slash across them.
    static func proportions(_ seed: UInt64) -> Proportions {
        var state = seed
        // SplitMix64: a number in 0 ..< 1 each call.
        func next(_ range: ClosedRange<Double>) -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Double(z >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let gate = next(6...14)
        let (edge, pen) = (next(0.02...0.12), next(0.05...0.12))
        let capPen = next(0.5...5)
        return Proportions(
            gateSide: gate, strokeSpacing: next(0.15...0.28) * gate, strokeTop: edge * gate,
            strokeBottom: gate * (1 - edge), strokeWidth: pen * gate, slashStart: Point(edge * gate, 0.7 * gate),
            slashEnd: Point(gate * (1 - edge), 0.3 * gate), slashWidth: 1.2 * pen * gate,
            quincunxCrossInset: next(0.1...0.4) * gate, quincunxCrossWidth: 1.6 * pen * gate, seam: next(1...30),
            squareCapWidth: capPen, squareGap: next(10...60), rowGap: next(10...80), rowLineWidth: 1.2 * capPen)
    }

    /// One proportion changed, by name, and the marks it governs (in the standard scene).
    static let changes: [(String, @Sendable (inout Proportions) -> Void, @Sendable (Mark) -> Bool)] = [
        ("strokeSpacing", { $0.strokeSpacing = 2.4 }, { $0.kind == .stroke }),
        ("strokeTop", { $0.strokeTop = 0.5 }, { $0.kind == .stroke }),
        ("strokeBottom", { $0.strokeBottom = 9.6 }, { $0.kind == .stroke }),
        ("strokeWidth", { $0.strokeWidth = 0.6 }, { $0.kind == .stroke }),
        ("slashStart", { $0.slashStart = Point(0.4, 8) }, { $0.kind == .slash }),
        ("slashEnd", { $0.slashEnd = Point(9.6, 2) }, { $0.kind == .slash }),
        ("slashWidth", { $0.slashWidth = 1.4 }, { $0.kind == .slash }),
        ("quincunxCrossInset", { $0.quincunxCrossInset = 2 }, { $0.kind == .cross && $0.unit == 25 }),
        ("quincunxCrossWidth", { $0.quincunxCrossWidth = 2 }, { $0.kind == .cross && $0.unit == 25 }),
        ("squareCapWidth", { $0.squareCapWidth = 3.5 }, { $0.unit >= 100 && $0.kind != .line }),
        ("rowLineWidth", { $0.rowLineWidth = 4 }, { $0.kind == .line }),
        // The gaps move the units after them (and the caps across them); the gate every mark.
        ("seam", { $0.seam = 21 }, { $0.unit >= 100 || reaches($0, past: 30) || reaches($0, past: 30, down: true) }),
        ("squareGap", { $0.squareGap = 33 }, { $0.unit >= 1_000 || reaches($0, past: 77.5) }),
        ("rowGap", { $0.rowGap = 50 }, { $0.unit >= 10_000 || reaches($0, past: 77.5, down: true) }),
        ("gateSide", { $0.gateSide = 11 }, { _ in true }),
    ]

    /// Whether a mark of the standard scene reaches past a cell's side (across, or down).
    static func reaches(_ mark: Mark, past side: Double, down: Bool = false) -> Bool {
        mark.segments.contains { segment in
            down ? max(segment.start.y, segment.end.y) > side : max(segment.start.x, segment.end.x) > side
        }
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

    /// Marks alike but for rounding in their last bits.
    static func same(_ marks: [Mark], _ expected: [Mark]) -> Bool {
        guard marks.count == expected.count else { return false }
        return zip(marks, expected).allSatisfy { mark, wanted in
            mark.kind == wanted.kind && mark.unit == wanted.unit && mark.color == wanted.color
                && close(mark.width, wanted.width) && mark.opacity == 1 && !mark.lens
                && mark.segments.count == wanted.segments.count
                && zip(mark.segments, wanted.segments).allSatisfy { segment, want in
                    close(segment.start.x, want.start.x) && close(segment.start.y, want.start.y)
                        && close(segment.end.x, want.end.x) && close(segment.end.y, want.end.y)
                        && segment.control == nil
                }
        }
    }

    /// SPEC §2's cells with the value's sizes: a twenty-five-unit three gates a side, a
    /// hundred-block two of them and the seam, a row ten squares and nine square gaps, a block
    /// ten rows and nine row gaps.
    static func frameSize(_ level: UnitLevel, _ p: Proportions) -> Point {
        let hundred = 6 * p.gateSide + p.seam
        let row = 10 * hundred + 9 * p.squareGap
        switch level {
        case .twentyFive: return Point(3 * p.gateSide, 3 * p.gateSide)
        case .hundred: return Point(hundred, hundred)
        case .thousandRow: return Point(row, hundred)
        default:
            return Point(row, 10 * hundred + 9 * p.rowGap)
        }
    }

    /// Every mark of a count to 10,000 at full detail, in count order, from SPEC §2 and the
    /// value alone.
    static func expectedMarks(_ n: UInt64, _ p: Proportions) -> [Mark] {
        var marks: [Mark] = []
        let gate = p.gateSide
        let quarter = 3 * gate
        let hundred = 2 * quarter + p.seam
        let row = 10 * hundred + 9 * p.squareGap
        func add(_ kind: MarkKind, _ unit: UInt64, _ color: ColorToken, _ width: Double, _ segments: [Segment]) {
            marks.append(Mark(kind: kind, unit: unit, color: color, width: width, segments: segments))
        }
        func diagonals(_ o: Point, _ low: Double, _ high: Point) -> [Segment] {
            [
                Segment(o.x + low, o.y + low, o.x + high.x, o.y + high.y),
                Segment(o.x + high.x, o.y + low, o.x + low, o.y + high.y),
            ]
        }
        func box(_ o: Point, _ size: Point, _ pen: Double, _ unit: UInt64) {
            let (x0, y0, x1, y1) = (o.x + pen / 2, o.y + pen / 2, o.x + size.x - pen / 2, o.y + size.y - pen / 2)
            add(
                .box, unit, .c3, pen,
                [Segment(x0, y0, x1, y0), Segment(x1, y0, x1, y1), Segment(x1, y1, x0, y1), Segment(x0, y1, x0, y0)])
        }
        // A gate's strokes `spacing` apart, centred in its cell; then its slash.
        func gateMarks(_ o: Point, strokes: Int, slash: Bool) {
            for index in 0..<strokes {
                let x = o.x + gate / 2 + (Double(index) - 1.5) * p.strokeSpacing
                add(.stroke, 1, .c1, p.strokeWidth, [Segment(x, o.y + p.strokeTop, x, o.y + p.strokeBottom)])
            }
            if slash {
                add(
                    .slash, 5, .accent, p.slashWidth,
                    [Segment(o.x + p.slashStart.x, o.y + p.slashStart.y, o.x + p.slashEnd.x, o.y + p.slashEnd.y)])
            }
        }
        // Dice five: centre, NW, NE, SW, SE.
        let dice: [(Double, Double)] = [(1, 1), (0, 0), (2, 0), (0, 2), (2, 2)]
        func quarterMarks(_ o: Point, _ m: Int) {
            for index in 0..<(m / 5) {
                gateMarks(Point(o.x + dice[index].0 * gate, o.y + dice[index].1 * gate), strokes: 4, slash: true)
            }
            if m % 5 > 0 {
                let cell = dice[m / 5]
                gateMarks(Point(o.x + cell.0 * gate, o.y + cell.1 * gate), strokes: m % 5, slash: false)
            }
            if m == 25 {
                let inset = p.quincunxCrossInset
                add(.cross, 25, .c2, p.quincunxCrossWidth, diagonals(o, inset, Point(quarter - inset, quarter - inset)))
            }
        }
        func squareMarks(_ o: Point, _ m: Int) {
            if m == 100 {
                let pen = p.squareCapWidth
                box(o, Point(hundred, hundred), pen, 100)
                add(.cross, 100, .c2, pen, diagonals(o, pen / 2, Point(hundred - pen / 2, hundred - pen / 2)))
                return
            }
            let step = quarter + p.seam
            for index in 0...(m / 25) where index < 4 {
                let filled = min(25, m - 25 * index)
                if filled > 0 {
                    quarterMarks(Point(o.x + Double(index % 2) * step, o.y + Double(index / 2) * step), filled)
                }
            }
        }
        func rowMarks(_ o: Point, _ m: Int) {
            let step = hundred + p.squareGap
            if m == 1_000 {
                for index in 0..<10 {
                    box(Point(o.x + Double(index) * step, o.y), Point(hundred, hundred), p.squareCapWidth, 100)
                }
                let pen = p.rowLineWidth
                add(
                    .line, 1_000, .c1, pen,
                    [Segment(o.x + pen / 2, o.y + hundred / 2, o.x + row - pen / 2, o.y + hundred / 2)])
                return
            }
            for index in 0...(m / 100) where index < 10 {
                let filled = min(100, m - 100 * index)
                if filled > 0 { squareMarks(Point(o.x + Double(index) * step, o.y), filled) }
            }
        }
        let count = Int(n)
        switch UnitLevel.frame(for: tallyCount(n)) {
        case .twentyFive: quarterMarks(Point(0, 0), count)
        case .hundred: squareMarks(Point(0, 0), count)
        case .thousandRow: rowMarks(Point(0, 0), count)
        default:
            let scale = row / hundred
            let step = hundred + p.rowGap
            for index in 0...(count / 1_000) where index < 10 {
                let filled = min(1_000, count - 1_000 * index)
                if filled > 0 { rowMarks(Point(0, Double(index) * step), filled) }
            }
            if count == 10_000 {
                let size = frameSize(.tenThousandBlock, p)
                let pen = p.squareCapWidth * scale
                add(
                    .diagonal, 10_000, .c2, pen,
                    [Segment(pen / 2, pen / 2, size.x - pen / 2, size.y - pen / 2)])
            }
        }
        return marks
    }
}
