import PropertyBased
import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// SPEC §7's strip, a decade gauge: ten slots 2 px apart, strokes from the digits' cap height
/// (y = 5) to their baseline (y = 14), a gate's slash for every fifth, the partial unit as a
/// shorter bar floored to whole pixels under dots; with a goal, a dot for each tenth still to
/// fill, its edge two clear pixels after the tenth slot and at most one gate two clear pixels
/// past it. The literals are the contract's and the design's,
/// pinned here, never read from the code under test.
@Suite struct BadgeStripTests {
    /// Where the strips of these tests start: any whole pixel, as a badge's plates are.
    static let left = 37.0
    /// The design's geometry: slots, their pitch, the strokes' top and floor.
    static let (slots, pitch, top, floor) = (10, 2.0, 5.0, 14.0)
    /// The value plate's interior, inside its 1 px frame.
    static let (plateTop, plateBottom) = (1.0, 19.0)
    /// The strip's width: ten slots (19 px); with a goal, ten, the edge and five more (33 px).
    static let (width, goalWidth) = (19.0, 33.0)
    /// A goal's edge, and the first slot past it, from the strip's left: 3 px after the tenth
    /// slot's pen, and 3 px after the edge.
    static let (edge, firstPast) = (21.5, 24.5)

    func strip(_ value: UInt64, of goal: UInt64? = nil) throws -> BadgeStrip {
        BadgeStrip(count: try tallyCount(value), goal: try goal.map { try tallyCount($0) }, left: Self.left)
    }

    /// The column of a pen centred at `x`: 0…9 for the decade's slots, 10 for a goal's edge,
    /// 11…15 for the slots past it; nil off the grid.
    static func column(_ x: Double) -> Int? {
        if x == left + edge { return 10 }
        let past = (x - left - firstPast) / pitch
        if past >= 0 { return past == past.rounded() && past < 5 ? 11 + Int(past) : nil }
        let column = (x - left - 0.5) / pitch
        return column == column.rounded() && column >= 0 && column < 10 ? Int(column) : nil
    }

    /// The strip written one character a column: `|` a stroke, `/` a gate's slash (in the
    /// column of its fifth slot), a digit for a partial bar that many pixels tall, `.` a dot on
    /// the floor, `!` the goal's edge, a space for nothing.
    static func picture(_ strip: BadgeStrip, goal: Bool) throws -> String {
        var columns = Array(repeating: Character(" "), count: goal ? 16 : 10)
        func put(_ character: Character, at x: Double) throws {
            let column = try #require(Self.column(x), "a pen off the grid at x = \(x)")
            try #require(columns.indices.contains(column), "column \(column) out of the strip")
            #expect(columns[column] == " " || character == ".", "two marks in column \(column)")
            if columns[column] == " " { columns[column] = character }
        }
        for mark in strip.marks {
            let segment = try #require(mark.segments.first)
            switch mark.kind {
            case .stroke: try put("|", at: segment.start.x)
            case .line: try put("!", at: segment.start.x)
            case .slash:
                let first = try #require(Self.column(segment.start.x + 1))
                columns[first + 4] = "/"
            case .progress:
                let xs = mark.segments.map(\.start.x)
                let ys = mark.segments.map(\.start.y)
                let height = try #require(ys.max()) - (try #require(ys.min()))
                try put(Character(String(Int(height))), at: try #require(xs.min()) + 0.5)
            case .remaining:
                for dot in mark.segments where dot.start.y == 13 { try put(".", at: dot.start.x) }
            default: Issue.record("a \(mark.kind) in the strip")
            }
        }
        return String(columns)
    }

    /// The design's cases, drawn as text: the leading digit in tally marks, the partial unit
    /// floored, the magnitude left to the number; a goal's tenths, edge and the 150% cap.
    @Test func stripsAreTheLeadingDigitInTallyMarks() throws {
        let cases: [(UInt64, UInt64?, String)] = [
            // Without a goal nothing marks the slots still to fill (SPEC §7).
            (0, nil, "          "),
            (1, nil, "|         "),
            (4, nil, "||||      "),
            (5, nil, "||||/     "),
            (9, nil, "||||/|||| "),
            // Ten is one ten: the number, not the strip, says the magnitude.
            (10, nil, "|         "),
            // 99: nine tens and 9/10 of the tenth, ⌊8.1⌋ = 8 px.
            (99, nil, "||||/||||8"),
            // 137: one hundred and 37/100 of the next, ⌊3.33⌋ = 3 px.
            (137, nil, "|3        "),
            // 10,001: one ten-thousand and 1/10,000 of the next, at least a pixel.
            (10_001, nil, "|1        "),
            // Int64.max: 9.22…E18, nine 10¹⁸ and ⌊0.2233… × 9⌋ = 2 px.
            (UInt64(Int64.max), nil, "||||/||||2"),
            (0, 10, "..........!     "),
            (9, 10, "||||/||||.!     "),
            // 62%: six tenths and ⌊0.2 × 9⌋ = 1 px of the seventh.
            (6_200, 10_000, "||||/|1...!     "),
            (1, 10_000, "1.........!     "),
            (6_999, 10_000, "||||/|8...!     "),
            (100, 100, "||||/||||/!     "),
            // 118%: eleven tenths and ⌊0.8 × 9⌋ = 7 px past the edge.
            (118, 100, "||||/||||/!|7   "),
            (150, 100, "||||/||||/!||||/"),
            (199, 100, "||||/||||/!||||/"),
            (UInt64(Int64.max), 1, "||||/||||/!||||/"),
        ]
        for (value, goal, expected) in cases {
            let drawn = try Self.picture(try strip(value, of: goal), goal: goal != nil)
            #expect(drawn == expected, "\(value) of \(String(describing: goal))")
        }
    }

    /// `9 --of 10` is a gate and four strokes, in tally marks anyone reads: exactly one slash, in
    /// the accent, and four strokes beside the gate's four.
    @Test func nineOfTenIsAGateAndFourStrokes() throws {
        let marks = try strip(9, of: 10).marks
        let slashes = marks.filter { $0.kind == .slash }
        #expect(slashes.count == 1 && slashes.allSatisfy { $0.color == .accent })
        #expect(marks.filter { $0.kind == .stroke }.count == 8)
        #expect(!marks.contains { $0.kind == .progress })
    }

    /// The goal reached and the goal passed by 18% differ in their marks, not only in their
    /// number.
    @Test func pastTheGoalShowsInTheStrip() throws {
        #expect(try strip(118, of: 100).marks != strip(100, of: 100).marks)
        #expect(try strip(101, of: 100).marks != strip(100, of: 100).marks)
        #expect(try strip(100, of: 100).marks != strip(99, of: 100).marks)
    }

    /// The units a strip draws, a gate's slash being its fifth, and its partial bar's height.
    static func drawn(_ strip: BadgeStrip) -> (units: UInt64, partial: UInt64) {
        let units = strip.marks.filter { $0.kind == .stroke || $0.kind == .slash }.count
        let bar = strip.marks.first { $0.kind == .progress }
        let ys = bar.map { $0.segments.map(\.start.y) } ?? []
        return (UInt64(units), UInt64((ys.max() ?? 0) - (ys.min() ?? 0)))
    }

    /// The strip never draws more than the count: without a goal, the leading digit as units of
    /// 10^(d−1) and the rest floored to ninths; with one, whole tenths of the goal and the next
    /// tenth floored to ninths, at most 15 tenths. A partial bar of one pixel is the least a
    /// share is drawn (SPEC §2, "Partial progress is never invisible"), so it says only that
    /// there is a rest; a taller one never more than the rest. Exactly so: a unit less, or a
    /// pixel more, would also be a bug.
    @Test func theStripNeverShowsMoreThanTheCount() async throws {
        await propertyCheck(
            count: 600, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Int>.value(in: 0...2)
        ) { digits, raw, rawGoal, mode in
            let value = countWithDigits(digits, raw)
            // What the count is in ninths of a slot: 9·count / u without a goal, 90·count / goal
            // with one, as a fraction (numerator, denominator).
            let (units, partial): (UInt64, UInt64)
            let (numerator, denominator): (UInt64, UInt64)
            let context: String
            if mode == 0 {
                var unit: UInt64 = 1
                while value / unit >= 10 { unit *= 10 }
                (units, partial) = Self.drawn(try strip(value))
                (numerator, denominator) = (value, unit)
                context = "\(value)"
                #expect(units == value / unit, "\(context)")
                #expect((partial == 0) == (value % unit == 0), "\(context)")
            } else {
                // Goals near the count (mode 1) and anywhere (mode 2).
                let near = min(value / 10 * 9 + rawGoal % (value / 5 + 2), UInt64(Int64.max))
                let goal = max(1, mode == 1 ? near : countWithDigits(digits, rawGoal))
                (units, partial) = Self.drawn(try strip(value, of: goal))
                context = "\(value) of \(goal)"
                #expect(units <= 15, "\(context)")
                // Tenths: 10·count / goal, compared as units·goal ≤ 10·count.
                #expect(product(units, goal, isAtMost: 10, value), "\(context)")
                if units < 15 {
                    #expect(!product(units + 1, goal, isAtMost: 10, value), "\(context): a tenth is missing")
                }
                (numerator, denominator) = (value, goal)
            }
            let scale: UInt64 = mode == 0 ? 9 : 90
            // A bar taller than a pixel: (9·units + bar) ninths are at most the count's.
            if partial > 1 {
                #expect(product(9 * units + partial, denominator, isAtMost: scale, numerator), "\(context)")
            }
            // A pixel more would say more than the count, where there is a bar to grow.
            if partial > 0 {
                #expect(!product(9 * units + partial + 1, denominator, isAtMost: scale, numerator), "\(context)")
            }
        }
    }

    /// Every pen is 1 px on a pixel centre, 2 px apart, every end on a pixel edge, so the strip
    /// is crisp at 1×, 2× and 3×; every mark stays in the value plate (y 1…19) and every mark
    /// but the goal's edge in the strokes' box (y 5…14); no mark has no path; the strip is as
    /// wide for every count, 19 px, or 33 px with a goal, and its ink stays within it (the
    /// first slash reaches back less than a pixel, into the plate's padding).
    @Test func everyPenIsOnTheGridAndInItsBox() async throws {
        await propertyCheck(
            count: 600, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Bool>.bool
        ) { digits, raw, rawGoal, withGoal in
            let value = countWithDigits(digits, raw)
            let goal = withGoal ? goalWithDigits(rawGoal) : nil
            let drawn = try strip(value, of: goal)
            let context = "\(value) of \(String(describing: goal))"
            #expect(drawn.width == (withGoal ? Self.goalWidth : Self.width), "\(context)")
            #expect(drawn.marks.filter { $0.kind == .line }.count == (withGoal ? 1 : 0), "\(context)")
            for mark in drawn.marks {
                #expect(!mark.segments.isEmpty, "\(context): an empty \(mark.kind)")
                let ys = mark.segments.flatMap { [$0.start.y, $0.end.y] }
                let xs = mark.segments.flatMap { [$0.start.x, $0.end.x] }
                let (low, high) = mark.kind == .line ? (Self.plateTop, Self.plateBottom) : (Self.top, Self.floor)
                #expect(ys.allSatisfy { $0 >= low && $0 <= high }, "\(context): \(mark.kind) at y \(ys)")
                #expect(xs.allSatisfy { $0 > Self.left - 1 && $0 <= Self.left + drawn.width }, "\(context): \(xs)")
                switch mark.kind {
                case .stroke, .remaining, .line:
                    #expect(mark.width == 1)
                    for segment in mark.segments {
                        #expect(segment.start.x == segment.end.x, "\(context): an upright pen")
                        #expect(
                            Self.column(segment.start.x) != nil, "\(context): pen off the grid at \(segment.start.x)")
                        #expect(ys.allSatisfy { $0 == $0.rounded() }, "\(context): ends off pixel edges")
                    }
                case .progress:
                    #expect(xs.allSatisfy { $0 == $0.rounded() } && ys.allSatisfy { $0 == $0.rounded() })
                    #expect(Self.column((xs.min() ?? 0) + 0.5) != nil && (xs.max() ?? 0) - (xs.min() ?? 0) == 1)
                case .slash:
                    #expect(mark.width == 1 && mark.color == .accent)
                default: Issue.record("\(context): a \(mark.kind) in the strip")
                }
                if mark.kind == .stroke {
                    #expect(ys.min() == Self.top && ys.max() == Self.floor, "\(context): a stroke is the full 9 px")
                }
            }
        }
    }

    /// The goal's edge stands in its own column, 2 px after the tenth slot, taller than the
    /// strokes at both ends, in a colour that meets 3:1 (c1 or c3).
    @Test func theGoalsEdgeFollowsTheTenthSlot() throws {
        for (value, goal) in [(UInt64(0), UInt64(10)), (9, 10), (118, 100), (UInt64(Int64.max), 1)] {
            let edge = try #require(try strip(value, of: goal).marks.first { $0.kind == .line })
            let segment = try #require(edge.segments.first)
            #expect(Self.column(segment.start.x) == 10, "the edge at \(segment.start.x)")
            let ys = [segment.start.y, segment.end.y]
            #expect(ys.min()! < Self.top && ys.max()! > Self.floor)
            #expect(edge.color == .c1 || edge.color == .c3)
        }
    }

    /// Weight follows quantity (SPEC §2): a slot still to fill carries at most 0.35× a done
    /// stroke's ink (9 px), and the partial slot, its bar and its dots, never more than a done
    /// stroke, while its dots show the slot's whole height where they fit.
    @Test func whatIsLeftIsQuieterThanWhatIsDone() throws {
        let stroke = Self.floor - Self.top
        for value: UInt64 in [0, 1, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 55, 99, 137, 750, 5_555, 99_999] {
            let drawn = try strip(value)
            var ink: [Int: Double] = [:]
            var done: Set<Int> = []
            var partial: Int?
            for mark in drawn.marks {
                let xs = mark.segments.map(\.start.x)
                let ys = mark.segments.flatMap { [$0.start.y, $0.end.y] }
                switch mark.kind {
                case .stroke:
                    let x = try #require(xs.first)
                    done.insert(try #require(Self.column(x)))
                case .progress:
                    let x0 = try #require(xs.min())
                    let column = try #require(Self.column(x0 + 0.5))
                    partial = column
                    ink[column, default: 0] += try #require(ys.max()) - (try #require(ys.min()))
                case .remaining:
                    for dot in mark.segments {
                        ink[try #require(Self.column(dot.start.x)), default: 0] += abs(dot.end.y - dot.start.y)
                    }
                default: continue
                }
            }
            for (column, pixels) in ink {
                #expect(!done.contains(column), "\(value): marks over a done stroke")
                let limit = column == partial ? stroke - 1 : 0.35 * stroke
                #expect(pixels <= limit, "\(value): slot \(column) carries \(pixels) px")
            }
        }
        // 11: one ten and a one-pixel bar under four dots from the slot's top (y = 5).
        let eleven = try strip(11)
        let dots = try #require(eleven.marks.first { $0.kind == .remaining })
        let column1 = dots.segments.filter { Self.column($0.start.x) == 1 }.map(\.start.y)
        #expect(column1 == [5, 7, 9, 11])
    }
}
