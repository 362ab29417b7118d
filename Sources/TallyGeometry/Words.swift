/// The accessible words every backend uses (SPEC §5): the title and the structure sentence.
public enum Words {
    /// "No tally marks", "1 tally mark", "1,234 tally marks".
    public static func title(for count: TallyCount) -> String {
        switch count.value {
        case 0: "No tally marks"
        case 1: "1 tally mark"
        default: "\(grouped(count.value)) tally marks"
        }
    }

    /// `title(for:)` as UTF-8, for a writer that builds bytes (the SVG): a heap string made and
    /// freed costs a first image about 10K instructions in the runtime, the bytes nothing.
    package static func titleBytes(for count: TallyCount) -> [UInt8] {
        switch count.value {
        case 0: Array("No tally marks".utf8)
        case 1: Array("1 tally mark".utf8)
        default: groupedBytes(count.value) + " tally marks".utf8
        }
    }

    /// The title of a count, or with a goal its progress toward it (`--of`, SPEC §6):
    /// "6,200 of 10,000 (62%)".
    public static func title(for count: TallyCount, goal: TallyCount?) -> String {
        guard let goal else { return title(for: count) }
        return "\(grouped(count.value)) of \(grouped(goal.value)) (\(percent(count, of: goal)))"
    }

    /// A count's share of its goal in whole percent, rounded down, never up: 9,999 of 10,000 is
    /// "99%", a count short of 1% "<1%", 12,000 of 10,000 "120%".
    public static func percent(_ count: TallyCount, of goal: TallyCount) -> String {
        let digits = percentDigits(count, of: goal)
        return digits == "0" && count.value > 0 ? "<1%" : digits + "%"
    }

    /// ⌊count × 100 / goal⌋ in decimal digits (a count of Int64.max of 1 passes UInt64).
    package static func percentDigits(_ count: TallyCount, of goal: TallyCount) -> String {
        guard goal.value > 0 else { return "0" }
        // Without overflow: the whole goals, then the hundredths of the rest.
        let (whole, rest) = count.value.quotientAndRemainder(dividingBy: goal.value)
        let hundredths = goal.value.dividingFullWidth(rest.multipliedFullWidth(by: 100)).quotient
        if whole == 0 { return "\(hundredths)" }
        return "\(whole)" + (hundredths < 10 ? "0" : "") + "\(hundredths)"
    }

    /// The structure in words: "1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and
    /// 4 strokes"; "An empty frame" for 0.
    public static func description(for count: TallyCount) -> String {
        String(decoding: descriptionBytes(for: count), as: UTF8.self)
    }

    /// `description(for:)` as UTF-8, for a writer that builds bytes (the SVG).
    package static func descriptionBytes(for count: TallyCount) -> [UInt8] {
        // Bytes, largest unit first, without the tuples of `structure(of:)`: every image of
        // every count carries this sentence, so it is built in one pass.
        var rest = count.value
        var parts = 0
        var text: [UInt8] = []
        var lastSeparator = 0
        for level in UnitLevel.all.reversed() where rest >= level.capacity {
            let number = rest / level.capacity
            rest %= level.capacity
            if parts > 0 {
                lastSeparator = text.count
                text += ", ".utf8
            }
            parts += 1
            appendDigits(number, to: &text)
            text.append(UInt8(ascii: " "))
            text += level.name.utf8
            if number != 1 { text.append(UInt8(ascii: "s")) }
        }
        if parts == 0 { return Array("An empty frame".utf8) }
        if parts > 1 {
            // The last ", " becomes " and ".
            text.replaceSubrange(lastSeparator..<lastSeparator + 2, with: " and ".utf8)
        }
        return text
    }

    /// The count as whole units, largest first, leaving out levels with none: 1,234 is
    /// 1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes. Each
    /// capacity divides the next, so taking the largest units first is exact.
    public static func structure(of count: TallyCount) -> [(level: UnitLevel, count: Int)] {
        var rest = count.value
        var parts: [(level: UnitLevel, count: Int)] = []
        for level in UnitLevel.all.reversed() where rest >= level.capacity {
            parts.append((level, Int(rest / level.capacity)))
            rest %= level.capacity
        }
        return parts
    }

    /// The count grouped in full where it has at most `characters` characters, else its short
    /// form (`short(_:)`): what a badge's number and the terminal preview's caption write.
    package static func number(_ value: UInt64, within characters: Int) -> String {
        let full = grouped(value)
        return full.count <= characters ? full : short(value)
    }

    /// A count in three significant digits and a scale, for a caption or badge too narrow for
    /// every digit (SPEC §2, "Magnitude in the picture"): one rule for every count, "999",
    /// "1.00K", "1.23K", "99.9K", "999K", "1.00M", "9.22B", "1.00T", and from 10¹⁵ on a raised
    /// power of ten, "1.00×10¹⁵", "9.22×10¹⁸". The digits are cut, never rounded up, so the
    /// short form never says more than the count; zeros are kept, so 1,000,000 and 1,234,567
    /// are written alike ("1.00M", "1.23M").
    public static func short(_ value: UInt64) -> String {
        let digits = Array(String(value).utf8)
        guard digits.count > 3 else { return String(value) }
        let exponent = digits.count - 1
        let (scale, suffix): (Int, String) =
            switch exponent {
            case 3..<6: (3, "K")
            case 6..<9: (6, "M")
            case 9..<12: (9, "B")
            case 12..<15: (12, "T")
            default: (exponent, "×10" + superscript(exponent))
            }
        let whole = digits.count - scale
        let kept = digits.prefix(3)
        let number =
            String(decoding: kept.prefix(whole), as: UTF8.self)
            + (whole < 3 ? "." + String(decoding: kept.dropFirst(whole), as: UTF8.self) : "")
        return number + suffix
    }

    /// The superscript digits 0 to 9, which write a short form's power of ten (and which
    /// `StrokeFont` draws raised).
    package static let superscriptDigits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]

    /// A number in superscript digits: 18 → "¹⁸".
    private static func superscript(_ value: Int) -> String {
        String(String(value).map { superscriptDigits[Int($0.asciiValue! - UInt8(ascii: "0"))] })
    }

    /// Digits grouped by threes with commas, independent of locale: 1234567 → "1,234,567".
    public static func grouped(_ value: UInt64) -> String {
        String(decoding: groupedBytes(value), as: UTF8.self)
    }

    /// `grouped(_:)` as UTF-8.
    package static func groupedBytes(_ value: UInt64) -> [UInt8] {
        var digits: [UInt8] = []
        appendDigits(value, to: &digits)
        var text: [UInt8] = []
        text.reserveCapacity(digits.count + digits.count / 3)
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(UInt8(ascii: ",")) }
            text.append(digit)
        }
        return text
    }

    /// A number's decimal digits, appended as ASCII.
    private static func appendDigits(_ value: UInt64, to text: inout [UInt8]) {
        let start = text.count
        var rest = value
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        text[start...].reverse()
    }
}
