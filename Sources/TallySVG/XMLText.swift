/// Text for XML: markup characters escaped and characters XML 1.0 forbids replaced, so any
/// user text (a `--label`) reaches the document as text and never as markup.
package enum XMLText {
    package static func escaped(_ text: String) -> String {
        // Most text (every title and description tally makes) is plain ASCII with nothing to
        // escape: one pass over the bytes returns it as it is.
        if text.utf8.allSatisfy({
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "<")
                && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'")
        }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0x7F...0x9F).contains(value) && value != 0xFFFE && value != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}
