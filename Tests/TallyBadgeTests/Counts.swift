/// 10 to the power `exponent`, for exponents up to 19.
func powerOfTen(_ exponent: Int) -> UInt64 { (0..<exponent).reduce(1) { value, _ in value * 10 } }

/// A count of `digits` decimal digits or fewer drawn from `raw`, at most `Int64.max`.
func countWithDigits(_ digits: Int, _ raw: UInt64) -> UInt64 {
    min(raw % powerOfTen(min(digits, 19)), UInt64(Int64.max))
}
