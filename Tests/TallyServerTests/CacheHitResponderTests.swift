#if Server
import Foundation
import Hummingbird
import NIOCore
import TallyOptions
import TallyPOSIX
import TallyTestSupport
@testable import TallyServer
import Testing

/// One response read off a connection: its status line, its fields in order (Date and
/// Connection set apart, as they differ between a kept connection and a closed one), and its body.
struct RawResponse: Equatable, CustomStringConvertible {
    var status: String
    var fields: [String]
    var body: [UInt8]
    var description: String { "\(status) \(fields) (\(body.count) bytes)" }

    /// The responses to `methods`, in order, from the bytes a connection gave: a HEAD's and a
    /// 304's have no body whatever their Content-Length says (RFC 9110 §9.3.2, §15.4.5).
    static func split(_ bytes: [UInt8], methods: [String]) -> [RawResponse]? {
        var rest = bytes[...]
        var responses: [RawResponse] = []
        let end = Array("\r\n\r\n".utf8)
        for method in methods {
            guard let split = rest.firstRange(of: end) else { return nil }
            let lines = String(decoding: rest[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            rest = rest[split.upperBound...]
            guard let status = lines.first else { return nil }
            let fields = lines.dropFirst().filter {
                !$0.lowercased().hasPrefix("date:") && !$0.lowercased().hasPrefix("connection:")
            }
            let length =
                fields.first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            let bodyLength = method == "HEAD" || status.contains(" 304 ") ? 0 : length
            guard rest.count >= bodyLength else { return nil }
            responses.append(RawResponse(status: status, fields: fields, body: Array(rest.prefix(bodyLength))))
            rest = rest.dropFirst(bodyLength)
        }
        return rest.isEmpty ? responses : nil
    }
}

/// `(method, target, extra fields)` as a request on a kept connection.
private func request(_ method: String, _ target: String, _ fields: String = "") -> String {
    "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n"
}

/// Sends the requests in one write, then a last one that closes, and splits what comes back.
private func exchangeKept(port: Int, _ requests: [(method: String, text: String)]) async throws -> [RawResponse] {
    let all = requests.map(\.text).joined() + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    let (bytes, closed) = await onAThread { loopbackExchange(port: port, Array(all.utf8), seconds: 30) }
    #expect(closed)
    let responses = try #require(RawResponse.split(bytes, methods: requests.map(\.method) + ["GET"]))
    return Array(responses.dropLast())
}

/// A target the router answered from the response cache is answered again before the router
/// (`CacheHitResponder`), exactly as the router answered it: status, fields in order and body,
/// for GET, HEAD and `If-None-Match` (SPEC §6, ETags); and the router never sees it.
@Suite(.processTimeLimit(minutes: 2)) struct CacheHitResponderTests {
    static let targets = ["/137.svg?theme=dark", "/1234.png?size=64", "/9.json", "/badge/42.svg?label=stars"]

    @Test(arguments: targets) func aRememberedTargetIsAnsweredAsTheRouterAnsweredIt(target: String) async throws {
        let routed = RoutedTargets()
        try await withLiveServer(routed: routed) { port in
            // Through the router: each request closes its connection, which the responder
            // leaves to the router. The first is drawn and remembered.
            let first = try await closing(port, "GET", target)
            let tag = try #require(first.fields.first { $0.hasPrefix("ETag: ") }?.dropFirst(6))
            let variants: [(method: String, fields: String)] = [
                ("GET", ""), ("HEAD", ""), ("GET", "If-None-Match: \(tag)\r\n"),
                ("GET", "If-None-Match: \"other\", W/\(tag)\r\n"), ("GET", "If-None-Match: \"other\"\r\n"),
            ]
            var byRouter: [RawResponse] = []
            for variant in variants {
                byRouter.append(try await closing(port, variant.method, target, variant.fields))
            }
            let routedBefore = routed.all.count
            // On a kept connection: answered before the router.
            let kept = try await exchangeKept(
                port: port, variants.map { ($0.method, request($0.method, target, $0.fields)) })
            #expect(kept == byRouter)
            #expect(routed.all.count == routedBefore + 1, "only the closing /healthz reached the router: \(routed.all)")
            #expect(byRouter[0] == first && byRouter[0].status == "HTTP/1.1 200 OK" && !byRouter[0].body.isEmpty)
            #expect(byRouter[1].body.isEmpty && byRouter[1].fields == byRouter[0].fields, "HEAD: GET's fields")
            #expect(byRouter[2].status == "HTTP/1.1 304 Not Modified" && byRouter[3].status.contains(" 304 "))
            #expect(byRouter[4] == byRouter[0])
        }
    }

    /// A response cache of 0 remembers nothing: every request reaches the router.
    @Test func withoutACacheEveryRequestIsRouted() async throws {
        let routed = RoutedTargets()
        let withoutCache: (inout ServeSettings) -> Void = { $0.cacheSize = 0 }
        try await withLiveServer(routed: routed, configure: withoutCache) { port in
            let responses = try await exchangeKept(
                port: port, (0..<3).map { _ in ("GET", request("GET", "/5.svg")) })
            #expect(responses.count == 3 && responses.allSatisfy { $0.status == "HTTP/1.1 200 OK" })
            #expect(routed.all == ["/5.svg", "/5.svg", "/5.svg", "/healthz"])
        }
    }

    /// Requests on one connection are answered in their order: a remembered target asked for
    /// while an earlier request is with the router waits its turn there.
    @Test func answersKeepTheRequestsOrder() async throws {
        let routed = RoutedTargets()
        try await withLiveServer(routed: routed) { port in
            _ = try await closing(port, "GET", "/77.svg")
            let responses = try await exchangeKept(
                port: port,
                [
                    ("GET", request("GET", "/4321.png?size=512")), ("GET", request("GET", "/77.svg")),
                    ("GET", request("GET", "/nothing-here")), ("GET", request("GET", "/77.svg")),
                ])
            let types = responses.map { $0.fields.first { $0.hasPrefix("Content-Type: ") } ?? $0.status }
            #expect(
                types == [
                    "Content-Type: image/png", "Content-Type: image/svg+xml", "Content-Type: text/plain; charset=utf-8",
                    "Content-Type: image/svg+xml",
                ])
            #expect(responses.map { $0.status.split(separator: " ")[1] } == ["200", "200", "404", "200"])
            #expect(routed.all == ["/77.svg", "/4321.png?size=512", "/77.svg", "/nothing-here", "/77.svg", "/healthz"])
        }
    }

    /// Requests the responder leaves to the router even when their target is remembered: a body,
    /// a Connection field, Expect, another method. Each is sent first on its connection, where
    /// no earlier request holds it back.
    @Test func requestsThatAskForMoreGoToTheRouter() async throws {
        let routed = RoutedTargets()
        try await withLiveServer(routed: routed) { port in
            _ = try await closing(port, "GET", "/8.svg")
            let asking: [(method: String, text: String, status: String)] = [
                ("GET", request("GET", "/8.svg", "Content-Length: 2\r\n") + "ab", "200"),
                ("GET", request("GET", "/8.svg", "Connection: keep-alive\r\n"), "200"),
                ("GET", request("GET", "/8.svg", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n", "200"),
                ("POST", request("POST", "/8.svg", "Content-Length: 0\r\n"), "405"),
                ("GET", request("GET", "/8.svg"), "200"),
            ]
            for (index, ask) in asking.enumerated() {
                let before = routed.all.count
                let responses = try await exchangeKept(port: port, [(ask.method, ask.text)])
                #expect(responses.map { String($0.status.split(separator: " ")[1]) } == [ask.status])
                let reached = routed.all.count - before
                #expect(reached == (index == asking.count - 1 ? 1 : 2), "\(ask.text.debugDescription): \(routed.all)")
            }
        }
    }

    /// The connection's idle timeout counts the requests answered before the router: a client
    /// asking for a remembered image every 0.3 s keeps its connection past a 1 s timeout, asked
    /// plainly (answered from its bytes, `RawCacheHitResponder`) and with an `If-None-Match`
    /// that does not match (answered after the parser, here).
    @Test(arguments: ["", "If-None-Match: \"other\"\r\n"])
    func answeredRequestsKeepTheConnectionAlive(fields: String) async throws {
        try await withLiveServer(idleTimeout: .seconds(1)) { port in
            _ = try await closing(port, "GET", "/3.svg")
            let answered = await onAThread { () -> Int in
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(descriptor) }
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                guard withLoopbackAddress(port, { connect(descriptor, $0, $1) }) == 0 else { return 0 }
                var answered = 0
                for _ in 0..<8 {
                    let text = Array(request("GET", "/3.svg", fields).utf8)
                    guard write(descriptor, text, text.count) == text.count else { break }
                    // Read until the response is whole: its header section and its length.
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    while RawResponse.split(received, methods: ["GET"]) == nil {
                        let got = read(descriptor, &buffer, buffer.count)
                        guard got > 0 else { return answered }
                        received += buffer[..<got]
                    }
                    guard received.starts(with: Array("HTTP/1.1 200".utf8)) else { break }
                    answered += 1
                    usleep(300_000)
                }
                return answered
            }
            #expect(answered == 8, "the connection closed after \(answered) answers")
        }
    }

    /// The Date field, as RFC 9110 §5.6.7 writes its example, and at the epoch.
    @Test func httpDates() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(1_795_841_999) == "Sat, 28 Nov 2026 04:59:59 GMT")
    }

    /// A remembered target leaves with its entry, counts against the budget, and one entry
    /// remembers at most eight; a cache of 0 remembers none.
    @Test func targetsLeaveWithTheirEntry() {
        let cache = ResponseCache<String>(budgetBytes: 8000)
        let entry = ResponseCache<String>.Entry(body: ByteBuffer(repeating: 1, count: 500), tag: "\"t\"")
        cache.keep(entry, for: "a")
        cache.remember(target: "/never-kept", for: "b", headers: [:], route: "/{file}")
        #expect(cache.sent(for: "/never-kept") == nil && cache.targets == 0)
        for index in 0..<12 { cache.remember(target: "/a\(index)", for: "a", headers: [:], route: "/{file}") }
        #expect(cache.targets == 8)
        #expect(cache.sent(for: "/a0")?.entry.body == entry.body && cache.sent(for: "/a8") == nil)
        // 759 bytes for the entry, 512 and the target's own bytes for each target.
        #expect(cache.bytes == 759 + (0..<8).map { 512 + "/a\($0)".utf8.count }.reduce(0, +))
        for index in 0..<10 { cache.keep(entry, for: "other\(index)") }
        #expect(cache.entry(for: "a") == nil && cache.sent(for: "/a0") == nil && cache.targets == 0)
        #expect(cache.bytes <= 8000)
        let off = ResponseCache<String>(budgetBytes: 0)
        off.keep(entry, for: "a")
        off.remember(target: "/a", for: "a", headers: [:], route: "/{file}")
        #expect(off.sent(for: "/a") == nil && off.targets == 0)
    }

    /// The cores the process may run on, from `/proc/self/status`'s mask.
    @Test func allowedCoresAreTheMasksBits() {
        func count(_ line: String) -> Int? { AllowedCores.count(status: Array("Name:\tx\n\(line)\nOther:\t1\n".utf8)) }
        #expect(count("Cpus_allowed:\t3") == 2)
        #expect(count("Cpus_allowed:\t2") == 1)
        #expect(count("Cpus_allowed:\tff,ffffffff") == 40)
        #expect(count("Cpus_allowed:\t0") == nil)
        #expect(count("Cpus_allowed:\tzz") == nil)
        #expect(count("Cpus_allowed_list:\t0-1") == nil)
        if FileManager.default.fileExists(atPath: "/proc/self/status") {
            #expect((AllowedCores.count() ?? 0) >= 1)
        }
    }
}

/// One request with `Connection: close`, through the router.
private func closing(_ port: Int, _ method: String, _ target: String, _ fields: String = "") async throws
    -> RawResponse
{
    let text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(fields)\r\n"
    let (bytes, closed) = await onAThread { loopbackExchange(port: port, Array(text.utf8), seconds: 30) }
    #expect(closed)
    return try #require(RawResponse.split(bytes, methods: [method]).flatMap(\.first))
}
#endif
