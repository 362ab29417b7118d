import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// 10 to the power `exponent`, for exponents up to 19.
func powerOfTen(_ exponent: Int) -> UInt64 { (0..<exponent).reduce(1) { value, _ in value * 10 } }

/// A count of `digits` decimal digits or fewer drawn from `raw`, at most `Int64.max`.
func countWithDigits(_ digits: Int, _ raw: UInt64) -> UInt64 {
    min(raw % powerOfTen(min(digits, 19)), UInt64(Int64.max))
}

/// A count, which must be one.
func tallyCount(_ value: UInt64) throws -> TallyCount { try #require(TallyCount(exactly: value)) }

/// A badge of `value`, toward `goal` if any, with `label` if any.
func makeBadge(_ value: UInt64, of goal: UInt64? = nil, label: String? = nil) throws -> Badge {
    try Badge(count: try tallyCount(value), goal: try goal.map { try tallyCount($0) }, label: label)
}

/// Whether a·b ≤ c·d, in 128 bits: the strip's shares compared without overflow.
func product(_ a: UInt64, _ b: UInt64, isAtMost c: UInt64, _ d: UInt64) -> Bool {
    let (left, right) = (a.multipliedFullWidth(by: b), c.multipliedFullWidth(by: d))
    return left.high != right.high ? left.high < right.high : left.low <= right.low
}

/// A goal of 1 to 19 digits drawn from `raw`, at least 1 and at most `Int64.max`.
func goalWithDigits(_ raw: UInt64) -> UInt64 {
    max(1, countWithDigits(Int(raw % 19) + 1, raw))
}
