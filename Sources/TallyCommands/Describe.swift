import ArgumentParser
import TallyEncoding
import TallyGeometry
import TallyOptions
import TallyRender

/// `tally describe <count> [--json]`: the structure of a count in words or JSON.
struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say how a count is drawn: its title and its structure in words.",
        discussion: """
            Examples:
              tally describe 1234
                1,234 tally marks
                1 thousand-row, 2 hundred-blocks, 1 twenty-five-unit, 1 gate and 4 strokes
              tally describe 10000 --json
            """
    )

    /// The count to describe.
    @Argument(help: ArgumentHelp("The count: a whole number from 0 to 9223372036854775807.", valueName: "count"))
    var count: String

    /// JSON instead of two lines of text.
    @Flag(help: "Print the structure as JSON: count, title, description, frame and units.")
    var json = false

    /// The frame the JSON names, as for render.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The frame the count is drawn in, as for render: 25, 100, 1000, … or a name such as row.", valueName: "unit"
        ))
    var frame: String?

    /// The goal, as for render.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A goal: the title says the progress toward it (\"6,200 of 10,000 (62%)\"), and the JSON gains of and percent.",
            valueName: "n"))
    var of: String?

    /// The preview above the words.
    @Flag(help: "Print the picture above the words (not with --json), as tally render draws it in a terminal.")
    var picture = false

    @OptionGroup(title: "Terminal preview")
    var terminal: TerminalOptions<Describe>

    func run() throws {
        let (count, level) = try Values.countInFrame(count, frame: frame)
        var given: [RenderOption: String] = [:]
        given[.of] = of
        given[.frame] = frame
        // The goal, and a frame given with it, are checked as render checks them.
        let goal = try RenderOptions(given).goal
        var text =
            json
            ? DescriptionJSON.encode(count, frame: level, goal: goal)
            : Words.title(for: count, goal: goal) + "\n" + Words.description(for: count) + "\n"
        if picture && !json {
            var settings = RenderSettings(frame: level)
            settings.goal = goal
            text = try terminal.preview(count, settings, themeGiven: false, descriptor: 1) + text
        }
        // Written and checked like every output: a full or closed stdout is exit 74, not 0.
        try Output.writeToStandardOutput(Array(text.utf8))
    }
}
