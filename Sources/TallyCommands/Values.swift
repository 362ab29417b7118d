import TallyEncoding
import TallyGeometry
import TallyRender

/// Reading the values of the command line, with errors that name the value and what is allowed.
package enum Values {
    static let countRange = "a whole number from 0 to \(TallyCount.maximum)"

    /// The image limits of SPEC §6 in words, from `Viewport`'s own limits.
    static let imageLimits =
        "images are at most \(Words.grouped(UInt64(Viewport.maximumSide))) px a side and \(Int(Viewport.maximumPixels / 1_000_000)) megapixels"

    static func count(_ text: String, what: String = "count") throws(CommandFailure) -> TallyCount {
        switch TallyCount.parse(text) {
        case .success(let count): return count
        case .failure(.negative): throw .usage("\(what) '\(printable(text))' is negative; it must be \(countRange)")
        case .failure(.tooLarge): throw .usage("\(what) '\(printable(text))' is too large; it must be \(countRange)")
        case .failure(.empty), .failure(.notANumber):
            throw .usage("\(what) '\(printable(text))' is not a number; it must be \(countRange)")
        }
    }

    /// A number the user gave, for an error message: as typed for the values a fixed-point
    /// rendering would hide (`inf`, `nan`, `1e+308`, `1e-200`), else with up to 3 decimals.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let magnitude = abs(value)
        if magnitude >= 1e15 || (magnitude > 0 && magnitude < 0.001) { return "\(value)" }
        return DecimalText.fixed(value)
    }

    /// A pixel count or side for an error message, grouped: `268,435,456`.
    package static func pixels(_ value: Double) -> String {
        value.isFinite && value >= 0 && value < 1.8e19 ? Words.grouped(UInt64(value.rounded())) : number(value)
    }

    /// A frame as `--frame` names it (SPEC §2): a capacity or a unit's name.
    static func frame(_ text: String) throws(CommandFailure) -> UnitLevel {
        guard let level = UnitLevel(frameName: text) else {
            throw .usage(
                "--frame '\(printable(text))' is not a frame; use 25, 100, 1000, 10000, … up to \(UnitLevel.largest.capacity), or a name such as hundred-block, row or block"
            )
        }
        return level
    }

    /// The message for a count larger than the pinned frame.
    static func countBeyondFrame(_ count: TallyCount, _ level: UnitLevel, _ text: String) -> CommandFailure {
        .usage(
            "count \(count) does not fit in --frame '\(printable(text))', a \(level.name) of \(Words.grouped(level.capacity)); pin a frame of at least the count, or none"
        )
    }

    /// The format after -f, else the extension of -o, else `fallback` (standard output).
    static func format<Format: RawRepresentable & CaseIterable>(
        explicit: Format?, output: String?, fallback: Format,
        fromExtension: (String) -> Format?
    ) throws(CommandFailure) -> Format
    where Format.RawValue == String {
        if let explicit { return explicit }
        guard let output, output != "-" else { return fallback }
        // A path with no extension, or a device (`-o /dev/null`, `-o /dev/stdout`), gets the
        // default; an extension that names no format is a mistake worth a message.
        if lowercasedExtension(of: output) == nil || output.hasPrefix("/dev/") {
            return fromExtension(output) ?? fallback
        }
        guard let format = fromExtension(output) else {
            let names = Format.allCases.map(\.rawValue)
            throw .usage(
                "cannot tell the format of '\(printable(output))'; use -f \(names.dropLast().joined(separator: ", ")) or \(names.last!), or a path ending in one of them"
            )
        }
        return format
    }

    /// User text inside an error message: control characters escaped (`\u{1B}`), so a value
    /// can never drive the terminal or break the line, and cut after `limit` characters (`…`),
    /// so a 16 MB line of a count list makes a one-line error.
    package static func printable(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var characters = 0
        for scalar in text.unicodeScalars {
            if characters >= limit { return out + "…" }
            let category = scalar.properties.generalCategory
            if category == .control || category == .format && scalar.value < 0x2000 || scalar.value == 0x2028
                || scalar.value == 0x2029
            {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            characters += 1
        }
        return out
    }
}
