import TallyBadge
import TallyGeometry

/// SPEC §3: the colour tokens of the design system, light and dark. The boxes' c3 is darker
/// (light) and brighter (dark) than the seed's (#8C8C91, #858587), so every mark meets 3:1 in a
/// deliberate order (SPEC §2, "Contrast"); the dark c2 is brighter than the seed's #B8B8BA, so
/// a block's diagonal stands 1.5:1 clear of those brighter boxes (SPEC §2, "Tone follows level").
public struct Palette: Hashable, Sendable {
    /// The background when one is asked for.
    public var paper: RGBA
    /// Strokes and the thousand-row line.
    public var c1: RGBA
    /// Crosses and diagonals.
    public var c2: RGBA
    /// Boxes: the mark that carries large counts, at least 4:1 against the paper, and 1.5:1
    /// clear of the diagonals (c2) that cross them (SPEC §2, "Tone follows level").
    public var c3: RGBA
    /// The slash, the signature warm red.
    public var accent: RGBA

    /// SPEC §3's light palette.
    public static let light = Palette(
        paper: RGBA(hex: 0xFAFAF7), c1: RGBA(hex: 0x262629), c2: RGBA(hex: 0x59595E),
        c3: RGBA(hex: 0x77777C), accent: RGBA(hex: 0xD94033))
    /// SPEC §3's dark palette.
    public static let dark = Palette(
        paper: RGBA(hex: 0x1C1C1F), c1: RGBA(hex: 0xEBEBED), c2: RGBA(hex: 0xC4C4C6),
        c3: RGBA(hex: 0x9A9A9C), accent: RGBA(hex: 0xF2594D))

    /// The auto theme's palette for a light OS on a transparent background, where the page
    /// behind an `<img>` may be light or dark whatever the OS says (SPEC §2, "Readable on light
    /// and dark pages by default"): mid tones, each at least 3:1 against #FFFFFF, #0D1117 and
    /// #000000, keeping the light theme's order, darker strokes and lighter boxes. Ratios
    /// against #FFFFFF / #0D1117 / #000000:
    /// - c1 #68686D (relative luminance 0.139): 5.54 / 3.42 / 3.79;
    /// - c2 #6B6B70 (0.148): 5.30 / 3.57 / 3.96;
    /// - c3 #8C8C91 (0.264): 3.35 / 5.66 / 6.28, 1.58:1 clear of c2 (SPEC §2, "Tone follows level");
    /// - accent #F2594D (0.266): 3.33 / 5.69 / 6.31, 1.59:1 lighter than c2, so the slash differs
    ///   from the twenty-five-unit's cross by more than hue.
    ///
    /// Its paper is the light one, drawn only where a background is asked for (then this palette
    /// is not used).
    package static let midLight = Palette(
        paper: RGBA(hex: 0xFAFAF7), c1: RGBA(hex: 0x68686D), c2: RGBA(hex: 0x6B6B70),
        c3: RGBA(hex: 0x8C8C91), accent: RGBA(hex: 0xF2594D))
    /// The auto theme's palette for a dark OS on a transparent background (see `midLight`): the
    /// same mid tones in the dark theme's order, brighter strokes and darker boxes. Ratios against
    /// #FFFFFF / #0D1117 / #000000:
    /// - c1 #8F8F94 (relative luminance 0.276): 3.22 / 5.88 / 6.52;
    /// - c2 #8C8C91 (0.264): 3.35 / 5.66 / 6.28;
    /// - c3 #6B6B70 (0.148): 5.30 / 3.57 / 3.96, 1.58:1 clear of c2 (SPEC §2, "Tone follows level");
    /// - accent #C4382C (0.147): 5.32 / 3.56 / 3.95, 1.59:1 darker than c2.
    package static let midDark = Palette(
        paper: RGBA(hex: 0x1C1C1F), c1: RGBA(hex: 0x8F8F94), c2: RGBA(hex: 0x8C8C91),
        c3: RGBA(hex: 0x6B6B70), accent: RGBA(hex: 0xC4382C))

    /// The colour of a role.
    public subscript(token: ColorToken) -> RGBA {
        get {
            switch token {
            case .c1: c1
            case .c2: c2
            case .c3: c3
            case .accent: accent
            }
        }
        set {
            switch token {
            case .c1: c1 = newValue
            case .c2: c2 = newValue
            case .c3: c3 = newValue
            case .accent: accent = newValue
            }
        }
    }
}

/// Which palette: SPEC §3's `--theme`.
public enum Theme: String, CaseIterable, Sendable {
    case light, dark
    /// Both palettes, switched by `prefers-color-scheme` (SVG); light elsewhere.
    case auto
}

/// What is behind the marks.
public enum Background: Hashable, Sendable {
    /// Transparent (the default).
    case none
    /// The theme's paper colour (switches with the theme under `auto`).
    case paper
    case color(RGBA)

    /// `none`, `paper` or any colour of `RGBA(parsing:)`.
    ///
    /// ```swift
    /// let background = try Background(parsing: "paper")
    /// ```
    /// - Throws: `RGBA.ParseError.notAColor` for anything else.
    public init(parsing text: String) throws(RGBA.ParseError) {
        if text.lowercased() == "paper" {
            self = .paper
        } else {
            let color = try RGBA(parsing: text)
            self = color.isClear ? .none : .color(color)
        }
    }
}

/// How the marks are coloured: a theme, the user's overrides and a background.
public struct Appearance: Hashable, Sendable {
    /// Light, dark or auto (both, by the viewer's scheme).
    public var theme: Theme
    /// Colours the user set with `--ink`, `--c2`, `--c3`, `--accent`; they win over both palettes.
    public var overrides: [ColorToken: RGBA]
    /// Transparent, paper or a colour.
    public var background: Background

    /// A look: a theme, colours in place of some roles, a background.
    ///
    /// ```swift
    /// let look = Appearance(theme: .dark, overrides: [.accent: RGBA(hex: 0x3366FF)], background: .paper)
    /// ```
    public init(theme: Theme = .light, overrides: [ColorToken: RGBA] = [:], background: Background = .none) {
        self.theme = theme
        self.overrides = overrides
        self.background = background
    }

    /// The palette for the theme with the overrides applied; `auto` gives the light one, as
    /// renderers that ignore media queries do.
    public var palette: Palette { palette(dark: theme == .dark) }

    /// The palette drawn with, overrides applied: the dark one when `dark`.
    public func palette(dark: Bool) -> Palette {
        var palette = dark ? Palette.dark : Palette.light
        for (token, color) in overrides { palette[token] = color }
        return palette
    }

    /// Whether the marks lie straight on a page tally cannot see: `auto` on a transparent
    /// background. An `<img>` follows the OS's scheme, not the page's, so a light OS may show the
    /// image on a dark page and the reverse (SPEC §2, "Readable on light and dark pages by
    /// default").
    package var isOnUnknownPage: Bool { theme == .auto && background == .none }

    /// The palette the marks of an image are drawn with, overrides applied: `palette(dark:)`,
    /// except on an unknown page (`isOnUnknownPage`), where both of auto's palettes are the mid
    /// tones `Palette.midLight` and `Palette.midDark`, which read on a white page and a black
    /// one alike. Badges and terminals, which know what is behind their marks, keep
    /// `palette(dark:)`.
    package func markPalette(dark: Bool) -> Palette {
        guard isOnUnknownPage else { return palette(dark: dark) }
        var palette = dark ? Palette.midDark : Palette.midLight
        for (token, color) in overrides { palette[token] = color }
        return palette
    }

    /// The background colour of the chosen palette, or nil for transparent.
    public func backgroundColor(dark: Bool) -> RGBA? {
        switch background {
        case .none: nil
        case .paper: palette(dark: dark).paper
        case .color(let color): color
        }
    }
}
