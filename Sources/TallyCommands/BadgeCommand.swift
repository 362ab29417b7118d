import ArgumentParser
import TallyBadge
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender

/// The formats a badge is written in, for `-f` and `-o`'s extension.
enum BadgeFormat: String, CaseIterable {
    case svg, png, pdf

    init?(pathExtension path: String) {
        guard let format = OutputFormat(pathExtension: path) else { return nil }
        self.init(rawValue: format.rawValue)
    }
}

/// `tally badge <count>`: a badge for a README line, beside shields.io badges (SPEC §7).
struct BadgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "badge",
        abstract: "Draw a count as a 20 px badge for a README line: SVG, PNG or PDF.",
        discussion: """
            shields.io's geometry (flat: 20 px tall, 3 px corners, 11 px text on one baseline): a \
            grey label plate, and a value plate with the count's marks and its number. shields' \
            words work with their meaning: --color, --label-color and --style. Text is drawn as \
            paths from DejaVu Sans, so the badge looks the same in every viewer, with no fonts \
            installed.

            Examples:
              tally badge 1234 --label downloads -o downloads.svg
              tally badge 6200 --of 10000 --label funded -o funded.svg
              tally badge 1234 --label downloads --scale 2 -o downloads@2x.png
              tally badge 5 --label tests --color brightgreen --style flat-square -o tests.svg
            """)

    /// The count to draw.
    @Argument(help: ArgumentHelp("The count: a whole number from 0 to 9223372036854775807.", valueName: "count"))
    var count: String

    /// Where the bytes go.
    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp("The file to write, or - for standard output (the default).", valueName: "path"))
    var output: String?

    /// What kind of bytes.
    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp("svg, png or pdf; default: from the extension of -o, else svg.", valueName: "format"))
    var format: String?

    /// The label plate's text.
    @Option(
        name: .customLong(RenderOption.label.name), parsing: .unconditional,
        help: ArgumentHelp(
            "The text of the grey label plate (none by default): at most \(BadgeProportions.maximumLabelCharacters) characters of \(BadgeFont.coverage).",
            valueName: RenderOption.label.valueName))
    var label: String?

    /// The goal.
    @Option(
        name: .customLong(RenderOption.of.name), parsing: .unconditional,
        help: ArgumentHelp(
            "Progress toward a goal of n: the marks show done against still to fill, and the number is the share (62%).",
            valueName: RenderOption.of.valueName))
    var of: String?

    /// shields.io's style.
    @Option(
        name: .customLong(RenderOption.badgeStyle.name), parsing: .unconditional,
        help: .init(RenderOption.badgeStyle, for: .badge))
    var style: String?

    /// The value plate's colour.
    @Option(
        name: .customLong(RenderOption.color.name), parsing: .unconditional,
        help: .init(RenderOption.color, for: .badge))
    var color: String?

    /// The label plate's colour.
    @Option(
        name: .customLong(RenderOption.labelColor.name), parsing: .unconditional,
        help: .init(RenderOption.labelColor, for: .badge))
    var labelColor: String?

    @OptionGroup var look: LookOptions<BadgeCommand>

    @OptionGroup var marks: MarkColourOptions<BadgeCommand>

    /// The value given for one of `RenderOption.badgeOptions`; nil for the rest, which the
    /// badge does not declare (a test checks that its help lists exactly the badge's options).
    func value(of option: RenderOption) -> String? {
        switch option {
        case .label: label
        case .of: of
        case .theme: look.theme
        case .scale: look.scale
        case .ink: look.ink
        case .c3: marks.c3
        case .accent: marks.accent
        case .badgeStyle: style
        case .color: color
        case .labelColor: labelColor
        default: nil
        }
    }

    func run() throws {
        try Self.run(count: count, output: output, format: format, given: given())
    }

    /// Writes the badge these arguments ask for, however they were read: by the parser, or
    /// plainly (`TallyCommand.main`, with `PlainRender.read`, since the parser's reflection over
    /// the badge's options was 14M of a badge's 18M instructions; BENCHMARKS.md).
    static func run(count: String, output: String?, format: String?, given: [RenderOption: String])
        throws(CommandFailure)
    {
        let chosen = try Output.format(
            given: format, output: output, fallback: BadgeFormat.svg, fromExtension: BadgeFormat.init(pathExtension:))
        // A list of scales, or a PNG pair: the files a region writes (SPEC §6, §8).
        let several = try CommandFiles.write(
            output: output, format: chosen.rawValue, given: given, among: RenderOption.badgeOptions
        ) { variant throws(CommandFailure) in
            try drawn(try prepared(count: count, output: output, format: format, given: variant)).bytes
        }
        if several { return }
        let badge = try drawn(try prepared(count: count, output: output, format: format, given: given))
        if let note = badge.note { StandardError.send(note) }
        try Output.emit(
            badge.bytes, to: output, binary: badge.format != .svg, formatName: badge.format.rawValue)
    }

    /// The badge `run` draws, read and checked, with its format and settings, before anything
    /// is drawn: its title is a docs region's alternative text (SPEC §8).
    func prepared() throws(CommandFailure) -> (
        badge: Badge, format: BadgeFormat, options: RenderOptions, settings: BadgeSettings
    ) {
        try Self.prepared(count: count, output: output, format: format, given: given())
    }

    /// The values given for the badge's options, as text, by option.
    func given() -> [RenderOption: String] {
        var given: [RenderOption: String] = [:]
        for option in RenderOption.badgeOptions { given[option] = value(of: option) }
        return given
    }

    /// A badge from its arguments as text, however they were read (the parser, or a docs
    /// region's plain reading).
    /// - Parameter reusing: the badge these arguments lay out, already made from the same
    ///   count, goal and label (a docs region draws one badge in several themes and scales,
    ///   which the layout does not depend on).
    static func prepared(
        count: String, output: String?, format: String?, given: [RenderOption: String], reusing: Badge? = nil
    )
        throws(CommandFailure) -> (badge: Badge, format: BadgeFormat, options: RenderOptions, settings: BadgeSettings)
    {
        let count = try Values.count(count)
        let format = try Output.format(
            given: format, output: output, fallback: BadgeFormat.svg, fromExtension: BadgeFormat.init(pathExtension:))
        let options = try RenderOptions(given)
        let settings = try options.badgeSettings(format: OutputFormat(rawValue: format.rawValue) ?? .svg)
        if let reusing { return (reusing, format, options, settings) }
        return (try options.badge(count, settings), format, options, settings)
    }

    /// The badge as `run` writes it, and the note for stderr: what a docs region writes, too
    /// (SPEC §8).
    func drawn() throws(CommandFailure) -> (bytes: [UInt8], format: BadgeFormat, note: String?) {
        try Self.drawn(try prepared())
    }

    /// A prepared badge, drawn.
    static func drawn(
        _ prepared: (badge: Badge, format: BadgeFormat, options: RenderOptions, settings: BadgeSettings)
    ) throws(CommandFailure) -> (bytes: [UInt8], format: BadgeFormat, note: String?) {
        let (badge, format, options, settings) = prepared
        do {
            let bytes = try Renderer.badge(badge, settings)
            return (bytes, format, options.note(format: OutputFormat(rawValue: format.rawValue) ?? .svg))
        } catch {
            throw options.failure(error)
        }
    }
}
