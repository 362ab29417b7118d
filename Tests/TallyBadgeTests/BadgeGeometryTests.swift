import PropertyBased
import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// SPEC §7's geometry, asserted on the badge's shapes and marks rather than only snapshotted.
/// The literals are the contract's (the shields.io baseline at y = 14, the icon box from y = 5
/// to 14, 9 px cells, 4 px between strip and number, whole pixels never rounded up) and the
/// notation's unit capacities (SPEC §2), pinned here, never read from the code under test.
@Suite struct BadgeGeometryTests {
    /// SPEC §2's unit capacities, smallest first: a stroke, a gate, a twenty-five-unit, a
    /// hundred-block, then a power of ten a level up to 10¹⁹.
    static let capacities: [UInt64] = [1, 5, 25] + (2...19).map { powerOfTen($0) }
    /// The text's baseline (SPEC §7, shields.io's "flat" badge).
    static let baseline = 14.0
    /// A cell of a unit with a box (25 and up): the icon box, 9 px wide, from y = 5 to 14.
    static let boxCell = 9.0
    /// Between the strip's last ink and the number's origin.
    static let stripGap = 4.0

    func count(_ value: UInt64) throws -> TallyCount { try #require(TallyCount(exactly: value)) }

    func badge(_ value: UInt64, of goal: UInt64? = nil, label: String? = nil) throws -> Badge {
        try Badge(count: try count(value), goal: try goal.map { try count($0) }, label: label)
    }

    /// The lowest point of a role's glyphs (y grows downward).
    func bottom(_ badge: Badge, _ role: Badge.Role) throws -> Double {
        let shape = try #require(badge.shapes.first { $0.role == role })
        let points = shape.contours.flatMap { $0.flatMap { [$0.start, $0.end] } }
        return try #require(points.map(\.y).max())
    }

    /// Text sits on the baseline at y = 14: "1" and "T" have flat feet on it (DejaVu Sans draws
    /// them from y = 0 in font units), for the number and the label alike; and the marks' box
    /// ends on the same line, so marks and digits stand together.
    @Test func textAndMarksStandOnTheBaseline() throws {
        let one = try badge(1, label: "T")
        #expect(try bottom(one, .valueText) == Self.baseline)
        #expect(try bottom(one, .labelText) == Self.baseline)
        let hundred = try badge(100)
        let box = try #require(hundred.marks.first { $0.kind == .box })
        let lowest = try #require(box.segments.flatMap { [$0.start.y, $0.end.y] }.max())
        #expect(lowest + box.width / 2 == Self.baseline, "the box's pen ends on the baseline")
        #expect(hundred.height == 20)
    }

    /// The unit a badge's cells are drawn in: without a goal (or past it) the count's largest;
    /// with one, the smallest that gives the goal at most ten cells.
    static func unit(_ count: UInt64, goal: UInt64?) -> UInt64 {
        if let goal, count < goal {
            return capacities.first { (goal - 1) / $0 + 1 <= 10 } ?? capacities[capacities.count - 1]
        }
        return capacities.last { $0 <= count } ?? 1
    }

    /// The progress bar's width in pixels, or nil when there is none.
    static func barWidth(_ badge: Badge) -> Double? {
        guard let bar = badge.marks.first(where: { $0.kind == .progress }) else { return nil }
        let xs = bar.segments.flatMap { [$0.start.x, $0.end.x] }
        return (xs.max() ?? 0) - (xs.min() ?? 0)
    }

    /// The unit being filled is a bar of ⌊rest / capacity × 9⌋ whole pixels, at least one and
    /// never rounded up (SPEC §2 and §7), for any count, with and without a goal.
    @Test func barsAreFlooredToWholePixels() async throws {
        // Pinned: 24 of 25 is 8.64 px, drawn 8; 37 of 100 is 3.33, drawn 3; 1 of 10⁴ is 0.0009,
        // drawn 1; 999 of a goal's 1,000 is 8.991, drawn 8.
        #expect(try Self.barWidth(badge(99)) == 8)
        #expect(try Self.barWidth(badge(137)) == 3)
        #expect(try Self.barWidth(badge(10_001)) == 1)
        #expect(try Self.barWidth(badge(6_999, of: 10_000)) == 8)
        await propertyCheck(
            count: 400, input: Gen<Int>.value(in: 2...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Bool>.bool
        ) { digits, raw, rawGoal, withGoal in
            let value = countWithDigits(digits, raw)
            let goal = withGoal ? max(1, countWithDigits(digits, rawGoal)) : nil
            let drawn = try badge(value, of: goal)
            let capacity = Self.unit(value, goal: goal)
            let rest = value % capacity
            let width = Self.barWidth(drawn)
            guard capacity >= 25, rest > 0 else {
                #expect(width == nil, "count \(value) of \(String(describing: goal))")
                return
            }
            // ⌊rest × 9 / capacity⌋ in 128 bits, as the badge may not round it.
            let floored = capacity.dividingFullWidth(rest.multipliedFullWidth(by: 9)).quotient
            #expect(width == Double(max(1, floored)), "count \(value) of \(String(describing: goal))")
        }
    }

    /// Where the number starts: its first glyph's ink less that glyph's left side bearing.
    static func numberOrigin(_ badge: Badge) throws -> Double {
        let shape = try #require(badge.shapes.first { $0.role == .valueText })
        let ink = try #require(shape.contours.flatMap { $0.map(\.start.x) }.min())
        let alone = BadgeFont.outlines(of: badge.value, size: 11, origin: Point(0, Self.baseline))
        let bearing = try #require(alone.flatMap { $0.map(\.start.x) }.min())
        return ink - bearing
    }

    /// The right edge of the strip's ink: fills to their edge, butt-capped dots to their end,
    /// upright strokes half a pen past their centre.
    static func stripEnd(_ badge: Badge) -> Double {
        badge.marks.flatMap { mark in
            mark.segments.map { max($0.start.x, $0.end.x) + ($0.start.x == $0.end.x ? mark.width / 2 : 0) }
        }.max() ?? 0
    }

    /// From the strip's last ink to the number's origin.
    static func gap(_ badge: Badge) throws -> Double { try numberOrigin(badge) - stripEnd(badge) }

    /// A goal's last cell, drawn only as long as the goal's share of it, is followed by the
    /// number at the usual distance: `30 --of 31` (the last gate holds one stroke of the goal)
    /// as `30 --of 35` (a whole gate still to fill), 4 px from the last dot.
    @Test func aShortLastCellKeepsTheUsualGap() throws {
        let short = try badge(30, of: 31)
        let whole = try badge(30, of: 35)
        let (shortGap, wholeGap) = (try Self.gap(short), try Self.gap(whole))
        #expect(abs(shortGap - Self.stripGap) < 1e-9, "30 of 31: \(shortGap)")
        #expect(abs(wholeGap - Self.stripGap) < 1e-9, "30 of 35: \(wholeGap)")
    }

    /// Whenever a goal leaves its last cell partly used, or the last cell is still to fill
    /// whole, the number starts 4 px after the strip's last ink.
    @Test func theNumberFollowsTheStripAtFourPixels() async throws {
        await propertyCheck(
            count: 400, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max)
        ) { digits, rawGoal, rawCount in
            let goal = max(2, countWithDigits(digits, rawGoal))
            let value = rawCount % goal
            let capacity = Self.unit(value, goal: goal)
            let cells = (goal - 1) / capacity + 1
            let lastIsTrack = value / capacity + (value % capacity > 0 ? 1 : 0) < cells
            guard goal % capacity != 0 || lastIsTrack else { return }
            let gap = try Self.gap(try badge(value, of: goal))
            #expect(abs(gap - Self.stripGap) < 1e-9, "count \(value) of \(goal): \(gap)")
        }
    }

    /// No mark is empty: a partial cell whose bar leaves no room for a dot has no track
    /// (`999 --of 1001` once wrote an empty one), for any count and goal.
    @Test func noMarkIsEmpty() async throws {
        let nearlyFull = try badge(999, of: 1001)
        #expect(nearlyFull.marks.allSatisfy { !$0.segments.isEmpty })
        await propertyCheck(
            count: 400, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Bool>.bool
        ) { digits, rawGoal, rawCount, below in
            let goal = max(1, countWithDigits(digits, rawGoal))
            let value = below ? rawCount % goal : countWithDigits(digits, rawCount)
            let drawn = try badge(value, of: goal)
            #expect(drawn.marks.allSatisfy { !$0.segments.isEmpty }, "count \(value) of \(goal)")
        }
    }

    /// A share over 999% is written `>999%`, so a badge with a goal is never wider than the
    /// count's own badge for a huge count (`Int64.max --of 1` wrote 22 characters, 282 px);
    /// the exact share stays in the accessible name.
    @Test func aHugeShareIsCapped() throws {
        let maximum = UInt64(Int64.max)
        let capped = try badge(maximum, of: 1, label: "stars")
        let plain = try badge(maximum, label: "stars")
        #expect(capped.value == ">999%")
        #expect(capped.width <= plain.width)
        #expect(capped.title == "stars: 9,223,372,036,854,775,807 of 1 (922337203685477580700%)")
        #expect(try badge(9_990, of: 1_000).value == "999%")
        #expect(try badge(10_000, of: 1_000).value == ">999%")
        #expect(try badge(1_200, of: 1_000).value == "120%")
    }

    /// SPEC §7: a label may not hold control or format characters; the soft hyphen is a format
    /// character (Cf), invisible, and named as one, not as a control character.
    @Test func formatCharactersAreNamedAsSuch() {
        #expect(throws: Badge.Problem.labelFormatCharacter("\u{AD}")) { try Badge(count: 1, label: "co\u{AD}op") }
        #expect(throws: Badge.Problem.labelFormatCharacter("\u{200D}")) { try Badge(count: 1, label: "a\u{200D}b") }
        #expect(throws: Badge.Problem.labelControlCharacter("\u{85}")) { try Badge(count: 1, label: "a\u{85}") }
    }
}
