/// Numbers as text, the same on every machine and locale: at most `digits` decimals, rounded
/// half away from zero, trailing zeros dropped, `.` as the separator, never an exponent and
/// never `-0`. Written by hand because Foundation's formatters follow the locale and
/// `description` switches to exponents for large and small values.
public enum DecimalText {
    public static func fixed(_ value: Double, digits: Int = 3) -> String {
        var buffer = TextBuffer()
        buffer.append(value, digits: digits)
        return buffer.string
    }
}

/// An output being built as UTF-8 bytes: faster than joining Strings for thousands of numbers.
public struct TextBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    public mutating func append(byte: UInt8) { bytes.append(byte) }

    private static let powers: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// A number as `DecimalText` describes; `leadingZero: false` writes `.5` for `0.5`, as SVG allows.
    public mutating func append(_ value: Double, digits: Int = 3, leadingZero: Bool = true) {
        precondition((0...6).contains(digits))
        guard value.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        let scale = Self.powers[digits]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Past 2⁵³ a Double holds no fraction anyway; keep the integer part only.
        if scaled >= 9.0e15 {
            let whole = abs(value).rounded(.toNearestOrAwayFromZero)
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(whole < 1.8e19 ? UInt64(whole) : 0)
            return
        }
        let units = UInt64(scaled)
        if units == 0 { bytes.append(UInt8(ascii: "0")); return }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        if whole > 0 || leadingZero || fraction == 0 { appendDigits(whole) }
        if fraction > 0 {
            var width = digits
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            bytes.append(UInt8(ascii: "."))
            var divisor: UInt64 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
    }

    public mutating func append(integer value: UInt64) { appendDigits(value) }

    private mutating func appendDigits(_ value: UInt64) {
        if value < 10 { bytes.append(UInt8(ascii: "0") + UInt8(value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }
}
