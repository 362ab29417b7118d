#if Server
import TallyEncoding
import TallyGeometry
import TallyOptions
import TallyRender

/// An image as a route draws it, checked: the count, the format and every setting the drawing
/// reads, and nothing else. `ImageServer.respond(_:to:wording:)` draws from this value alone
/// and keeps what it drew under this same value, so the cache key is the drawing's own input,
/// never a second list of its fields: a setting added to `RenderSettings` or `BadgeSettings`
/// (both `Hashable` over all their fields) is in the key by being there, and a field added to
/// a query is not drawn until it is put here (SPEC §6, ETags).
///
/// Spellings the options model reads alike (`0137`, `size=0512`) are one value and share an
/// entry; defaults given explicitly may take a second entry, whose bytes and tag are the same.
package enum ImageRequest: Hashable, Sendable {
    /// `GET /{count}.{format}`.
    case render(TallyCount, OutputFormat, RenderSettings)
    /// `GET /badge/{count}.{format}`: the badge is laid out from the count and the settings'
    /// goal and label when it is drawn.
    case badge(TallyCount, BadgeSettings)

    /// The format of the bytes.
    package var format: OutputFormat {
        switch self {
        case .render(_, let format, _): format
        case .badge(_, let settings): settings.format
        }
    }
}

/// A URL read into the image it asks for: what the image routes share.
package protocol ImageQuery: Sendable {
    /// Reads the URL's count (decoded) and its query's parameters (decoded, in order).
    /// - Throws: `CommandFailure` with the command line's message for the same values.
    init(count text: String, format: OutputFormat, parameters: [(name: String, value: String)]) throws(CommandFailure)
    /// What is drawn, and the cache key: one value.
    var image: ImageRequest { get }
    /// The options as given: the words of a refusal, never the bytes.
    var options: RenderOptions { get }
}

/// A render URL, `GET /{count}.{format}?{parameters}`: the count, and the render options given
/// as query parameters by their command-line names (`size=512` is `--size 512`).
///
/// The parameters feed the same options model as the command line (`RenderOptions`), so the
/// server accepts exactly the values `tally render` accepts and refuses the rest with its
/// one-line message.
package struct RenderQuery: ImageQuery {
    /// The count, the format and the settings, with the format's defaults.
    package let image: ImageRequest
    /// The options, checked.
    package let options: RenderOptions

    /// At most this many parameters, before any is read.
    package static let maximumParameters = 32

    /// Reads a render URL: the count first, as it comes first in the URL, then the parameters
    /// (already percent-decoded).
    ///
    /// - Throws: `CommandFailure` with the message `tally render` gives for the same values, or
    ///   one naming an unknown or repeated parameter.
    package init(count text: String, format: OutputFormat, parameters: [(name: String, value: String)])
        throws(CommandFailure)
    {
        let count = try Values.count(text)
        options = try Self.options(parameters)
        image = .render(count, format, try options.settings(format: format))
    }

    /// The parameters as the model's options: each the query name of one of `allowed`
    /// (`RenderOption.queryName`: a badge's `labelColor`, its own `style`), given once.
    static func options(
        _ parameters: [(name: String, value: String)], allowed: [RenderOption] = RenderOption.all
    ) throws(CommandFailure) -> RenderOptions {
        guard parameters.count <= maximumParameters else {
            throw .usage("\(parameters.count) query parameters; at most \(maximumParameters) are allowed")
        }
        var given: [RenderOption: String] = [:]
        for (name, value) in parameters {
            guard let option = allowed.first(where: { $0.queryName == name }) else {
                throw .usage(unknownParameter(name, value: value, among: allowed))
            }
            guard given[option] == nil else {
                throw .usage("query parameter '\(Values.printable(name))' is given twice; give it once")
            }
            given[option] = value
        }
        return try RenderOptions(given)
    }

    /// The message for a parameter no render option has, with the closest one; a parameter with
    /// no name (`?=5`) is quoted whole, and nothing is "closest" to it.
    static func unknownParameter(
        _ name: String, value: String, among allowed: [RenderOption] = RenderOption.all
    ) -> String {
        let names = allowed.map(\.queryName)
        let what = allowed == RenderOption.all ? "the render options" : "a badge's options"
        let list = "the parameters are \(what): \(names.joined(separator: ", "))"
        if name.isEmpty { return "\(nameless(value)); \(list)" }
        let guess = Values.suggestion(for: name, among: names)
        return "unknown query parameter '\(Values.printable(name))'; \(guess)\(list)"
    }

    /// The start of the message for a parameter with no name (`?=5`), quoted as given.
    static func nameless(_ value: String) -> String { "query parameter '=\(Values.printable(value))' has no name" }
}

/// A badge URL, `GET /badge/{count}.{svg|png|pdf}?label=…&of=…&theme=…`: the parameters of
/// `tally badge`, through the same options model, so the server makes the command line's badge;
/// shields.io's `color`, `labelColor` and `style` among them, with shields' names (SPEC §7).
package struct BadgeQuery: ImageQuery {
    /// The count and the settings; `format` from the URL's extension.
    package let image: ImageRequest
    /// The options, checked.
    package let options: RenderOptions

    /// - Throws: `CommandFailure` with the message `tally badge` gives for the same values,
    ///   a label the badge cannot write among them.
    package init(count text: String, format: OutputFormat, parameters: [(name: String, value: String)])
        throws(CommandFailure)
    {
        let count = try Values.count(text)
        options = try RenderQuery.options(parameters, allowed: RenderOption.badgeOptions)
        let settings = try options.badgeSettings(format: format)
        // The label checked here, so a bad one is 400 before the cache; the badge is laid out
        // once, when it is drawn.
        try options.checkBadgeLabel(settings)
        image = .badge(count, settings)
    }
}

/// `tally describe <count> --json [--frame F] [--of N]` for a URL:
/// `GET /describe/{count}?frame=F&of=N`.
package struct DescribeQuery: Sendable {
    /// The JSON description, as `tally describe --json` prints it.
    package let json: String

    /// - Throws: `CommandFailure` with the command line's message for the same values.
    package init(count text: String, parameters: [(name: String, value: String)]) throws(CommandFailure) {
        var given: [RenderOption: String] = [:]
        for (name, value) in parameters {
            guard let option = RenderOption.named(name), option == .frame || option == .of else {
                let unknown =
                    name.isEmpty ? RenderQuery.nameless(value) : "unknown query parameter '\(Values.printable(name))'"
                throw .usage("\(unknown); a description takes only frame and of")
            }
            if given[option] != nil { throw .usage("query parameter '\(name)' is given twice; give it once") }
            given[option] = value
        }
        let (count, level) = try Values.countInFrame(text, frame: given[.frame])
        let goal = try RenderOptions(given).goal
        json = DescriptionJSON.encode(count, frame: level, goal: goal)
    }
}
#endif
