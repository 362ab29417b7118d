import ArgumentParser
import TallyEncoding
import TallyGeometry
import TallyRender
import TallyStyle

extension Theme: ExpressibleByArgument {}

extension Detail.Mode: ExpressibleByArgument {}
extension Fit: ExpressibleByArgument {}
extension RenderSettings.Style: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

/// The options that decide how a tally looks, shared by `render`, `batch` and `gallery`.
struct DrawingOptions: ParsableArguments {
    /// The longer side of the image.
    @Option(
        help: ArgumentHelp(
            "The longer side of the image in pixels (default 256; a gallery's tiles, 160).", valueName: "px"))
    var size: Double?

    /// Or fix one side; the other follows the frame's aspect ratio.
    @Option(help: ArgumentHelp("The width in pixels; the height follows the frame.", valueName: "px"))
    var width: Double?

    @Option(help: ArgumentHelp("The height in pixels; the width follows the frame.", valueName: "px"))
    var height: Double?

    /// A multiplier for every pixel length.
    @Option(help: ArgumentHelp("Multiply every pixel length, e.g. 2 for @2x assets.", valueName: "f"))
    var scale: Double = 1

    /// Empty margin around the tally.
    @Option(
        help: ArgumentHelp(
            "Empty margin on every side, in pixels, inside the size (default: 1/24 of the shorter side of the tally, at least 2).",
            valueName: "px"))
    var padding: Double?

    /// The palette.
    @Option(
        help: ArgumentHelp(
            "light, dark, or auto: both palettes, switched by the viewer's colour scheme. Default: auto for SVG; light for PNG and PDF, which cannot switch, so auto draws light there (with a note on stderr).",
            valueName: "theme"))
    var theme: Theme?

    /// Geometric or hand-drawn.
    @Option(
        help: ArgumentHelp(
            "clean: geometric strokes; ink: hand-drawn wobble, the same for the same --seed.", valueName: "style"))
    var style: RenderSettings.Style = .clean

    /// The seed of the ink wobble.
    @Option(help: ArgumentHelp("The seed of the ink style's wobble.", valueName: "n"))
    var seed: UInt64 = 0

    /// Draw each mark in, in count order.
    @Flag(help: "SVG: draw each mark in, in count order (about 3 s at most; off under reduced motion).")
    var animate = false

    /// Draw in only the marks new since this count.
    @Option(
        name: .customLong("animate-from"),
        help: ArgumentHelp(
            "SVG: draw in only the marks that are new since this count; implies --animate.", valueName: "m"))
    var animateFrom: String?

    /// What is behind the marks.
    @Option(
        help: ArgumentHelp(
            "none (transparent), paper (the theme's paper colour) or a colour. Default: paper for PNG and PDF, none for SVG, so a default image reads on light and dark pages.",
            valueName: "color"))
    var background: String?

    @Option(
        help: ArgumentHelp(
            "The colour of strokes and the thousand-row line (token c1): #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name.",
            valueName: "color"))
    var ink: String?

    @Option(help: ArgumentHelp("The colour of crosses and the ten-thousand diagonal (token c2).", valueName: "color"))
    var c2: String?

    @Option(help: ArgumentHelp("The colour of boxes (token c3).", valueName: "color"))
    var c3: String?

    @Option(help: ArgumentHelp("The colour of the slash, the fifth mark of a gate.", valueName: "color"))
    var accent: String?

    /// Which part of the frame the image shows.
    @Option(
        help: ArgumentHelp(
            "content (the default): the parts of the frame that hold the count, filling the image; frame: the whole frame, so counts in one frame share a size, as --frame implies.",
            valueName: "fit"))
    var fit: Fit?

    /// A frame shared by a sequence of counts.
    @Option(
        help: ArgumentHelp(
            "Draw in this frame, so a sequence of counts shares one size and scale: 25, 100, 1000, 10000, … or a name such as hundred-block, row or block.",
            valueName: "unit"))
    var frame: String?

    /// Level of detail.
    @Option(
        help: ArgumentHelp(
            "auto: only detail legible at the output size; full: every mark. JSON defaults to full unless a size is given.",
            valueName: "mode"))
    var detail: Detail.Mode?

    /// The accessible title.
    @Option(
        help: ArgumentHelp(
            "The accessible title, instead of \"137 tally marks\"; for a gallery, the sheet's title.", valueName: "text"
        ))
    var label: String?

    /// The count in digits under the tally.
    @Flag(
        inversion: .prefixedNo,
        help:
            "Write the count under the tally (\"99,999\"; \"1.23M\" where every digit does not fit), in tally's own stroke font. Default: on from 10,000, where the shapes repeat every two levels. Gallery tiles always have one."
    )
    var caption: Bool?

    func validate() throws {
        if [size, width, height].compactMap({ $0 }).count > 1 {
            throw ValidationError("give only one of --size, --width and --height")
        }
    }

    var sizeGiven: Bool { size != nil || width != nil || height != nil }

    /// The colours, checked against the strict grammar; nothing the user typed is passed on.
    /// What is not given is the format's default (`Appearance.default(for:)`).
    func appearance(format: OutputFormat) throws(CommandFailure) -> Appearance {
        let defaults = Appearance.default(for: format)
        var overrides: [ColorToken: RGBA] = [:]
        for (option, token, value) in [
            ("--ink", ColorToken.c1, ink), ("--c2", .c2, c2), ("--c3", .c3, c3), ("--accent", .accent, accent),
        ] {
            guard let value else { continue }
            guard let color = RGBA(parsing: value) else { throw .usage(Self.colorError(option, value)) }
            overrides[token] = color
        }
        var backdrop = defaults.background
        if let background {
            guard let parsed = Background(parsing: background) else {
                throw .usage(Self.colorError("--background", background, paper: true))
            }
            backdrop = parsed
        }
        return Appearance(theme: theme ?? defaults.theme, overrides: overrides, background: backdrop)
    }

    /// The one-line note for `--theme auto` on a format that cannot follow the viewer (SPEC §3),
    /// or nil.
    func note(format: OutputFormat) -> String? {
        guard theme == .auto, format == .png || format == .pdf else { return nil }
        return
            "tally: note: --theme auto draws the light palette in \(format.rawValue.uppercased()); only SVG follows the viewer's colour scheme\n"
    }

    static func colorError(_ option: String, _ value: String, paper: Bool = false) -> String {
        "\(option) '\(Values.printable(value))' is not a colour; use #RGB, #RRGGBB, #RRGGBBAA, a CSS colour name\(paper ? ", paper" : "") or none"
    }

    /// The settings for a format, every value checked; nothing the user typed is passed on unchecked.
    func settings(format: OutputFormat) throws(CommandFailure) -> RenderSettings {
        let side: Viewport.Side? = width.map { .width($0) } ?? height.map { .height($0) } ?? size.map { .longer($0) }
        let from = try animateFrom.map { text throws(CommandFailure) in try Values.count(text, what: "--animate-from") }
        return RenderSettings(
            format: format, side: side, scale: scale, padding: padding, appearance: try appearance(format: format),
            style: style, seed: seed, fit: fit, frame: try pinnedFrame(), detail: detail, label: label,
            caption: caption, animation: from.map { .since($0) } ?? (animate ? .all : .none),
            documentDate: try Self.documentDate())
    }

    /// The frame after `--frame`, if any.
    func pinnedFrame() throws(CommandFailure) -> UnitLevel? {
        try frame.map { text throws(CommandFailure) in try Values.frame(text) }
    }

    /// SPEC §5: PDF dates come from `SOURCE_DATE_EPOCH` when it is set, else a fixed date.
    static func documentDate() throws(CommandFailure) -> Int64 {
        guard let text = environmentValue("SOURCE_DATE_EPOCH"), !text.isEmpty else { return 0 }
        guard let seconds = Int64(text), seconds >= 0, seconds <= 253_402_300_799 else {
            throw .usage(
                "SOURCE_DATE_EPOCH '\(Values.printable(text))' is not a number of seconds from 0 to 253402300799")
        }
        return seconds
    }

    /// The one-line message for a setting the renderer refused.
    func failure(_ error: RenderError) -> CommandFailure {
        let sideName = width != nil ? "--width" : height != nil ? "--height" : "--size"
        let limit = Values.imageLimits
        switch error {
        case .viewport(.notPositive(let what, let value)):
            let option = what == "size" ? sideName : "--" + what
            let allowed = what == "padding" ? "a number of pixels, 0 or more" : "a positive number"
            return .usage("\(option) '\(Values.number(value))' must be \(allowed)")
        case .viewport(.sideTooSmall(let value)):
            if !sizeGiven {
                return .usage(
                    "--scale '\(Values.number(scale))' gives a side under 1 px (\(Values.number(value)) px × \(Values.number(scale))); it must give at least 1 px"
                )
            }
            return .usage(
                "\(sideName) '\(Values.number(value))' gives a side under 1 px; it must give at least 1 px after --scale"
            )
        case .viewport(.paddingTooLarge(let value)):
            return .usage(
                "--padding '\(Values.number(value))' leaves no room for the tally; it must be less than half the size")
        case .viewport(.sideTooLarge(let value)):
            return .usage("\(sideName) gives a side of \(Values.pixels(value)) px; \(limit)")
        case .viewport(.tooManyPixels(let value)):
            return .usage("\(sideName) gives \(Values.pixels(value)) pixels; \(limit)")
        case .animationNeedsSVG(let format):
            return .usage("--animate is for SVG output; the format is \(format.rawValue)")
        case .countBeyondFrame(let count, let level):
            return Values.countBeyondFrame(count, level, frame ?? "")
        case .animateFromBeyondCount(let from, let count):
            return .usage(
                "--animate-from '\(from.value)' is larger than the count \(count.value); it must be from 0 to the count"
            )
        case .formatUnavailable(let format):
            return .usage(
                "format '\(format.rawValue)' is not available in this build of tally, made without its Cairo trait; svg and json are"
            )
        case .backend(let message):
            return CommandFailure(.io, message)
        }
    }
}
