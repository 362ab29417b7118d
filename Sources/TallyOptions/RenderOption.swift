/// One option of a render: its name, the placeholder of its value, and its help, which states
/// its default once.
///
/// The command line spells it `--size 512` and a URL `?size=512`; both front ends read this one
/// table (`RenderOption.all`), so a name, a default or a help text is said in one place (SPEC §6).
package struct RenderOption: Hashable, Sendable {
    /// The name without dashes: `size`, `animate-from`.
    package let name: String
    /// The placeholder in help (`px`); empty for a switch, which takes no value on the command
    /// line (`--animate`) and `true` or `false` in a URL.
    package let valueName: String
    /// One or two sentences for `--help` and the server's index page.
    package let help: String

    /// Whether the option is a switch.
    package var isSwitch: Bool { valueName.isEmpty }
    /// The option as messages name it: `--size`.
    package var flag: String { "--" + name }

    init(_ name: String, _ valueName: String, _ help: String) {
        (self.name, self.valueName, self.help) = (name, valueName, help)
    }
}

extension RenderOption {
    package static let size = RenderOption(
        "size", "px", "The longer side of the image in pixels (default 256; a gallery's tiles, 160).")
    package static let width = RenderOption("width", "px", "The width in pixels; the height follows the frame.")
    package static let height = RenderOption("height", "px", "The height in pixels; the width follows the frame.")
    package static let scale = RenderOption(
        "scale", "f", "Multiply every pixel length, e.g. 2 for @2x assets (default 1).")
    package static let padding = RenderOption(
        "padding", "px",
        "Empty margin on every side, in pixels, inside the size (default: 1/24 of the shorter side of the tally, at least 2)."
    )
    package static let theme = RenderOption(
        "theme", "theme",
        "light, dark, or auto: both palettes, switched by the viewer's colour scheme. Default: auto for SVG; light for PNG and PDF, which cannot switch, so auto draws light there (with a note on stderr)."
    )
    package static let style = RenderOption(
        "style", "style",
        "clean (the default): geometric strokes; ink: hand-drawn wobble, the same for the same --seed.")
    package static let seed = RenderOption("seed", "n", "The seed of the ink style's wobble (default 0).")
    package static let fit = RenderOption(
        "fit", "fit",
        "content (the default): the parts of the frame that hold the count, filling the image; frame: the whole frame, so counts in one frame share a size, as --frame implies."
    )
    package static let frame = RenderOption(
        "frame", "unit",
        "Draw in this frame, so a sequence of counts shares one size and scale: 25, 100, 1000, 10000, … or a name such as hundred-block, row or block."
    )
    package static let detail = RenderOption(
        "detail", "mode",
        "auto: only detail legible at the output size; full: every mark. JSON defaults to full unless a size is given, everything else to auto."
    )
    package static let background = RenderOption(
        "background", "color",
        "none (transparent), paper (the theme's paper colour) or a colour. Default: paper for PNG and PDF, none for SVG, so a default image reads on light and dark pages."
    )
    package static let ink = RenderOption(
        "ink", "color",
        "The colour of strokes and the thousand-row line (token c1): #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name.")
    package static let c2 = RenderOption(
        "c2", "color", "The colour of crosses and the ten-thousand diagonal (token c2).")
    package static let c3 = RenderOption("c3", "color", "The colour of boxes (token c3).")
    package static let accent = RenderOption("accent", "color", "The colour of the slash, the fifth mark of a gate.")
    package static let animate = RenderOption(
        "animate", "", "SVG: draw each mark in, in count order (about 3 s at most; off under reduced motion).")
    package static let animateFrom = RenderOption(
        "animate-from", "m", "SVG: draw in only the marks that are new since this count; implies --animate.")
    package static let label = RenderOption(
        "label", "text", "The accessible title, instead of \"137 tally marks\"; for a gallery, the sheet's title.")
    package static let caption = RenderOption(
        "caption", "",
        "Write the count under the tally (\"99,999\"; \"1.23M\" where every digit does not fit), in tally's own stroke font. Default: on from 10,000, where the shapes repeat every two levels. Gallery tiles always have one."
    )

    package static let of = RenderOption(
        "of", "n",
        "Progress toward a goal of n: the goal's frame, with the cells still to fill as faint dashed outlines; a count past its goal is drawn whole, with the goal's frame outlined."
    )

    /// Every render option, in the order they are checked and written in the canonical form: so
    /// the first problem named is the same whichever front end, and in whichever order, they
    /// came.
    package static let all: [RenderOption] = [
        size, width, height, scale, padding, theme, style, seed, fit, frame, detail, background, ink, c2, c3, accent,
        animate, animateFrom, label, caption, of,
    ]

    /// The option of this name, or nil.
    package static func named(_ name: String) -> RenderOption? { all.first { $0.name == name } }
}
