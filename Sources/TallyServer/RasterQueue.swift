#if Server
import NIOConcurrencyHelpers
import NIOPosix

/// The threads that draw PNG and PDF, and the bound on the work waiting for them.
///
/// Raster work is CPU-bound and can take a second at the largest sizes: it runs on its own
/// threads (NIO's thread pool), never on the threads that serve connections, so a few big PNGs
/// cannot stall every SVG. Past `threads + queue` requests in flight a request is refused at
/// once (the server answers 503 with Retry-After) instead of queuing without end; a request
/// that waited longer than the timeout is dropped before it is drawn.
package final class RasterQueue: Sendable {
    /// Why a request was not drawn.
    package enum Refusal: Error, Sendable {
        /// Every thread is busy and the queue is full.
        case busy
        /// It waited longer than the timeout for a thread.
        case timedOut
    }

    private let pool: NIOThreadPool
    private let inFlight = NIOLockedValueBox(0)
    /// Threads plus waiting places.
    package let capacity: Int
    private let timeout: Duration
    /// The clock a wait is measured by: the continuous clock, or a test's own, so that a test of
    /// the timeout does not depend on how fast a busy machine hands work to a thread.
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Starts `threads` threads, with `queue` more requests allowed to wait.
    package init(
        threads: Int, queue: Int, timeout: Duration,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        capacity = threads + queue
        self.timeout = timeout
        self.now = now
    }

    /// The requests being drawn or waiting now (the `tally_raster_in_flight` gauge).
    package var count: Int { inFlight.withLockedValue { $0 } }

    /// Runs `work` on a raster thread, or throws `Refusal` without running it.
    package func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        // The wait is timed from the request's arrival, taken before it is counted: whoever sees
        // it counted (the gauge, a test that then moves its clock) sees its wait begun.
        let now = self.now
        let queued = now()
        let admitted = inFlight.withLockedValue { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Refusal.busy }
        defer { inFlight.withLockedValue { $0 -= 1 } }
        let timeout = self.timeout
        return try await pool.runIfActive {
            guard now() - queued <= timeout else { throw Refusal.timedOut }
            return try work()
        }
    }

    /// Lets the work in hand finish, then stops the threads.
    package func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
#endif
