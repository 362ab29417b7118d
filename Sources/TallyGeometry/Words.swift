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

    /// The structure in words: "1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and
    /// 4 strokes"; "An empty frame" for 0.
    public static func description(for count: TallyCount) -> String {
        let parts = structure(of: count).map { "\($0.count) \($0.level.name(count: $0.count))" }
        switch parts.count {
        case 0: return "An empty frame"
        case 1: return parts[0]
        default: return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        }
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

    /// Digits grouped by threes with commas, independent of locale: 1234567 → "1,234,567".
    public static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value))
        var text = ""
        text.reserveCapacity(digits.count + digits.count / 3)
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
