/// Numbers as text, the same on every machine and locale: at most `digits` decimals, rounded
/// half away from zero, trailing zeros dropped, `.` as the separator, never an exponent and
/// never `-0`. Written by hand because Foundation's formatters follow the locale and
/// `description` switches to exponents for large and small values.
public enum DecimalText {
    public static func fixed(_ value: Double, digits: Int = 3) -> String {
        precondition((0...6).contains(digits))
        guard value.isFinite else { return "0" }
        var scale: Double = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Past 2⁵³ a Double holds no fraction anyway; keep the integer part only.
        guard scaled < 9.0e15 else {
            let whole = abs(value).rounded(.toNearestOrAwayFromZero)
            let text = whole < 1.8e19 ? String(UInt64(whole)) : "0"
            return value < 0 ? "-" + text : text
        }
        let units = UInt64(scaled)
        if units == 0 { return "0" }
        let divisor = UInt64(scale)
        var text = value < 0 ? "-" : ""
        text += String(units / divisor)
        var fraction = units % divisor
        if fraction > 0 {
            var width = digits
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            let fractionDigits = String(fraction)
            text += "." + String(repeating: "0", count: width - fractionDigits.count) + fractionDigits
        }
        return text
    }
}
