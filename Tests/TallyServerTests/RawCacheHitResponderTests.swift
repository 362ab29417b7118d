#if Server
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import TallyPOSIX
import TallyTestSupport
@testable import TallyServer
import Testing

/// A plain request for a remembered target is answered from its bytes, before the parser
/// (`RawCacheHitResponder`), with the bytes the router's way sends (SPEC §6), and only when the
/// parser would have read the same request.
@Suite(.processTimeLimit(minutes: 2)) struct RawCacheHitResponderTests {
    /// Requests as clients write them, and some that only the router may answer.
    static let templates = [
        "GET /1234.svg HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/8.5\r\nAccept: */*\r\n\r\n",
        "HEAD /badge/42.svg?label=stars&color=%2300ff00 HTTP/1.1\r\nhost: example.com\r\n\r\n",
        "GET /9.json HTTP/1.0\r\nHost: a\r\n\r\n",
        "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nProxy-Connection: close\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"x\"\r\nX-Empty:\r\n\r\n",
        "GET /a?b=c:d@e HTTP/1.1\r\nHost: [::1]:80\r\nAccept-Encoding: gzip,\tdeflate \r\n\r\n",
        "GET /1.svg HTTP/1.1\r\nHost: a\r\n\r\nGET /2.svg HTTP/1.1\r\nHost: a\r\n\r\n",
        "OPTIONS /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /3.svg HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",
        "HEAD /4.svg HTTP/1.1\r\nHost: a\r\n\r\nGET /5.svg HTTP/1.1\r\nHost: b:1\r\nIf-None-Match: *\r\n\r\n",
        "GET /6.svg HTTP/1.1\r\nHOST: a\r\nCONTENT-LENGTH: 0\r\nCONNECTION: KEEP-ALIVE\r\n\r\n",
    ]
    static let alphabet = Array(" \t\r\n:/%?#\"\\,;aZ0-_.Hh1'()*!$+=~@&`".utf8) + [0, 0x7F, 0x80, 0xFF]

    /// Every read taken as whole plain requests is read by NIO's parser as the same requests,
    /// to the same end: the next request after it is read whole as well. Templates and thousands
    /// of mutations of them (a byte changed, added or taken away), seeded.
    @Test func plainRequestsAreReadAsTheParserReadsThem() throws {
        var random = SeededGenerator(state: 0x7A11)
        var counts = (answerable: 0, whole: 0, other: 0)
        for round in 0..<20000 {
            var bytes = Array(Self.templates[round % Self.templates.count].utf8)
            for _ in 0..<(round < Self.templates.count ? 0 : Int.random(in: 1...2, using: &random)) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                let byte =
                    Bool.random(using: &random)
                    ? Self.alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            let reading = bytes.withUnsafeBytes { PlainRequest.read($0) }
            let shown = String(decoding: bytes, as: UTF8.self).debugDescription
            switch reading {
            case .other:
                counts.other += 1
                continue
            case .answerable(let request):
                counts.answerable += 1
                let heads = try #require(try parsed(bytes), "the parser failed on \(shown)")
                try #require(heads.count == 1, "\(shown): \(heads)")
                let head = heads[0]
                #expect(head.uri == request.target && head.version == .http1_1 && head.isKeepAlive, "\(shown)")
                #expect(head.method.rawValue == request.method.rawValue, "\(shown)")
                #expect(head.headers["Host"].count == 1 && RequestError.hostProblem(head) == nil, "\(shown)")
            case .whole:
                counts.whole += 1
                let heads = try #require(try parsed(bytes), "the parser failed on \(shown)")
                let ends = bytes.indices.dropLast(3).filter { bytes[$0..<($0 + 4)] == [13, 10, 13, 10] }.count
                #expect(heads.count == ends, "\(shown): \(heads)")
            }
        }
        // The mutations reach all three readings, so each case above is checked many times.
        #expect(counts.answerable > 1500 && counts.whole > 500 && counts.other > 2000, "\(counts)")
    }

    /// The templates as written: which are answerable, which only whole.
    @Test func theTemplatesReadings() {
        let readings = Self.templates.map { text in Array(text.utf8).withUnsafeBytes { PlainRequest.read($0) } }
        #expect(readings[0] == .answerable(PlainRequest(method: .get, target: "/1234.svg")))
        #expect(
            readings[1] == .answerable(PlainRequest(method: .head, target: "/badge/42.svg?label=stars&color=%2300ff00"))
        )
        #expect(readings[5] == .answerable(PlainRequest(method: .get, target: "/a")))
        #expect(readings[7] == .whole)
        #expect([2, 3, 4, 6, 10, 13].allSatisfy { readings[$0] == .other })
        #expect(readings[8] == .answerable(PlainRequest(method: .get, target: "/a?b=c:d@e")))
        #expect(readings[9] == .whole && readings[11] == .whole && readings[12] == .whole)
        let split = Array(Self.templates[0].utf8.dropLast(2))
        #expect(split.withUnsafeBytes { PlainRequest.read($0) } == .other)
    }

    /// On a connection of its own: a remembered target asked for plainly is answered with the
    /// router's head, the Date line and the body, and nothing reaches what follows; a target not
    /// remembered goes on; a HEAD gets the head alone.
    @Test func aPlainRequestForARememberedTargetIsAnsweredHere() throws {
        let (channel, _) = try Self.channel()
        defer { _ = try? channel.finish() }
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        let answer = try Self.written(channel)
        let date = try #require(answer.range(of: "\r\nDate: "))
        #expect(
            answer[..<date.lowerBound]
                == "HTTP/1.1 200 OK\r\nContent-Type: image/svg+xml\r\nETag: \"t\"\r\nContent-Length: 6")
        let afterDate = answer[date.upperBound...].utf8.count
        #expect(answer.hasSuffix(" GMT\r\n\r\n<svg/>") && afterDate == 29 + 4 + 6)
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)

        try channel.writeInbound(ByteBuffer(string: Self.plain("HEAD", "/7.svg")))
        #expect(try Self.written(channel).hasSuffix(" GMT\r\n\r\n"))

        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/8.svg")))
        #expect(try Self.written(channel).isEmpty)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: Self.plain("GET", "/8.svg")))
    }

    /// A read that is not whole plain requests (here half a request) turns the answers off for
    /// the rest of the connection: the parser may hold part of a request, so every later byte is
    /// its to read.
    @Test func aReadThatIsNotPlainTurnsItOffForTheConnection() throws {
        let (channel, _) = try Self.channel()
        defer { _ = try? channel.finish() }
        let request = Self.plain("GET", "/7.svg")
        try channel.writeInbound(ByteBuffer(string: String(request.prefix(20))))
        try channel.writeInbound(ByteBuffer(string: request))
        #expect(try Self.written(channel).isEmpty)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: String(request.prefix(20))))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: request))
        // Whole plain requests that only the router answers leave it on.
        let (other, _) = try Self.channel()
        defer { _ = try? other.finish() }
        try other.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg", "If-None-Match: \"t\"\r\n")))
        try other.writeInbound(ByteBuffer(string: request))
        #expect(try other.readInbound(as: ByteBuffer.self) != nil)
        #expect(try Self.written(other).hasSuffix("<svg/>"))
    }

    /// While a request the parser read is being answered, a plain request waits its turn
    /// behind it; once the response has ended, it is answered here again.
    @Test func answersWaitForTheRequestInProgress() throws {
        let (channel, state) = try Self.channel()
        defer { _ = try? channel.finish() }
        let routed = EmbeddedChannel(handler: state)
        defer { _ = try? routed.finish() }
        try routed.writeInbound(
            HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "a", path: "/x")))
        try routed.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        #expect(try Self.written(channel).isEmpty)
        #expect(try channel.readInbound(as: ByteBuffer.self) != nil)
        try routed.writeOutbound(HTTPResponsePart.end(nil))
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        #expect(try Self.written(channel).hasSuffix("<svg/>"))
    }

    /// On a live server: plain requests on one kept connection, one a write, get the bytes the
    /// router sent for the same target (status, fields in order, body; the Date line last), with
    /// `Connection: keep-alive` too, and none reaches the router.
    @Test(arguments: CacheHitResponderTests.targets)
    func liveAnswersAreTheRoutersBytes(target: String) async throws {
        let routed = RoutedTargets()
        try await withLiveServer(routed: routed) { port in
            let byRouter = try await Self.closing(port, "GET", target)
            let headByRouter = try await Self.closing(port, "HEAD", target)
            let before = routed.all.count
            let answers = await onAThread {
                Self.oneAtATime(
                    port: port,
                    [
                        Self.plain("GET", target), Self.plain("HEAD", target),
                        Self.plain("GET", target, "Connection: keep-alive\r\n"),
                    ], methods: ["GET", "HEAD", "GET"])
            }
            try #require(answers.count == 3)
            #expect(routed.all.count == before, "\(routed.all)")
            #expect(RawResponse.split(answers[0], methods: ["GET"]) == [byRouter])
            #expect(RawResponse.split(answers[1], methods: ["HEAD"]) == [headByRouter])
            #expect(RawResponse.split(answers[2], methods: ["GET"]) == [byRouter], "Connection: keep-alive")
            for answer in answers {
                let text = String(decoding: answer, as: UTF8.self)
                let head = try #require(text.components(separatedBy: "\r\n\r\n").first)
                let date = try #require(head.components(separatedBy: "\r\n").last)
                #expect(date.hasPrefix("Date: ") && date.hasSuffix(" GMT") && date.count == 35, "\(date)")
            }
        }
    }

    /// On a live server, a plain request for a remembered target sent while a slow drawing is
    /// under way on its connection is answered after it.
    @Test func liveAnswersKeepTheOrder() async throws {
        try await withLiveServer { port in
            _ = try await Self.closing(port, "GET", "/77.svg")
            let slow = "/9223372036854775807.png?size=2048"
            let bytes = await onAThread {
                Self.writtenApart(port, [Self.plain("GET", slow), Self.plain("GET", "/77.svg")], pause: 20_000) {
                    RawResponse.split($0, methods: ["GET", "GET"]) != nil
                }
            }
            let responses = try #require(RawResponse.split(bytes, methods: ["GET", "GET"]))
            #expect(
                responses.map { $0.fields.first { $0.hasPrefix("Content-Type: ") } } == [
                    "Content-Type: image/png", "Content-Type: image/svg+xml",
                ])
        }
    }

    /// A request answered with a close (a bad Host: 400; `Connection: close`) ends the answers:
    /// a plain request for a remembered target right behind it, in a write of its own, gets
    /// nothing, as the parser's way gives it nothing.
    @Test(arguments: ["Host: a b\r\n", "Host: 127.0.0.1\r\nConnection: close\r\n"])
    func aRequestThatClosesEndsTheAnswers(fields: String) async throws {
        try await withLiveServer { port in
            _ = try await Self.closing(port, "GET", "/77.svg")
            let first = "GET /77.svg HTTP/1.1\r\n\(fields)\r\n"
            let bytes = await onAThread {
                Self.writtenApart(port, [first, Self.plain("GET", "/77.svg")]) { _ in false }
            }
            let responses = try #require(RawResponse.split(bytes, methods: ["GET"]), "\(bytes.count) bytes")
            #expect(responses.count == 1)
        }
    }

    /// No answer here while the connection cannot take more bytes (the router's request loop
    /// waits for its writes, so a client that asks and never reads is held back), nor for a
    /// target whose fields do not frame the body by its length (NIO's encoder would frame it).
    @Test func answersWaitForTheConnectionAndNeedALength() throws {
        let (channel, _) = try Self.channel()
        defer { _ = try? channel.finish() }
        channel.isWritable = false
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        #expect(try Self.written(channel).isEmpty)
        #expect(try channel.readInbound(as: ByteBuffer.self) != nil)
        channel.isWritable = true
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/6.svg")))
        #expect(try Self.written(channel).isEmpty)
        #expect(try channel.readInbound(as: ByteBuffer.self) != nil)
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        #expect(try Self.written(channel).hasSuffix("<svg/>"))
    }

    /// A graceful stop closes an idle connection at once, and a busy one after the response in
    /// progress, with nothing answered here meanwhile (Hummingbird's rules, `ConnectionState`).
    @Test func aGracefulStopClosesAfterTheResponseInProgress() throws {
        let (channel, state) = try Self.channel()
        defer { _ = try? channel.finish() }
        let routed = EmbeddedChannel(handler: state)
        try routed.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try routed.writeInbound(
            HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "a", path: "/x")))
        try routed.writeInbound(HTTPRequestPart.end(nil))
        routed.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(routed.isActive && !state.isIdle)
        try channel.writeInbound(ByteBuffer(string: Self.plain("GET", "/7.svg")))
        #expect(try Self.written(channel).isEmpty)
        try routed.writeOutbound(HTTPResponsePart.end(nil))
        #expect(!routed.isActive)

        let idle = EmbeddedChannel(handler: ConnectionState(idleTimeout: .seconds(60)))
        try idle.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        idle.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(!idle.isActive)
    }

    /// The idle timeout still closes a connection whose requests were all answered here, once
    /// it has been idle that long (and the answers before kept it open: CacheHitResponderTests).
    @Test func anIdleConnectionAnsweredHereCloses() throws {
        let state = ConnectionState(idleTimeout: .seconds(1))
        let channel = EmbeddedChannel(handler: state)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(600))
        state.answeredBeforeParser()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(600))
        #expect(channel.isActive, "answered 600 ms ago")
        state.answeredBeforeParser()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
        #expect(channel.isActive, "answered 900 ms ago")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1200))
        #expect(!channel.isActive)
    }

    // MARK: - Helpers

    static func plain(_ method: String, _ target: String, _ fields: String = "") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n"
    }

    /// A connection with the responder alone, and a cache that remembers `/7.svg`.
    static func channel() throws -> (EmbeddedChannel, ConnectionState) {
        let cache = ResponseCache<String>(budgetBytes: 1 << 20)
        cache.keep(.init(body: ByteBuffer(string: "<svg/>"), tag: "\"t\""), for: "k")
        var headers = HTTPFields()
        headers[.contentType] = "image/svg+xml"
        headers[.eTag] = "\"t\""
        headers[.contentLength] = "6"
        cache.remember(target: "/7.svg", for: "k", headers: headers, route: "/{file}")
        headers[.contentLength] = nil
        cache.remember(target: "/6.svg", for: "k", headers: headers, route: "/{file}")
        let state = ConnectionState(idleTimeout: .seconds(60))
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let channel = EmbeddedChannel(handler: RawCacheHitResponder(cache: cache, state: state, logger: logger))
        return (channel, state)
    }

    /// What the channel wrote since last asked, as text.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    /// The request heads NIO's parser reads from `bytes`, when it reads them whole and then the
    /// next request too; nil when it fails.
    func parsed(_ bytes: [UInt8]) throws -> [HTTPRequestHead]? {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder()))
        defer { _ = try? channel.finish() }
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes + Array(Self.plain("GET", "/next").utf8)))
        } catch {
            return nil
        }
        var heads: [HTTPRequestHead] = []
        var open = false
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            switch part {
            case .head(let head):
                guard !open else { return nil }
                heads.append(head)
                open = true
            case .body: return nil
            case .end:
                guard open else { return nil }
                open = false
            }
        }
        guard !open, heads.last?.uri == "/next" else { return nil }
        return heads.dropLast()
    }

    /// One request with `Connection: close`, through the router.
    static func closing(_ port: Int, _ method: String, _ target: String) async throws -> RawResponse {
        let text = plain(method, target, "Connection: close\r\n")
        let (bytes, closed) = await onAThread { loopbackExchange(port: port, Array(text.utf8), seconds: 30) }
        #expect(closed)
        return try #require(RawResponse.split(bytes, methods: [method]).flatMap(\.first))
    }

    /// Each request written on one kept connection after the answer to the one before has been
    /// read whole: the answers' bytes.
    static func oneAtATime(port: Int, _ requests: [String], methods: [String]) -> [[UInt8]] {
        guard let descriptor = connected(port) else { return [] }
        defer { close(descriptor) }
        var answers: [[UInt8]] = []
        for (request, method) in zip(requests, methods) {
            guard writeFully(descriptor, Array(request.utf8)) == 0 else { return answers }
            let received = receive(descriptor) { RawResponse.split($0, methods: [method]) != nil }
            guard RawResponse.split(received, methods: [method]) != nil else { return answers }
            answers.append(received)
        }
        return answers
    }

    /// The requests written on one connection, each in a write of its own (`pause` microseconds
    /// apart), then what it reads until `isWhole`, as `receive`.
    static func writtenApart(
        _ port: Int, _ requests: [String], pause: useconds_t = 0, until isWhole: ([UInt8]) -> Bool
    ) -> [UInt8] {
        guard let descriptor = connected(port) else { return [] }
        defer { close(descriptor) }
        for (index, request) in requests.enumerated() {
            if index > 0 && pause > 0 { usleep(pause) }
            _ = writeFully(descriptor, Array(request.utf8))
        }
        return receive(descriptor, until: isWhole)
    }

    /// A loopback connection to `port` whose reads wait at most 30 s; nil when it cannot connect.
    static func connected(_ port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard withLoopbackAddress(port, { connect(descriptor, $0, $1) }) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// What `descriptor` reads until `isWhole` says the bytes are, or the server closes, or a
    /// read times out.
    static func receive(_ descriptor: Int32, until isWhole: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !isWhole(received) {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received
    }
}
#endif
