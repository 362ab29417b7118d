import ArgumentParser
import TallyEncoding
import TallyGeometry

/// The output formats of SPEC §5.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case svg, png, pdf, json

    var isBinary: Bool { self == .png || self == .pdf }

    /// The format a path's extension names, if any.
    init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

enum DetailOption: String, CaseIterable, ExpressibleByArgument {
    case auto, full
}

/// `tally render <count>`: one count to one image or scene.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw one count.",
        discussion: """
        The format follows -f, else the extension of -o. Without -o, or with -o -, the result \
        goes to standard output.

        Examples:
          tally render 137 -f json              the scene: every mark and its segments
          tally render 137 -o 137.json          the same, written atomically to a file
          tally render 9999 --size 512 -f json  only the detail legible at 512 px
        """
    )

    /// The count to draw.
    @Argument(help: ArgumentHelp("The count: a whole number from 0 to 9223372036854775807.", valueName: "count"))
    var count: String

    /// Where the bytes go.
    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write, or - for standard output.", valueName: "path"))
    var output: String?

    /// What kind of bytes.
    @Option(name: .shortAndLong, help: ArgumentHelp("svg, png, pdf or json; default: from the extension of -o, else svg.", valueName: "format"))
    var format: OutputFormat?

    /// The longer side of the image.
    @Option(help: ArgumentHelp("The longer side of the image in pixels (default 256).", valueName: "px"))
    var size: Double?

    /// Or fix one side; the other follows the frame's aspect ratio.
    @Option(help: ArgumentHelp("The width in pixels; the height follows.", valueName: "px"))
    var width: Double?

    @Option(help: ArgumentHelp("The height in pixels; the width follows.", valueName: "px"))
    var height: Double?

    /// A multiplier for every pixel length.
    @Option(help: ArgumentHelp("Multiply every pixel length, e.g. 2 for @2x assets (default 1).", valueName: "f"))
    var scale: Double = 1

    /// Empty margin around the tally.
    @Option(help: ArgumentHelp("Empty margin on every side, in pixels, inside the size (default 0).", valueName: "px"))
    var padding: Double = 0

    /// Level of detail.
    @Option(help: ArgumentHelp("auto: only detail legible at the output size; full: every mark. JSON defaults to full unless a size is given.", valueName: "mode"))
    var detail: DetailOption?

    func validate() throws {
        let sides = [size, width, height].compactMap { $0 }
        if sides.count > 1 { throw ValidationError("give only one of --size, --width and --height") }
    }

    func run() throws {
        let count = try Values.count(count)
        let format = try resolvedFormat()
        let scene = try makeScene(count: count, format: format)
        let bytes: [UInt8]
        switch format {
        case .json:
            bytes = Array(SceneJSON.encode(scene).utf8)
        case .svg, .png, .pdf:
            throw CommandFailure.usage("format '\(format.rawValue)' is not available yet; allowed: json")
        }
        try write(bytes, format: format)
    }

    func resolvedFormat() throws(CommandFailure) -> OutputFormat {
        if let format { return format }
        guard let output, output != "-" else { return .svg }
        guard let format = OutputFormat(pathExtension: output) else {
            throw .usage("cannot tell the format of '\(Values.printable(output))'; use -f svg, png, pdf or json, or a path ending in one of them")
        }
        return format
    }

    /// The viewport the options ask for, checked against SPEC's limits before anything is drawn.
    func viewport(for frame: Frame) throws(CommandFailure) -> Viewport {
        let side: Viewport.Side
        if let width { side = .width(width) } else if let height { side = .height(height) } else { side = .longer(size ?? Viewport.defaultSide) }
        do {
            return try Viewport(content: (frame.width, frame.height), side: side, scale: scale, padding: padding)
        } catch {
            throw .usage(Self.message(for: error, side: side))
        }
    }

    func makeScene(count: TallyCount, format: OutputFormat) throws(CommandFailure) -> Scene {
        // The viewport is checked first: a size over the limits fails before any mark is made.
        let viewport = try viewport(for: Frame(for: count))
        let sizeGiven = size != nil || width != nil || height != nil
        let wantsFull = detail == .full || (detail == nil && format == .json && !sizeGiven)
        return Scene(count: count, detail: wantsFull ? .full : .automatic(pixelsPerUnit: viewport.pixelsPerUnit))
    }

    func write(_ bytes: [UInt8], format: OutputFormat) throws(CommandFailure) {
        if let output, output != "-" {
            try Output.writeAtomically(bytes, to: output)
        } else {
            if format.isBinary && Output.standardOutputIsTerminal {
                throw .usage("will not write \(format.rawValue.uppercased()) to a terminal; use -o FILE or redirect the output")
            }
            try Output.writeToStandardOutput(bytes)
        }
    }

    static func message(for problem: Viewport.Problem, side: Viewport.Side) -> String {
        let sideName: String
        switch side {
        case .longer: sideName = "--size"
        case .width: sideName = "--width"
        case .height: sideName = "--height"
        }
        let limit = "images are at most 16384 px a side and 64 megapixels"
        switch problem {
        case .notPositive(let what, let value):
            let option = what == "size" ? sideName : "--" + what
            return "\(option) '\(DecimalText.fixed(value))' must be a positive number"
        case .paddingTooLarge(let value):
            return "--padding '\(DecimalText.fixed(value))' leaves no room for the tally; it must be less than half the size"
        case .sideTooLarge(let value):
            return "\(sideName) gives a side of \(DecimalText.fixed(value, digits: 0)) px; \(limit)"
        case .tooManyPixels(let value):
            return "\(sideName) gives \(DecimalText.fixed(value, digits: 0)) pixels; \(limit)"
        }
    }
}
