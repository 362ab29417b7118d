import PropertyBased
import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// SPEC §7's geometry, asserted on the badge's shapes and marks rather than only snapshotted.
/// The literals are the contract's (the shields.io baseline at y = 14, strokes from y = 5 to
/// 14, 4 px between strip and number, whole pixels never rounded up) and the strip's design
/// (19 px, 33 px with a goal), pinned here, never read from the code under test.
@Suite struct BadgeGeometryTests {
    /// The text's baseline (SPEC §7, shields.io's "flat" badge).
    static let baseline = 14.0
    /// Between the strip and the number's origin.
    static let stripGap = 4.0
    /// The value plate's padding before the strip.
    static let padding = 6.0
    /// The strip's width: ten slots 2 px apart; with a goal, its edge and five slots past it.
    static let (stripWidth, goalStripWidth) = (19.0, 33.0)

    func badge(_ value: UInt64, of goal: UInt64? = nil, label: String? = nil) throws -> Badge {
        try makeBadge(value, of: goal, label: label)
    }

    /// The lowest point of a role's glyphs (y grows downward).
    func bottom(_ badge: Badge, _ role: Badge.Role) throws -> Double {
        let shape = try #require(badge.shapes.first { $0.role == role })
        let points = shape.placedContours.flatMap { $0.flatMap { [$0.start, $0.end] } }
        return try #require(points.map(\.y).max())
    }

    /// Text sits on the baseline at y = 14: "1" and "T" have flat feet on it (DejaVu Sans draws
    /// them from y = 0 in font units), for the number and the label alike; and the strokes, the
    /// partial bar and the dots end on the same line (butt caps: an upright pen ends where its
    /// segment does), so marks and digits stand together.
    @Test func textAndMarksStandOnTheBaseline() throws {
        let one = try badge(1, label: "T")
        #expect(try bottom(one, .valueText) == Self.baseline)
        #expect(try bottom(one, .labelText) == Self.baseline)
        // 62% of a goal has a stroke, a partial bar and a dot on the floor for each tenth to go.
        let drawn = try badge(6_200, of: 10_000)
        for kind in [MarkKind.stroke, .progress, .remaining] {
            let mark = try #require(drawn.marks.first { $0.kind == kind }, "62% has a \(kind)")
            let lowest = try #require(mark.segments.flatMap { [$0.start.y, $0.end.y] }.max())
            #expect(lowest == Self.baseline, "the \(kind) ends on the baseline")
        }
        #expect(drawn.height == 20)
    }

    /// The partial bar's height in pixels, or nil when there is none.
    static func barHeight(_ badge: Badge) -> Double? {
        guard let bar = badge.marks.first(where: { $0.kind == .progress }) else { return nil }
        let ys = bar.segments.flatMap { [$0.start.y, $0.end.y] }
        return (ys.max() ?? 0) - (ys.min() ?? 0)
    }

    /// The unit being filled is a bar ⌊share × 9⌋ whole pixels tall, at least one and never
    /// rounded up (SPEC §7): without a goal the share of the next 10^(d−1), with one the share
    /// of the next tenth of the goal, (10·count mod goal) / goal, up to 150%.
    @Test func barsAreFlooredToWholePixels() async throws {
        // Pinned: 99 is 9/10 of the tenth ten, 8.1 px, drawn 8; 137 is 37/100 of the second
        // hundred, 3.33, drawn 3; 10,001 is 0.0009 px, drawn 1; 6,999 of 10,000 is 0.999 of the
        // seventh tenth, 8.991, drawn 8; 118 of 100 is 0.8 of the twelfth tenth, 7.2, drawn 7.
        #expect(try Self.barHeight(badge(99)) == 8)
        #expect(try Self.barHeight(badge(137)) == 3)
        #expect(try Self.barHeight(badge(10_001)) == 1)
        #expect(try Self.barHeight(badge(6_999, of: 10_000)) == 8)
        #expect(try Self.barHeight(badge(118, of: 100)) == 7)
        #expect(try Self.barHeight(badge(150, of: 100)) == nil)
        await propertyCheck(
            count: 400, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Bool>.bool
        ) { digits, raw, rawGoal, withGoal in
            let value = countWithDigits(digits, raw)
            let goal = withGoal ? max(1, countWithDigits(digits, rawGoal)) : nil
            let drawn = try badge(value, of: goal)
            // The share as a fraction part / whole of the slot being filled, if one is.
            let share: (part: UInt64, whole: UInt64)?
            if let goal {
                if value / goal >= 2 {
                    share = nil
                } else {
                    let (tenths, rest) = goal.dividingFullWidth(value.multipliedFullWidth(by: 10))
                    share = tenths < 15 ? (rest, goal) : nil
                }
            } else {
                var unit: UInt64 = 1
                while value / unit >= 10 { unit *= 10 }
                share = (value % unit, unit)
            }
            let expected = share.flatMap { share -> Double? in
                guard share.part > 0 else { return nil }
                let floored = share.whole.dividingFullWidth(share.part.multipliedFullWidth(by: 9)).quotient
                return Double(max(1, floored))
            }
            #expect(Self.barHeight(drawn) == expected, "count \(value) of \(String(describing: goal))")
        }
    }

    /// Where the number starts: its first glyph's ink less that glyph's left side bearing.
    static func numberOrigin(_ badge: Badge) throws -> Double {
        let shape = try #require(badge.shapes.first { $0.role == .valueText })
        let ink = try #require(shape.placedContours.flatMap { $0.map(\.start.x) }.min())
        let alone = BadgeFont.outlines(of: badge.value, size: 11, origin: Point(0, Self.baseline))
        let bearing = try #require(alone.flatMap { $0.map(\.start.x) }.min())
        return ink - bearing
    }

    /// The number starts 4 px after the strip, whose width is the same for every count: 6 px
    /// of padding, 19 px of strip (33 with a goal), 4 px, so the number of any count starts 29
    /// (43) px into the value plate, and every mark lies before it.
    @Test func theNumberFollowsTheStripAtFourPixels() async throws {
        await propertyCheck(
            count: 300, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Bool>.bool
        ) { digits, raw, rawGoal, withGoal in
            let value = countWithDigits(digits, raw)
            let goal = withGoal ? goalWithDigits(rawGoal) : nil
            let plain = try badge(value, of: goal)
            let labelled = try badge(value, of: goal, label: "downloads")
            let strip = withGoal ? Self.goalStripWidth : Self.stripWidth
            let expected = Self.padding + strip + Self.stripGap
            let context = "count \(value) of \(String(describing: goal))"
            #expect(abs(try Self.numberOrigin(plain) - expected) < 1e-9, "\(context)")
            let labelPlate = (12 + BadgeFont.width(of: "downloads", size: 11)).rounded(.up)
            #expect(abs(try Self.numberOrigin(labelled) - labelPlate - expected) < 1e-9, "\(context)")
            let inkEnd = plain.marks.flatMap { $0.segments.flatMap { [$0.start.x, $0.end.x] } }.max() ?? 0
            #expect(inkEnd <= Self.padding + strip, "\(context)")
        }
    }

    /// No mark is empty: a partial slot whose bar leaves no room for a dot has no dots, and a
    /// strip with nothing left to fill no track (`999 --of 1001` once wrote an empty one), for
    /// any count and goal.
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

    /// A share over 999% is written `>999%`, so every such badge is as wide as the next
    /// (`Int64.max --of 1` wrote 22 characters, 282 px) and its strip is the 150% one; the
    /// exact share stays in the accessible name.
    @Test func aHugeShareIsCapped() throws {
        let maximum = UInt64(Int64.max)
        let capped = try badge(maximum, of: 1, label: "stars")
        let least = try badge(10_000, of: 1_000, label: "stars")
        #expect(capped.value == ">999%")
        #expect(capped.width == least.width && capped.marks.map(\.segments) == least.marks.map(\.segments))
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
