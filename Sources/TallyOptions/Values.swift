import TallyEncoding
import TallyGeometry
import TallyPOSIX
import TallyRender

/// Reading the values users give, on the command line or in a URL, with one-line messages that
/// name the option and quote the value as given (SPEC §6).
package enum Values {
    package static let countRange = "a whole number from 0 to \(TallyCount.maximum)"

    /// The image limits of SPEC §6 in words, from `Viewport`'s own limits.
    package static let imageLimits = Viewport.limitsInWords

    /// A count (SPEC §1), or the message for it; `what` names where it came from.
    package static func count(_ text: String, what: String = "count") throws(CommandFailure) -> TallyCount {
        do {
            return try TallyCount(parsing: text)
        } catch {
            throw .usage("\(what) '\(printable(text))' \(error.reason); it must be \(countRange)")
        }
    }

    /// A frame as `--frame` names it (SPEC §2): a capacity or a unit's name.
    package static func frame(_ text: String) throws(CommandFailure) -> UnitLevel {
        do {
            return try UnitLevel(parsing: text)
        } catch {
            throw .usage(
                "--frame '\(printable(text))' \(error.reason); use 25, 100, 1000, 10000, … up to \(UnitLevel.largest.capacity), or a name such as hundred-block, row or block"
            )
        }
    }

    /// The message for a count larger than the pinned frame.
    package static func countBeyondFrame(_ count: TallyCount, _ level: UnitLevel, _ text: String) -> CommandFailure {
        .usage(
            "count \(count) does not fit in --frame '\(printable(text))', a \(level.name) of \(Words.grouped(level.capacity)); pin a frame of at least the count, or none"
        )
    }

    /// A count and the frame it is described in, checked as `tally describe` and
    /// `GET /describe/{count}` check them.
    package static func countInFrame(_ text: String, frame frameText: String?) throws(CommandFailure) -> (
        TallyCount, UnitLevel?
    ) {
        let count = try count(text)
        let level = try frameText.map { text throws(CommandFailure) in try frame(text) }
        if let level, level.capacity < count.value { throw countBeyondFrame(count, level, frameText ?? "") }
        return (count, level)
    }

    /// One of a fixed set of names (`--theme light`), or a message naming the option, saying
    /// what kind of value it is not, and listing the names: `--format '-5' is not a format; use
    /// svg, png, pdf or json`.
    package static func choice<Choice: RawRepresentable & CaseIterable>(
        _ text: String, option: String, noun: String
    ) throws(CommandFailure) -> Choice where Choice.RawValue == String {
        if let choice = Choice(rawValue: text) { return choice }
        throw .usage("\(option) '\(printable(text))' is not \(noun); use \(list(Choice.allCases.map(\.rawValue)))")
    }

    /// `a, b or c`.
    package static func list(_ names: [String], conjunction: String = "or") -> String {
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// A decimal number as people write it: digits with an optional point, sign and exponent
    /// (`12`, `-1.5`, `2e3`). Not `inf`, `nan`, hex floats or spaces, which `Double("…")` would
    /// take; nil for anything else.
    package static func decimal(_ text: String) -> Double? {
        var digits = 0
        var seenPoint = false
        var seenExponent = false
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return nil }
            case UInt8(ascii: "."):
                guard !seenPoint, !seenExponent else { return nil }
                seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard digits > 0, !seenExponent else { return nil }
                seenExponent = true
            default: return nil
            }
            previous = byte
        }
        guard digits > 0, previous != UInt8(ascii: "e"), previous != UInt8(ascii: "E"),
            previous != UInt8(ascii: "+"), previous != UInt8(ascii: "-")
        else { return nil }
        return Double(text)
    }

    /// A number computed from what the user gave, for a message: `inf`, or up to 3 decimals, or
    /// exponent notation where those would hide it.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let magnitude = abs(value)
        if magnitude >= 1e15 || (magnitude > 0 && magnitude < 0.001) { return "\(value)" }
        return DecimalText.fixed(value)
    }

    /// A pixel count or side for a message, grouped: `268,435,456`.
    package static func pixels(_ value: Double) -> String {
        value.isFinite && value >= 0 && value < 1.8e19 ? Words.grouped(UInt64(value.rounded())) : number(value)
    }

    /// "did you mean 'size'? " for the closest name within two edits (or, with `orPrefix`, one
    /// the word begins), else "".
    package static func suggestion(for word: String, among names: [String], orPrefix: Bool = false) -> String {
        let closest = names.min { editDistance(word, $0) < editDistance(word, $1) }
        return closest.flatMap {
            editDistance(word, $0) <= 2 || (orPrefix && $0.hasPrefix(word)) ? "did you mean '\($0)'? " : nil
        } ?? ""
    }

    /// Levenshtein distance, small words only.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64))
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// User text inside a message: control characters, line and paragraph separators and
    /// invisible format characters (Unicode category Cf: bidi controls such as U+202E, the BOM
    /// U+FEFF, zero-width joiners) escaped as `\u{1B}`, so a value can never drive the terminal,
    /// break the line or reorder what is shown; cut after `limit` characters (`…`), so a 16 MB
    /// line of a count list makes a one-line message.
    package static func printable(_ text: String, limit: Int = 200) -> String {
        // Printable ASCII within the limit is shown as it is: the server's access line quotes
        // every request's target, and the walk below cost 6K instructions for `/1234.svg`.
        let utf8 = text.utf8
        if utf8.count <= limit, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        var characters = 0
        for scalar in text.unicodeScalars {
            if characters >= limit { return out + "…" }
            if let byte = ByteText.rawByte(scalar) {
                // A byte of a name that is not UTF-8 (`ByteText`): shown as it is, `\xFF`.
                let hex = String(byte, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
                characters += 1
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
            characters += 1
        }
        return out
    }
}
