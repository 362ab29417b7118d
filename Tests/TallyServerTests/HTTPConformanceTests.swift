#if Server
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import TallyOptions
import TallyServer
import TallyTestSupport
import Testing

/// Runs `body` with the port of an in-process server: the router of `ImageServer` behind the
/// HTTP/1 channel `tally serve` uses (`HTTPServerBuilder.http1ClosingWhenAsked`, its response
/// cache answering remembered targets before the router), on 127.0.0.1, quiet; then stops the
/// raster threads. `routed`, when given, collects the targets that reached the router;
/// `listening`, when given, gets the listening channel before `body` runs.
func withLiveServer<Value: Sendable>(
    maxConnections: Int = 64, idleTimeout: TimeAmount = .seconds(60), routed: RoutedTargets? = nil,
    configure: (inout ServeSettings) -> Void = { _ in },
    listening: (@Sendable (any Channel) -> Void)? = nil,
    _ body: @Sendable (Int) async throws -> Value
) async throws -> Value {
    var options = ServeSettings()
    configure(&options)
    let server = ImageServer(options: options)
    var logger = Logger(label: "tally-server-test")
    logger.logLevel = .critical
    let responder = CountingResponder(base: server.makeRouter().buildResponder(), routed: routed)
    let connections = ConnectionLimit(maximum: maxConnections, logger: logger)
    let result: Result<Value, any Error>
    do {
        result = .success(
            try await runningLive(logger: logger) { onServerRunning in
                Application(
                    responder: responder,
                    server: .http1ClosingWhenAsked(
                        idleTimeout: idleTimeout, connections: connections, cache: server.responses),
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { listener in
                        // The listener as `tally serve` sets it up.
                        await connections.prepare(listener: listener)
                        listening?(listener)
                        await onServerRunning(listener)
                    },
                    logger: logger)
            } body: { port in
                try await body(port)
            })
    } catch {
        result = .failure(error)
    }
    try await server.raster.shutdown()
    return try result.get()
}

/// The request-targets that reached the router, in order.
final class RoutedTargets: Sendable {
    private let targets = NIOLockedValueBox<[String]>([])
    func append(_ target: String) { targets.withLockedValue { $0.append(target) } }
    var all: [String] { targets.withLockedValue { $0 } }
}

/// The router, noting each target it is asked for.
struct CountingResponder<Base: HTTPResponder>: HTTPResponder {
    let base: Base
    let routed: RoutedTargets?
    func respond(to request: Request, context: Base.Context) async throws -> Response {
        routed?.append(request.uri.description)
        return try await base.respond(to: request, context: context)
    }
}

/// `rawExchange` on a thread of its own. A server that answers at all answers within a second;
/// 30 s is for a machine whose cores are taken by other builds (a 10 s limit failed there on a
/// request the server did answer), and a server that never answers still fails.
func exchange(port: Int, _ request: String, seconds: Int = 30) async -> (response: String, closed: Bool) {
    await onAThread { rawExchange(port: port, request, seconds: seconds) }
}

/// An answer as the router gives its errors: this status, tally's one-line body framed by its
/// length, `text/plain; charset=utf-8`, `nosniff` and `Connection: close`, and the connection
/// closed after it.
func expectOneLineAnswer(
    _ exchanged: (response: String, closed: Bool), status: Int, mentioning words: String? = nil,
    _ request: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let (response, closed) = exchanged
    let label = "\(request.prefix(60).debugDescription): \(response.prefix(400).debugDescription)"
    #expect(response.hasPrefix("HTTP/1.1 \(status) "), "\(label)", sourceLocation: sourceLocation)
    #expect(closed, "the connection closes: \(label)", sourceLocation: sourceLocation)
    guard let split = response.range(of: "\r\n\r\n") else {
        Issue.record("no header section: \(label)", sourceLocation: sourceLocation)
        return
    }
    let headers = response[..<split.lowerBound].lowercased().split(separator: "\r\n").dropFirst()
    for header in ["content-type: text/plain; charset=utf-8", "x-content-type-options: nosniff", "connection: close"] {
        #expect(headers.contains(Substring(header)), "\(header): \(label)", sourceLocation: sourceLocation)
    }
    let body = String(response[split.upperBound...])
    #expect(
        headers.contains(Substring("content-length: \(body.utf8.count)")), "\(label)", sourceLocation: sourceLocation)
    #expect(body.hasPrefix("tally: error: ") && body.hasSuffix("\n"), "\(label)", sourceLocation: sourceLocation)
    #expect(body.filter(\.isNewline).count == 1, "one line: \(label)", sourceLocation: sourceLocation)
    #expect(!body.contains { $0.isASCII && $0.asciiValue! < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    if let words { #expect(body.contains(words), "\(label)", sourceLocation: sourceLocation) }
}

/// RFC 9110 and 9112's answers to requests the router never sees, over a real socket, each with
/// tally's one-line body (SPEC §6, the server).
@Suite(.processTimeLimit(minutes: 2)) struct HTTPConformanceTests {
    /// RFC 9112 §3.2: an HTTP/1.1 request without Host, any request with two, and one whose Host
    /// is not `host[:port]` get 400; a good Host, an empty one, and HTTP/1.0 without one, 200.
    @Test func hostFieldsAreChecked() async throws {
        try await withLiveServer { port in
            let bad = [
                ("GET /healthz HTTP/1.1\r\n\r\n", "no Host"),
                ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", "2 Host fields"),
                ("GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", "2 Host fields"),
                ("GET /healthz HTTP/1.1\r\nHost: a b/c\r\n\r\n", "Host 'a b/c'"),
                ("GET /healthz HTTP/1.1\r\nHost: a/c\r\n\r\n", "Host 'a/c'"),
                ("GET /healthz HTTP/1.1\r\nHost: a:8o\r\n\r\n", "Host 'a:8o'"),
                ("GET /healthz HTTP/1.1\r\nHost: a@b\r\n\r\n", "Host 'a@b'"),
            ]
            for (request, words) in bad {
                expectOneLineAnswer(await exchange(port: port, request), status: 400, mentioning: words, request)
            }
            for request in [
                "GET /healthz HTTP/1.0\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: [::1]:80\r\nConnection: close\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: tally.example%2D1\r\nConnection: close\r\n\r\n",
            ] {
                let (response, _) = await exchange(port: port, request)
                #expect(response.hasPrefix("HTTP/1.1 200 "), "\(request.debugDescription): \(response)")
            }
        }
    }

    /// A target over the parser's 80 KiB gets 414, a header section over it 431 (RFC 6585 §5),
    /// whether one field or many make it long, and even when the request line is long too.
    @Test func longTargetsGet414AndLongHeadersGet431() async throws {
        try await withLiveServer { port in
            let target = "GET /badge/1.svg?" + String(repeating: "a", count: 90_000) + " HTTP/1.1\r\nHost: a\r\n\r\n"
            expectOneLineAnswer(await exchange(port: port, target), status: 414, mentioning: "target", "long target")
            let field =
                "GET /1.svg HTTP/1.1\r\nHost: a\r\nX-Long: " + String(repeating: "b", count: 90_000) + "\r\n\r\n"
            expectOneLineAnswer(await exchange(port: port, field), status: 431, mentioning: "header", "long field")
            let fields = (0..<90).map { "X-\($0): " + String(repeating: "c", count: 1000) + "\r\n" }.joined()
            let many = "GET /1.svg HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n"
            expectOneLineAnswer(await exchange(port: port, many), status: 431, "many fields")
            let both =
                "GET /1.svg?" + String(repeating: "d", count: 10_000) + " HTTP/1.1\r\nHost: a\r\n"
                + (0..<75).map { "X-\($0): " + String(repeating: "e", count: 1000) + "\r\n" }.joined() + "\r\n"
            expectOneLineAnswer(await exchange(port: port, both), status: 431, "a long line and long fields")
            let (after, _) = await exchange(port: port, "GET /healthz HTTP/1.0\r\n\r\n")
            #expect(after.hasPrefix("HTTP/1.1 200 "), "the server still answers")
        }
    }

    /// RFC 9112 §2.3: every HTTP/1.x is answered as 1.1 (200), every other version, 0.9 and 2.0
    /// to 9.9, gets 505; a version that is no version, 400.
    @Test func minorVersionsAreOneOneAndOtherVersionsGet505() async throws {
        try await withLiveServer { port in
            for minor in 0...9 {
                let request = "GET /healthz HTTP/1.\(minor)\r\nHost: a\r\nConnection: close\r\n\r\n"
                let (response, _) = await exchange(port: port, request)
                #expect(response.hasPrefix("HTTP/1.1 200 "), "HTTP/1.\(minor): \(response)")
            }
            for major in [0, 2, 3, 9] {
                for minor in [0, 9] {
                    let request = "GET /healthz HTTP/\(major).\(minor)\r\nHost: a\r\n\r\n"
                    expectOneLineAnswer(
                        await exchange(port: port, request), status: 505, mentioning: "HTTP/\(major).\(minor)", request)
                }
            }
            for request in ["GET /healthz HTTP/x.1\r\nHost: a\r\n\r\n", "GET /healthz HTTP/11\r\nHost: a\r\n\r\n"] {
                expectOneLineAnswer(await exchange(port: port, request), status: 400, request)
            }
        }
    }

    /// RFC 9110 §9.1: a method the server does not know gets 501, naming it (methods are
    /// case-sensitive, so `get` is one); a known one it does not allow, 405; a request line
    /// that is not one, 400.
    @Test func unknownMethodsGet501() async throws {
        try await withLiveServer { port in
            for method in ["FOO", "get", "Get", "BREW", "X-CUSTOM", "GETT"] {
                let request = "\(method) /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
                expectOneLineAnswer(
                    await exchange(port: port, request), status: 501, mentioning: "method '\(method)'", request)
            }
            let post = await exchange(
                port: port, "POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(post.response.hasPrefix("HTTP/1.1 405 "), "\(post.response)")
            for request in ["\u{1}\u{2} / HTTP/1.1\r\n\r\n", "/healthz HTTP/1.1\r\n\r\n"] {
                expectOneLineAnswer(await exchange(port: port, request), status: 400, request)
            }
        }
    }
}
#endif
