import ArgumentParser
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender

/// `tally render <count>`: one count to one image or scene.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw one count as SVG, PNG, PDF, a JSON scene or a preview in the terminal.",
        discussion: """
            -f term is a preview in braille cells, for a look without leaving the terminal. Files \
            are written atomically: a run that fails leaves no partial file.

            Examples:
              tally render 137 -o 137.svg                      a 256 px SVG
              tally render 1234 --size 512 --theme auto -o t.svg
              tally render 42 --style ink --seed 7 -o 42.svg   hand-drawn
              tally render 26 --animate-from 25 -o plus1.svg   the "+1" moment
              tally render 137 -f json                         the scene, as JSON
              tally render 6200 --of 10000 -f term --columns 60
            """
    )

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
        help: ArgumentHelp(
            "svg, png, pdf, json or term (a preview in the terminal); default: from the extension of -o, else term on a terminal without -o, else svg.",
            valueName: "format"))
    var format: String?

    @OptionGroup(title: "Drawing")
    var drawing: DrawingOptions<Render>

    @OptionGroup(title: "Terminal preview")
    var terminal: TerminalOptions<Render>

    func run() throws {
        let count = try Values.count(count)
        let format = try Self.chosenFormat(format, output: output)
        if let format = format.output {
            try Self.write(count, output: output, format: format, given: drawing.given())
            return
        }
        let options = try drawing.options()
        let text: String
        do {
            text = try terminal.preview(
                count, try options.settings(format: .svg), themeGiven: drawing.look.theme != nil,
                descriptor: output == nil || output == "-" ? 1 : -1)
        } catch let error as RenderError {
            throw options.failure(error)
        }
        try Output.emit(Array(text.utf8), to: output, binary: false, formatName: "term")
    }

    /// The format `-f` names, else `-o`'s extension; with neither, the preview on a terminal and
    /// SVG anywhere else (`-o -` too keeps SVG).
    static func chosenFormat(_ given: String?, output: String?) throws(CommandFailure) -> RenderFormat {
        let fallback: RenderFormat = output == nil && Output.standardOutputIsTerminal ? .term : .svg
        return try Output.format(
            given: given, output: output, fallback: fallback, fromExtension: RenderFormat.init(pathExtension:))
    }

    /// Draws a count in a file format and writes it: the one path of every `render` that is not
    /// the terminal preview, whether the parser read the arguments or `PlainRender` did.
    static func write(_ count: TallyCount, output: String?, format: OutputFormat, given: [RenderOption: String])
        throws(CommandFailure)
    {
        // A list of scales, or a PNG pair: the files a region writes (SPEC §6, §8).
        let several = try CommandFiles.write(
            output: output, format: format.rawValue, given: given, among: RenderOption.all
        ) { variant throws(CommandFailure) in try image(count, format: format, options: RenderOptions(variant)) }
        if several { return }
        let options = try RenderOptions(given)
        let bytes = try image(count, format: format, options: options)
        if let note = options.note(format: format) { StandardError.send(note) }
        try Output.emit(bytes, to: output, binary: format.isBinary, formatName: format.rawValue)
    }

    /// The bytes `render` writes for a count in a file format: what `write` emits, and what a
    /// docs region writes (SPEC §8).
    static func image(_ count: TallyCount, format: OutputFormat, options: RenderOptions) throws(CommandFailure)
        -> [UInt8]
    {
        let settings = try options.settings(format: format)
        do {
            return try Renderer.render(count, as: format, settings)
        } catch {
            throw options.failure(error)
        }
    }
}
