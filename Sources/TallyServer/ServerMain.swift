import TallyOptions
import TallyPOSIX

#if Server
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
#endif

/// The server's entry point once its options are read: listen, serve until SIGINT or SIGTERM,
/// then finish the requests in flight and exit.
package enum ServerMain {
    /// Serves with these settings and returns the process's exit code: 0 after a graceful stop,
    /// 74 when it cannot listen (the port is taken, the address is not local).
    package static func run(_ settings: ServeSettings) async -> Int32 {
        // A client that hangs up mid-response must not end the server (exec kept tally's SIG_DFL).
        signal(SIGPIPE, SIG_IGN)
        #if Server
        return await serve(settings)
        #else
        _ = settings
        reportError("this build of tally was made without its Server trait; tally serve is not available")
        return CommandFailure.Code.io.rawValue
        #endif
    }

    /// `tally: error: …` on stderr, one line.
    static func reportError(_ message: String) {
        StandardError.send(CommandFailure.line(message))
    }

    #if Server
    static func serve(_ options: ServeSettings) async -> Int32 {
        LoggingSystem.bootstrap { label in ServerLogHandler(label: label) }
        var logger = Logger(label: "tally-server")
        logger.logLevel = Logger.Level(rawValue: options.logLevel) ?? .info
        let (maximum, limits) = maxConnections(options)
        let connections = ConnectionLimit(maximum: maximum, logger: logger)
        let listenerLogger = logger
        let server = ImageServer(options: options)
        let app = Application(
            router: server.makeRouter(),
            server: .http1ClosingWhenAsked(
                idleTimeout: .nanoseconds(Int64(options.timeout * 1e9)), connections: connections,
                cache: server.responses),
            configuration: .init(address: .hostname(options.host, port: options.port)),
            onServerRunning: { channel in
                // Logged once listening: a start that fails says one line, its error.
                listenerLogger.info("\(limits)")
                await connections.prepare(listener: channel)
                // The first line on stdout names the address (the port, when --port 0 picked one).
                let port = channel.localAddress?.port ?? options.port
                _ = writeFully(STDOUT_FILENO, Array("tally serve: listening on http://\(options.host):\(port)/\n".utf8))
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        var status: Int32 = 0
        do {
            try await group.run()
        } catch {
            ServerLog.shared.flush()
            // The server's service ends of itself only when its listening socket has closed
            // (the error, if any, is logged above).
            let reason =
                (error as? ServiceGroupError)?.errorCode == .serviceFinishedUnexpectedly
                ? "the listening socket closed" : describe(error)
            reportError("cannot serve on \(options.host):\(options.port): \(reason)")
            status = CommandFailure.Code.io.rawValue
        }
        try? await server.raster.shutdown()
        // The access lines still buffered (ServerLogHandler).
        ServerLog.shared.flush()
        return status
    }

    /// Raises the descriptor limit to its hard limit and returns `--max-connections`, given or
    /// derived from the limit (`ServeSettings.defaultMaxConnections`), with a line for the log.
    static func maxConnections(_ options: ServeSettings) -> (Int, String) {
        let limit = DescriptorLimit.raiseToHardLimit()
        // One event loop per core this process may run on. NIO counts the machine's cores (or a
        // cgroup's), not the process's affinity: under `taskset -c 1` on two cores it ran two
        // loops taking turns on one core, each turn a context switch (BENCHMARKS.md).
        if let cores = AllowedCores.count(), cores < System.coreCount {
            NIOSingletons.groupLoopCountSuggestion = cores
        }
        // The event loops Hummingbird runs on hold three descriptors each (epoll, an eventfd, a
        // timerfd): started now, they are counted among those open at start.
        _ = MultiThreadedEventLoopGroup.singleton
        let open = DescriptorLimit.openDescriptors() ?? 3
        let maximum =
            options.maxConnections
            ?? limit.map { ServeSettings.defaultMaxConnections(descriptorLimit: $0, openAtStart: open) }
            ?? ServeSettings.maximumConnections
        let line =
            "descriptor limit \(limit.map(String.init) ?? "unknown"), \(open) open; at most \(maximum) connections at once"
        return (maximum, line)
    }

    /// A start-up failure in a few words: NIO's errors name the system call and errno.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        return URLText.printable(String(describing: error))
    }
    #endif
}
