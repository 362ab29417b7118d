#if Server
import NIOConcurrencyHelpers
import TallyCommands
import TallyRender

/// What each query string parsed to, so a repeated query is not parsed again.
///
/// `tally render`'s parser (swift-argument-parser) reflects over every option, which costs
/// several times what drawing an SVG does; a docs site asks for many counts with a few option
/// sets, so the options are read once per (format, query string) and the count on its own.
/// Failures are kept too. Bounded: past `limit` entries it starts again empty.
package final class OptionsCache: Sendable {
    private let entries = NIOLockedValueBox<[String: Result<RenderOptions, CommandFailure>]>([:])
    /// The most query strings kept.
    package let limit: Int

    package init(limit: Int = 1024) {
        self.limit = limit
    }

    /// The options of a query string (as it came, still percent-encoded) for a format.
    package func options(format: OutputFormat, query: String?) -> Result<RenderOptions, CommandFailure> {
        let key = format.rawValue + "?" + (query ?? "")
        if let known = entries.withLockedValue({ $0[key] }) { return known }
        let result = Result { () throws(CommandFailure) in
            try RenderOptions(format: format, parameters: try URLText.parameters(query))
        }
        entries.withLockedValue { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = result
        }
        return result
    }

    /// How many query strings are kept now.
    package var count: Int { entries.withLockedValue { $0.count } }
}
#endif
