/// A count that can be drawn: a whole number from 0 to `Int64.max`.
///
/// The core works in `UInt64` because the frame above the largest count (a ten-quintillion-row,
/// 10¹⁹) no longer fits an `Int64`; this type keeps the public range at `0 ... Int64.max`.
public struct TallyCount: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: UInt64

    /// The largest count there is: `Int64.max`, 9,223,372,036,854,775,807.
    public static let maximum = TallyCount(unchecked: UInt64(Int64.max))
    public static let zero = TallyCount(unchecked: 0)

    public init?(_ value: Int64) {
        guard value >= 0 else { return nil }
        self.value = UInt64(value)
    }

    public init?(exactly value: UInt64) {
        guard value <= UInt64(Int64.max) else { return nil }
        self.value = value
    }

    init(unchecked value: UInt64) { self.value = value }

    /// Why some text is not a count, or the count it names. Only plain decimal digits are
    /// accepted (no sign, no separators, no exponent) so that the same text is read the same way
    /// in every locale.
    public enum ParseError: Error, Equatable, Sendable {
        case empty
        case negative
        case notANumber
        case tooLarge
    }

    public static func parse(_ text: String) -> Result<TallyCount, ParseError> {
        if text.isEmpty { return .failure(.empty) }
        var digits = Substring(text)
        if digits.first == "-" {
            digits = digits.dropFirst()
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.contains(where: { $0 != "0" }) {
                return .failure(.negative)
            }
            if digits.isEmpty || !digits.allSatisfy({ $0.isASCII && $0.isNumber }) { return .failure(.notANumber) }
        } else if digits.first == "+" {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(.notANumber) }
        var value: UInt64 = 0
        for digit in digits.utf8 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return .failure(.tooLarge) }
            value = sum
        }
        guard let count = TallyCount(exactly: value) else { return .failure(.tooLarge) }
        return .success(count)
    }

    public static func < (lhs: TallyCount, rhs: TallyCount) -> Bool { lhs.value < rhs.value }

    /// Digits grouped by threes with commas ("1,234"), the same in every locale.
    public var description: String { Words.grouped(value) }
}
