import TallyGeometry

/// The text on a badge's value plate (SPEC §7): the number, or with a goal the share.
package enum BadgeNumber {
    /// The largest share a badge writes in full (SPEC §7); a larger one is written `>999%`.
    package static let largestShareWritten = 999

    /// "1,234" in full up to `fullNumberCharacters`, else the caption's short form ("12.3M",
    /// cut, never rounded up); with a goal, the share ("62%"), and over 999% `>999%`: a count of
    /// Int64.max toward a goal of 1 would otherwise write 22 characters, wider than the count's
    /// own badge. The exact share stays in the title.
    package static func text(_ count: TallyCount, goal: TallyCount?) -> String {
        if let goal {
            let digits = Words.percentDigits(count, of: goal)
            if digits.count > String(largestShareWritten).count { return ">\(largestShareWritten)%" }
            return Words.percent(count, of: goal)
        }
        return Words.number(count.value, within: BadgeProportions.fullNumberCharacters)
    }
}
