import ArgumentParser
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender

/// `tally gallery [counts…] -o PATH`: a labelled contact sheet.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Draw a labelled contact sheet of counts, for documentation.",
        discussion: """
            The sheet is SVG, PNG, PDF or one self-contained HTML page (inline SVGs, no external \
            references), after -f or the extension of -o. Without counts it shows the thresholds, \
            where the drawing changes form. Each tile is a square, its count written under it.

            Examples:
              tally gallery -o thresholds.html
              tally gallery 1...12 --size 96 -o first-dozen.png
              tally gallery 25,100,1000,10000 --theme auto --style ink -o caps.svg
            """
    )

    /// What to show.
    @Argument(
        help: ArgumentHelp(
            "Counts as for batch: numbers, ranges a...b, comma lists, thresholds, @file or -; at most \(Words.grouped(UInt64(Gallery.maximumCounts))) in all (default: thresholds).",
            valueName: "counts"))
    var counts: [String] = []

    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp(
            "The file to write (.svg, .png, .pdf or .html), or - for standard output.", valueName: "path"))
    var output: String?

    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp("svg, png, pdf or html; default: from the extension of -o, else svg.", valueName: "format"))
    var format: String?

    @OptionGroup(title: "Drawing")
    var drawing: DrawingOptions<GalleryCommand>

    func run() throws {
        let chosen = try Output.format(
            given: format, output: output, fallback: Gallery.Format.svg,
            fromExtension: Gallery.Format.init(pathExtension:))
        // A list of scales, or a PNG pair: the files a region writes (SPEC §6, §8), every one of
        // the counts read once.
        let counts = try Self.readOnce(self.counts)
        let several = try CommandFiles.write(
            output: output, format: chosen.rawValue, given: drawing.given(), among: RenderOption.all
        ) { [output, format] variant throws(CommandFailure) in
            try Self.drawn(counts: counts, output: output, format: format, given: variant).bytes
        }
        if several { return }
        let drawn = try Self.drawn(counts: counts, output: output, format: format, given: drawing.given())
        try Output.emit(
            drawn.bytes, to: output, binary: drawn.format == .png || drawn.format == .pdf,
            formatName: drawn.format.rawValue)
    }

    /// The counts as given, with standard input (`-`) and `@file` read into numbers, so a sheet
    /// drawn into several files reads them once.
    static func readOnce(_ counts: [String]) throws(CommandFailure) -> [String] {
        guard counts.contains(where: { $0 == "-" || $0.hasPrefix("@") }) else { return counts }
        let list = try CountList.parse(
            counts, readStandardInput: Batch.readStandardInput, readFile: Batch.readFile)
        guard list.total <= UInt64(Gallery.maximumCounts) else { throw tooManyCounts(list.total) }
        return (0..<list.total).map { String(list[$0].value) }
    }

    /// The message for a list longer than a gallery shows, both numbers grouped alike.
    static func tooManyCounts(_ total: UInt64) -> CommandFailure {
        .usage(
            "a gallery shows at most \(Words.grouped(UInt64(Gallery.maximumCounts))) counts; this one has \(Words.grouped(total))"
        )
    }

    /// A sheet from its arguments as text.
    static func drawn(counts: [String], output: String?, format: String?, given: [RenderOption: String])
        throws(CommandFailure) -> (bytes: [UInt8], format: Gallery.Format, counts: [TallyCount])
    {
        let list = try CountList.parse(
            counts.isEmpty ? ["thresholds"] : counts,
            readStandardInput: Batch.readStandardInput, readFile: Batch.readFile)
        guard list.total <= UInt64(Gallery.maximumCounts) else { throw tooManyCounts(list.total) }
        let counts = (0..<list.total).map { list[$0] }
        let format = try Output.format(
            given: format, output: output, fallback: Gallery.Format.svg,
            fromExtension: Gallery.Format.init(pathExtension:))
        let options = try RenderOptions(given)
        let settings = try options.settings(format: .svg)
        if settings.animation != .none {
            throw CommandFailure.usage("--animate is for single SVG images; a gallery is still")
        }
        do {
            return (try Gallery.render(counts, as: format, settings), format, counts)
        } catch {
            switch error {
            case .tooManyCounts(let number):
                throw tooManyCounts(UInt64(number))
            case .sheetTooLarge(let number, let tile, let width, let height):
                throw CommandFailure.usage(
                    "a gallery of \(Words.grouped(UInt64(number))) counts in \(Values.number(tile)) px tiles is \(Values.pixels(width)) × \(Values.pixels(height)) px; \(Values.imageLimits), so give fewer counts or a smaller --size"
                )
            case .render(let renderError):
                throw options.failure(renderError)
            }
        }
    }
}
