import TallyBadge
import TallyGeometry
import TallyPOSIX
import TallyRender
import TallyStyle

/// The render options (SPEC §6), each declared once: its name (`size` is `--size` and `?size=`),
/// the placeholder of its value, its help (which states its default once), whether a tally and
/// a badge take it, and how its text is read, checked and entered into the settings.
///
/// A badge's own options speak shields.io's vocabulary (SPEC §7): `--color`, `--label-color`
/// (`?labelColor=`, `queryName`) and a badge's `--style`, a case of its own (`badgeStyle`)
/// whose name is `style` as the tally's is, each command and route taking the one it lists.
///
/// `--help`, the man page, the server's query and index page, `PlainRender`, the options model
/// and the docs' lists of options (`GeneratedDocs`) all read this enum; its order is the order
/// values are checked in, so the first problem named is the same whichever front end, and in
/// whichever order, they came. A new option is a new case: the compiler then asks for its
/// declaration here and for its command-line property in `DrawingOptions` (swift-argument-parser
/// declares an option as a property), and what it sets is a field of the settings the renderer
/// reads, so the server's cache key has it too.
package enum RenderOption: String, CaseIterable, Hashable, Sendable {
    case size
    case width
    case height
    case scale
    case padding
    case theme
    case style
    case badgeStyle = "badge-style"
    case seed
    case fit
    case frame
    case detail
    case background
    case ink
    case c2
    case c3
    case accent
    case color
    case labelColor = "label-color"
    case animate
    case animateFrom = "animate-from"
    case label
    case caption
    case inset
    case of

    /// How an option is shown and read.
    package struct Declaration {
        /// The placeholder in help (`px`); empty for a switch, which takes no value on the
        /// command line (`--animate`) and `true` or `false` in a URL.
        package let valueName: String
        /// One or two sentences for `--help` and the server's index page.
        package let help: String
        /// Whether `tally badge` and `/badge/` take it (SPEC §7).
        package let badge: Bool
        /// Whether `tally render`, `batch`, `gallery` and `/{count}.{format}` take it: all but
        /// a badge's own (its plates' colours and its style).
        package let render: Bool
        /// A few valid values as given on the command line or in a URL (a switch's as `true` or
        /// `false`): the default's text where it has one, and others that each change the
        /// image. The tests of the cache key, the ETags and the options model vary every option
        /// through them, pair by pair, so an option added cannot leave another unvaried.
        package let samples: [String]
        /// The forms of its value in a synopsis and the reference (`light|dark|auto`): the names
        /// of a fixed set, or a placeholder in capitals for any other value beside them
        /// (`COLOR|paper|none`); empty for the placeholder alone (`PX`).
        package let choices: [String]
        /// What the reference's table (docs/reference.md) says beyond the help: the finer
        /// points a reader looks up, too long for `--help`. Empty for nothing more.
        package let reference: String
        /// Reads the value as given into the settings being built, or throws the one-line
        /// message naming the option and quoting the value.
        let read: (_ text: String, _ draft: inout RenderOptions.Draft) throws(CommandFailure) -> Void
    }

    /// The option's declaration.
    package var declaration: Declaration {
        let flag = self.flag
        let option = self
        func positive(_ text: String) throws(CommandFailure) -> Double { try RenderOptions.positive(option, text) }
        func number(_ text: String, allowed: String, zero: Bool) throws(CommandFailure) -> Double {
            try RenderOptions.number(option, text, allowed: allowed, zero: zero)
        }
        func switchValue(_ text: String) throws(CommandFailure) -> Bool { try RenderOptions.switchValue(option, text) }
        func color(_ text: String) throws(CommandFailure) -> RGBA {
            do {
                return try RGBA(parsing: text)
            } catch {
                throw .usage(RenderOptions.colorError(option, text))
            }
        }
        func plate(_ text: String) throws(CommandFailure) -> RGBA {
            do {
                return try ShieldsColors.color(text)
            } catch {
                throw .usage(RenderOptions.plateColorError(option, text, error))
            }
        }
        func background(_ text: String) throws(CommandFailure) -> Background {
            do {
                return try Background(parsing: text)
            } catch {
                throw .usage(RenderOptions.colorError(option, text, paper: true))
            }
        }
        switch self {
        case .size:
            return Declaration(
                valueName: "px", badge: false,
                help: "The longer side of the image in pixels (default 256).",
                samples: ["256", "64", "100"],
                reference:
                    "Give one of --size, --width and --height; \(Values.imageLimits)."
            ) { text, draft throws(CommandFailure) in draft.settings.side = .longer(try positive(text)) }
        case .width:
            return Declaration(
                valueName: "px", badge: false,
                help: "The width in pixels; the height follows the frame.",
                samples: ["256", "90"]
            ) { text, draft throws(CommandFailure) in draft.settings.side = .width(try positive(text)) }
        case .height:
            return Declaration(
                valueName: "px", badge: false,
                help: "The height in pixels; the width follows the frame.",
                samples: ["256", "40"]
            ) { text, draft throws(CommandFailure) in draft.settings.side = .height(try positive(text)) }
        case .scale:
            return Declaration(
                valueName: "f", badge: true,
                help: "Multiply every pixel length, e.g. 2 for @2x assets (default 1).",
                samples: ["1", "2"],
                reference:
                    "The SVG viewBox stays in layout units."
            ) { text, draft throws(CommandFailure) in draft.settings.scale = try positive(text) }
        case .padding:
            return Declaration(
                valueName: "px", badge: false,
                help:
                    "Empty margin on every side, in pixels, inside the size (default: 1/24 of the shorter side of the tally, at least 2).",
                samples: ["0", "3"],
                reference: "So no mark touches the edge."
            ) { text, draft throws(CommandFailure) in
                draft.settings.padding = try number(text, allowed: "a number of pixels, 0 or more", zero: true)
            }
        case .theme:
            return Declaration(
                valueName: "theme", badge: true,
                help:
                    "light, dark, or auto: both palettes, switched by the viewer's colour scheme. Default: auto for SVG; light for PNG and PDF, which cannot switch, so auto draws light there (with a note on stderr).",
                samples: ["auto", "light", "dark"], choices: Theme.allCases.map(\.rawValue)
            ) { text, draft throws(CommandFailure) in
                draft.theme = try Values.choice(text, option: flag, noun: "a theme")
            }
        case .style:
            return Declaration(
                valueName: "style", badge: false,
                help: "clean (the default): geometric strokes; ink: hand-drawn wobble, the same for the same --seed.",
                samples: ["clean", "ink"], choices: RenderSettings.Style.allCases.map(\.rawValue),
                reference:
                    "The wobble is a slant (the seed's hand), bowed strokes, moved ends and varying pressure, seeded by each mark's position and --seed, the same in every format."
            ) { text, draft throws(CommandFailure) in
                draft.settings.style = try Values.choice(text, option: flag, noun: "a style")
            }
        case .badgeStyle:
            return Declaration(
                valueName: "style", badge: true, render: false,
                help:
                    "shields.io's style: flat (the default: 20 px, rounded corners, each text over a 1 px shadow), flat-square (20 px, square corners, no shadow) or for-the-badge (28 px, square, letter-spaced capitals, the number in bold).",
                samples: ["flat", "flat-square", "for-the-badge"], choices: BadgeStyle.allCases.map(\.rawValue)
            ) { text, draft throws(CommandFailure) in draft.badgeStyle = try RenderOptions.badgeStyle(text) }
        case .seed:
            return Declaration(
                valueName: "n", badge: false,
                help: "The seed of the ink style's wobble (default 0).",
                samples: ["0", "5"]
            ) { text, draft throws(CommandFailure) in draft.settings.seed = try RenderOptions.seed(text) }
        case .fit:
            return Declaration(
                valueName: "fit", badge: false,
                help:
                    "content (the default): the parts of the frame that hold the count, filling the image; frame: the whole frame, so counts in one frame share a size, as --frame implies.",
                samples: ["content", "frame"], choices: Fit.allCases.map(\.rawValue),
                reference:
                    "content fills the image with the cells of the frame's children that hold the count (137: two squares of its row; 1,234: two rows of its block; 26: the top half of its hundred-block; a twenty-five-unit whole)."
            ) { text, draft throws(CommandFailure) in
                draft.settings.fit = try Values.choice(text, option: flag, noun: "a fit")
            }
        case .frame:
            return Declaration(
                valueName: "unit", badge: false,
                help:
                    "Draw in this frame, so a sequence of counts shares one size and scale: 25, 100, 1000, 10000, … or a name such as hundred-block, row or block.",
                samples: ["1000", "100000"],
                reference:
                    "1,000 and 1_000 are read too; the names are hundred-block (hundred), thousand-row (row), ten-thousand-block (block), million-block and so on. The fit then defaults to frame. A count larger than the frame is an error (64)."
            ) { text, draft throws(CommandFailure) in draft.settings.frame = try Values.frame(text) }
        case .detail:
            return Declaration(
                valueName: "mode", badge: false,
                help:
                    "auto: only detail legible at the output size; full: every mark. JSON defaults to full unless a size is given, everything else to auto.",
                samples: ["auto", "full"], choices: Detail.Mode.allCases.map(\.rawValue),
                reference:
                    "auto keeps gaps of at least 1.5 px at the final output size, after the fit; a unit too small for its own detail shows its progress as a wash over the count's share of its cell, in whole pixels. No pen is ever thinner than 1 px."
            ) { text, draft throws(CommandFailure) in
                draft.settings.detail = try Values.choice(text, option: flag, noun: "a level of detail")
            }
        case .background:
            return Declaration(
                valueName: "color", badge: false,
                help:
                    "none (transparent), paper (the theme's paper colour) or a colour. Default: paper for PNG and PDF, none for SVG, so a default image reads on light and dark pages.",
                samples: ["none", "paper", "#ffffff"], choices: ["COLOR", "paper", "none"]
            ) { text, draft throws(CommandFailure) in draft.background = try background(text) }
        case .ink:
            return Declaration(
                valueName: "color", badge: true,
                help:
                    "The colour of strokes, lines and the caption (token c1): #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name.",
                samples: ["#262629", "#000"],
                reference: "It, c2, c3 and accent also take none (or transparent): marks in that colour are not seen."
            ) { text, draft throws(CommandFailure) in draft.overrides[.c1] = try color(text) }
        case .c2:
            // Not a badge's: its strip draws no crosses or diagonals (SPEC §7).
            return Declaration(
                valueName: "color", badge: false,
                help: "The colour of crosses and diagonals (token c2).",
                samples: ["#111", "#c2c2c2"]
            ) { text, draft throws(CommandFailure) in draft.overrides[.c2] = try color(text) }
        case .c3:
            return Declaration(
                valueName: "color", badge: true,
                help: "The colour of boxes (token c3).",
                samples: ["#222", "teal"]
            ) { text, draft throws(CommandFailure) in draft.overrides[.c3] = try color(text) }
        case .accent:
            return Declaration(
                valueName: "color", badge: true,
                help: "The colour of the slash, the fifth mark of a gate.",
                samples: ["#00f", "red"]
            ) { text, draft throws(CommandFailure) in draft.overrides[.accent] = try color(text) }
        case .color:
            return Declaration(
                valueName: "color", badge: true, render: false,
                help:
                    "The value plate's colour, as shields.io takes it: brightgreen, green, yellowgreen, yellow, orange, red, blue, lightgrey, grey (or gray), success, important, critical, informational, inactive; hex with or without # (4c1, #4c1, ff8800); or a CSS colour name. The same in both themes. Default: the theme's paper. Its text is white, or black where white would be under 4.5:1, and marks under 3:1 on it take the text's colour.",
                samples: ["brightgreen", "blue", "ff8800"]
            ) { text, draft throws(CommandFailure) in draft.plates.value = try plate(text) }
        case .labelColor:
            return Declaration(
                valueName: "color", badge: true, render: false,
                help:
                    "The label plate's colour, in --color's words (in a URL, labelColor). Default: shields.io's grey, #555555, in both themes. Its text is white, or black where white would be under 4.5:1.",
                samples: ["555", "critical"]
            ) { text, draft throws(CommandFailure) in draft.plates.label = try plate(text) }
        case .animate:
            return Declaration(
                valueName: "", badge: false,
                help: "SVG: draw each mark in, in count order (about 3 s at most; off under reduced motion).",
                samples: ["false", "true"],
                reference:
                    "280 ms a stroke, 200 ms a slash, only where the viewer allows motion."
            ) { text, draft throws(CommandFailure) in draft.settings.animation = try switchValue(text) ? .all : .none }
        case .animateFrom:
            return Declaration(
                valueName: "m", badge: false,
                help: "SVG: draw in only the marks that are new since this count; implies --animate.",
                samples: ["0", "120"]
            ) { text, draft throws(CommandFailure) in
                draft.settings.animation = .since(try Values.count(text, what: flag))
            }
        case .label:
            return Declaration(
                valueName: "text", badge: true,
                help: "The accessible title, instead of \"137 tally marks\".",
                samples: ["downloads", "R&D <b>"]
            ) { text, draft throws(CommandFailure) in
                // Text, not a name: bytes that are not UTF-8 (kept by `ByteText`) read as U+FFFD.
                draft.settings.label = String(decoding: ByteText.bytes(text), as: UTF8.self)
            }
        case .caption:
            return Declaration(
                valueName: "", badge: false,
                help:
                    "Write the count under the tally (\"99,999\"; \"1.23M\" where every digit does not fit), in tally's own stroke font. Default: on from 10,000, where the shapes repeat every two levels; below it, on for a picture of rows (101 to 9,999) whose gates are too small to read and that has no lens (by its size and rows alone, or --no-inset), and off otherwise.",
                samples: ["false", "true"],
                reference:
                    "The digits are at least 7 px tall, in a short form (1.00M, 1.23M, 9.22×10¹⁸) where every digit does not fit: caption marks in the JSON scene, class caption in SVG (SPEC §2, \"One digits rule\"; not in a JSON scene without a size). Under a pinned frame or --fit frame the band is kept for every count of a frame that holds 10,000, so a sequence keeps one size."
            ) { text, draft throws(CommandFailure) in draft.settings.caption = try switchValue(text) }
        case .inset:
            return Declaration(
                valueName: "", badge: false,
                help:
                    "A lens for the last digits: where a picture of rows (101 to 9,999) is too small for its gates to read, draw the twenty-five-unit where the next mark goes once more under the picture, enlarged, in corner brackets, tied to its place by a thin leader. Its room depends on the size and the rows drawn, never on the count, so the image keeps one size as the count grows. Default: where there is room for it (not under --frame, --fit frame or --of, whose sequences keep one size); --inset draws it there too, --no-inset never (the count is then written instead).",
                samples: ["true", "false"],
                reference:
                    "Its strokes stand about 4 px apart, with a one-pixel leader to the square being filled (c1 at 55%, edge marks; every mark of the lens has lens in the JSON scene); its room is at most a finished row's area."
            ) { text, draft throws(CommandFailure) in draft.settings.inset = try switchValue(text) }
        case .of:
            return Declaration(
                valueName: "n", badge: true,
                help:
                    "Progress toward a goal of n: the goal's frame, with the cells still to fill as faint dotted outlines; a count past its goal is drawn whole, with the goal's frame outlined, dotted.",
                samples: ["1000", "20000"],
                reference:
                    "The words say the share: \"6,200 of 10,000 (62%)\". With --frame, only the goal's own frame."
            ) { text, draft throws(CommandFailure) in draft.settings.goal = try RenderOptions.goal(text) }
        }
    }

    /// The commands whose help lists render options, each in its own words where an option does
    /// something else there (SPEC §6, §7).
    package enum Audience: Sendable, CaseIterable {
        /// `tally render`: one image, a JSON scene or the terminal preview.
        case render
        /// `tally batch`: one file a count, each as `render` draws it.
        case batch
        /// `tally gallery`: a contact sheet of square tiles, each count labelled under its tile.
        case gallery
        /// `tally badge`: a 20 px badge with the count's number (SPEC §7).
        case badge
    }

    /// The option's help for a command, or nil where that command does not offer it: a gallery
    /// refuses motion and labels every tile in place of a caption, so it lists neither. The
    /// general `help` (also the server's index page) is the rest's.
    package func help(for audience: Audience) -> String? {
        if audience != .badge && !declaration.render { return nil }
        switch (audience, self) {
        case (.render, .theme):
            return help + Self.autoPair + ", transparent unless --background is given."
                + " In the terminal (-f term), auto takes the background COLORFGBG names, else the terminal's own colours."
        case (.badge, .theme):
            return help + Self.autoPair + "."
        case (.render, .scale), (.badge, .scale), (.gallery, .scale):
            return help
                + " A list (1,2) with -o FILE.png writes one PNG a density: FILE.png and FILE@2x.png, as a docs region does."
        case (.gallery, .size):
            return "The side of each tile, a square, in pixels (default 160); the tally fits inside it."
        case (.gallery, .width):
            return "The side of each tile in pixels, with every tally drawn that wide."
        case (.gallery, .height):
            return "The side of each tile in pixels, with every tally drawn that tall."
        case (.gallery, .padding):
            return
                "Empty margin around each tally, in pixels, inside its tile (default: 1/24 of the shorter side of the tally, at least 2)."
        case (.gallery, .theme):
            return
                "light, dark, or auto: both palettes, switched by the viewer's colour scheme. Default: auto for SVG and HTML; light for PNG and PDF, which cannot switch, so auto draws light there."
                + Self.autoPair + ", each on its paper."
        case (.gallery, .background):
            return
                "The sheet's colour: paper (the theme's paper colour, the default) or a colour; a sheet is never transparent, so none gives paper too."
        case (.gallery, .detail):
            return "auto (the default): only detail legible at the tile's size; full: every mark."
        case (.gallery, .ink):
            return "The colour of strokes and lines (token c1): #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name."
        case (.gallery, .c2):
            return "The colour of crosses, diagonals and the counts under the tiles (token c2)."
        case (.gallery, .label):
            return "The sheet's title, instead of \"Tally gallery: 12 counts\"."
        case (.gallery, .animate), (.gallery, .animateFrom), (.gallery, .caption), (.gallery, .inset):
            return nil
        case (.badge, .ink):
            return
                "The colour of the strokes and the number (token c1): #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name."
        case (.badge, .c3):
            return "The colour of the dots still to fill and of a goal's edge (token c3)."
        case (.badge, _) where !declaration.badge:
            return nil
        default:
            return help
        }
    }

    /// What `--theme auto` writes to a PNG file (SPEC §3, §6): a light and dark pair.
    static let autoPair = " With -o FILE.png, auto writes a light and a dark file, FILE.png and FILE-dark.png"

    /// The name without dashes on the command line: `size`, `animate-from`; a badge's style is
    /// `style`, as a tally's is.
    package var name: String { self == .badgeStyle ? "style" : rawValue }
    /// The name as a query parameter: the command line's, but `labelColor`, shields.io's own
    /// spelling, for `--label-color`.
    package var queryName: String { self == .labelColor ? "labelColor" : name }
    /// The placeholder in help; empty for a switch.
    package var valueName: String { declaration.valueName }
    /// The help text.
    package var help: String { declaration.help }
    /// Valid values that vary the option (`Declaration.samples`).
    package var samples: [String] { declaration.samples }
    /// The value in a synopsis: `PX`, `light|dark|auto`, `COLOR|paper|none`; empty for a switch.
    package var synopsisValue: String {
        if isSwitch { return "" }
        return declaration.choices.isEmpty ? valueName.uppercased() : declaration.choices.joined(separator: "|")
    }
    /// Whether the option is a switch.
    package var isSwitch: Bool { valueName.isEmpty }
    /// The switches whose default is decided per picture (nil in the settings), so the command
    /// line turns them off as well as on: `--no-caption`, `--no-inset`.
    package static let invertible: [RenderOption] = [.caption, .inset]
    /// The options that each set the image's size, of which a request gives one at most.
    package static let sides: [RenderOption] = [.size, .width, .height]
    /// The flag that turns an invertible switch off: `--no-caption`.
    package var inversion: String { "--no-" + name }
    /// The option as messages name it: `--size`.
    package var flag: String { "--" + name }

    /// Every option of a tally (`render`, `batch`, `gallery`, `/{count}.{format}`), in the
    /// order they are checked; `allCases` adds a badge's own.
    package static let all: [RenderOption] = allCases.filter { $0.declaration.render }

    /// The options a badge takes (SPEC §7): its label and goal, the theme and the mark colours,
    /// the scale, and shields.io's colours of its plates and style. Size, fit and the rest are
    /// the badge's own (shields.io's geometry).
    package static let badgeOptions: [RenderOption] = allCases.filter { $0.declaration.badge }

    /// The tally's option of this name (`style` is the tally's style), or nil.
    package static func named(_ name: String) -> RenderOption? { named(name, among: all) }

    /// The option of this command-line name among `options` (a badge's `style` is its own).
    package static func named(_ name: String, among options: [RenderOption]) -> RenderOption? {
        options.first { $0.name == name }
    }
}

extension RenderOption.Declaration {
    init(
        valueName: String, badge: Bool, render: Bool = true, help: String, samples: [String], choices: [String] = [],
        reference: String = "", read: @escaping (String, inout RenderOptions.Draft) throws(CommandFailure) -> Void
    ) {
        (self.valueName, self.badge, self.render, self.help, self.read) = (valueName, badge, render, help, read)
        (self.samples, self.choices, self.reference) = (samples, choices, reference)
    }
}
