import TallyGeometry
import TallyPOSIX

/// The options of `tally serve` (and of `tally-server`, which it runs), checked: the model the
/// server is built from, whatever parsed them.
package struct ServeSettings: Sendable {
    /// The address to listen on.
    package var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    package var port = 8080
    /// The server's cap on image sides, below the command line's (`Viewport.maximumSide`).
    package var maxSize = 4096
    /// Threads that draw PNG and PDF; nil: one per processor.
    package var jobs: Int?
    /// Raster work that may wait, beyond which the server says 503.
    package var queue = 256
    /// MiB of images already drawn to keep.
    package var cacheSize = 32
    /// Seconds a connection may idle, and a raster request may wait for a thread.
    package var timeout = 30.0
    /// How much the server logs: one of `logLevels`.
    package var logLevel = "info"
    /// Connections open at once, beyond which a new one is closed at once; nil: derived from
    /// the descriptor limit at start (`defaultMaxConnections`).
    package var maxConnections: Int?

    /// The largest `--max-connections`.
    package static let maximumConnections = 1_000_000

    /// Descriptors kept free below the limit, beyond those open at start, for what the server
    /// opens besides connections: the raster threads' files (Cairo's library and its fonts), the
    /// log, and the one connection accepted only to be closed when the others are all in use.
    package static let reservedDescriptors = 32

    /// `--max-connections`'s default: the descriptor limit less the descriptors open at start
    /// and `reservedDescriptors`, at least 1 and at most `maximumConnections`.
    package static func defaultMaxConnections(descriptorLimit: Int, openAtStart: Int) -> Int {
        let room = descriptorLimit.subtractingReportingOverflow(openAtStart + reservedDescriptors)
        return room.overflow ? 1 : min(maximumConnections, max(1, room.partialValue))
    }

    /// The shortest `--timeout` allowed, in seconds.
    package static let minimumTimeout = 1.0

    /// The levels of swift-log, least severe first.
    package static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// The defaults.
    package init() {}

    /// Threads for PNG and PDF, after the default.
    package var rasterThreads: Int { jobs ?? processorCount() }

    /// Settings from text as given (the command line's, `tally-server`'s), each value read and
    /// then checked; nil keeps the default.
    /// - Throws: `CommandFailure` naming the first option that is not a number, or out of range,
    ///   with the value as given.
    package static func read(
        host: String?, port: String?, maxSize: String?, jobs: String?, queue: String?, cacheSize: String?,
        timeout: String?, logLevel: String?, maxConnections: String? = nil
    ) throws(CommandFailure) -> ServeSettings {
        func whole(_ text: String?, _ option: String) throws(CommandFailure) -> Int? {
            guard let text else { return nil }
            guard let value = Int(text) else {
                throw .usage("--\(option) '\(Values.printable(text))' is not a whole number")
            }
            return value
        }
        var settings = ServeSettings()
        if let host { settings.host = host }
        if let port = try whole(port, "port") { settings.port = port }
        if let maxSize = try whole(maxSize, "max-size") { settings.maxSize = maxSize }
        if let jobs = try whole(jobs, "jobs") { settings.jobs = jobs }
        if let queue = try whole(queue, "queue") { settings.queue = queue }
        if let cacheSize = try whole(cacheSize, "cache-size") { settings.cacheSize = cacheSize }
        if let maxConnections = try whole(maxConnections, "max-connections") {
            settings.maxConnections = maxConnections
        }
        if let timeout {
            guard let seconds = Double(timeout) else {
                throw .usage("--timeout '\(Values.printable(timeout))' is not a number of seconds")
            }
            settings.timeout = seconds
        }
        if let logLevel { settings.logLevel = logLevel }
        try settings.validate()
        return settings
    }

    /// Checks every value.
    /// - Throws: `CommandFailure` naming the first option out of range, with the value as given.
    package func validate() throws(CommandFailure) {
        guard !host.isEmpty, host.utf8.count <= 255, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" })
        else {
            throw .usage("--host '\(Values.printable(host))' is not an address; use an IP address or a host name")
        }
        guard (0...65_535).contains(port) else { throw .usage("--port '\(port)' is not a port; use 0 to 65535") }
        let limit = Int(Viewport.maximumSide)
        guard maxSize >= 1, maxSize <= limit else {
            throw .usage("--max-size '\(maxSize)' is out of range; use 1 to \(limit) (the command line's own limit)")
        }
        if let jobs, !(1...256).contains(jobs) { throw .usage("--jobs '\(jobs)' is out of range; use 1 to 256") }
        guard (0...100_000).contains(queue) else {
            throw .usage("--queue '\(queue)' is out of range; use 0 to 100000")
        }
        guard (0...4096).contains(cacheSize) else {
            throw .usage("--cache-size '\(cacheSize)' is out of range; use 0 to 4096 MiB")
        }
        if let maxConnections, !(1...Self.maximumConnections).contains(maxConnections) {
            throw .usage(
                "--max-connections '\(maxConnections)' is out of range; use 1 to \(Self.maximumConnections)"
            )
        }
        guard Self.logLevels.contains(logLevel) else {
            throw .usage(
                "--log-level '\(Values.printable(logLevel))' is not a log level; use \(Values.list(Self.logLevels))")
        }
        // Under a second, a connection would close before a client on a slow link could send
        // its request, and every PNG would time out waiting for a thread.
        guard timeout.isFinite, timeout >= Self.minimumTimeout, timeout <= 3600 else {
            throw .usage(
                "--timeout '\(Values.number(timeout))' is out of range; use \(Values.number(Self.minimumTimeout)) to 3600 seconds"
            )
        }
    }
}
