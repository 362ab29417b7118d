import ArgumentParser
import TallyCommands
import TallyPOSIX

#if Server
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
#endif

/// `tally-server`: the program `tally serve` runs, with the options of `tally serve`.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-server",
        abstract: "Serve tally images over HTTP (what `tally serve` runs; see tally serve --help).",
        version: TallyCommand.version
    )

    @OptionGroup var options: ServeOptions
}

/// The server's entry point: parse, listen, serve until SIGINT or SIGTERM, then finish the
/// requests in flight and exit.
package enum ServerMain {
    /// Runs the server and returns the process's exit code: 0 after a graceful stop, 64 for a
    /// bad option, 74 when it cannot listen (the port is taken, the address is not local).
    package static func main(arguments: [String]) async -> Int32 {
        // A client that hangs up mid-response must not end the server (exec kept tally's SIG_DFL).
        signal(SIGPIPE, SIG_IGN)
        let command: ServerCommand
        do {
            command = try ServerCommand.parse(arguments)
        } catch {
            let code = ServerCommand.exitCode(for: error)
            if code == .success {
                // --help and --version, checked like every output.
                do {
                    try Output.writeToStandardOutput(Array((ServerCommand.fullMessage(for: error) + "\n").utf8))
                } catch {
                    TallyCommand.reportError(error.message)
                    return error.code.rawValue
                }
                return 0
            }
            TallyCommand.reportError(TallyCommand.parserMessage(ServerCommand.message(for: error)))
            return code.rawValue
        }
        #if Server
        return await serve(command.options)
        #else
        _ = command
        TallyCommand.reportError("this build of tally was made without its Server trait; tally serve is not available")
        return CommandFailure.Code.io.rawValue
        #endif
    }

    #if Server
    static func serve(_ options: ServeOptions) async -> Int32 {
        LoggingSystem.bootstrap { label in ServerLogHandler(label: label) }
        var logger = Logger(label: "tally-server")
        logger.logLevel = Logger.Level(rawValue: options.logLevel) ?? .info
        let server = ImageServer(options: options)
        let app = Application(
            router: server.makeRouter(),
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(Int64(options.timeout * 1e9)))),
            configuration: .init(address: .hostname(options.host, port: options.port)),
            onServerRunning: { channel in
                // The first line on stdout names the address (the port, when --port 0 picked one).
                let port = channel.localAddress?.port ?? options.port
                try? Output.writeToStandardOutput(
                    Array("tally serve: listening on http://\(options.host):\(port)/\n".utf8))
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        var status: Int32 = 0
        do {
            try await group.run()
        } catch {
            TallyCommand.reportError("cannot serve on \(options.host):\(options.port): \(describe(error))")
            status = CommandFailure.Code.io.rawValue
        }
        try? await server.raster.shutdown()
        return status
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
