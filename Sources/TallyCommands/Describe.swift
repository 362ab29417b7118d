import ArgumentParser
import TallyEncoding
import TallyGeometry

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
        help: ArgumentHelp(
            "The frame the count is drawn in, as for render: 25, 100, 1000, … or a name such as row.", valueName: "unit"
        ))
    var frame: String?

    func run() throws {
        let (count, level) = try Self.checked(count: count, frame: frame)
        let text =
            json
            ? DescriptionJSON.encode(count, frame: level)
            : Words.title(for: count) + "\n" + Words.description(for: count) + "\n"
        // Written and checked like every output: a full or closed stdout is exit 74, not 0.
        try Output.writeToStandardOutput(Array(text.utf8))
    }

    /// The count and the frame it is described in, checked as `describe` checks them (the
    /// command line and `GET /describe/{count}` alike).
    static func checked(count text: String, frame frameText: String?) throws(CommandFailure) -> (TallyCount, UnitLevel?)
    {
        let count = try Values.count(text)
        let level = try frameText.map { text throws(CommandFailure) in try Values.frame(text) }
        if let level, level.capacity < count.value { throw Values.countBeyondFrame(count, level, frameText ?? "") }
        return (count, level)
    }
}
