import Foundation
import PropertyBased
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

@testable import TallySVG

@Suite struct SVGThemeTests {
    /// Every theme draws the same pens; only colours change.
    @Test(arguments: [Theme.light, .dark, .auto])
    func everyThemeSetsThePens(_ theme: Theme) throws {
        let text = String(
            decoding: try render(10_000, RenderSettings(appearance: Appearance(theme: theme))), as: UTF8.self)
        for selector in [".box{", ".line{", ".diagonal{"] {
            let parts = text.components(separatedBy: selector)
            try #require(parts.count > 1, "\(theme): no \(selector) rule")
            let rule = parts[1].prefix { $0 != "}" }
            #expect(rule.contains("stroke-width:"), "\(theme): \(selector)\(rule)")
        }
    }

    // MARK: Readable on light and dark pages (SPEC §2, §3)

    /// The pages an `<img>` of the default SVG may lie on, whatever the OS's scheme: white,
    /// GitHub's dark page and black.
    static let pages: [(name: String, color: UInt32)] = [
        ("#FFFFFF", 0xFFFFFF), ("#0D1117", 0x0D1117), ("#000000", 0x000000),
    ]

    /// Counts whose SVGs hold every kind of mark between them: strokes, slashes and a cross
    /// (27); a goal's remaining cells (37 of 100, 6,200 of 10,000); boxes, lines, a diagonal,
    /// a wash with its edge and the caption (12,345 at the default size).
    static let counts: [(count: UInt64, goal: UInt64?)] = [(27, nil), (37, 100), (6_200, 10_000), (12_345, nil)]

    /// SPEC §2's colour of each kind: strokes, lines and captions c1 (a wash and its edge are
    /// drawn in c1 too), crosses and diagonals c2, boxes c3 (a goal's remaining cells too), the
    /// slash accent.
    static let tokens: [String: ColorToken] = [
        "stroke": .c1, "line": .c1, "caption": .c1, "progress": .c1, "edge": .c1, "cross": .c2, "diagonal": .c2,
        "box": .c3, "remaining": .c3, "slash": .accent, "dotted": .c1,
    ]

    /// WCAG 2.2's relative luminance of `0xRRGGBB`, written out here rather than read from the code.
    static func luminance(_ color: UInt32) -> Double {
        func linear(_ channel: UInt32) -> Double {
            let c = Double(channel & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color >> 16) + 0.7152 * linear(color >> 8) + 0.0722 * linear(color)
    }

    /// WCAG 2.2's contrast ratio of two colours.
    static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// One class rule of an SVG's style sheet: the mark kind it selects, its colour and its
    /// declarations (`stroke-opacity` and the like).
    struct Rule {
        let kind: String
        let color: UInt32
        let declarations: [String: String]
    }

    /// The class rules an SVG writes before its dark media query (the light OS's, and what
    /// renderers without media queries draw) and inside it (the dark OS's).
    static func rules(_ svg: String) throws -> (light: [Rule], dark: [Rule]) {
        let start = try #require(svg.range(of: "<style>"))
        let end = try #require(svg.range(of: "</style>"))
        let style = svg[start.upperBound..<end.lowerBound]
        let halves = style.components(separatedBy: "@media (prefers-color-scheme:dark){")
        func parse(_ css: String) throws -> [Rule] {
            try css.split(separator: "}").compactMap { text -> Rule? in
                // `#id .box.u100{stroke:#8c8c91;stroke-width:9.85`; the `path` rule has no class.
                guard let dot = text.range(of: " ."), let brace = text.range(of: "{") else { return nil }
                let kind = text[dot.upperBound..<brace.lowerBound].split(separator: ".")[0]
                // The background's rectangle is not a mark.
                if kind == "bg" { return nil }
                var declarations: [String: String] = [:]
                for declaration in text[brace.upperBound...].split(separator: ";") {
                    let parts = declaration.split(separator: ":", maxSplits: 1)
                    try #require(parts.count == 2, "\(text)")
                    declarations[String(parts[0])] = String(parts[1])
                }
                let paint = try #require(
                    declarations["stroke"].flatMap { $0 == "none" ? nil : $0 } ?? declarations["fill"])
                try #require(paint.hasPrefix("#") && paint.count == 7, "\(text)")
                let color = try #require(UInt32(paint.dropFirst(), radix: 16))
                return Rule(kind: String(kind), color: color, declarations: declarations)
            }
        }
        return (try parse(halves[0]), halves.count > 1 ? try parse(halves[1]) : [])
    }

    /// The SVG of a count as `tally render` writes it with `appearance` (nil: the default).
    static func svg(_ count: UInt64, goal: UInt64? = nil, _ appearance: Appearance? = nil) throws -> String {
        let goal = try goal.map { try #require(TallyCount(exactly: $0)) }
        return String(
            decoding: try render(count, RenderSettings(appearance: appearance, goal: goal)), as: UTF8.self)
    }

    /// The colour of each token in one half of the style sheet; every kind of one token must
    /// agree (a kind in another colour than its token's is a bug of its own).
    static func palette(_ rules: [Rule], sourceLocation: SourceLocation = #_sourceLocation) throws -> [ColorToken:
        UInt32]
    {
        var palette: [ColorToken: UInt32] = [:]
        for rule in rules {
            let token = try #require(tokens[rule.kind], "unknown kind \(rule.kind)", sourceLocation: sourceLocation)
            if let earlier = palette[token] {
                #expect(earlier == rule.color, "\(rule.kind) is not \(token)'s colour", sourceLocation: sourceLocation)
            }
            palette[token] = rule.color
        }
        return palette
    }

    /// SPEC §2, "Readable on light and dark pages by default": the default SVG (`auto`,
    /// transparent) is seen as an `<img>` whose media query follows the OS, not the page, so
    /// both of its palettes must read on a white page, a #0D1117 page and a black one. Every
    /// mark that carries contrast, in both halves of the style sheet, is 3:1 or more against
    /// each (the old palettes' c1, #262629 and #EBEBED, were 1.25:1 and 1.19:1). Only the wash's
    /// tint, which shows an area and never an edge, is left out.
    @Test(arguments: counts.indices)
    func theDefaultReadsOnWhiteDarkAndBlackPages(_ index: Int) throws {
        let (count, goal) = Self.counts[index]
        let (light, dark) = try Self.rules(try Self.svg(count, goal: goal))
        try #require(!light.isEmpty && !dark.isEmpty, "\(count): auto must carry both palettes")
        // The dark half recolours every rule of the light half, so no colour of a light OS leaks.
        #expect(light.map(\.kind) == dark.map(\.kind), "\(count)")
        for (scheme, rules) in [("light OS", light), ("dark OS", dark)] {
            for rule in rules where rule.kind != "progress" {
                for page in Self.pages {
                    let ratio = Self.contrast(rule.color, page.color)
                    #expect(
                        ratio >= 3,
                        "\(count) \(scheme): \(rule.kind) #\(String(rule.color, radix: 16)) on \(page.name) is \(ratio):1"
                    )
                }
            }
        }
    }

    /// The mid tones themselves, pinned (SPEC §3's auto-on-transparent palettes), with the
    /// design's hierarchy kept for the page each OS scheme suggests (white for a light OS,
    /// #0D1117 for a dark one): strokes and lines at least as strong as crosses and diagonals,
    /// which stand 1.5:1 clear of the boxes they cross and so are never fainter than them
    /// (SPEC §2, "Tone follows level"); boxes lighter than the diagonal on a light OS and darker
    /// on a dark one; the slash 1.5:1 apart from the twenty-five-unit's cross in lightness, not
    /// only in hue.
    @Test func theMidTonesKeepTheHierarchy() throws {
        var light: [ColorToken: UInt32] = [:]
        var dark: [ColorToken: UInt32] = [:]
        for (count, goal) in Self.counts {
            let rules = try Self.rules(try Self.svg(count, goal: goal))
            light.merge(try Self.palette(rules.light)) { old, new in
                #expect(old == new)
                return old
            }
            dark.merge(try Self.palette(rules.dark)) { old, new in
                #expect(old == new)
                return old
            }
        }
        #expect(light == [.c1: 0x68686D, .c2: 0x6B6B70, .c3: 0x8C8C91, .accent: 0xF2594D])
        #expect(dark == [.c1: 0x8F8F94, .c2: 0x8C8C91, .c3: 0x6B6B70, .accent: 0xC4382C])
        for (scheme, palette, page) in [("light OS", light, UInt32(0xFFFFFF)), ("dark OS", dark, 0x0D1117)] {
            let c1 = try #require(palette[.c1])
            let c2 = try #require(palette[.c2])
            let c3 = try #require(palette[.c3])
            let accent = try #require(palette[.accent])
            #expect(Self.contrast(c1, page) >= Self.contrast(c2, page), "\(scheme): strokes weaker than crosses")
            #expect(Self.contrast(c2, page) > Self.contrast(c3, page), "\(scheme): diagonals fainter than boxes")
            #expect(Self.contrast(c1, page) > Self.contrast(c3, page), "\(scheme): lines fainter than boxes")
            #expect(Self.contrast(c2, c3) >= 1.5, "\(scheme): the diagonal against its boxes")
            #expect(Self.contrast(accent, c2) >= 1.5, "\(scheme): the slash against the cross")
            // The boxes sit on the page's side of the diagonal: lighter on a light OS.
            #expect((Self.luminance(c3) > Self.luminance(c2)) == (page == 0xFFFFFF), "\(scheme)")
        }
    }

    /// SPEC §3: explicit themes, and `auto` over a background the image draws itself, keep the
    /// full palettes, pinned here as SPEC writes them; only `auto` on a transparent background
    /// takes the mid tones.
    @Test func explicitThemesAndDrawnBackgroundsKeepSPECsPalettes() throws {
        let specLight: [ColorToken: UInt32] = [.c1: 0x262629, .c2: 0x59595E, .c3: 0x77777C, .accent: 0xD94033]
        let specDark: [ColorToken: UInt32] = [.c1: 0xEBEBED, .c2: 0xC4C4C6, .c3: 0x9A9A9C, .accent: 0xF2594D]
        let white = try Background(parsing: "#ffffff")
        let looks: [(Appearance, [ColorToken: UInt32], [ColorToken: UInt32]?)] = [
            (Appearance(theme: .light), specLight, nil), (Appearance(theme: .dark), specDark, nil),
            (Appearance(theme: .light, background: .paper), specLight, nil),
            (Appearance(theme: .auto, background: .paper), specLight, specDark),
            (Appearance(theme: .auto, background: white), specLight, specDark),
        ]
        for (look, first, second) in looks {
            for (count, goal) in [(UInt64(27), UInt64?.none), (12_345, nil)] {
                let (light, dark) = try Self.rules(try Self.svg(count, goal: goal, look))
                let drawn = try Self.palette(light)
                #expect(drawn.allSatisfy { first[$0.key] == $0.value }, "\(look) \(count): \(drawn)")
                if let second {
                    let drawnDark = try Self.palette(dark)
                    #expect(drawnDark.allSatisfy { second[$0.key] == $0.value }, "\(look) \(count): \(drawnDark)")
                } else {
                    #expect(dark.isEmpty, "\(look): one palette only")
                }
            }
        }
    }

    /// The user's colours win over the mid tones as over SPEC's palettes, in both halves.
    @Test func overridesWinOnATransparentAuto() throws {
        let look = Appearance(theme: .auto, overrides: [.c1: RGBA(hex: 0x3366FF), .accent: RGBA(hex: 0x00AA00)])
        let (light, dark) = try Self.rules(try Self.svg(27, look))
        for (scheme, rules) in [("light", light), ("dark", dark)] {
            let palette = try Self.palette(rules)
            #expect(palette[.c1] == 0x3366FF && palette[.accent] == 0x00AA00, "\(scheme): \(palette)")
            #expect(palette[.c2] == (scheme == "light" ? 0x6B6B70 : 0x8C8C91), "\(scheme): \(palette)")
        }
    }

    /// On a page tally cannot see, a translucent mark mixes with it: c1 at 55% (the wash's
    /// edge) or c3 at 85% (a goal's remaining cells) falls under 3:1 on a white page or a dark
    /// one whatever the colour. So the default SVG writes them opaque; only the wash's tint keeps
    /// its opacity, and stays a tint (well under half).
    @Test func translucentMarksAreOpaqueOnAnUnknownPage() throws {
        var seen: Set<String> = []
        for (count, goal) in Self.counts {
            let (light, _) = try Self.rules(try Self.svg(count, goal: goal))
            for rule in light {
                seen.insert(rule.kind)
                let opacity = rule.declarations["stroke-opacity"] ?? rule.declarations["fill-opacity"]
                if rule.kind == "progress" {
                    let tint = try #require(opacity.flatMap { Double($0) }, "the tint lost its opacity")
                    #expect(tint > 0 && tint < 0.5, "tint \(tint)")
                } else {
                    #expect(opacity == nil || opacity == "1", "\(count): \(rule.kind) at \(opacity ?? "")")
                }
            }
        }
        #expect(seen.isSuperset(of: ["progress", "edge", "remaining"]), "\(seen)")
    }
}
