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

/// How wide the terminal preview is (SPEC §6).
package enum TerminalWidth {
    /// The widths a preview may have, in columns.
    package static let range = 4...2000

    /// The preview's width in columns: `asked` (`--columns`) when given, and a bad one is an
    /// error; else the terminal's own width (`terminal`); else `COLUMNS` (read through
    /// `environment`); else 80. A width out of `range` from the terminal or `COLUMNS` is passed
    /// over, not an error: the user did not type it.
    ///
    /// The terminal comes before `COLUMNS` because shells keep `COLUMNS` to themselves: bash
    /// sets it without exporting it, so a program in a 60-column pane saw none and drew 80
    /// columns, which wrapped into noise; and where it is exported it may be stale, from the
    /// window the shell started in. The window size is what the lines will wrap at. `COLUMNS`
    /// stays the way to say a width where there is no terminal (a pipe, a file, a script).
    package static func columns(
        asked: String?, terminal: () -> Int?, environment: (String) -> String?
    ) throws(CommandFailure) -> Int {
        if let asked {
            guard let value = Int(asked), range.contains(value) else {
                throw .usage(
                    "--columns '\(Values.printable(asked))' is not a width; use \(range.lowerBound) to \(range.upperBound) columns"
                )
            }
            return value
        }
        if let value = terminal(), range.contains(value) { return value }
        if let text = environment("COLUMNS"), let value = Int(text), range.contains(value) { return value }
        return 80
    }

    /// The width in columns of the terminal the preview is shown on: standard output's window
    /// size (`TIOCGWINSZ`), else standard error's (the preview piped to a pager or written to a
    /// file is still read in the terminal the command was typed in), else nil. A terminal that
    /// reports 0 columns (a serial line, a pty nobody sized) is no answer. `/dev/tty` is not
    /// asked: with both streams redirected nothing shows where tally writes, and the same
    /// command would draw differently under a script depending on the window it was started in.
    package static func terminalColumns() -> Int? {
        for descriptor: Int32 in [1, 2] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        }
        return nil
    }
}

/// Whether and how the terminal preview is coloured (SPEC §6), from what the environment says
/// rather than read from it here, so every case can be tried in process.
package enum TerminalColorChoice {
    /// The values of `--color`.
    package enum Mode: String, CaseIterable { case auto, always, never }

    /// The colours of a preview: none with `--color never`; with `--color always`, or under
    /// `auto` (the default) when the output is a terminal and neither `NO_COLOR` (no-color.org:
    /// set and not empty) nor `TERM=dumb` refuses colour, ANSI colours, 24-bit when
    /// `COLORTERM` is `truecolor` or `24bit`, else 256.
    /// - Parameters:
    ///   - asked: `--color`'s value as given, nil when it was not; a bad one is an error.
    ///   - isTerminal: whether the output is a terminal.
    ///   - environment: a variable's value, nil when it is not set.
    package static func colors(
        asked: String?, isTerminal: Bool, environment: (String) -> String?
    ) throws(CommandFailure) -> TerminalColors {
        let mode: Mode =
            try asked.map { text throws(CommandFailure) in
                try Values.choice(text, option: "--color", noun: "a colour mode")
            } ?? .auto
        let refused = !(environment("NO_COLOR") ?? "").isEmpty || environment("TERM") == "dumb"
        let colored = mode == .always || (mode == .auto && isTerminal && !refused)
        guard colored else { return .none }
        let colorTerm = environment("COLORTERM") ?? ""
        return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .palette256
    }
}

/// A command that draws the terminal preview, and how it is asked for there.
protocol PreviewCommand {
    /// The option that asks for the preview: `-f term` in render, `--picture` in describe,
    /// which has no `-f`.
    static var previewOption: String { get }
}

extension Render: PreviewCommand { static var previewOption: String { "-f term" } }
extension Describe: PreviewCommand { static var previewOption: String { "--picture" } }

/// The options of the terminal preview (`-f term`, and `tally describe --picture`), their help
/// naming the option of `Command` that draws it.
struct TerminalOptions<Command: PreviewCommand>: ParsableArguments {
    /// How wide the preview is.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With \(Command.previewOption): the width in terminal columns, \(TerminalWidth.range.lowerBound) to \(TerminalWidth.range.upperBound) (default: the terminal's width, else COLUMNS, else 80).",
            valueName: "n"))
    var columns: String?

    /// Whether the preview is coloured.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With \(Command.previewOption): auto (the default) colours the preview when the output is a terminal, unless NO_COLOR is set or TERM is dumb; always; never.",
            valueName: "when"))
    var color: String?

    /// The width: `--columns`, which wins over everything, else `TerminalWidth.columns`.
    func width() throws(CommandFailure) -> Int {
        try TerminalWidth.columns(
            asked: columns, terminal: TerminalWidth.terminalColumns, environment: environmentValue)
    }

    /// The colours for output on `descriptor`, from `--color`, whether it is a terminal and the
    /// process's environment (`TerminalColorChoice.colors`).
    func colors(for descriptor: Int32) throws(CommandFailure) -> TerminalColors {
        try TerminalColorChoice.colors(
            asked: color, isTerminal: isatty(descriptor) == 1, environment: environmentValue)
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
