import TallyGeometry

/// The text on a badge's value plate (SPEC §7): the number, or with a goal the share.
package enum BadgeNumber {
    /// The largest share a badge writes in full (SPEC §7); a larger one is written `>999%`.
    package static let largestShareWritten = 999

    /// shields.io's metric suffixes, for 10³, 10⁶ … 10¹⁸ (SPEC §7).
    static let metricSuffixes = ["k", "M", "G", "T", "P", "E"]

    /// "1,234" in full up to `fullNumberCharacters`, else the metric short form shields writes
    /// ("10.0M", "207M", "9.22E"; `metric(_:)`); with a goal, the share ("62%"), and over 999%
    /// `>999%`: a count of Int64.max toward a goal of 1 would otherwise write 22 characters,
    /// wider than the count's own badge. The exact share stays in the title.
    package static func text(_ count: TallyCount, goal: TallyCount?) -> String {
        if let goal {
            let digits = Words.percentDigits(count, of: goal)
            if digits.count > String(largestShareWritten).count { return ">\(largestShareWritten)%" }
            return Words.percent(count, of: goal)
        }
        return number(count.value)
    }

    /// The count grouped in full ("9,999,999") where that has at most
    /// `BadgeProportions.fullNumberCharacters` characters, else `metric(_:)`.
    package static func number(_ value: UInt64) -> String {
        let full = Words.grouped(value)
        return full.count <= BadgeProportions.fullNumberCharacters ? full : metric(value)
    }

    /// A count in three significant digits and shields' metric suffix (k, M, G, T, P, E):
    /// 10,000,000 → "10.0M", 207,725,055 → "207M", Int64.max → "9.22E". The digits are cut,
    /// never rounded up, so the badge never says more than the count; and every character is
    /// a digit, a point or a capital-height letter, never a raised or smaller glyph, so the
    /// number reads at 11 px beside shields' own (SPEC §7). The caption's short form
    /// (`Words.short`, K/M/B/T and ×10ⁿ) stays the pictures'.
    package static func metric(_ value: UInt64) -> String {
        let digits = Array(String(value).utf8)
        guard digits.count > 3 else { return String(value) }
        let group = (digits.count - 1) / 3
        let whole = digits.count - 3 * group
        let kept = digits.prefix(3)
        let number =
            String(decoding: kept.prefix(whole), as: UTF8.self)
            + (whole < 3 ? "." + String(decoding: kept.dropFirst(whole), as: UTF8.self) : "")
        return number + metricSuffixes[group - 1]
    }
}
