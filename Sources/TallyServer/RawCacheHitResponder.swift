#if Server
import HTTPTypes
import Logging
import NIOCore
import TallyPOSIX

/// Answers a remembered target from the request's bytes, before the HTTP parser, when the
/// request is of the plainest kind: one whole `GET` or `HEAD` in one read, HTTP/1.1, a good Host,
/// and no field that asks for more than an answer (`PlainRequest`; `Connection: keep-alive` is
/// taken, as browsers send it). That is what a browser, a README's image proxy and a load
/// generator send, one request a read.
///
/// The answer is the bytes `CacheHitResponder` would have written through NIO's encoder: the
/// status line and the router's fields as made when the target was remembered
/// (`ResponseCache.Sent.head`), then the Date field, then the body. The request passes no parser,
/// no conversion to HTTPTypes and no encoder, which was two thirds of a cached request's
/// instructions (BENCHMARKS.md, "A cache hit before the parser").
///
/// It answers only when nothing else on the connection is under way (`ConnectionState.isIdle`),
/// so answers keep the requests' order; only while the connection can take more bytes, so a
/// client that asks and does not read meets the router's back-pressure; and only while every
/// byte the connection sent so far was whole plain requests (`PlainRequest.Reading.whole`): then
/// the parser holds no part of a request, and a request it would read differently from this
/// handler never reaches it here. The first read that is anything else (a body, a request split
/// across reads, a field this reading does not take) turns it off for the rest of the
/// connection, and everything goes the parser's way, as it did before this handler.
final class RawCacheHitResponder<Key: Hashable & Sendable>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let cache: ResponseCache<Key>
    private let state: ConnectionState
    private let logger: Logger
    /// Whether every read so far was whole plain requests.
    private var plainSoFar = true

    init(cache: ResponseCache<Key>, state: ConnectionState, logger: Logger) {
        self.cache = cache
        self.state = state
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard plainSoFar else {
            context.fireChannelRead(data)
            return
        }
        let buffer = unwrapInboundIn(data)
        switch buffer.withUnsafeReadableBytes({ PlainRequest.read($0) }) {
        case .answerable(let request):
            if state.isIdle, context.channel.isWritable, let sent = cache.sent(for: request.target),
                let head = sent.head
            {
                answer(request, sent: sent, head: head, context: context)
                state.answeredBeforeParser()
                return
            }
        case .whole:
            break
        case .other:
            plainSoFar = false
        }
        context.fireChannelRead(data)
    }

    private func answer(
        _ request: PlainRequest, sent: ResponseCache<Key>.Sent, head: ByteBuffer, context: ChannelHandlerContext
    ) {
        let start = ContinuousClock.now
        ServerMetrics.cacheHits.increment()
        context.write(NIOAny(head), promise: nil)
        if request.method == .get {
            context.write(NIOAny(HTTPDate.line()), promise: nil)
            context.writeAndFlush(NIOAny(sent.entry.body), promise: nil)
        } else {
            context.writeAndFlush(NIOAny(HTTPDate.line()), promise: nil)
        }
        CacheHitResponder<Key>.record(
            method: request.method, target: request.target, status: 200, length: sent.length, route: sent.route,
            since: start, logger: logger)
    }
}

/// One request read from its bytes when they are of the plainest kind (RFC 9112 §3, §5):
///
///     ("GET" | "HEAD") SP origin-form SP "HTTP/1.1" CRLF
///     *( field-name ":" OWS field-value OWS CRLF )
///     CRLF
///
/// with the target's bytes those of RFC 3986's path and query (unreserved, percent signs,
/// sub-delimiters, `: @ / ?`), field values of visible ASCII, spaces and tabs, and the whole no
/// longer than the parser's limits. Every such request is one NIO's parser (llhttp) reads the
/// same way, to the same end.
struct PlainRequest: Equatable {
    let method: HTTPRequest.Method
    let target: String

    enum Reading: Equatable {
        /// One whole plain request, which a cache hit may answer.
        case answerable(PlainRequest)
        /// Whole plain requests, one or more, that only the router may answer: an Expect or
        /// If-None-Match field, or more than one request.
        case whole
        /// Anything else: a part of a request, a body, a field or a byte this reading does not
        /// take, or a request the parser's way answers and then closes the connection (HTTP/1.0,
        /// `Connection: close`, a bad or missing Host). The parser reads it, and what follows it.
        case other
    }

    /// The longest read taken: well within the parser's limits on the request line and the
    /// header section (`RequestError.limits`).
    static let longest = 4096

    static func read(_ bytes: UnsafeRawBufferPointer) -> Reading {
        guard bytes.count <= longest, !bytes.isEmpty else { return .other }
        var at = 0
        var requests = 0
        var answerable: PlainRequest?
        while at < bytes.count {
            guard let (request, end) = readOne(bytes, from: at) else { return .other }
            requests += 1
            answerable = request
            at = end
        }
        if requests == 1, let answerable { return .answerable(answerable) }
        return .whole
    }

    /// One whole request from `start`: the request when it is answerable, nil in the pair's first
    /// place when it is whole but not, and where it ends; nil when it is not whole and plain.
    private static func readOne(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (PlainRequest?, Int)? {
        let count = bytes.count
        var at = start
        // The method: a token, then one space.
        while at < count, RequestLineWatcher.isTokenByte(bytes[at]) { at += 1 }
        guard at > start, at < count, bytes[at] == UInt8(ascii: " ") else { return nil }
        let method: HTTPRequest.Method? =
            if at - start == 3 && matches(bytes, start, "GET") {
                .get
            } else if at - start == 4 && matches(bytes, start, "HEAD") {
                .head
            } else {
                nil
            }
        // The parser refuses methods it does not know, and a CONNECT closes the connection.
        guard let method else { return nil }
        at += 1
        // The target: origin-form, then one space.
        let targetStart = at
        guard at < count, bytes[at] == UInt8(ascii: "/") else { return nil }
        while at < count, isTargetByte(bytes[at]) { at += 1 }
        guard at < count, bytes[at] == UInt8(ascii: " ") else { return nil }
        let targetEnd = at
        at += 1
        // The version, then the line's end.
        guard at + 10 <= count, matches(bytes, at, "HTTP/1.") else { return nil }
        // HTTP/1.1 alone: an HTTP/1.0 request closes its connection unless it asks otherwise,
        // and the parser reads nothing after a request that closes.
        guard bytes[at + 7] == UInt8(ascii: "1"), bytes[at + 8] == UInt8(ascii: "\r"),
            bytes[at + 9] == UInt8(ascii: "\n")
        else { return nil }
        at += 10
        var answerable = true
        var hosts = 0
        var goodHost = false
        // The fields, up to the empty line.
        while true {
            guard at + 2 <= count else { return nil }
            if bytes[at] == UInt8(ascii: "\r") {
                guard bytes[at + 1] == UInt8(ascii: "\n") else { return nil }
                at += 2
                break
            }
            let nameStart = at
            while at < count, RequestLineWatcher.isTokenByte(bytes[at]) { at += 1 }
            guard at > nameStart, at < count, bytes[at] == UInt8(ascii: ":") else { return nil }
            let nameEnd = at
            at += 1
            guard let base = bytes.baseAddress,
                let carriageReturn = memchr(base + at, Int32(UInt8(ascii: "\r")), count - at)
            else { return nil }
            let lineEnd = base.distance(to: carriageReturn)
            guard lineEnd + 1 < count, bytes[lineEnd + 1] == UInt8(ascii: "\n") else { return nil }
            var valueStart = at
            var valueEnd = lineEnd
            while valueStart < valueEnd, isSpace(bytes[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
            for index in valueStart..<valueEnd where !isValueByte(bytes[index]) { return nil }
            at = lineEnd + 2
            switch field(bytes, nameStart, nameEnd) {
            case .host:
                hosts += 1
                // As the parser gives it: without the spaces before, with those after (which
                // make it no host).
                goodHost = RequestError.isHost(bytes: bytes[valueStart..<lineEnd])
            case .connection:
                // Keeping the connection is what HTTP/1.1 does anyway; a close, an upgrade or a
                // list of options is the parser's to read (nothing is read after a close).
                guard valueEnd - valueStart == 10, matchesLowercased(bytes, valueStart, "keep-alive") else {
                    return nil
                }
            case .leavesToRouter: answerable = false
            case .mayHaveBody: return nil
            case .other: break
            }
        }
        // A bad or missing Host is answered 400 by the parser's way, which closes the connection.
        guard hosts == 1, goodHost else { return nil }
        guard answerable else { return (nil, at) }
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<targetEnd]), as: UTF8.self)
        return (PlainRequest(method: method, target: target), at)
    }

    private enum Field {
        case host
        case connection
        /// A field the router, and not a cache hit, answers: `Expect` (a 100), `If-None-Match`
        /// (a 304).
        case leavesToRouter
        /// A field that may frame a body, or change the protocol: the parser's to read.
        case mayHaveBody
        case other
    }

    /// A field name, compared without case.
    private static func field(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Field {
        switch end - start {
        case 4 where matchesLowercased(bytes, start, "host"): .host
        case 10 where matchesLowercased(bytes, start, "connection"): .connection
        case 6 where matchesLowercased(bytes, start, "expect"): .leavesToRouter
        case 13 where matchesLowercased(bytes, start, "if-none-match"): .leavesToRouter
        case 14 where matchesLowercased(bytes, start, "content-length"): .mayHaveBody
        case 17 where matchesLowercased(bytes, start, "transfer-encoding"): .mayHaveBody
        case 7 where matchesLowercased(bytes, start, "upgrade"): .mayHaveBody
        // llhttp reads it as it reads Connection (a close, an upgrade).
        case 16 where matchesLowercased(bytes, start, "proxy-connection"): .mayHaveBody
        default: .other
        }
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard start + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for index in 0..<count where bytes[start + index] != pointer[index] { return false }
        return true
    }

    /// `text` is lowercase ASCII; the bytes may be of either case.
    private static func matchesLowercased(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ text: StaticString)
        -> Bool
    {
        let pointer = text.utf8Start
        for index in 0..<text.utf8CodeUnitCount where bytes[start + index] | 0x20 != pointer[index] { return false }
        return true
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Visible ASCII, a space or a tab (RFC 9110 §5.5, without obs-text).
    @inline(__always) private static func isValueByte(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == UInt8(ascii: "\t")
    }

    /// RFC 3986's pchar, `/` and `?`: a reg-name's bytes (unreserved, `%`, sub-delimiters), `:`
    /// and `@`.
    @inline(__always) static func isTargetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"): true
        default: RequestError.isRegNameByte(byte)
        }
    }
}
#endif
