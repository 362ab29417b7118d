/// A minimal JSON writer: keys in the order given, numbers through `DecimalText`, strings escaped.
/// Hand-written because JSONEncoder cannot keep SPEC §5's key order (count, frame, marks) and
/// prints doubles with platform-dependent digits.
package enum JSONText {
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"a": 1, "b": 2}` from pairs whose values are already JSON.
    package static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    package static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}
