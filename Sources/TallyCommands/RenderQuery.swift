import TallyEncoding
import TallyGeometry
import TallyRender
import TallyStyle

/// A render URL, `GET /{count}.{format}?{parameters}`: the count and the options of
/// `tally render` that the query gives.
package struct RenderQuery: Sendable {
    /// The count, checked.
    package let count: TallyCount
    /// The query's options.
    package let options: RenderOptions
    /// Every setting, checked; `format` from the URL's extension.
    package var settings: RenderSettings { options.settings }
    /// The count and the settings in one canonical line, so equal images have equal keys
    /// however the URL spelled them (`0137`, `size=0512`, `theme=auto&size=512`).
    package var canonicalKey: String { "count=\(count.value);" + options.canonicalKey }

    /// The count checked as `tally render` checks it, with its messages, and the options.
    package init(count text: String, options: RenderOptions) throws(CommandFailure) {
        count = try Values.count(text)
        self.options = options
    }

    /// The one-line message `tally render` gives when the renderer refuses these settings
    /// (a side beyond the limits, `animate` on PNG, a count beyond its frame).
    package func failure(_ error: RenderError) -> CommandFailure { options.drawing.failure(error) }
}

/// A URL's query as `tally render` options.
///
/// Each parameter is the render option of the same name (`size=512` is `--size 512`), so the
/// server accepts exactly what the command line accepts and refuses the rest with the command
/// line's own one-line message: the parameters become the arguments of `tally render` and go
/// through the same checks and the same parser. The parser reflects over the options, which
/// costs more than drawing an SVG, so the server keeps what a query string parsed to
/// (`OptionsCache`); the count is read on its own.
package struct RenderOptions: Sendable {
    /// Every setting but the count, checked; `format` from the URL's extension.
    package let settings: RenderSettings
    /// The settings in one canonical line (values as parsed, in a fixed order).
    package let canonicalKey: String
    /// The options as parsed, for the messages of settings the renderer refuses.
    let drawing: DrawingOptions

    /// The query parameters a render URL takes, each the render option of the same name.
    package static let valueParameters = [
        "size", "width", "height", "scale", "padding", "theme", "style", "seed", "fit",
        "frame", "detail", "background", "ink", "c2", "c3", "accent", "animate-from", "label",
    ]
    /// Parameters that switch something on: `animate`, `animate=true` or `animate=1`.
    package static let flagParameters = ["animate", "caption"]
    /// Flags whose default depends on the count, so `false` says something (`--no-caption`).
    static let invertibleFlags = ["caption"]
    /// At most this many parameters, before any is read.
    package static let maximumParameters = 32

    /// Reads a render URL's query parameters (already percent-decoded) for a format.
    ///
    /// - Throws: `CommandFailure` with the message `tally render` gives for the same values, or
    ///   one naming an unknown or repeated parameter.
    package init(format: OutputFormat, parameters: [(name: String, value: String)]) throws(CommandFailure) {
        guard parameters.count <= Self.maximumParameters else {
            throw .usage("\(parameters.count) query parameters; at most \(Self.maximumParameters) are allowed")
        }
        // Each value joined to its name, so no value is ever read as an option (`label=--help`),
        // except a negative number, which gets the command line's own "is negative" message.
        var arguments = ["render"]
        var seen: [String] = []
        for (name, value) in parameters {
            if seen.contains(name) {
                throw .usage("query parameter '\(Values.printable(name))' is given twice; give it once")
            }
            seen.append(name)
            if Self.flagParameters.contains(name) {
                switch value.lowercased() {
                case "", "true", "1", "yes", "on": arguments.append("--" + name)
                // A flag with an inversion says so (`caption=false` is `--no-caption`); others are off by default.
                case "false", "0", "no", "off":
                    if Self.invertibleFlags.contains(name) { arguments.append("--no-" + name) }
                default:
                    throw .usage(
                        "query parameter '\(name)' '\(Values.printable(value))' is not allowed; use true or false, or no value"
                    )
                }
            } else if Self.valueParameters.contains(name) {
                arguments += TallyCommand.isDashNumber(value) ? ["--" + name, value] : ["--\(name)=\(value)"]
            } else {
                throw .usage(Self.unknownParameter(name))
            }
        }
        // The command line's own path: the same checks in the same order, the same messages
        // (a placeholder count after `--`; the URL's count is checked on its own).
        let checked = TallyCommand.joiningTextValues(arguments + ["--", "0"])
        try TallyCommand.rejectNegativeNumbers(checked)
        let render: Render
        do {
            render = try Render.parse(Array(checked.dropFirst()))
        } catch {
            throw .usage(TallyCommand.parserMessage(Render.message(for: error)))
        }
        settings = try render.drawing.settings(format: format)
        drawing = render.drawing
        canonicalKey = Self.canonicalKey(settings)
    }

    /// The message for a parameter no render option has, with the closest one.
    static func unknownParameter(_ name: String) -> String {
        let names = valueParameters + flagParameters
        let guess = TallyCommand.suggestion(for: name, among: names)
        return
            "unknown query parameter '\(Values.printable(name))'; \(guess)the parameters are the render options: \(names.joined(separator: ", "))"
    }

    /// One line that names every setting, in a fixed order, with values as parsed.
    static func canonicalKey(_ settings: RenderSettings) -> String {
        var key = "format=\(settings.format.rawValue)"
        switch settings.side {
        case .longer(let value)?: key += ";size=\(value)"
        case .width(let value)?: key += ";width=\(value)"
        case .height(let value)?: key += ";height=\(value)"
        case nil: break
        }
        key += ";scale=\(settings.scale)"
        if let padding = settings.padding { key += ";padding=\(padding)" }
        key += ";theme=\(settings.appearance.theme.rawValue)"
        for token in ColorToken.allCases {
            if let color = settings.appearance.overrides[token] { key += ";\(token.rawValue)=\(color.css)" }
        }
        switch settings.appearance.background {
        case .none: break
        case .paper: key += ";background=paper"
        case .color(let color): key += ";background=\(color.css)"
        }
        key += ";style=\(settings.style.rawValue);seed=\(settings.seed)"
        if let fit = settings.fit { key += ";fit=\(fit.rawValue)" }
        if let frame = settings.frame { key += ";frame=\(frame.capacity)" }
        if let detail = settings.detail { key += ";detail=\(detail.rawValue)" }
        if let label = settings.label { key += ";label=\(label.utf8.count):\(label)" }
        if let caption = settings.caption { key += caption ? ";caption" : ";no-caption" }
        switch settings.animation {
        case .none: break
        case .all: key += ";animate"
        case .since(let from): key += ";animate-from=\(from.value)"
        }
        key += ";date=\(settings.documentDate)"
        return key
    }
}

/// `tally describe <count> --json [--frame F]` for a URL: `GET /describe/{count}?frame=F`.
package struct DescribeQuery: Sendable {
    /// The JSON description, as `tally describe --json` prints it.
    package let json: String
    /// The count and frame in one canonical line.
    package let canonicalKey: String

    /// - Throws: `CommandFailure` with the command line's message for the same values.
    package init(count text: String, parameters: [(name: String, value: String)]) throws(CommandFailure) {
        var frameText: String?
        for (name, value) in parameters {
            guard name == "frame" else {
                throw .usage("unknown query parameter '\(Values.printable(name))'; a description takes only frame")
            }
            if frameText != nil { throw .usage("query parameter 'frame' is given twice; give it once") }
            frameText = value
        }
        try TallyCommand.rejectNegativeNumbers(["describe", text])
        let (count, level) = try Describe.checked(count: text, frame: frameText)
        json = DescriptionJSON.encode(count, frame: level)
        canonicalKey = "describe;count=\(count.value)" + (level.map { ";frame=\($0.capacity)" } ?? "")
    }
}
