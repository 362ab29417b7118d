import PropertyBased
import Testing

@testable import TallyGeometry

/// SPEC §5: "The count check every renderer must pass".
@Suite struct CountTableTests {
    @Test func everyCountBelowTenThousandMatchesTheTable() {
        for n in UInt64(0)..<10_000 {
            let n1000 = Int(n / 1000)
            let h = Int(n / 100 % 10)
            let m = Int(n % 100)
            let (q, f, o) = (m / 25, (m % 25) / 5, m % 5)
            let table: [MarkKey: Int] = [
                MarkKey(kind: .stroke, unit: 1): 4 * (5 * q + f) + o,
                MarkKey(kind: .slash, unit: 5): 5 * q + f,
                MarkKey(kind: .cross, unit: 25): q,
                MarkKey(kind: .cross, unit: 100): h,
                MarkKey(kind: .box, unit: 100): h + 10 * n1000,
                MarkKey(kind: .line, unit: 1000): n1000,
                MarkKey(kind: .diagonal, unit: 10000): 0,
            ].filter { $0.value > 0 }
            let actual = histogram(scene(n))
            if actual != table {
                Issue.record("count \(n): expected \(table), drew \(actual)")
                return
            }
        }
    }

    @Test func tenThousandIsTenRowsAndTheDiagonal() {
        #expect(
            histogram(scene(10_000)) == [
                MarkKey(kind: .box, unit: 100): 100,
                MarkKey(kind: .line, unit: 1000): 10,
                MarkKey(kind: .diagonal, unit: 10000): 1,
            ])
    }

    @Test func aHundredThousandIsTenBoxesAndALine() {
        #expect(
            histogram(scene(100_000)) == [
                MarkKey(kind: .box, unit: 10000): 10,
                MarkKey(kind: .line, unit: 100000): 1,
            ])
    }

    /// 10,000 < n < 100,000, n = 10,000·a + m: a boxes and a diagonals, plus the table for m.
    @Test func betweenTenThousandAndAHundredThousand() async {
        await propertyCheck(count: 300, input: Gen<UInt64>.value(in: 10_001...99_999)) { n in
            let a = Int(n / 10_000)
            var expected = histogram(scene(n % 10_000))
            if n % 10_000 == 0 { expected = [:] }
            expected[MarkKey(kind: .box, unit: 10000)] = a
            expected[MarkKey(kind: .diagonal, unit: 10000)] = a
            #expect(histogram(scene(n)) == expected, "count \(n)")
        }
    }

    @Test func theOracleAgreesWithTheTableBelowTenThousand() {
        // The oracle used above 10,000 must be the same rule as SPEC's table where both apply.
        // One issue for all the counts that disagree, not one a count.
        let disagreeing = (UInt64(0)...10_000).filter { expectedHistogram($0) != histogram(scene($0)) }
        if let first = disagreeing.first {
            Issue.record(
                "\(disagreeing.count) counts disagree, the first \(first): oracle \(expectedHistogram(first)), drawn \(histogram(scene(first)))"
            )
        }
    }

    /// The rules beyond 10,000 for counts of every length up to Int64.max.
    @Test func everyCountUpToInt64MaxFollowsTheRules() async {
        await propertyCheck(count: 2_000, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max)) {
            digits, raw in
            let n = countWithDigits(digits, raw)
            #expect(histogram(scene(n)) == expectedHistogram(n), "count \(n)")
        }
    }

    @Test(arguments: [
        UInt64(Int64.max), 1_000_000, 100_000_000, 1_000_000_000_000_000_000, 999_999_999_999_999_999,
        8_999_999_999_999_999_999, 10_000_000_000_000_000, 100_000_000_000_000_000, 10_001, 1_000_001,
    ])
    func landmarkCounts(_ n: UInt64) {
        #expect(histogram(scene(n)) == expectedHistogram(n))
    }

    /// SPEC §2, colours by kind at every rank: lines C1, diagonals C2, boxes C3, crosses C2,
    /// strokes C1, slashes accent; a progress fill in the strokes' C1. Small scales included, so
    /// progress marks are checked too.
    @Test func colorsFollowTheDesignSystem() async {
        await propertyCheck(
            count: 500, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<Bool>.bool
        ) { digits, raw, small in
            let n = countWithDigits(digits, raw)
            let detail: Detail = small ? .automatic(pixelsPerUnit: 256 / Canvas(for: tallyCount(n)).width) : .full
            for mark in scene(n, detail).marks {
                let expected: ColorToken
                switch mark.kind {
                // The caption is type in the ink (SPEC §2, "The caption").
                case .stroke, .line, .progress, .edge, .caption, .dotted: expected = .c1
                case .slash: expected = .accent
                case .cross, .diagonal: expected = .c2
                // A goal's remaining cells: the colour of boxes, never the ink of progress (SPEC §6).
                case .box, .remaining: expected = .c3
                }
                #expect(mark.color == expected, "\(mark.kind) of unit \(mark.unit) in \(n)")
            }
        }
    }
}
