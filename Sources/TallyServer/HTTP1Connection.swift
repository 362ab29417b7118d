#if Server
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

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

/// Marks each request head that does not keep its connection with `Connection: close`.
final class ConnectionCloseMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
#endif
