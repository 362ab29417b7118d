#if Server
import Foundation
import HTTPTypes
import NIOCore
import TallyTestSupport
import Testing
import TallyPOSIX

/// The real `tally serve` (tally executes tally-server), on an ephemeral loopback port.
final class RunningServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    let log: URL

    /// Starts the server and waits (at most 30 s) for the line that names its port; with
    /// `descriptorLimit`, through a shell that sets `ulimit -n` first (soft and hard) and then
    /// executes tally, so the server keeps the shell's process id.
    init(_ arguments: [String], descriptorLimit: Int? = nil) throws {
        try startingAProcess()
        log = FileManager.default.temporaryDirectory.appendingPathComponent("tally-serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // A long idle timeout: under a loaded test run, a test's task may wait its turn for
        // many seconds between two requests, and the server must not close on it meanwhile.
        let serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--timeout", "600"] + arguments
        if let descriptorLimit {
            process.executableURL = try #require(installedProgram("sh"))
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", TallyProcess.executable.path] + serve
        } else {
            process.executableURL = TallyProcess.executable
            process.arguments = serve
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // A server that never says where it listens is killed, which ends the read below.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        watchdog.cancel()
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on http://127.0.0.1:"),
            let port = Int(text[range.upperBound...].prefix(while: \.isNumber))
        else {
            process.terminate()
            throw ServerStartFailure(output: text + (try String(contentsOf: log, encoding: .utf8)))
        }
        self.port = port
    }

    struct ServerStartFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "tally serve did not start: \(output)" }
    }

    func client() -> LoopbackClient { LoopbackClient(port: port) }

    /// Waits for the process to end (at most `seconds`), or kills it and returns nil.
    func waitForExit(seconds: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// How an ended server ended, and what it logged: for a failure's message.
    var endedWith: String {
        let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
        return "\(how) \(process.terminationStatus); log: \(logLines.joined(separator: " | "))"
    }

    var logLines: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    deinit {
        // Stopped and reaped: Foundation keeps a process it has not seen end (and its pipes).
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}

/// 127.0.0.1:port as the socket calls take it.
func withLoopbackAddress(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

/// Whether something accepts connections on the loopback port.
func somethingListens(on port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    return withLoopbackAddress(port) { connect(descriptor, $0, $1) } == 0
}

/// Whether a new server could listen on the port (SO_REUSEADDR, as servers set it, so the
/// closed connections' TIME_WAIT does not count).
func portIsFree(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    return withLoopbackAddress(port) { bind(descriptor, $0, $1) } == 0 && listen(descriptor, 1) == 0
}

/// A socket read timeout of `seconds`, four times as long under a sanitizer (as `runProgram`
/// gives its children).
func readTimeout(seconds: Int) -> timeval {
    timeval(tv_sec: underSanitizer ? 4 * seconds : seconds, tv_usec: 0)
}

/// Sends `request` on a new loopback connection and reads until the server closes it or
/// `seconds` pass with nothing to read (four times as many under a sanitizer, as `runProgram`
/// gives its children: a sanitized server beside the whole suite answered HTTP/1.2 after more
/// than 10 s): the bytes as text, and whether the server closed.
func rawExchange(port: Int, _ request: String, seconds: Int = 10) -> (response: String, closed: Bool) {
    let (bytes, closed) = loopbackExchange(port: port, Array(request.utf8), seconds: seconds)
    return (String(decoding: bytes, as: UTF8.self), closed)
}

/// A loopback port nothing listens on now (the kernel's pick, released).
func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    try #require(withLoopbackAddress(0) { bind(descriptor, $0, $1) } == 0)
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Each test has a time limit: a server that stops answering fails the test, and the
/// `RunningServer` it held is released, which kills and reaps the server.
@Suite(.serialized, .processTimeLimit(minutes: 3), .runsTallysThreads) struct ServerProcessTests {
    /// RFC 9112 §9.3: HTTP/1.0 without keep-alive, and any request with `Connection: close`, get
    /// their response with `Connection: close`, and then the server closes (long before its
    /// 600 s idle timeout). A connection that is kept stays open.
    @Test func connectionsTheClientDoesNotKeepAreClosed() throws {
        let server = try RunningServer([])
        for request in [
            "GET /healthz HTTP/1.0\r\n\r\n", "GET /5.svg HTTP/1.0\r\nHost: a\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n",
            "HEAD /healthz HTTP/1.0\r\n\r\n", "GET /-1.svg HTTP/1.0\r\n\r\n",
        ] {
            let (response, closed) = rawExchange(port: server.port, request)
            #expect(closed, "\(request.debugDescription): the server closed the connection")
            #expect(response.hasPrefix("HTTP/1.1 "), "\(request.debugDescription): \(response)")
            #expect(
                response.lowercased().contains("\r\nconnection: close\r\n"), "\(request.debugDescription): \(response)")
        }
        for request in [
            "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
        ] {
            let (response, closed) = rawExchange(port: server.port, request, seconds: 1)
            #expect(!closed, "\(request.debugDescription): a kept connection stays open")
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(request.debugDescription): \(response)")
            #expect(!response.lowercased().contains("connection: close"))
        }
    }

    /// tally's own descriptors close on exec: tally-server, which `tally serve` becomes, holds no
    /// pipe but the standard descriptors its parent gave it (tally's signal pipe once leaked in).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc"))
    func noPipeOfTallyLeaksIntoTheServer() throws {
        let server = try RunningServer([])
        let folder = "/proc/\(server.process.processIdentifier)/fd"
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: folder)
        for descriptor in descriptors where !["0", "1", "2"].contains(descriptor) {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)")) ?? ""
            #expect(!target.hasPrefix("pipe:"), "descriptor \(descriptor) is a pipe: \(target)")
        }
    }

    /// Started with standard output and error closed, the server still serves (its log lines
    /// have nowhere to go and are dropped) past the point where they would fill a pipe, and
    /// SIGTERM stops it with exit 0.
    @Test func aServerWithItsOutputClosedKeepsServingAndStops() async throws {
        let port = try freePort()
        let shell = try #require(installedProgram("sh"))
        try startingAProcess()
        let process = Process()
        process.executableURL = shell
        process.arguments = [
            "-c", "exec '\(TallyProcess.executable.path)' serve --host 127.0.0.1 --port \(port) >&- 2>&-",
        ]
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        for _ in 0..<1500 where !somethingListens(on: port) { try await Task.sleep(for: .milliseconds(20)) }
        try #require(somethingListens(on: port), "the server listens")
        // Each request logs a line of about 90 bytes: 1,200 of them would more than fill a
        // 64 KiB pipe.
        for index in 0..<1200 {
            let (response, closed) = rawExchange(port: port, "GET /\(index).svg?size=16 HTTP/1.0\r\n\r\n")
            guard closed, response.hasPrefix("HTTP/1.1 200") else {
                Issue.record("request \(index) got no answer: \(response.prefix(200))")
                break
            }
        }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<1000 where process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "SIGTERM stops it")
        if !process.isRunning { #expect(process.terminationStatus == 0) }
    }

    /// The issue's acceptance, over loopback: the command line's bytes, 304 on the ETag, 400 for
    /// -1 with one line, and the server still up; one log line per request.
    @Test func servesTheCommandLinesBytesOverLoopback() async throws {
        let server = try RunningServer([])
        let client = server.client()
        var requests = 0
        let image = try await client.send("/1234.svg?theme=auto")
        requests += 1
        #expect(image.status == .ok)
        let expected = try TallyProcess.run(["render", "1234", "--theme", "auto", "-f", "svg"])
        #expect(Data(buffer: image.body) == expected.stdout)
        let tag = try #require(image.headers[.eTag])
        let again = try await client.send("/1234.svg?theme=auto", headers: [.ifNoneMatch: tag])
        requests += 1
        #expect(again.status == .notModified)
        #expect(again.body.readableBytes == 0)
        let head = try await client.send("/1234.svg?theme=auto", method: .head)
        requests += 1
        #expect(head.status == .ok)
        #expect(head.headers[.contentLength] == String(expected.stdout.count))
        let bad = try await client.send("/-1.svg")
        requests += 1
        #expect(bad.status == .badRequest)
        let message = String(buffer: bad.body)
        #expect(
            message
                == "tally: error: count '-1' is negative; it must be a whole number from 0 to 9,223,372,036,854,775,807\n"
        )
        let health = try await client.send("/healthz")
        requests += 1
        #expect(health.status == .ok, "the server stays up after a bad request")
        try await client.shutdown()
        kill(server.process.processIdentifier, SIGINT)
        #expect(try await server.waitForExit(seconds: 20) == 0, "SIGINT stops it cleanly")
        let requestLines = server.logLines.filter {
            $0.contains(" info tally-server: GET /") || $0.contains(" info tally-server: HEAD /")
        }
        #expect(requestLines.count == requests, "one log line per request: \(server.logLines)")
        #expect(requestLines.contains { $0.hasSuffix(" ms") && $0.contains("GET /-1.svg 400 ") })
        #expect(
            server.logLines.allSatisfy { $0.first?.isNumber == true && $0.dropFirst(19).hasPrefix("Z ") },
            "each line starts with a UTC time")
    }

    /// SIGTERM while a large PNG is being drawn: the PNG is delivered whole, then the server
    /// exits 0 and the port is free. Under a sanitizer 2,048 px, as long in flight there as
    /// 8,192 px is plain.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)"))
    func sigtermLetsTheRequestInFlightFinish() async throws {
        let size = underSanitizer ? 2_048 : 8_192
        let server = try RunningServer(["--max-size", "\(size)", "--jobs", "1"])
        let slowURI = "/9223372036854775807.png?size=\(size)&caption"
        let watcher = server.client()
        var finished: TestResponse?
        // The gauge of raster work says when the PNG is being drawn; a PNG that finished before
        // the watcher looked is simply asked for again.
        attempts: for _ in 0..<5 {
            let slow = Task {
                let client = server.client()
                defer { Task { try? await client.shutdown() } }
                return try await client.send(slowURI)
            }
            for _ in 0..<2000 {
                let metrics = try await watcher.send("/metrics")
                if String(buffer: metrics.body).contains("tally_raster_in_flight_requests 1.0") {
                    try await watcher.shutdown()
                    kill(server.process.processIdentifier, SIGTERM)
                    finished = try await slow.value
                    break attempts
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            _ = try await slow.value
        }
        let response = try #require(finished, "the PNG was never seen in flight")
        #expect(response.status == .ok)
        let body = response.body
        #expect(
            Array(body.readableBytesView.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a whole PNG")
        #expect(response.headers[.contentLength] == String(body.readableBytes))
        #expect(try await server.waitForExit(seconds: 20) == 0, "exit 0 after a graceful stop")
        #expect(!somethingListens(on: server.port), "nothing listens on the port")
        #expect(portIsFree(server.port), "the port can be bound again")
    }

    @Test func startUpErrorsAreOneLine() throws {
        // A port that is taken: exit 74, one line naming it.
        let holder = try RunningServer([])
        let taken = try TallyProcess.run(["serve", "--host", "127.0.0.1", "--port", String(holder.port)])
        expectOneLineError(taken, status: 74, mentioning: "cannot serve on 127.0.0.1:\(holder.port)")
        kill(holder.process.processIdentifier, SIGTERM)
        // Bad options: 64, the parser's words in ours.
        expectOneLineError(
            try TallyProcess.run(["serve", "--port", "70000"]), status: 64, mentioning: "--port '70000'")
        expectOneLineError(
            try TallyProcess.run(["serve", "--max-size", "0"]), status: 64, mentioning: "--max-size '0'")
        expectOneLineError(
            try TallyProcess.run(["serve", "--log-level", "loud"]), status: 64, mentioning: "--log-level 'loud'")
        expectOneLineError(try TallyProcess.run(["serve", "--timeout", "nan"]), status: 64, mentioning: "--timeout")
        for bad in ["0", "-3", "1000001", "many", "1e3"] {
            expectOneLineError(
                try TallyProcess.run(["serve", "--max-connections", bad]), status: 64,
                mentioning: "--max-connections '\(bad)'")
        }
        // A timeout that would close every connection before its request: refused.
        for tiny in ["1e-9", "0.5"] {
            expectOneLineError(
                try TallyProcess.run(["serve", "--timeout", tiny]), status: 64, mentioning: "use 1 to 3600 seconds")
        }
    }

    /// `CONNECT` gets the 405 every other method gets, framed (its length and its one-line
    /// body), and the connection closes at once rather than at the idle timeout.
    @Test func connectGetsAFramed405AndTheConnectionCloses() throws {
        let server = try RunningServer([])
        let (response, closed) = rawExchange(port: server.port, "CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(closed, "the server closed the connection: \(response)")
        #expect(response.hasPrefix("HTTP/1.1 405 "), "\(response)")
        let body = "tally: error: method CONNECT is not allowed; tally serve answers GET and HEAD\n"
        #expect(response.hasSuffix("\r\n\r\n" + body), "\(response)")
        #expect(response.contains("Content-Length: \(body.utf8.count)\r\n"), "\(response)")
        #expect(response.contains("Allow: GET, HEAD\r\n"))
        // The server still answers.
        let (after, _) = rawExchange(port: server.port, "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(after.hasPrefix("HTTP/1.1 200"))
    }
}
#endif
