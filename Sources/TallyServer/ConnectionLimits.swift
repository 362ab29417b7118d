#if Server
import Logging
import NIOConcurrencyHelpers
import NIOCore
import TallyPOSIX

/// `--max-connections` (SPEC §6): connections open at once. One beyond them is closed as soon as
/// it is accepted, unanswered, so an idle crowd cannot take the descriptors the server needs to
/// answer anyone; a warning is logged once per episode (the first refusal after the last
/// admission), not per connection.
package final class ConnectionLimit: Sendable {
    /// Connections allowed open at once.
    package let maximum: Int
    private let logger: Logger
    private let state = NIOLockedValueBox((open: 0, refusing: false))

    /// A limit of `maximum` connections, whose episodes are logged to `logger`.
    package init(maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    /// Counts a new connection in, until it closes; false when it is one too many.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, episodeChanged) = state.withLockedValue { state in
            guard state.open < maximum else {
                defer { state.refusing = true }
                return (false, !state.refusing)
            }
            state.open += 1
            defer { state.refusing = false }
            return (true, state.refusing)
        }
        if !admitted {
            if episodeChanged {
                logger.warning(
                    "\(maximum) connections are open (--max-connections); new ones are closed until one ends")
            }
            return false
        }
        if episodeChanged { logger.notice("accepting connections again") }
        channel.closeFuture.whenComplete { [state] _ in state.withLockedValue { $0.open -= 1 } }
        return true
    }
}

/// Closes its connection as soon as it is active, reading nothing: a connection beyond
/// `--max-connections`.
final class ClosingAtOnce: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}

/// Backs off from the listening socket while accepting fails for want of descriptors (EMFILE,
/// ENFILE; ENOBUFS and ENOMEM too), as nginx and Go's net/http do: it stops watching the socket,
/// waits 10 ms, doubling up to a second, and tries again. The condition is logged once per
/// episode (from the first failure to the next connection accepted), not per attempt.
///
/// NIO's async bootstrap already puts an `AcceptBackoffHandler` on the listener, but that handler
/// only delays the *next* `read()`, and on Linux none comes: a failed `accept` leaves the read
/// pending, so the socket stays registered with level-triggered epoll, which reports the waiting
/// connection again at once, and the event loop spins on `accept4` → EMFILE. Turning `autoRead`
/// off unregisters the socket; turning it on again re-registers it.
final class AcceptBackoff: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// The first pause, and the longest.
    static let firstDelay = TimeAmount.milliseconds(10)
    static let longestDelay = TimeAmount.seconds(1)

    private let logger: Logger
    /// The next pause; nil outside an episode.
    private var delay: TimeAmount?

    init(logger: Logger) {
        self.logger = logger
    }

    /// Whether an accept error is a shortage that passes when descriptors or memory free up.
    static func isShortage(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if delay != nil {
            delay = nil
            logger.notice("accepting connections again")
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard Self.isShortage(error), let options = context.channel.syncOptions else {
            context.fireErrorCaught(error)
            return
        }
        if delay == nil {
            logger.warning(
                "cannot accept connections: \(ServerMain.describe(error)); waiting for descriptors to free up (see --max-connections)"
            )
        }
        let pause = delay ?? Self.firstDelay
        delay = min(pause * 2, Self.longestDelay)
        // Not passed on: NIO's own AcceptBackoffHandler would delay the read after the next
        // accepted connection by a second.
        try? options.setOption(ChannelOptions.autoRead, value: false)
        let channel = context.channel
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
            try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
        }
    }
}
#endif
