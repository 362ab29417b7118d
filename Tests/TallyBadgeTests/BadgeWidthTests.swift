import Foundation
import PropertyBased
import Testing

@testable import TallyBadge
@testable import TallyGeometry

/// shields.io's "flat" badge width, as badge-maker computes it (lib/badge-renderers.js, a badge
/// without a logo): a text's width is its advance at 11 px truncated to whole pixels and, if
/// even, made odd (`roundUpToOdd(anafanafo(text, '11px Verdana') | 0)`, "to increase chances
/// of pixel grid alignment"); the label plate is its text's width plus 5 px of padding on each
/// side, and absent for an empty label; the message plate likewise. shields measures Verdana;
/// here the advances are DejaVu Sans' (`BadgeFont.width`), the face the badge draws with, as
/// SPEC §7's comparison allows: the same text, measured the same way on both sides.
enum ShieldsWidth {
    /// shields' padding on each side of a text.
    static let padding = 5.0

    /// A text's width in shields' rule, from its advance: truncated, then odd.
    static func truncatedOdd(_ advance: Double) -> Double {
        let truncated = advance.rounded(.towardZero)
        return truncated.truncatingRemainder(dividingBy: 2) == 0 ? truncated + 1 : truncated
    }

    /// A text's width in shields' rule, its advance at 11 px.
    static func text(_ text: String) -> Double { truncatedOdd(BadgeFont.width(of: text, size: 11)) }

    /// The width of a flat badge whose label text is `label` pixels wide (none for nil; an
    /// empty label has none either) and whose message text is `message` pixels wide, both as
    /// `text(_:)` measures them.
    static func badge(label: Double?, message: Double) -> Double {
        (label.map { $0 + 2 * padding } ?? 0) + message + 2 * padding
    }
}

/// Text widths at 11 px without `BadgeFont.width`'s per-call cost (about 0.2 ms in a debug
/// build, too slow for 200,000 texts): the same sum in the same order, font units of advances
/// and kerning (whole numbers, so exact), scaled once, with each ASCII glyph's advance and
/// each pair's kerning looked up once. Held to `BadgeFont.width` on a sample.
struct TextWidths {
    private var advances = [Double](repeating: .nan, count: 128)
    private var kerning = [Double](repeating: .nan, count: 128 * 128)
    private let unitsPerEm = BadgeFont.data(.regular).unitsPerEm

    /// The advance of `text` at `size` pixels, as `BadgeFont.width(of:size:)` gives it.
    mutating func width(of text: String, size: Double) -> Double {
        var units = 0.0
        var previous: Int?
        for scalar in text.unicodeScalars {
            let code = Int(scalar.value)
            guard code < 128 else { return BadgeFont.width(of: text, size: size) }
            if advances[code].isNaN { advances[code] = BadgeFont.glyph(scalar)?.advance ?? 0 }
            if let previous {
                let pair = previous * 128 + code
                if kerning[pair].isNaN {
                    kerning[pair] = BadgeFont.kern(Unicode.Scalar(UInt8(previous)), scalar)
                }
                units += kerning[pair]
            }
            units += advances[code]
            previous = code
        }
        return units * size / unitsPerEm
    }
}

/// SPEC §7, "At home beside shields": the width does not jump with the count. Counts whose
/// number texts are as wide give badges as wide, and a badge is at most 48 px wider than the
/// shields badge of the same label and text. Walked over every count up to 100,000 and 1,000
/// counts spread over every magnitude, through a width-only path (`width(label:value:withGoal:)`,
/// the strip's `BadgeStrip.width(withGoal:)`) that a property holds to the drawn badge.
@Suite struct BadgeWidthTests {
    /// SPEC §7: how much wider than shields' badge a badge may be.
    static let widerThanShieldsAtMost = 48.0
    static let labels: [String?] = [nil, "downloads", "a", "stars", "Ünïcode, wide label"]

    /// A badge's width without drawing it, as `Badge.init` lays it out: the label plate
    /// ⌈2·6 + w(label)⌉, then the value plate's 6 px padding, the strip and its 4 px gap, the
    /// number (`valueWidth`, its advance at 11 px) and 6 px, the whole rounded up to a pixel.
    static func width(labelWidth: Double?, valueWidth: Double, withGoal: Bool) -> Double {
        var x = labelWidth.map { (2 * 6 + $0).rounded(.up) } ?? 0
        x += 6
        x += BadgeStrip.width(withGoal: withGoal) + 4
        return (x + valueWidth + 6).rounded(.up)
    }

    /// The same, from the texts.
    static func width(label: String?, value: String, withGoal: Bool) -> Double {
        width(
            labelWidth: label.map { BadgeFont.width(of: $0, size: 11) },
            valueWidth: BadgeFont.width(of: value, size: 11),
            withGoal: withGoal)
    }

    /// The width-only path is the drawn badge's width, for any count, goal and label.
    @Test func theWidthOnlyPathIsTheBadgesWidth() async throws {
        await propertyCheck(
            count: 300, input: Gen<Int>.value(in: 1...19), Gen<UInt64>.value(in: 0...UInt64.max),
            Gen<UInt64>.value(in: 0...UInt64.max), Gen<Int>.value(in: 0...5)
        ) { digits, raw, rawGoal, choice in
            let value = countWithDigits(digits, raw)
            let goal = choice == 5 ? nil : goalWithDigits(rawGoal)
            let label = Self.labels[choice % Self.labels.count]
            let drawn = try makeBadge(value, of: goal, label: label)
            let cheap = Self.width(label: label, value: drawn.value, withGoal: goal != nil)
            #expect(drawn.width == cheap, "\(value) of \(String(describing: goal)), \(String(describing: label))")
        }
    }

    /// Counts to walk, each with its successor: every count up to 100,000, and 1,000 spread
    /// evenly in logarithm up to Int64.max − 1.
    static let spread: [UInt64] = (0..<1_000).map { index in
        let maximum = Double(Int64.max)
        let value = pow(maximum, Double(index) / 999)
        return value >= maximum ? UInt64(Int64.max) - 1 : UInt64(value)
    }

    /// The walked counts' number texts and their widths at 11 px, with their successors'
    /// widths; every 1,009th width also from `BadgeFont.width`, which the fast path must match
    /// exactly. Each text of the dense walk is made once, its successor being the next count.
    static func texts(goal: UInt64?) throws -> [(count: UInt64, text: String, width: Double, next: Double)] {
        let target = try goal.map { try tallyCount($0) }
        var widths = TextWidths()
        func measured(_ value: UInt64) throws -> (String, Double) {
            let text = BadgeNumber.text(try tallyCount(value), goal: target)
            return (text, widths.width(of: text, size: 11))
        }
        let dense = try (0...100_001 as ClosedRange<UInt64>).map { try measured($0) }
        var walk = (0...100_000).map { index in
            (UInt64(index), dense[index].0, dense[index].1, dense[index + 1].1)
        }
        for value in Self.spread {
            let (text, width) = try measured(value)
            walk.append((value, text, width, try measured(value + 1).1))
        }
        for index in stride(from: 0, to: walk.count, by: 1_009) {
            #expect(walk[index].2 == BadgeFont.width(of: walk[index].1, size: 11), "the fast width of \(walk[index].1)")
        }
        return walk
    }

    /// A badge and its successor's whose number texts are as wide are as wide, with and without
    /// a goal and a label; and the drawn badges agree where the digits change.
    @Test(arguments: [nil, 1_000] as [UInt64?])
    func countsWithTextsAsWideGiveBadgesAsWide(_ goal: UInt64?) throws {
        let withGoal = goal != nil
        let labelWidths: [Double?] = [nil, BadgeFont.width(of: "downloads", size: 11)]
        for (value, _, width, next) in try Self.texts(goal: goal) where width == next {
            for label in labelWidths {
                let (left, right) = (
                    Self.width(labelWidth: label, valueWidth: width, withGoal: withGoal),
                    Self.width(labelWidth: label, valueWidth: next, withGoal: withGoal)
                )
                if left != right { Issue.record("\(value) and its successor: \(left) and \(right) px") }
            }
        }
        // Drawn, where the digits change and the form with them: each badge is as wide as the
        // width-only path says, and counts whose texts have the same advances are as wide.
        for exponent in 1...18 {
            for value in [powerOfTen(exponent) - 1, powerOfTen(exponent)] {
                let drawn = try makeBadge(value, of: goal, label: "downloads")
                #expect(drawn.width == Self.width(label: "downloads", value: drawn.value, withGoal: withGoal))
            }
        }
        for (a, b) in [(UInt64(1), UInt64(9)), (10, 99), (5_000, 9_999), (10_000_000, 99_999_999)] {
            #expect(try makeBadge(a, of: goal).width == makeBadge(b, of: goal).width, "\(a) and \(b)")
        }
    }

    /// Every badge is at most 48 px wider than shields' flat badge of the same label and text
    /// (SPEC §7), over the walked counts, with and without a goal, for each label.
    @Test(arguments: [nil, 1_000, 7] as [UInt64?])
    func noBadgeIsMuchWiderThanShields(_ goal: UInt64?) throws {
        let labels = Self.labels.map { label in
            (label, label.map { BadgeFont.width(of: $0, size: 11) }, label.map { ShieldsWidth.text($0) })
        }
        var widest = -Double.infinity
        for (_, text, width, _) in try Self.texts(goal: goal) {
            let message = ShieldsWidth.truncatedOdd(width)
            for (label, labelWidth, shieldsLabel) in labels {
                let ours = Self.width(labelWidth: labelWidth, valueWidth: width, withGoal: goal != nil)
                let theirs = ShieldsWidth.badge(label: shieldsLabel, message: message)
                widest = max(widest, ours - theirs)
                if ours - theirs > Self.widerThanShieldsAtMost {
                    Issue.record("\(String(describing: label)), \(text): \(ours) px against shields' \(theirs)")
                    return
                }
            }
        }
        #expect(widest <= Self.widerThanShieldsAtMost)
    }
}

/// SPEC §7's number: the count grouped in full up to nine characters, else shields' metric
/// short form, three significant digits cut (never rounded up) and k, M, G, T, P, E; no glyph
/// smaller than the digits. Literals pinned from the contract.
@Suite struct BadgeNumberTests {
    @Test func theNumberIsFullOrMetric() throws {
        let cases: [(UInt64, String)] = [
            (0, "0"), (7, "7"), (999, "999"), (1_234, "1,234"), (9_999_999, "9,999,999"),
            (10_000_000, "10.0M"), (12_399_999, "12.3M"), (207_725_055, "207M"), (999_999_999, "999M"),
            (1_000_000_000, "1.00G"), (9_999_999_999, "9.99G"), (123_456_789_012_345, "123T"),
            (1_000_000_000_000, "1.00T"), (1_000_000_000_000_000, "1.00P"),
            (8_383_838_383_838_383_838, "8.38E"), (UInt64(Int64.max), "9.22E"),
        ]
        for (value, text) in cases { #expect(BadgeNumber.number(value) == text, "\(value)") }
        // A share keeps its form.
        #expect(BadgeNumber.text(try tallyCount(6_200), goal: try tallyCount(10_000)) == "62%")
        #expect(BadgeNumber.text(try tallyCount(1), goal: try tallyCount(10_000)) == "<1%")
        #expect(BadgeNumber.text(try tallyCount(UInt64(Int64.max)), goal: try tallyCount(1)) == ">999%")
    }

    /// For any count from 10⁷ on: the count's first three digits, cut, a point after the
    /// digits of its group of thousands (none for three), and the group's suffix; never more
    /// than five characters.
    @Test func theShortFormIsTheLeadingDigitsCut() async {
        let suffixes: [Character] = ["k", "M", "G", "T", "P", "E"]
        await propertyCheck(
            count: 500, input: Gen<Int>.value(in: 8...19), Gen<UInt64>.value(in: 0...UInt64.max)
        ) { digits, raw in
            let value = max(10_000_000, countWithDigits(digits, raw))
            let text = BadgeNumber.number(value)
            let all = Array(String(value))
            let group = (all.count - 1) / 3
            let whole = all.count - 3 * group
            #expect(text.last == suffixes[group - 1], "\(value): \(text)")
            let mantissa = text.dropLast()
            #expect(mantissa.filter { $0 != "." } == String(all.prefix(3)), "\(value): \(text), cut")
            #expect(
                (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? 3)
                    == whole)
            #expect(text.count <= 5)
        }
    }

    /// The outline bounds of a character at 11 px on the baseline at y = 14.
    static func bounds(_ character: Character) throws -> (top: Double, bottom: Double) {
        let contours = BadgeFont.outlines(of: String(character), size: 11, origin: Point(0, 14))
        let ys = contours.flatMap { $0.flatMap { [$0.start.y, $0.end.y] } }
        return (try #require(ys.min()), try #require(ys.max()))
    }

    /// No letter or digit of a value text is smaller than the digits, nor raised: each stands
    /// on the baseline at least as tall as the shortest digit (no superscript exponent, as the
    /// caption's short form writes). Checked on every character the texts use, and that the
    /// texts use no other.
    @Test func noGlyphIsSmallerThanTheDigits() throws {
        let digits = try "0123456789".map { try Self.bounds($0) }
        let shortest = try #require(digits.map { $0.bottom - $0.top }.min())
        for character in "0123456789kMGTPE" {
            let glyph = try Self.bounds(character)
            #expect(glyph.bottom - glyph.top >= shortest - 1e-9, "\(character) is shorter than the digits")
            #expect(abs(glyph.bottom - 14) < 0.5, "\(character) does not stand on the baseline")
        }
        let allowed = Set("0123456789,.kMGTPE")
        var value: UInt64 = 1
        while value < UInt64(Int64.max) / 3 {
            for count in [value, value * 3 - 1, value * 3] {
                let text = BadgeNumber.number(count)
                #expect(text.allSatisfy { allowed.contains($0) }, "\(count): \(text)")
            }
            value *= 3
        }
    }
}
