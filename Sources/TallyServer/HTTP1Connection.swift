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

/// Hummingbird's HTTP/1 child channel, with one more handler: a request that does not keep its
/// connection (HTTP/1.0 without `Connection: keep-alive`, or any request with
/// `Connection: close`) is marked `Connection: close`, the one spelling Hummingbird's request loop
/// stops on, so the server closes the connection after the response (RFC 9112 §9.3).
///
/// The mark must be made before the request becomes a version-free `HTTPRequest`: Hummingbird's
/// own `additionalChannelHandlers` come after that conversion and cannot see the version. The
/// rest of the set-up is `HTTP1Channel`'s.
struct HTTP1Connection: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// Time before closing an idle connection.
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            try pipeline.addHandler(ConnectionCloseMarker())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: .init(idleTimeout), logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 that closes connections the client does not keep (`HTTP1Connection`).
    static func http1ClosingWhenAsked(idleTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in HTTP1Connection(responder: responder, idleTimeout: idleTimeout) }
    }
}

/// Marks each request head that does not keep its connection with `Connection: close`, and
/// answers `CONNECT` itself.
///
/// NIO's HTTP/1 encoder writes every response to a `CONNECT` without a body or a length (RFC
/// 9110 allows content in a refusal, but NIO frames all of them as a tunnel's start), so
/// Hummingbird's 405 went out without a length and its body never followed, leaving the client
/// to wait for the timeout. Here a `CONNECT` gets the same 405 as any other method, with its
/// length and its one-line body written below the encoder, and the connection closes.
final class ConnectionCloseMarker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a `CONNECT` was answered: what follows on the connection is not HTTP.
    private var answeredConnect = false

    /// The 405, framed, as bytes past the HTTP encoder; then the connection closes.
    private func answerConnect(context: ChannelHandlerContext, version: HTTPVersion) {
        let body = CommandFailure.line(ImageServer.methodNotAllowed("CONNECT"))
        let head =
            "HTTP/\(version.major).\(version.minor) 405 Method Not Allowed\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nAllow: GET, HEAD\r\n"
            + "Connection: close\r\n\r\n"
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if answeredConnect { return }
        if case .head(let head) = unwrapInboundIn(data), head.method == .CONNECT {
            answeredConnect = true
            answerConnect(context: context, version: head.version)
            return
        }
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
#endif
