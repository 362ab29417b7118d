#if Server
import Logging
import NIOConcurrencyHelpers
import TallyPOSIX

/// swift-log's handler for `tally serve`: one line per event on stderr, made in one buffer.
///
/// swift-log's `StreamLogHandler` reads the local time zone, sorts metadata and locks stdio on
/// every line; at a line per request that halved the server's throughput. This one writes UTC
/// time, the level and the message, and the metadata only above info (the request lines carry
/// everything they need in the message).
///
/// At the default level (info) a request logs one line, its access line (method, target,
/// status, bytes, time: `RequestRecorder`), as nginx's access log does: it is what an operator
/// reads to see who asked for what and how it went. Those lines, and every line at info or
/// below, are buffered (`ServerLog`) and written in blocks of up to 16 KiB, or within a second,
/// or at exit; a line above info (a warning, an error) is written at once, after what is
/// buffered, so the order stays. `--log-level notice` turns the access lines off.
struct ServerLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = " \(event.level) \(label): \(event.message)"
        if event.level > .info {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        }
        line += "\n"
        ServerLog.shared.append(line, now: event.level > .info)
    }

    /// `2026-11-22T17:04:05Z`.
    static func timestamp(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// The server's log lines on their way to stderr: kept in a buffer, and written with one
/// `write` when it passes `blockSize`, when a line must go at once, by a thread that wakes each
/// second, and by `flush()` at exit. A request that logs appends to memory under a lock; one
/// request in a few hundred pays for the write. The time stamp is made once a second.
final class ServerLog: @unchecked Sendable {
    static let shared = ServerLog()

    /// A write's size: large enough that writes are rare, small enough to be written at once.
    static let blockSize = 16_384

    private struct State {
        var buffer: [UInt8] = []
        var second: time_t = -1
        var stamp: [UInt8] = []
        var flusher = false
    }

    private let state = NIOLockedValueBox(State())

    /// Appends `line` (which starts with the space after its time stamp and ends with its
    /// newline), and writes what is buffered when `now` or when the buffer is full.
    func append(_ line: String, now: Bool) {
        let seconds = time(nil)
        let full: [UInt8]? = state.withLockedValue { state in
            if seconds != state.second {
                state.second = seconds
                state.stamp = Array(ServerLogHandler.timestamp(seconds).utf8)
            }
            if !state.flusher {
                state.flusher = true
                startFlusher()
            }
            state.buffer += state.stamp
            state.buffer += line.utf8
            guard now || state.buffer.count >= Self.blockSize else { return nil }
            defer { state.buffer.removeAll(keepingCapacity: true) }
            return state.buffer
        }
        // Written under no lock: a slow stderr holds up only the request that fills the block.
        if let full { _ = writeFully(2, full) }
    }

    /// Writes what is buffered.
    func flush() {
        let pending = state.withLockedValue { state in
            defer { state.buffer.removeAll(keepingCapacity: true) }
            return state.buffer
        }
        if !pending.isEmpty { _ = writeFully(2, pending) }
    }

    /// A thread that writes what is buffered each second, so a line is never more than a
    /// second late (`tail -f` of the log stays live on a quiet server).
    private func startFlusher() {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_create(
            &thread, &attributes,
            { _ in
                while true {
                    sleep(1)
                    ServerLog.shared.flush()
                }
            }, nil)
        pthread_attr_destroy(&attributes)
    }
}
#endif
