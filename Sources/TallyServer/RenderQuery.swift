#if Server
import TallyEncoding
import TallyGeometry
import TallyOptions
import TallyRender

/// What a cached image was drawn from: the count and every setting the renderer reads, compared
/// field by field (`RenderSettings` is `Hashable` over all of its fields), so two requests share
/// a cache entry only when the drawing cannot tell them apart. Spellings that the options model
/// reads alike (`0137`, `size=0512`) share one; defaults given explicitly may take a second
/// entry, whose bytes and tag are the same.
package enum ImageRequest: Hashable, Sendable {
    /// `GET /{count}.{format}`.
    case render(TallyCount, OutputFormat, RenderSettings)
    /// `GET /badge/{count}.{format}`.
    case badge(TallyCount, BadgeSettings)
}

/// A render URL, `GET /{count}.{format}?{parameters}`: the count, and the render options given
/// as query parameters by their command-line names (`size=512` is `--size 512`).
///
/// The parameters feed the same options model as the command line (`RenderOptions`), so the
/// server accepts exactly the values `tally render` accepts and refuses the rest with its
/// one-line message.
package struct RenderQuery: Sendable {
    /// The count, checked.
    package let count: TallyCount
    /// The options, checked.
    package let options: RenderOptions
    /// The format, from the URL's extension.
    package let format: OutputFormat
    /// Every setting, with the format's defaults.
    package let settings: RenderSettings

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
        count = try Values.count(text)
        options = try Self.options(parameters)
        self.format = format
        settings = try options.settings(format: format)
    }

    /// The parameters as the model's options: each a render option's name, given once.
    static func options(
        _ parameters: [(name: String, value: String)], allowed: [RenderOption] = RenderOption.all
    ) throws(CommandFailure) -> RenderOptions {
        guard parameters.count <= maximumParameters else {
            throw .usage("\(parameters.count) query parameters; at most \(maximumParameters) are allowed")
        }
        var given: [RenderOption: String] = [:]
        for (name, value) in parameters {
            guard let option = RenderOption.named(name), allowed.contains(option) else {
                throw .usage(unknownParameter(name, among: allowed))
            }
            guard given[option] == nil else {
                throw .usage("query parameter '\(Values.printable(name))' is given twice; give it once")
            }
            given[option] = value
        }
        return try RenderOptions(given)
    }

    /// The message for a parameter no render option has, with the closest one.
    static func unknownParameter(_ name: String, among allowed: [RenderOption] = RenderOption.all) -> String {
        let names = allowed.map(\.name)
        let guess = Values.suggestion(for: name, among: names)
        let what = allowed == RenderOption.all ? "the render options" : "a badge's options"
        return
            "unknown query parameter '\(Values.printable(name))'; \(guess)the parameters are \(what): \(names.joined(separator: ", "))"
    }

    /// The one-line message `tally render` gives when the renderer refuses these settings
    /// (a side beyond the limits, `animate` on PNG, a count beyond its frame).
    package func failure(_ error: RenderError) -> CommandFailure { options.failure(error) }
}

/// A badge URL, `GET /badge/{count}.{svg|png|pdf}?label=…&of=…&theme=…`: the parameters of
/// `tally badge`, through the same options model, so the server makes the command line's badge.
package struct BadgeQuery: Sendable {
    /// The options, checked.
    package let options: RenderOptions
    /// The settings; `format` from the URL's extension.
    package let settings: BadgeSettings
    /// The badge, laid out.
    package let badge: Badge

    /// - Throws: `CommandFailure` with the message `tally badge` gives for the same values.
    package init(count text: String, format: OutputFormat, parameters: [(name: String, value: String)])
        throws(CommandFailure)
    {
        let count = try Values.count(text)
        options = try RenderQuery.options(parameters, allowed: RenderOption.badgeOptions)
        settings = try options.badgeSettings(format: format)
        badge = try options.badge(count, settings)
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
                throw .usage(
                    "unknown query parameter '\(Values.printable(name))'; a description takes only frame and of")
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
