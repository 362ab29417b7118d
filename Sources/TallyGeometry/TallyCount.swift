/// A count that can be drawn: a whole number from 0 to `Int64.max`.
///
/// The core works in `UInt64` because the frame above the largest count (a ten-quintillion-row,
/// 10¹⁹) no longer fits an `Int64`; this type keeps the public range at `0 ... Int64.max`.
public struct TallyCount: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The count as a number.
    public let value: UInt64

    /// The largest count there is: `Int64.max`, 9,223,372,036,854,775,807.
    public static let maximum = TallyCount(unchecked: UInt64(Int64.max))
    /// No marks: an empty frame.
    public static let zero = TallyCount(unchecked: 0)

    /// A count from an integer; nil for a negative one. (An integer literal makes a count directly: `let c: TallyCount = 137`.)
    public init?(_ value: Int64) {
        guard value >= 0 else { return nil }
        self.value = UInt64(value)
    }

    /// A count from an unsigned integer; nil above `Int64.max`.
    public init?(exactly value: UInt64) {
        guard value <= UInt64(Int64.max) else { return nil }
        self.value = value
    }

    init(unchecked value: UInt64) { self.value = value }

    /// Why some text is not a count, or the count it names. Decimal digits are accepted, grouped
    /// by threes with commas or underscores if at all (`1234`, `1,234`, `1_234`, one kind of
    /// separator, every group but the first three digits long), and never a locale's separators,
    /// a decimal point or an exponent, so the same text is read the same way everywhere.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case negative
        case notANumber
        case tooLarge

        /// What is wrong with the text, as a message's predicate: "is negative". The command
        /// line and the server write it after the value as given (`count '-5' is negative`).
        public var reason: String {
            switch self {
            case .empty, .notANumber: "is not a number"
            case .negative: "is negative"
            case .tooLarge: "is too large"
            }
        }

        /// "the text is negative; a count is a whole number from 0 to 9,223,372,036,854,775,807".
        public var description: String {
            "the text \(reason); a count is a whole number from 0 to \(TallyCount.maximum)"
        }
    }

    /// The count some text names.
    ///
    /// Every type that reads text reads it this way: `init(parsing:)`, throwing its own
    /// `ParseError`, which describes itself.
    ///
    /// ```swift
    /// let count = try TallyCount(parsing: "1,234")   // 1234
    /// try TallyCount(parsing: "-5")                  // throws ParseError.negative
    /// ```
    /// - Throws: `ParseError` saying why the text names no count.
    public init(parsing text: String) throws(ParseError) {
        if text.isEmpty { throw .empty }
        guard var digits = Self.ungrouped(Substring(text)) else { throw .notANumber }
        if digits.first == "-" {
            digits = digits.dropFirst()
            if !digits.isEmpty, Self.isDigits(digits), digits.contains(where: { $0 != "0" }) {
                throw .negative
            }
            if digits.isEmpty || !Self.isDigits(digits) { throw .notANumber }
        } else if digits.first == "+" {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, Self.isDigits(digits) else { throw .notANumber }
        var value: UInt64 = 0
        for digit in digits.utf8 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { throw .tooLarge }
            value = sum
        }
        guard value <= UInt64(Int64.max) else { throw .tooLarge }
        self.value = value
    }

    /// Whether every character is an ASCII digit, read as UTF-8: the same answer as asking each
    /// `Character` (`isASCII && isNumber`), without breaking the text into grapheme clusters.
    private static func isDigits(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The text without its grouping separators, or nil when they are not grouping by threes
    /// (`1,23`, `1,234_567`, `,123`). Text without separators comes back as it is.
    private static func ungrouped(_ text: Substring) -> Substring? {
        guard let separator = text.utf8.first(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "_") })
        else { return text }
        var sign = text.prefix { $0 == "-" || $0 == "+" }
        if sign.count > 1 { sign = sign.prefix(1) }
        let groups = text.dropFirst(sign.count).split(
            separator: Character(Unicode.Scalar(separator)), omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count),
            groups.dropFirst().allSatisfy({ $0.count == 3 }),
            groups.allSatisfy(isDigits)
        else { return nil }
        return Substring(String(sign) + groups.joined())
    }

    /// Counts order by value.
    public static func < (lhs: TallyCount, rhs: TallyCount) -> Bool { lhs.value < rhs.value }

    /// A count written in code: `let count: TallyCount = 137`, `TallyMarks.svg(137)`. A negative
    /// literal does not compile; one over `Int64.max` stops the program, as an overflowing
    /// integer literal would.
    public init(integerLiteral value: UInt64) {
        precondition(value <= UInt64(Int64.max), "a count is at most 9,223,372,036,854,775,807")
        self.value = value
    }

    /// Digits grouped by threes with commas ("1,234"), the same in every locale.
    public var description: String { Words.grouped(value) }
}
