import ArgumentParser
import TallyOptions
import TallyRender

extension ArgumentHelp {
    /// A render option's help and placeholder for a command, from the options model's table;
    /// an option the command does not offer (`RenderOption.help(for:)` is nil) is left out of
    /// its help, its man page and its completions.
    init(_ option: RenderOption, for audience: RenderOption.Audience) {
        let help = option.help(for: audience)
        self.init(
            help ?? "", valueName: option.isSwitch ? nil : option.valueName,
            visibility: help == nil ? .private : .default)
    }
}

/// A command that lists render options, and whose words their help is in.
protocol DrawingHelp {
    /// The command, for `RenderOption.help(for:)`.
    static var audience: RenderOption.Audience { get }
}

extension Render: DrawingHelp { static var audience: RenderOption.Audience { .render } }
extension Batch: DrawingHelp { static var audience: RenderOption.Audience { .batch } }
extension GalleryCommand: DrawingHelp { static var audience: RenderOption.Audience { .gallery } }
extension BadgeCommand: DrawingHelp { static var audience: RenderOption.Audience { .badge } }

/// The options that decide how a tally looks, shared by `render`, `batch` and `gallery`, their
/// help in the words of `Command` (a gallery's --size is a tile's side).
///
/// swift-argument-parser reads them as text and hands them to the options model
/// (`RenderOptions`), which checks each value and words every message, as it does for the
/// server's query: names, help and defaults are the model's table (`RenderOption`). Each value
/// is taken as given even when it starts with `-` (`--size -5`, `--label -x`), so the model
/// names it instead of the parser reading it as an option.
struct DrawingOptions<Command: DrawingHelp>: ParsableArguments {
    @Option(
        name: .customLong(RenderOption.size.name), parsing: .unconditional,
        help: .init(RenderOption.size, for: Command.audience))
    var size: String?

    @Option(
        name: .customLong(RenderOption.width.name), parsing: .unconditional,
        help: .init(RenderOption.width, for: Command.audience))
    var width: String?

    @Option(
        name: .customLong(RenderOption.height.name), parsing: .unconditional,
        help: .init(RenderOption.height, for: Command.audience))
    var height: String?

    @OptionGroup var look: LookOptions<Command>

    @Option(
        name: .customLong(RenderOption.c2.name), parsing: .unconditional,
        help: .init(RenderOption.c2, for: Command.audience))
    var c2: String?

    @OptionGroup var marks: MarkColourOptions<Command>

    @Option(
        name: .customLong(RenderOption.padding.name), parsing: .unconditional,
        help: .init(RenderOption.padding, for: Command.audience))
    var padding: String?

    @Option(
        name: .customLong(RenderOption.style.name), parsing: .unconditional,
        help: .init(RenderOption.style, for: Command.audience))
    var style: String?

    @Option(
        name: .customLong(RenderOption.seed.name), parsing: .unconditional,
        help: .init(RenderOption.seed, for: Command.audience))
    var seed: String?

    @Flag(name: .customLong(RenderOption.animate.name), help: .init(RenderOption.animate, for: Command.audience))
    var animate = false

    @Option(
        name: .customLong(RenderOption.animateFrom.name), parsing: .unconditional,
        help: .init(RenderOption.animateFrom, for: Command.audience)
    )
    var animateFrom: String?

    @Option(
        name: .customLong(RenderOption.background.name), parsing: .unconditional,
        help: .init(RenderOption.background, for: Command.audience))
    var background: String?

    @Option(
        name: .customLong(RenderOption.fit.name), parsing: .unconditional,
        help: .init(RenderOption.fit, for: Command.audience))
    var fit: String?

    @Option(
        name: .customLong(RenderOption.frame.name), parsing: .unconditional,
        help: .init(RenderOption.frame, for: Command.audience))
    var frame: String?

    @Option(
        name: .customLong(RenderOption.detail.name), parsing: .unconditional,
        help: .init(RenderOption.detail, for: Command.audience))
    var detail: String?

    @Option(
        name: .customLong(RenderOption.label.name), parsing: .unconditional,
        help: .init(RenderOption.label, for: Command.audience))
    var label: String?

    @Flag(
        name: .customLong(RenderOption.caption.name), inversion: .prefixedNo,
        help: .init(RenderOption.caption, for: Command.audience))
    var caption: Bool?

    @Flag(
        name: .customLong(RenderOption.inset.name), inversion: .prefixedNo,
        help: .init(RenderOption.inset, for: Command.audience))
    var inset: Bool?

    @Option(
        name: .customLong(RenderOption.of.name), parsing: .unconditional,
        help: .init(RenderOption.of, for: Command.audience))
    var of: String?

    /// The values given, checked by the model.
    func options() throws(CommandFailure) -> RenderOptions { try RenderOptions(given()) }

    /// The values given, as text, by option.
    func given() -> [RenderOption: String] {
        var given: [RenderOption: String] = [:]
        for option in RenderOption.allCases { given[option] = value(of: option) }
        return given
    }

    /// The value given for an option, as text; switches as `true` or `false`. Exhaustive, so a
    /// new option of the table does not compile until it is declared here too.
    func value(of option: RenderOption) -> String? {
        switch option {
        case .size: size
        case .width: width
        case .height: height
        case .scale: look.scale
        case .padding: padding
        case .theme: look.theme
        case .style: style
        case .seed: seed
        case .fit: fit
        case .frame: frame
        case .detail: detail
        case .background: background
        case .ink: look.ink
        case .c2: c2
        case .c3: marks.c3
        case .accent: marks.accent
        case .animate: animate ? "true" : nil
        case .animateFrom: animateFrom
        case .label: label
        case .caption: caption.map { $0 ? "true" : "false" }
        case .inset: inset.map { $0 ? "true" : "false" }
        case .of: of
        // A badge's own (SPEC §7): `BadgeCommand` declares them; a tally's commands have none.
        case .badgeStyle, .color, .labelColor: nil
        }
    }
}

/// The options a tally and a badge share: the scale, the theme and the ink, declared once for
/// `DrawingOptions` and `BadgeCommand`, their help in the words of `Command`. `--c2` comes next
/// for a tally alone (a badge draws no crosses or diagonals, SPEC §7), then `MarkColourOptions`.
struct LookOptions<Command: DrawingHelp>: ParsableArguments {
    @Option(
        name: .customLong(RenderOption.scale.name), parsing: .unconditional,
        help: .init(RenderOption.scale, for: Command.audience))
    var scale: String?

    @Option(
        name: .customLong(RenderOption.theme.name), parsing: .unconditional,
        help: .init(RenderOption.theme, for: Command.audience))
    var theme: String?

    @Option(
        name: .customLong(RenderOption.ink.name), parsing: .unconditional,
        help: .init(RenderOption.ink, for: Command.audience))
    var ink: String?
}

/// The colour tokens after `--c2` that a tally and a badge share: boxes (in a badge, the dots
/// still to fill and a goal's edge) and the slash.
struct MarkColourOptions<Command: DrawingHelp>: ParsableArguments {
    @Option(
        name: .customLong(RenderOption.c3.name), parsing: .unconditional,
        help: .init(RenderOption.c3, for: Command.audience))
    var c3: String?

    @Option(
        name: .customLong(RenderOption.accent.name), parsing: .unconditional,
        help: .init(RenderOption.accent, for: Command.audience))
    var accent: String?
}
