#if Server
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import ServiceLifecycle
import TallyPOSIX
import TallyTestSupport

// The two clients the server's tests talk through: one that hands a request to the router in
// process (no sockets), and one that speaks HTTP/1.1 to a `tally serve` process over loopback.
//
// Why our own rather than HummingbirdTesting: that product links AsyncHTTPClient, and with it
// swift-nio-ssl (BoringSSL's C sources), swift-nio-http2, swift-nio-transport-services and
// swift-algorithms, for TLS and HTTP/2 clients these tests never use. Built three times a CI run
// (plain, AddressSanitizer, ThreadSanitizer), they were a large share of its CPU time
// (CONTRIBUTING.md, "CI's budget"). What the tests need is small: a request through the
// router's responder, and a request over a socket with its status, headers and body.

/// A response as the tests read it: the head and the whole body.
struct TestResponse: Sendable {
    var head: HTTPResponse
    var body: ByteBuffer
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

/// Sends a request and gives back the whole response.
protocol TestClientProtocol: Sendable {
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
}

extension TestClientProtocol {
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil)
        async throws -> TestResponse
    {
        try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}

/// A request handed to the router's responder in process, as the server's connection handler
/// hands it: a thrown `HTTPResponseError` becomes its response in the responder itself, and any
/// other error is a 500, as the server answers it.
struct RouterClient: TestClientProtocol {
    let responder: RouterResponder<BasicRequestContext>
    let logger: Logger

    init(router: Router<BasicRequestContext>, logger: Logger) {
        (responder, self.logger) = (router.buildResponder(), logger)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        // A testing channel that any thread may use: a request's task moves between threads at
        // each await (an EmbeddedChannel may be used only from the thread that made it).
        let channel = NIOAsyncTestingChannel()
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        // The writer is handed over by value; its box is what it wrote into.
        let writer = CollectedBody()
        try await response.body.write(writer)
        // Closed when the answer is in: its pipeline and it refer to each other until then.
        _ = try? await channel.finish()
        return TestResponse(head: response.head, body: writer.box.buffer)
    }
}

/// A response body written into one buffer.
private struct CollectedBody: ResponseBodyWriter {
    final class Box: @unchecked Sendable {
        // Written by the body's writer and read after it has finished, never at once.
        var buffer = ByteBuffer()
    }
    let box = Box()

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// HTTP/1.1 to a server on 127.0.0.1: each request on a connection of its own, with its Host
/// (RFC 9112 §3.2) and `Connection: close`, read until the server closes it. The socket work
/// runs on a thread of its own, never on the tests' cooperative threads, so a slow answer holds
/// up no other test.
struct LoopbackClient: TestClientProtocol {
    let port: Int
    /// How long a read may wait for the next bytes.
    var timeoutSeconds = 120

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// GET (or another method) `uri`.
    func send(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) async throws
        -> TestResponse
    {
        try await execute(uri: uri, method: method, headers: headers, body: nil)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    {
        var head = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        if let body { head += "Content-Length: \(body.readableBytes)\r\n" }
        let request = Array((head + "\r\n").utf8) + (body.map { Array($0.readableBytesView) } ?? [])
        let (port, seconds) = (self.port, timeoutSeconds)
        let (bytes, closed) = await onAThread { loopbackExchange(port: port, request, seconds: seconds) }
        guard closed else { throw Failure(description: "no whole answer to \(method) \(uri)") }
        return try Self.parse(bytes)
    }

    /// Nothing stays open between requests.
    func shutdown() async throws {}

    /// The status line, the fields and the body (everything after the blank line; nothing for
    /// HEAD, whose Content-Length names the GET's body).
    static func parse(_ bytes: [UInt8]) throws -> TestResponse {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(
                description: "no end of the header block in \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ", maxSplits: 2)
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let code = Int(statusWords[1]) else {
            throw Failure(description: "not a status line: \(lines[0])")
        }
        var fields = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw Failure(description: "not a header field: \(line)")
            }
            fields.append(
                HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let reason = statusWords.count > 2 ? String(statusWords[2]) : ""
        var head = HTTPResponse(status: .init(code: code, reasonPhrase: reason))
        head.headerFields = fields
        return TestResponse(head: head, body: ByteBuffer(bytes: bytes[(end + separator.count)...]))
    }
}

/// Runs the application `makeApplication` makes (given what its `onServerRunning` must call) as
/// a service until `body`, given the port it listens on, has returned or thrown; then shuts it
/// down gracefully and waits for it to end, so no test leaves a listening socket behind. A
/// server that ends before it listens fails the test instead of leaving it waiting.
func runningLive<App: ApplicationProtocol, Value: Sendable>(
    logger: Logger, _ makeApplication: (_ onServerRunning: @escaping @Sendable (any Channel) async -> Void) -> App,
    body: @Sendable (Int) async throws -> Value
) async throws -> Value {
    let (ports, announce) = AsyncStream.makeStream(of: Int.self)
    let app = makeApplication { channel in announce.yield(channel.localAddress?.port ?? 0) }
    let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { announce.finish() }
            try await services.run()
        }
        let outcome: Result<Value, any Error>
        if let port = await ports.first(where: { _ in true }), port > 0 {
            do {
                outcome = .success(try await body(port))
            } catch {
                outcome = .failure(error)
            }
        } else {
            outcome = .failure(LoopbackClient.Failure(description: "the server ended before it listened"))
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try outcome.get()
    }
}

/// Sends `request` on a new loopback connection and reads until the server closes it or
/// `seconds` pass with nothing to read (four times as many under a sanitizer, as `runProgram`
/// gives its children): the bytes, and whether the server closed.
func loopbackExchange(port: Int, _ request: [UInt8], seconds: Int) -> (response: [UInt8], closed: Bool) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var timeout = readTimeout(seconds: seconds)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard withLoopbackAddress(port, { connect(descriptor, $0, $1) }) == 0 else { return ([], false) }
    guard writeFully(descriptor, request) == 0 else { return ([], false) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count == 0 { return (received, true) }
        if count < 0 {
            if errno == EINTR { continue }
            return (received, false)
        }
        received += buffer[..<count]
    }
}
#endif
