import TallyGeometry
import TallyOptions
import TallyRender

/// The plainest `tally render` — a count, and at most `-o`, `-f`, `--size` and `--detail` — read without
/// swift-argument-parser, because the parser's reflection over every option (protocol
/// conformance lookups and type demangling) is most of such a run's cost.
///
/// Only the exact shapes below take this path; anything else (any other option, `--name=value`,
/// a repeated option, a value that looks like an option) goes to the parser, as does every
/// failure before the image is written: so every message, exit code and help text is the full
/// command line's, and the bytes are the same either way (a test compares them).
struct PlainRender {
    let count: String
    let output: String?
    let format: String?
    let size: String?
    let detail: String?

    /// The plain render these arguments ask for, or nil when they are anything more.
    init?(_ arguments: [String]) {
        guard arguments.first == "render" else { return nil }
        var count: String?
        var output: String?
        var format: String?
        var size: String?
        var detail: String?
        var index = 1
        func value() -> String? {
            guard index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            // The parser reads "-" as a value and anything else starting with "-" as an option.
            guard value == "-" || !value.hasPrefix("-") else { return nil }
            index += 2
            return value
        }
        while index < arguments.count {
            switch arguments[index] {
            case "-o", "--output":
                guard output == nil, let path = value() else { return nil }
                output = path
            case "-f", "--format":
                guard format == nil, let text = value() else { return nil }
                format = text
            case "--size":
                guard size == nil, let text = value() else { return nil }
                size = text
            case "--detail":
                guard detail == nil, let text = value() else { return nil }
                detail = text
            case let argument:
                guard count == nil, !argument.hasPrefix("-") else { return nil }
                count = argument
                index += 1
            }
        }
        guard let count else { return nil }
        (self.count, self.output, self.format, self.size, self.detail) = (count, output, format, size, detail)
    }

    /// Draws and writes the image as `Render.run` does with these values and every other option
    /// at its default. Returns false, having written nothing, when anything fails before the
    /// bytes are ready: the caller then runs the parser, which reports it in its words.
    func run() throws(CommandFailure) -> Bool {
        // No -f and no -o on a terminal is the preview: the full path draws it.
        if self.format == nil && output == nil && Output.standardOutputIsTerminal { return false }
        let bytes: [UInt8]
        let format: OutputFormat
        do {
            let count = try Values.count(count)
            format = try Output.format(
                given: self.format, output: output, fallback: OutputFormat.svg,
                fromExtension: OutputFormat.init(pathExtension:))
            var given: [RenderOption: String] = [:]
            given[.size] = size
            given[.detail] = detail
            bytes = try Renderer.render(count, try RenderOptions(given).settings(format: format))
        } catch {
            return false
        }
        try Output.emit(bytes, to: output, binary: format.isBinary, formatName: format.rawValue)
        return true
    }
}
