import TallyBadge
import TallyGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The colours a badge's plates are given (SPEC §7, "At home beside shields"): `--color` for the
/// value plate and `--label-color` for the label plate, nil for the theme's own (the paper and
/// the grey). A given colour is the same in both schemes, as shields' colours are.
package struct BadgePlates: Hashable, Sendable {
    /// The label plate's colour (`--label-color`, `?labelColor=`).
    package var label: RGBA?
    /// The value plate's colour (`--color`, `?color=`).
    package var value: RGBA?

    /// Plates in these colours; nil keeps the theme's.
    package init(label: RGBA? = nil, value: RGBA? = nil) {
        self.label = label
        self.value = value
    }
}

/// shields.io's colour vocabulary, read as badge-maker's `color.js` reads it (SPEC §7): its
/// named colours, their aliases, and hex with or without `#`; then any colour tally's other
/// options take (`RGBA(parsing:)`: `#RGB`, `#RRGGBB`, a CSS colour name), opaque, since a plate
/// drawn over a page tally cannot see could not promise its text's contrast.
package enum ShieldsColors {
    /// shields' named colours, as badge-maker's `color.js` defines them.
    package static let named: [(name: String, hex: UInt32)] = [
        ("brightgreen", 0x44CC11), ("green", 0x97CA00), ("yellow", 0xDFB317), ("yellowgreen", 0xA4A61D),
        ("orange", 0xFE7D37), ("red", 0xE05D44), ("blue", 0x007EC6), ("grey", 0x555555), ("lightgrey", 0x9F9F9F),
    ]

    /// shields' aliases of its named colours.
    package static let aliases: [(name: String, of: String)] = [
        ("gray", "grey"), ("lightgray", "lightgrey"), ("critical", "red"), ("important", "orange"),
        ("success", "brightgreen"), ("informational", "blue"), ("inactive", "lightgrey"),
    ]

    /// Every name shields gives a colour, for messages and suggestions.
    package static var names: [String] { named.map(\.name) + aliases.map(\.name) }

    /// Why some text is not a plate's colour.
    package enum Problem: Error, Hashable, Sendable {
        /// Neither a shields name, nor hex, nor a colour `RGBA(parsing:)` reads.
        case notAColor
        /// A colour that is not opaque (`none`, `#11223380`).
        case notOpaque
    }

    /// A plate's colour as shields reads it: a shields name or alias (any letter case, so
    /// `green` is shields' #97CA00, not CSS's #008000), 3 or 6 hex digits with or without `#`
    /// (`4c1`, `#4c1`, `ff8800`), else a CSS colour name or `#RRGGBBAA` that is opaque.
    ///
    /// ```swift
    /// let plate = try ShieldsColors.color("brightgreen")  // #44CC11
    /// ```
    /// - Throws: `Problem`.
    package static func color(_ text: String) throws(Problem) -> RGBA {
        let lower = text.lowercased()
        let name = aliases.first { $0.name == lower }?.of ?? lower
        if let named = named.first(where: { $0.name == name }) { return RGBA(hex: named.hex) }
        // shields' `^([\da-f]{3}){1,2}$`: bare hex, which a URL can carry without escaping `#`.
        if lower.utf8.count == 3 || lower.utf8.count == 6, lower.utf8.allSatisfy({ isHexDigit($0) }) {
            if let color = try? RGBA(parsing: "#" + lower) { return color }
        }
        guard let color = try? RGBA(parsing: text) else { throw .notAColor }
        guard color.alpha == 255 else { throw .notOpaque }
        return color
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}

/// WCAG 2's contrast (SPEC §2, "Contrast"): relative luminance of sRGB, and the ratio
/// (L1 + 0.05) / (L2 + 0.05) of the lighter to the darker.
package enum Contrast {
    /// The relative luminance of an opaque colour, 0 (black) to 1 (white).
    package static func luminance(_ color: RGBA) -> Double {
        0.2126 * linearSRGB[Int(color.red)] + 0.7152 * linearSRGB[Int(color.green)] + 0.0722
            * linearSRGB[Int(color.blue)]
    }

    /// The contrast ratio of two opaque colours, 1 to 21.
    package static func ratio(_ a: RGBA, _ b: RGBA) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// `top` at `opacity` over `bottom`, as a backend composites it (in sRGB, rounded).
    package static func over(_ top: RGBA, opacity: Double, _ bottom: RGBA) -> RGBA {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) * opacity + Double(b) * (1 - opacity)).rounded())
        }
        return RGBA(
            red: mix(top.red, bottom.red), green: mix(top.green, bottom.green), blue: mix(top.blue, bottom.blue))
    }
}

extension Appearance {
    /// White text, on a plate where white reaches 4.5:1.
    package static let badgeLightText = RGBA(hex: 0xFFFFFF)
    /// Black text, on a plate where white does not: black then always reaches 4.5:1 (white and
    /// black give the same ratio, 4.58:1, at luminance 0.179; above it black gives more).
    /// shields' own dark text, #333, would give 3.5:1 on its red and 2.9:1 on its blue.
    package static let badgeDarkText = RGBA(hex: 0x000000)

    /// The text on a plate of this colour (SPEC §7): white where it has at least 4.5:1, else
    /// black. shields decides by a brightness threshold; this guarantees the ratio.
    package static func badgeText(on plate: RGBA) -> RGBA {
        Contrast.ratio(badgeLightText, plate) >= 4.5 ? badgeLightText : badgeDarkText
    }

    /// The least contrast a mark keeps on a coloured value plate (SPEC §2, "Contrast").
    package static let badgeMarkContrast = 3.0

    /// The colour of a badge's plate, text or shadow (SPEC §7), with the plates' colours given.
    ///
    /// The label plate is `--label-color`, else shields.io's grey, #555555, in both themes: a
    /// tally badge's label is the same grey as the shields badges beside it on either page. The
    /// value plate is `--color`, else the theme's paper. Text on a given colour is white or
    /// black by `badgeText(on:)`; on the paper it is the theme's ink (14:1 and more), and white
    /// on the grey (7.5:1). The value plate's frame takes the
    /// value plate's colour where one is given (shields' plates are unframed), else the label
    /// plate's, so a light paper keeps its edge on a white page. A shadow is shields' flat one:
    /// #010101 at 30% under text lighter than its plate, #CCCCCC at 30% under darker text.
    package func badgeColor(_ role: Badge.Role, dark: Bool, plates: BadgePlates = BadgePlates()) -> RGBA {
        let palette = palette(dark: dark)
        let labelPlate = plates.label ?? RGBA(hex: 0x555555)
        let valuePlate = plates.value ?? palette.paper
        let labelText = Self.badgeText(on: labelPlate)
        let valueText = plates.value.map(Self.badgeText(on:)) ?? palette.c1
        func shadow(under text: RGBA, on plate: RGBA) -> RGBA {
            Contrast.luminance(text) > Contrast.luminance(plate)
                ? RGBA(hex: 0x010101, alpha: 77) : RGBA(hex: 0xCCCCCC, alpha: 77)
        }
        switch role {
        case .frame: return plates.value ?? labelPlate
        case .labelPlate: return labelPlate
        case .labelText: return labelText
        case .valuePlate: return valuePlate
        case .valueText: return valueText
        case .labelShadow: return shadow(under: labelText, on: labelPlate)
        case .valueShadow: return shadow(under: valueText, on: valuePlate)
        }
    }

    /// The palette a badge's marks are drawn in (SPEC §7): the theme's, overrides applied; on a
    /// given value colour, each token under 3:1 on it takes the plate's text colour instead
    /// (which has 4.5:1), so a slash that keeps 3:1 stays red and one that does not reads by its
    /// angle alone.
    package func badgeMarkPalette(dark: Bool, plates: BadgePlates = BadgePlates()) -> Palette {
        var palette = palette(dark: dark)
        guard let plate = plates.value else { return palette }
        let text = Self.badgeText(on: plate)
        for token in ColorToken.allCases where Contrast.ratio(palette[token], plate) < Self.badgeMarkContrast {
            palette[token] = text
        }
        return palette
    }

    /// A badge's marks as drawn on its value plate: on a given colour, a translucent mark (the
    /// progress bar) whose blend with the plate would fall under 3:1 in a scheme drawn is made
    /// opaque; on the paper, unchanged.
    package func badgeMarks(_ marks: [Mark], plates: BadgePlates = BadgePlates()) -> [Mark] {
        guard let plate = plates.value else { return marks }
        let schemes = theme == .auto ? [false, true] : [theme == .dark]
        let palettes = schemes.map { badgeMarkPalette(dark: $0, plates: plates) }
        return marks.map { mark in
            guard mark.opacity < 1 else { return mark }
            let faint = palettes.contains {
                Contrast.ratio(Contrast.over($0[mark.color], opacity: mark.opacity, plate), plate)
                    < Self.badgeMarkContrast
            }
            var mark = mark
            if faint { mark.opacity = 1 }
            return mark
        }
    }
}
