#if Server
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes
import TallyPOSIX

/// Answers a request for a target the router has already answered from the response cache,
/// on the connection's own event loop, as the router answered it: the same status, headers and
/// body, a fresh Date, the same access line and metrics.
///
/// A cached image is the common request (a README's badge, on every visit), and through the
/// router it cost about 210K instructions: the request handed to a task on another thread,
/// routed, its URL read into options, the options hashed, the headers built, and the response
/// handed back. Here it is one table lookup by the target's text and three writes, on the
/// thread that read it (BENCHMARKS.md, "tally serve"). Everything else goes to the router:
/// a target not remembered (`ResponseCache.remember`), a method other than GET and HEAD, a
/// request with a body or a `Connection` or `Expect` field, and any request while one before it
/// on the connection is still being answered, so responses keep the requests' order.
///
/// It stands last before Hummingbird's request loop, behind `ConnectionState`, which so sees
/// every request and response (the idle timeout and a graceful stop count them). While the
/// connection cannot take more bytes (a client that asks and does not read), requests go to the
/// router, whose request loop waits for the writes, so the answers waiting to be sent stay
/// bounded.
final class CacheHitResponder<Key: Hashable & Sendable>: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let cache: ResponseCache<Key>
    private let logger: Logger
    /// Requests handed to the router whose responses have not ended yet.
    private var withRouter = 0
    /// Whether this handler answered the request being read: its body and end are dropped.
    private var answered = false

    init(cache: ResponseCache<Key>, logger: Logger) {
        self.cache = cache
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if withRouter == 0, context.channel.isWritable, let target = request.path, Self.mayAnswer(request),
                let sent = cache.sent(for: target)
            {
                answered = true
                answer(request, target: target, sent: sent, context: context)
                return
            }
            withRouter += 1
            context.fireChannelRead(data)
        case .body:
            if !answered { context.fireChannelRead(data) }
        case .end:
            if answered {
                answered = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withRouter -= 1 }
        context.write(data, promise: promise)
    }

    /// GET or HEAD, no body, and nothing that asks the router's request loop for more than an
    /// answer (`Connection: close` ends the loop; `Expect` waits for a 100).
    static func mayAnswer(_ request: HTTPRequest) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let fields = request.headerFields
        if fields.contains(.connection) || fields.contains(.expect) || fields.contains(.transferEncoding) {
            return false
        }
        if let length = fields[.contentLength], length != "0" { return false }
        return true
    }

    private func answer(
        _ request: HTTPRequest, target: String, sent: ResponseCache<Key>.Sent, context: ChannelHandlerContext
    ) {
        let start = ContinuousClock.now
        ServerMetrics.cacheHits.increment()
        var response: HTTPResponse
        let notModified = URLText.ifNoneMatch(request.headerFields[.ifNoneMatch], matches: sent.entry.tag)
        if notModified {
            response = HTTPResponse(status: .notModified, headerFields: ImageServer.notModified(sent.headers).headers)
        } else {
            response = HTTPResponse(status: .ok, headerFields: sent.headers)
        }
        response.headerFields[.date] = HTTPDate.now()
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if !notModified && request.method == .get {
            context.write(wrapOutboundOut(.body(sent.entry.body)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        Self.record(
            method: request.method, target: target, status: response.status.code,
            length: response.headerFields[.contentLength], route: sent.route, since: start, logger: logger)
    }

    /// A cache hit's metrics and access line, as the router records a request's.
    static func record(
        method: HTTPRequest.Method, target: String, status: Int, length: String?, route: String,
        since start: ContinuousClock.Instant, logger: Logger
    ) {
        let elapsed = ContinuousClock.now - start
        ServerMetrics.requests.record(route: route, method: method, status: status, elapsed)
        logger.info(
            "\(AccessLine.text(method: method, target: target, status: status, length: length, elapsed: elapsed))")
    }
}

/// The Date field's value (RFC 9110 §5.6.7, IMF-fixdate: `Sat, 28 Nov 2026 04:56:55 GMT`),
/// made once a second. Written here because Hummingbird's own cache of it is internal to its
/// application, and Foundation's formatter reads a locale; this is the fixed format and
/// nothing else.
enum HTTPDate {
    /// The second made, its value, and its line as `RawCacheHitResponder` writes it.
    private struct Made {
        var second = -1
        var text = ""
        var line = ByteBuffer()
    }
    private static let made = NIOLockedValueBox(Made())

    /// `pick` of this second's, made on its first use (picked inside the lock: a copy of the
    /// whole would retain both forms on every answer).
    private static func current<Value>(_ pick: (Made) -> Value) -> Value {
        let second = time(nil)
        return made.withLockedValue { made in
            if made.second != second {
                let text = format(second)
                made = Made(second: second, text: text, line: ByteBuffer(string: "Date: \(text)\r\n\r\n"))
            }
            return pick(made)
        }
    }

    static func now() -> String { current(\.text) }

    /// The Date field's line and the empty line that ends a response's header section, as bytes.
    static func line() -> ByteBuffer { current(\.line) }

    static func format(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
#endif
