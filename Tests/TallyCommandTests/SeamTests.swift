import Foundation
import TallyTestSupport
import Testing

/// Seams read as seams. Measured on the JSON scene that `tally render N -f json`
/// prints (every mark, the designed pens), from its segments and pens alone: at every level,
/// the ink gap between neighbouring units is at least 1.5 × the largest ink gap between
/// neighbouring units inside one of them.
@Suite struct SeamTests {
    /// The ink of a group of marks: their segments' ends (and bows) widened by half their pen.
    struct Ink {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

        mutating func add(_ x: Double, _ y: Double, _ half: Double) {
            minX = min(minX, x - half)
            minY = min(minY, y - half)
            maxX = max(maxX, x + half)
            maxY = max(maxY, y + half)
        }

        func overlapsAcross(_ other: Ink, horizontally: Bool) -> Bool {
            horizontally ? minY < other.maxY && other.minY < maxY : minX < other.maxX && other.minX < maxX
        }
    }

    struct JSONMark {
        let kind: String
        let unit: UInt64
        let ink: Ink
    }

    /// The marks of a count's JSON scene.
    static func marks(_ count: UInt64) throws -> [JSONMark] {
        let run = try TallyProcess.run(["render", String(count), "-f", "json"])
        try #require(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let marks = try #require(object["marks"] as? [[String: Any]])
        return try marks.map { mark in
            let width = try #require(mark["width"] as? Double)
            var ink = Ink()
            for segment in try #require(mark["segments"] as? [[Double]]) {
                for index in stride(from: 0, to: segment.count - 1, by: 2) {
                    ink.add(segment[index], segment[index + 1], width / 2)
                }
            }
            return JSONMark(
                kind: try #require(mark["kind"] as? String),
                unit: try #require((mark["unit"] as? NSNumber)?.uint64Value), ink: ink)
        }
    }

    /// Marks in count order, cut after each cap that closes a unit: complete units, then the one being filled.
    static func units(_ marks: [JSONMark], closedBy cap: (kind: String, unit: UInt64)) -> [[JSONMark]] {
        var groups: [[JSONMark]] = [[]]
        for mark in marks {
            groups[groups.count - 1].append(mark)
            if mark.kind == cap.kind && mark.unit == cap.unit { groups.append([]) }
        }
        return groups.filter { !$0.isEmpty }
    }

    static func ink(_ marks: [JSONMark]) -> Ink {
        var ink = Ink()
        for mark in marks {
            ink.add(mark.ink.minX, mark.ink.minY, 0)
            ink.add(mark.ink.maxX, mark.ink.maxY, 0)
        }
        return ink
    }

    /// The ink gaps between neighbours: units side by side (overlapping across) with no other
    /// unit between them. Diagonal neighbours (the dice-five's centre and a corner) do not count.
    static func neighbourGaps(_ inks: [Ink]) -> [Double] {
        var gaps: [Double] = []
        for (i, a) in inks.enumerated() {
            for (j, b) in inks.enumerated() where j > i {
                for horizontally in [true, false] where a.overlapsAcross(b, horizontally: horizontally) {
                    let (low, high) =
                        horizontally
                        ? (min(a.maxX, b.maxX), max(a.minX, b.minX)) : (min(a.maxY, b.maxY), max(a.minY, b.minY))
                    guard high > low else { continue }
                    let between = inks.enumerated().contains { k, c in
                        k != i && k != j && c.overlapsAcross(a, horizontally: horizontally)
                            && c.overlapsAcross(b, horizontally: horizontally)
                            && (horizontally ? c.minX >= low && c.maxX <= high : c.minY >= low && c.maxY <= high)
                    }
                    if !between { gaps.append(high - low) }
                }
            }
        }
        return gaps
    }

    @Test(arguments: [
        // count, the cap that closes each unit of the level, the cap that closes each unit inside it
        // (Counts whose units are complete, or the last one all but complete: a unit holding one
        // stroke has wide gaps inside it by nature, and its cell, not its ink, marks its place.)
        (UInt64(75), "cross", UInt64(25), "slash", UInt64(5)),  // twenty-five-units of a hundred-block; gates
        (99, "cross", 25, "slash", 5),
        (299, "cross", 100, "cross", 25),  // squares of a row; twenty-five-units
        (999, "cross", 100, "cross", 25),
        (2_999, "line", 1_000, "cross", 100),  // rows of a block; squares
        (9_999, "line", 1_000, "cross", 100),
        (29_999, "diagonal", 10_000, "line", 1_000),  // blocks of a row; rows
        (99_999, "diagonal", 10_000, "line", 1_000),
        (299_999, "line", 100_000, "diagonal", 10_000),  // rows of a million-block; blocks
        (999_999, "line", 100_000, "diagonal", 10_000),
    ])
    func seamsAreWiderThanTheGapsInsideTheUnitsTheySeparate(
        _ count: UInt64, _ kind: String, _ unit: UInt64,
        _ innerKind: String, _ innerUnit: UInt64
    ) throws {
        let units = Self.units(try Self.marks(count), closedBy: (kind, unit))
        try #require(units.count >= 2, "\(count): \(units.count) units")
        let seams = Self.neighbourGaps(units.map(Self.ink))
        var inside: [Double] = []
        for unitMarks in units {
            // A unit's own marks (its cap, a collapsed square's box) are not units inside it.
            let parts = Self.units(unitMarks.filter { $0.unit != unit }, closedBy: (innerKind, innerUnit))
            if parts.count >= 2 { inside += Self.neighbourGaps(parts.map(Self.ink)) }
        }
        let narrowestSeam = try #require(seams.min(), "\(count): no seams")
        let widestInside = try #require(inside.max(), "\(count): no gaps inside a unit")
        #expect(
            narrowestSeam >= 1.5 * widestInside,
            "\(count): the narrowest seam is \(narrowestSeam), the widest gap inside a unit \(widestInside)")
    }
}
