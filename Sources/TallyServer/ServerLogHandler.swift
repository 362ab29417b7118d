#if Server
import Logging
import TallyPOSIX

/// swift-log's handler for `tally serve`: one line per event on stderr, made in one buffer and
/// written with one `write` (so lines from many threads never interleave).
///
/// swift-log's `StreamLogHandler` reads the local time zone, sorts metadata and locks stdio on
/// every line; at a line per request that halved the server's throughput. This one writes UTC
/// time, the level and the message, and the metadata only above info (the request lines carry
/// everything they need in the message).
struct ServerLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = Self.timestamp()
        line += " \(event.level) \(label): \(event.message)"
        if event.level > .info {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        }
        line += "\n"
        StandardError.send(line)
    }

    /// `2026-11-22T17:04:05Z`.
    static func timestamp() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
#endif
