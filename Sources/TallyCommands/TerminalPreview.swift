import ArgumentParser
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender
import TallyTerminal

/// The formats `tally render` writes: the library's, and `term`, the preview in a terminal.
enum RenderFormat: String, CaseIterable {
    case svg, png, pdf, json, term

    /// The library's format; nil for `term`.
    var output: OutputFormat? { OutputFormat(rawValue: rawValue) }

    init?(pathExtension path: String) {
        guard let format = OutputFormat(pathExtension: path) else { return nil }
        self.init(rawValue: format.rawValue)
    }
}

/// The options of the terminal preview (`-f term`, and `tally describe --picture`).
struct TerminalOptions: ParsableArguments {
    /// How wide the preview is.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "-f term: the width in terminal columns, \(TerminalOptions.columnRange.lowerBound) to \(TerminalOptions.columnRange.upperBound) (default: COLUMNS, else 80).",
            valueName: "n"))
    var columns: String?

    /// Whether the preview is coloured.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "-f term: auto (the default) colours the preview when the output is a terminal; always; never.",
            valueName: "when"))
    var color: String?

    static let columnRange = 4...2000

    enum ColorChoice: String, CaseIterable { case auto, always, never }

    /// The width: `--columns`, else `COLUMNS` when it is a width in range, else 80.
    func width() throws(CommandFailure) -> Int {
        if let columns {
            guard let value = Int(columns), Self.columnRange.contains(value) else {
                throw .usage(
                    "--columns '\(Values.printable(columns))' is not a width; use \(Self.columnRange.lowerBound) to \(Self.columnRange.upperBound) columns"
                )
            }
            return value
        }
        if let text = environmentValue("COLUMNS"), let value = Int(text), Self.columnRange.contains(value) {
            return value
        }
        return 80
    }

    /// The colours for output on `descriptor`: ANSI when it is a terminal (or `--color always`),
    /// 24-bit when `COLORTERM` says the terminal takes it, else 256 colours.
    func colors(for descriptor: Int32) throws(CommandFailure) -> TerminalColors {
        let choice: ColorChoice =
            try color.map { text throws(CommandFailure) in
                try Values.choice(text, option: "--color", noun: "a colour mode")
            } ?? .auto
        // NO_COLOR (no-color.org) and a dumb terminal turn colour off unless --color always asks.
        let noColor = !(environmentValue("NO_COLOR") ?? "").isEmpty || environmentValue("TERM") == "dumb"
        let colored = choice == .always || (choice == .auto && isatty(descriptor) == 1 && !noColor)
        guard colored else { return .none }
        let colorTerm = environmentValue("COLORTERM") ?? ""
        return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .palette256
    }

    /// Which palette to draw with: `--theme light` or `dark`; under `auto` (the default) the
    /// one `COLORFGBG` names (`15;0`: white on black), and where nothing says, nil: ink in the
    /// terminal's own foreground and mid tones that read on any background (SPEC §6).
    ///
    /// The terminal is not asked for its background (OSC 11): a terminal that does not answer
    /// costs the whole wait on every run, a slow answer lands in the shell's input after tally
    /// has gone, and the default already reads on light and dark terminals alike.
    static func dark(_ settings: RenderSettings, themeGiven: Bool) -> Bool? {
        let theme = settings.appearance(in: .svg).theme
        if themeGiven && theme != .auto { return theme == .dark }
        guard let value = environmentValue("COLORFGBG"), let last = value.split(separator: ";").last,
            let background = Int(last)
        else { return nil }
        // The 16 ANSI colours: 0–6 and 8 are dark, 7 and 9–15 light.
        return background == 8 || (0...6).contains(background)
    }

    /// The preview of a count with these settings.
    /// - Throws: `CommandFailure` for a bad width or colour mode; `RenderError` for settings the
    ///   renderer refuses, for the caller to word.
    func preview(_ count: TallyCount, _ settings: RenderSettings, themeGiven: Bool, descriptor: Int32) throws
        -> String
    {
        let columns = try width()
        let colors = try colors(for: descriptor)
        return try Renderer.terminal(
            count, settings, columns: columns, dark: Self.dark(settings, themeGiven: themeGiven), colors: colors)
    }
}
