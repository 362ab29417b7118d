import Foundation
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

/// SPEC §7, "At home beside shields": `--color` and `--label-color` take shields.io's named
/// colours (badge-maker's `color.js`), its aliases and hex; text on a plate keeps 4.5:1 and
/// marks on the value plate 3:1, by WCAG 2's formula, computed here from the literals.
@Suite struct BadgeColorTests {
    /// badge-maker's `namedColors` and `aliases`, pinned.
    static let shields: [(name: String, hex: UInt32)] = [
        ("brightgreen", 0x44CC11), ("green", 0x97CA00), ("yellowgreen", 0xA4A61D), ("yellow", 0xDFB317),
        ("orange", 0xFE7D37), ("red", 0xE05D44), ("blue", 0x007EC6), ("lightgrey", 0x9F9F9F), ("grey", 0x555555),
        ("gray", 0x555555), ("lightgray", 0x9F9F9F), ("success", 0x44CC11), ("important", 0xFE7D37),
        ("critical", 0xE05D44), ("informational", 0x007EC6), ("inactive", 0x9F9F9F),
    ]

    /// WCAG 2's relative luminance of an sRGB colour.
    static func luminance(_ hex: UInt32) -> Double {
        func linear(_ channel: UInt32) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(hex >> 16 & 0xFF) + 0.7152 * linear(hex >> 8 & 0xFF) + 0.0722 * linear(hex & 0xFF)
    }

    /// WCAG 2's contrast ratio.
    static func ratio(_ a: UInt32, _ b: UInt32) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// `top` at `opacity` over `bottom`, in sRGB values, as a backend blends.
    static func over(_ top: UInt32, _ opacity: Double, _ bottom: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in [16, 8, 0] as [UInt32] {
            let a = Double(top >> shift & 0xFF)
            let b = Double(bottom >> shift & 0xFF)
            out |= UInt32((a * opacity + b * (1 - opacity)).rounded()) << shift
        }
        return out
    }

    static func hex(_ color: RGBA) -> UInt32 { UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue) }

    @Test(arguments: shields)
    func shieldsNamesAreItsColours(_ name: String, _ hex: UInt32) throws {
        #expect(Self.hex(try ShieldsColors.color(name)) == hex)
        #expect(Self.hex(try ShieldsColors.color(name.uppercased())) == hex, "any letter case")
    }

    /// Hex as shields takes it, with or without `#`, 3 or 6 digits; CSS names where shields
    /// has none; a translucent colour or none is refused, as is anything else.
    @Test func hexAndCSSColours() throws {
        let cases: [(String, UInt32)] = [
            ("555", 0x555555), ("4c1", 0x44CC11), ("#4c1", 0x44CC11), ("ff8800", 0xFF8800), ("#FF8800", 0xFF8800),
            ("rebeccapurple", 0x663399), ("#112233ff", 0x112233),
        ]
        for (text, hex) in cases { #expect(Self.hex(try ShieldsColors.color(text)) == hex, "\(text)") }
        for text in ["none", "transparent", "#11223380"] {
            #expect(throws: ShieldsColors.Problem.notOpaque) { try ShieldsColors.color(text) }
        }
        for text in ["", "brigthgreen", "12", "1234", "ggg", "#4c", "4c1 ", "#"] {
            #expect(throws: ShieldsColors.Problem.notAColor) { try ShieldsColors.color(text) }
        }
    }

    /// Strips with every kind of mark the badge draws: strokes, a gate's slash, crosses, boxes,
    /// lines, diagonals, a translucent progress bar, dotted tracks.
    static func strips() throws -> [Badge] {
        let counts: [(UInt64, UInt64?)] = [
            (9, nil), (99, nil), (137, nil), (1_234, nil), (12_345, nil), (6_200, 10_000),
        ]
        return try counts.map { count, goal in
            try Badge(
                count: try #require(TallyCount(exactly: count)),
                goal: try goal.map { try #require(TallyCount(exactly: $0)) },
                label: "downloads")
        }
    }

    /// Every shields colour as the value plate, in light, dark and auto (both schemes): the
    /// number's text has 4.5:1, every mark as drawn (its colour over the plate at its opacity)
    /// 3:1; and the plate is the given colour in both schemes.
    @Test(arguments: shields)
    func valuePlatesKeepTheirContrast(_ name: String, _ hex: UInt32) throws {
        let plates = BadgePlates(value: try ShieldsColors.color(name))
        for theme in [Theme.light, .dark, .auto] {
            let appearance = Appearance(theme: theme)
            let schemes = theme == .auto ? [false, true] : [theme == .dark]
            for dark in schemes {
                #expect(Self.hex(appearance.badgeColor(.valuePlate, dark: dark, plates: plates)) == hex)
                let text = Self.hex(appearance.badgeColor(.valueText, dark: dark, plates: plates))
                #expect(Self.ratio(text, hex) >= 4.5, "\(name) \(theme): text \(String(text, radix: 16))")
                let palette = appearance.badgeMarkPalette(dark: dark, plates: plates)
                for badge in try Self.strips() {
                    for mark in appearance.badgeMarks(badge.marks, plates: plates) {
                        let drawn = Self.over(Self.hex(palette[mark.color]), mark.opacity, hex)
                        #expect(
                            Self.ratio(drawn, hex) >= 3,
                            "\(name) \(theme) dark=\(dark) \(badge.count.value): \(mark.kind) \(String(drawn, radix: 16)) \(Self.ratio(drawn, hex)):1"
                        )
                    }
                }
            }
        }
    }

    /// Every shields colour as the label plate: its text has 4.5:1, in both themes.
    @Test(arguments: shields)
    func labelPlatesKeepTheirContrast(_ name: String, _ hex: UInt32) throws {
        let plates = BadgePlates(label: try ShieldsColors.color(name))
        for dark in [false, true] {
            let appearance = Appearance(theme: dark ? .dark : .light)
            #expect(Self.hex(appearance.badgeColor(.labelPlate, dark: dark, plates: plates)) == hex)
            let text = Self.hex(appearance.badgeColor(.labelText, dark: dark, plates: plates))
            #expect(Self.ratio(text, hex) >= 4.5, "\(name): \(String(text, radix: 16))")
        }
    }

    /// Text is white wherever white reaches 4.5:1 (shields' grey, #555555, in both themes), and black elsewhere.
    @Test(arguments: shields)
    func textIsWhiteWhereWhiteReads(_ name: String, _ hex: UInt32) throws {
        let text = Self.hex(Appearance.badgeText(on: try ShieldsColors.color(name)))
        #expect(text == (Self.ratio(0xFFFFFF, hex) >= 4.5 ? 0xFFFFFF : 0x000000))
    }

    /// Property: any opaque plate colour gets text of 4.5:1 (white and black meet at 4.58:1).
    @Test func anyPlateGetsReadableText() {
        var state: UInt32 = 0x9E37_79B9
        for _ in 0..<2_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let hex = state >> 8
            let text = Self.hex(Appearance.badgeText(on: RGBA(hex: hex)))
            #expect(Self.ratio(text, hex) >= 4.5, "\(String(hex, radix: 16))")
        }
    }

    /// Without `--color` and `--label-color` the plates are the theme's (SPEC §3, §7): the paper
    /// and its ink, shields' grey with white.
    @Test func withoutColoursThePlatesAreTheThemes() {
        let expected: [(Bool, [Badge.Role: UInt32])] = [
            (false, [.labelPlate: 0x555555, .labelText: 0xFFFFFF, .valuePlate: 0xFAFAF7, .valueText: 0x262629]),
            (true, [.labelPlate: 0x555555, .labelText: 0xFFFFFF, .valuePlate: 0x1C1C1F, .valueText: 0xEBEBED]),
        ]
        for (dark, roles) in expected {
            for (role, hex) in roles { #expect(Self.hex(Appearance(theme: .auto).badgeColor(role, dark: dark)) == hex) }
            #expect(Appearance().badgeMarkPalette(dark: dark) == (dark ? Palette.dark : Palette.light))
        }
    }

    /// Under `--theme auto` a given colour is the same in both schemes: written once, before the
    /// dark media query, which holds no rule for its role (the media query holds only the colours
    /// that change, so a later rule there would be the only way to change it).
    @Test func autoKeepsAGivenColourInBothSchemes() throws {
        let badge = try Badge(count: try #require(TallyCount(exactly: 5)), label: "tests")
        let settings = BadgeSettings(
            format: .svg, label: "tests", appearance: Appearance(theme: .auto),
            plates: BadgePlates(label: RGBA(hex: 0x007EC6), value: RGBA(hex: 0x44CC11)))
        let svg = String(decoding: try Renderer.badge(badge, settings), as: UTF8.self)
        let parts = svg.components(separatedBy: "@media (prefers-color-scheme:dark)")
        try #require(parts.count == 2, "one dark media query")
        for (rule, role) in [
            (".valuePlate{fill:#44cc11}", ".valuePlate{"), (".labelPlate{fill:#007ec6}", ".labelPlate{"),
            (".valueText{fill:#000000}", ".valueText{"),
        ] {
            #expect(parts[0].components(separatedBy: rule).count == 2, "\(rule) once, for both schemes")
            #expect(!parts[1].contains(role), "\(role) in the dark media query")
        }
        // A colour that does change is in it: the marks' ink on the theme's paper.
        #expect(parts[1].contains(".stroke{"))
    }
}
