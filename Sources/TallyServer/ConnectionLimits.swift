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

    /// Sets up the listening channel for this limit, once it listens (Hummingbird's
    /// `onServerRunning`): `AcceptPacing` first, to see accept errors before NIO's
    /// `AcceptBackoffHandler`, and `ConnectionFailureGuard` after NIO's accept handler.
    package func prepare(listener channel: any Channel) async {
        let maximum = maximum
        let logger = logger
        let prepared = try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            // NIO names its accept handler; the tests look it up by the same name. Looked up
            // first, so that the listener is set up whole or not at all.
            let accepting = try? pipeline.context(name: ConnectionFailureGuard.acceptHandlerName)
            try pipeline.addHandler(AcceptPacing(maximum: maximum, logger: logger), position: .first)
            if let accepting {
                try pipeline.addHandler(ConnectionFailureGuard(logger: logger), position: .after(accepting.handler))
            }
            return accepting != nil
        }.get()
        if prepared != true {
            logger.warning("the listener is not fully set up: a connection whose set-up fails may stop the server")
        }
    }
}

/// Keeps one connection's failure from ending the server. NIO's accept handler closes a
/// connection whose set-up failed and reports the error on the listener, and Hummingbird's accept
/// loop ends on any error that reaches it, and the server with it (Hummingbird passes over the
/// one such error it knows, on macOS only). Here the error is logged, and the server goes on. A
/// listener that fails itself is closed by NIO after the error has passed here, which ends the
/// loop all the same, and `tally serve` then exits 74, saying that the listening socket closed.
final class ConnectionFailureGuard: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// The name NIO's `ServerBootstrap` gives its accept handler.
    static let acceptHandlerName = "AcceptHandler"

    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A connection still being set up while the listener closes (a graceful stop) fails
        // too, as expected.
        logger.log(
            level: context.channel.isActive ? .error : .debug,
            "error on the listening socket: \(ServerMain.describe(error))")
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

/// Paces the listening socket, so the connections the server holds stay within the descriptors
/// it has. It stops watching the socket (turns `autoRead` off) for two reasons, and watches it
/// again when neither holds:
///
/// - **Too many accepted and not yet closed.** A connection beyond `--max-connections` is refused
///   on its own event loop, after the listener's loop has accepted it, so under load the listener
///   could accept a whole backlog before the refusals closed any, and use the 32 descriptors kept
///   for files and then the last ones (EMFILE). At most `maximum + refusalsInFlight` accepted
///   connections are open at once; the listener waits for one to close.
/// - **Accepting failed for want of descriptors** (EMFILE, ENFILE; ENOBUFS and ENOMEM too), as
///   nginx and Go's net/http do: it waits 10 ms, doubling up to a second, and tries again. The
///   condition is logged once per episode (from the first failure to the next connection
///   accepted), not per attempt.
///
/// NIO's async bootstrap already puts an `AcceptBackoffHandler` on the listener, but that handler
/// only delays the *next* `read()`, and on Linux none comes: a failed `accept` leaves the read
/// pending, so the socket stays registered with level-triggered epoll, which reports the waiting
/// connection again at once, and the event loop spins on `accept4` → EMFILE. Turning `autoRead`
/// off unregisters the socket; turning it on again re-registers it. A `read()` asked for while
/// paused (NIO's backoff handler schedules one; NIO's async channel asks for more as Hummingbird
/// takes connections) is held here, first on the listener, and passed on when the pause ends.
/// The bound is soft by one wake-up's accepts: NIO accepts up to 4 in a read.
package final class AcceptPacing: ChannelDuplexHandler {
    package typealias InboundIn = any Channel
    package typealias InboundOut = any Channel
    package typealias OutboundIn = NIOAny
    package typealias OutboundOut = NIOAny

    /// The first pause, and the longest.
    static let firstDelay = TimeAmount.milliseconds(10)
    static let longestDelay = TimeAmount.seconds(1)
    /// Connections beyond `--max-connections` accepted and not yet closed, at most: a few, well
    /// within the descriptors kept for files (`ServeSettings.reservedDescriptors`).
    static let refusalsInFlight = 8

    private let logger: Logger
    /// Accepted connections open at once, at most.
    private let mostOpen: Int
    /// Connections accepted and not yet closed.
    private var open = 0
    /// The next pause; nil outside an episode.
    private var delay: TimeAmount?
    /// Whether a pause after a failed accept is running.
    private var pausing = false
    /// Whether a `read()` was held while paused.
    private var heldRead = false
    /// Whether the listener waits, for either reason.
    private var paused: Bool { pausing || open >= mostOpen }

    /// Pacing for a listener whose connections are limited to `maximum` (`ConnectionLimit`).
    package init(maximum: Int, logger: Logger) {
        self.mostOpen = maximum + Self.refusalsInFlight
        self.logger = logger
    }

    /// Whether an accept error is a shortage that passes when descriptors or memory free up.
    static func isShortage(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if delay != nil {
            delay = nil
            logger.notice("accepting connections again")
        }
        open += 1
        // The connection closes on its own event loop; the count is this loop's.
        let loop = context.eventLoop
        let pacing = NIOLoopBound((self, context), eventLoop: loop)
        Self.unwrapInboundIn(data).closeFuture.whenComplete { _ in
            loop.execute {
                let (handler, context) = pacing.value
                handler.open -= 1
                handler.watch(context)
            }
        }
        watch(context)
        context.fireChannelRead(data)
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard Self.isShortage(error) else {
            context.fireErrorCaught(error)
            return
        }
        // A read held while paused cannot fail; this guards against a second timer all the same.
        guard !pausing else { return }
        if delay == nil {
            logger.warning(
                "cannot accept connections: \(ServerMain.describe(error)); waiting for descriptors to free up (see --max-connections)"
            )
        }
        let pause = delay ?? Self.firstDelay
        delay = min(pause * 2, Self.longestDelay)
        // Not passed on: NIO's own AcceptBackoffHandler would delay the read after the next
        // accepted connection by a second.
        pausing = true
        watch(context)
        let paced = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
            let (handler, context) = paced.value
            handler.pausing = false
            handler.watch(context)
        }
    }

    package func read(context: ChannelHandlerContext) {
        guard !paused else {
            heldRead = true
            return
        }
        context.read()
    }

    /// Watches the listening socket, or stops, as the counts say (NIO acts only on a change), and
    /// passes on a read held while paused.
    private func watch(_ context: ChannelHandlerContext) {
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: !paused)
        if !paused, heldRead {
            heldRead = false
            context.read()
        }
    }
}
#endif
