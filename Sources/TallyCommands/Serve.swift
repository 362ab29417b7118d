import ArgumentParser
import TallyOptions
import TallyPOSIX

/// The options of `tally serve`, declared once: `tally serve` checks them and hands them to the
/// `tally-server` program, which reads them with this same declaration. Each value is read as
/// text and checked by the options model (`ServeSettings.read`), which words every message, so
/// no message is the parser's.
package struct ServeOptions: ParsableArguments, Sendable {
    /// Where to listen.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The address to listen on (default \(ServeSettings().host)); 0.0.0.0 for every interface.",
            valueName: "address"))
    package var host: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The TCP port (default \(ServeSettings().port)); 0 picks a free one (the first line on standard output names it).",
            valueName: "port"))
    package var port: String?

    /// The server's cap on image sides, below the command line's (`Viewport.maximumSide`).
    @Option(
        name: .customLong("max-size"), parsing: .unconditional,
        help: ArgumentHelp(
            "The largest image side a request may ask for, in pixels, after scale (default \(ServeSettings().maxSize)).",
            valueName: "px"))
    package var maxSize: String?

    /// Threads that draw PNG and PDF.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Threads that draw PNG and PDF (default: one per processor).", valueName: "n"))
    package var jobs: String?

    /// Raster work that may wait, beyond which the server says 503.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "PNG and PDF requests that may wait for a thread (default \(ServeSettings().queue)); beyond them the server answers 503 with Retry-After.",
            valueName: "n"))
    package var queue: String?

    /// Memory for images already drawn.
    @Option(
        name: .customLong("cache-size"), parsing: .unconditional,
        help: ArgumentHelp(
            "MiB of images already drawn to keep and send again instead of redrawing (default \(ServeSettings().cacheSize)); 0 turns the cache off.",
            valueName: "MiB"))
    package var cacheSize: String?

    /// How long a request may take.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a connection may sit idle, and a PNG or PDF request may wait for a thread, before the server gives up on it (default \(Int(ServeSettings().timeout))).",
            valueName: "s"))
    package var timeout: String?

    /// Connections open at once, beyond which a new one is closed at once (SPEC §6).
    @Option(
        name: .customLong("max-connections"), parsing: .unconditional,
        help: ArgumentHelp(
            "Connections open at once; beyond them a new connection is closed at once, unanswered (default: the descriptor limit, raised to its hard limit at start, less the descriptors open then, less \(ServeSettings.reservedDescriptors) kept for files and the raster threads).",
            valueName: "n"))
    package var maxConnections: String?

    /// How much the server logs.
    @Option(
        name: .customLong("log-level"), parsing: .unconditional,
        help: ArgumentHelp(
            "trace, debug, info (one line per request), notice, warning, error or critical (default \(ServeSettings().logLevel)).",
            valueName: "level"))
    package var logLevel: String?

    package init() {}

    /// The options as the model's settings, each checked; the defaults are the model's.
    package func settings() throws(CommandFailure) -> ServeSettings {
        try ServeSettings.read(
            host: host, port: port, maxSize: maxSize, jobs: jobs, queue: queue, cacheSize: cacheSize,
            timeout: timeout, logLevel: logLevel, maxConnections: maxConnections)
    }

    package func validate() throws {
        do {
            _ = try settings()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The options as arguments, each as given, for `tally-server` (which reads them again).
    var arguments: [String] {
        let given: [(String, String?)] = [
            ("host", host), ("port", port), ("max-size", maxSize), ("jobs", jobs), ("queue", queue),
            ("cache-size", cacheSize), ("timeout", timeout), ("log-level", logLevel),
            ("max-connections", maxConnections),
        ]
        return given.compactMap { name, value in value.map { "--\(name)=\($0)" } }
    }
}

/// `tally serve`: the same images over HTTP, for docs sites that embed them by URL.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve tally images over HTTP: GET /1234.svg?theme=auto.",
        discussion: """
            Every URL names its image: /{count}.svg, .png, .pdf or .json, with the render options as \
            query parameters (size=512&theme=auto&caption), and /badge/{count}.svg, .png or .pdf \
            with the badge's. Responses are immutable and carry an \
            ETag; bad values get 400 with the message `tally render` would print. GET / explains the \
            URLs; /describe/{count}, /healthz and /metrics (Prometheus) are there too. SIGINT or \
            SIGTERM stops it after the requests in flight.

            The server is the tally-server program, installed beside tally.

            Examples:
              tally serve                                 http://127.0.0.1:8080/
              tally serve --host 0.0.0.0 --port 80 --max-size 1024
              curl -s 'localhost:8080/1234.svg?theme=auto'
            """
    )

    @OptionGroup var options: ServeOptions

    func run() throws {
        try Self.execServer(options.arguments)
    }

    /// Replaces this process with `tally-server` (same process id, so signals reach the server).
    static func execServer(_ arguments: [String]) throws(CommandFailure) {
        guard let directory = executableDirectory() else {
            throw CommandFailure(.io, "cannot find the folder tally runs from, to start tally-server")
        }
        let server = joinedPath(directory, "tally-server")
        guard access(server, X_OK) == 0 else {
            throw CommandFailure(
                .io,
                "tally serve needs the tally-server program beside tally ('\(Values.printable(server))'); build or install it with tally (swift build, make install), with the Server trait"
            )
        }
        let argv = (["tally-server"] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        let reason = String(cString: strerror(errno))
        throw CommandFailure(.io, "cannot start '\(Values.printable(server))': \(reason)")
    }

    /// The folder of the running executable: `/proc/self/exe` on Linux, the loader's path on macOS.
    static func executableDirectory() -> String? {
        var path: String?
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 { path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #elseif canImport(Darwin)
        var size = UInt32(4096)
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0 {
            var resolved = [CChar](repeating: 0, count: Int(PATH_MAX))
            path = ByteText.decode(cString: realpath(buffer, &resolved) != nil ? resolved : buffer)
        }
        #endif
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
