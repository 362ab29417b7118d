#if Server
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What Hummingbird's `HTTPConnectionStateHandler` does for a connection, with one more way in.
/// It closes a connection idle for the idle timeout (`tally serve --timeout`), never while a
/// request it read is still being answered, and on a graceful stop it closes the connection at
/// once, or after the response in progress.
///
/// A request that `RawCacheHitResponder` answers from its bytes never reaches this handler, as
/// it never reaches the parser. It tells the handler so (`answeredBeforeParser`), and the
/// connection counts as active. Hummingbird's handler keeps its state to itself, so it would
/// close a connection busy with such requests after the timeout. That is why this one is
/// written here; the rules are Hummingbird's.
final class ConnectionState: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let idleTimeout: TimeAmount
    /// Requests read (their heads) whose responses have not ended.
    private(set) var requestsInProgress = 0
    /// Whether a request's head has been read and its end has not.
    private var isRequestBeingRead = false
    /// Whether a graceful stop asked for the close after the response in progress.
    private(set) var closesAfterResponse = false
    /// On the event loop's clock (`EventLoop.now`), which a test's loop moves by hand.
    private var lastActive = NIODeadline.uptimeNanoseconds(0)
    private var isActive = false
    private var idleCheck: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(idleTimeout: TimeAmount) {
        self.idleTimeout = idleTimeout
    }

    /// Whether nothing is being read or answered: a request answered now keeps the order of
    /// the connection's answers, and nothing of an earlier request is left to read.
    var isIdle: Bool { requestsInProgress == 0 && !isRequestBeingRead && !closesAfterResponse }

    /// A request answered whole before the parser: the connection was active now.
    func answeredBeforeParser() {
        guard let context else { return }
        lastActive = context.eventLoop.now
        scheduleIdleCheck(context, at: lastActive + idleTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { becomeActive(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        becomeActive(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head:
            isRequestBeingRead = true
            requestsInProgress += 1
        case .body: break
        case .end: isRequestBeingRead = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        requestsInProgress -= 1
        guard requestsInProgress == 0 else {
            context.write(data, promise: promise)
            return
        }
        if closesAfterResponse {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
            return
        }
        lastActive = context.eventLoop.now
        scheduleIdleCheck(context, at: lastActive + idleTimeout)
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if requestsInProgress > 0 {
            closesAfterResponse = true
        } else {
            context.close(promise: nil)
        }
    }

    private func becomeActive(_ context: ChannelHandlerContext) {
        isActive = true
        lastActive = context.eventLoop.now
        scheduleIdleCheck(context, at: lastActive + idleTimeout)
    }

    /// One check at a time: a later activity moves `lastActive`, and the check looks again then.
    private func scheduleIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        guard idleCheck == nil else { return }
        idleCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) {
            self.idleCheck = nil
            self.checkIdle(context)
        }
    }

    private func checkIdle(_ context: ChannelHandlerContext) {
        guard isActive else { return }
        // A request read whole and still being answered: the response's end schedules the
        // next check.
        if !isRequestBeingRead && requestsInProgress > 0 { return }
        let deadline = lastActive + idleTimeout
        if context.eventLoop.now >= deadline {
            context.close(promise: nil)
        } else {
            scheduleIdleCheck(context, at: deadline)
        }
    }
}
#endif
