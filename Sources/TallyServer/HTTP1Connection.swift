#if Server
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import TallyOptions

/// Hummingbird's HTTP/1 child channel, with more handlers and a cap on connections
/// (`ConnectionLimit`). In the order a request's bytes meet them:
/// - `RawCacheHitResponder` answers a plain request for a remembered target from its bytes;
/// - `RequestLineWatcher` watches the lines the parser reads;
/// - NIO's parser and encoder, then `ConnectionCloseMarker`, which marks requests that close
///   their connection and answers the parser's errors;
/// - the conversion to HTTPTypes, then `ConnectionState` (Hummingbird's idle timeout and graceful
///   stop, which also counts the requests answered from their bytes);
/// - `CacheHitResponder` answers any other request for a remembered target, before the request
///   loop.
/// A request that does not keep its connection (HTTP/1.0 without `Connection: keep-alive`, or
/// any request with `Connection: close`) is marked `Connection: close`, the one spelling
/// Hummingbird's request loop stops on, so the server closes the connection after the response
/// (RFC 9112 §9.3).
///
/// The mark must be made before the request becomes a version-free `HTTPRequest`: Hummingbird's
/// own `additionalChannelHandlers` come after that conversion and cannot see the version. The
/// rest of the set-up is `HTTP1Channel`'s.
struct HTTP1Connection: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// Time before closing an idle connection.
    let idleTimeout: TimeAmount
    /// `--max-connections`.
    let connections: ConnectionLimit
    /// The router's response cache, whose remembered targets are answered before the router.
    let cache: ResponseCache<ImageRequest>?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let ready = channel.eventLoop.makeCompletedFuture { () throws -> Value in
            let pipeline = channel.pipeline.syncOperations
            guard connections.admit(channel) else {
                try pipeline.addHandler(ClosingAtOnce())
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
            }
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: RequestError.limits)
            let lines = RequestLineWatcher()
            try pipeline.addHandler(lines, position: .first)
            try pipeline.addHandler(ConnectionCloseMarker(lines: lines))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            let state = ConnectionState(idleTimeout: idleTimeout)
            try pipeline.addHandler(state)
            if let cache {
                let raw = RawCacheHitResponder(cache: cache, state: state, logger: logger)
                try pipeline.addHandler(raw, position: .first)
                try pipeline.addHandler(CacheHitResponder(cache: cache, logger: logger))
            }
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
        // NIO's async channel drops a connection whose set-up failed without closing it: closed
        // here, it gives back its descriptor and its place among `--max-connections`.
        ready.whenFailure { _ in channel.close(promise: nil) }
        return ready
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 that closes connections the client does not keep (`HTTP1Connection`), and those
    /// beyond `connections`; a target `cache` remembers is answered from it before the router.
    package static func http1ClosingWhenAsked(
        idleTimeout: TimeAmount, connections: ConnectionLimit, cache: ResponseCache<ImageRequest>? = nil
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            HTTP1Connection(responder: responder, idleTimeout: idleTimeout, connections: connections, cache: cache)
        }
    }
}

/// Marks each request head that does not keep its connection with `Connection: close`; answers
/// `CONNECT`, requests with a bad Host, and the HTTP parser's rejections itself.
///
/// NIO's HTTP/1 encoder writes every response to a `CONNECT` without a body or a length (RFC
/// 9110 allows content in a refusal, but NIO frames all of them as a tunnel's start), so
/// Hummingbird's 405 went out without a length and its body never followed, leaving the client
/// to wait for the timeout. Here a `CONNECT` gets the same 405 as any other method, with its
/// length and its one-line body written below the encoder, and the connection closes.
///
/// The parser's errors reached Hummingbird, which answered an empty 400 to all of them; here
/// each gets its own status (`RequestError.answer`) and tally's one-line body, and so does a
/// request whose Host fields are wrong (RFC 9112 §3.2: 400).
///
/// Inbound only: its answers go out below the encoder (`RequestError.write`), so a response's
/// writes and flush pass it by rather than through it.
final class ConnectionCloseMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// The raw lines before the parser, which say what its errors were about.
    private let lines: RequestLineWatcher
    /// Whether this handler answered and is closing the connection: what follows is ignored.
    private var answered = false

    init(lines: RequestLineWatcher) {
        self.lines = lines
    }

    private func answer(
        _ status: HTTPResponseStatus, _ message: String, extraHeaders: String = "", context: ChannelHandlerContext
    ) {
        answered = true
        RequestError.write(status, message, extraHeaders: extraHeaders, context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if answered { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.method == .CONNECT {
            answer(
                .methodNotAllowed, ImageServer.methodNotAllowed("CONNECT"), extraHeaders: "Allow: GET, HEAD\r\n",
                context: context)
            return
        }
        if let problem = RequestError.hostProblem(head) {
            answer(.badRequest, problem, context: context)
            return
        }
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if answered { return }
        let (status, message) = RequestError.answer(to: error, lines: lines)
        answer(status, message, context: context)
    }
}
#endif
