@testable import TallyGeometry

/// A mark's kind and unit, the key of SPEC §5's count table.
struct MarkKey: Hashable, CustomStringConvertible {
    let kind: MarkKind
    let unit: UInt64
    var description: String { "\(kind.rawValue)(\(unit))" }
}

func tallyCount(_ value: UInt64) -> TallyCount { TallyCount(exactly: value)! }

func scene(_ value: UInt64, _ detail: Detail = .full) -> TallyScene {
    TallyScene(count: tallyCount(value), detail: detail)
}

func histogram(_ scene: TallyScene) -> [MarkKey: Int] {
    scene.marks.reduce(into: [:]) { $0[MarkKey(kind: $1.kind, unit: $1.unit), default: 0] += 1 }
}

func powerOfTen(_ exponent: Int) -> UInt64 { (0..<exponent).reduce(1) { value, _ in value * 10 } }

/// SPEC §5's count table, written out again from the spec's words and extended by its rules
/// "Beyond 10,000": an independent statement of how many marks of each kind a count has.
///
/// Below 10,000 (n = 1000·t + 100·h + 25·q + 5·f + o) it is the table itself. Above, each decimal
/// digit d at 10^e (e ≥ 4) counts complete units inside the partial unit above them: for a block
/// (e even) d boxes and d diagonals; for a row (e odd) d lines and the 10·d boxes of its blocks.
/// A complete block that is itself the frame (10^e, e even ≥ 4) keeps its ten rows in cap form
/// under its diagonal.
func expectedHistogram(_ n: UInt64) -> [MarkKey: Int] {
    var expected: [MarkKey: Int] = [:]
    func add(_ kind: MarkKind, _ unit: UInt64, _ count: Int) {
        if count > 0 { expected[MarkKey(kind: kind, unit: unit), default: 0] += count }
    }
    for exponent in stride(from: 4, through: 18, by: 2) where n == powerOfTen(exponent) {
        add(.line, powerOfTen(exponent - 1), 10)
        add(.box, powerOfTen(exponent - 2), 100)
        add(.diagonal, n, 1)
        return expected
    }
    for exponent in 3...18 {
        let unit = powerOfTen(exponent)
        let digit = Int((n / unit) % 10)
        if exponent % 2 == 1 {
            add(.line, unit, digit)
            add(.box, unit / 10, 10 * digit)
        } else {
            add(.box, unit, digit)
            add(.diagonal, unit, digit)
        }
    }
    let h = Int((n / 100) % 10)
    add(.box, 100, h)
    add(.cross, 100, h)
    let m = Int(n % 100)
    let (q, f, o) = (m / 25, (m % 25) / 5, m % 5)
    add(.cross, 25, q)
    add(.slash, 5, 5 * q + f)
    add(.stroke, 1, 4 * (5 * q + f) + o)
    return expected
}

/// A count of `digits` decimal digits or fewer drawn from `raw`, at most `Int64.max`.
func countWithDigits(_ digits: Int, _ raw: UInt64) -> UInt64 {
    min(raw % powerOfTen(min(digits, 19)), UInt64(Int64.max))
}
