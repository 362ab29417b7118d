#if Server
import DequeModule
import NIOConcurrencyHelpers
import NIOCore

/// The bytes of images already drawn, by their canonical settings: a URL always gives the same
/// bytes, so an image asked for again (a README's badge, on every visit) is sent, not redrawn.
///
/// Bounded by bytes (`tally serve --cache-size`, in MiB; 0 turns it off). The oldest entries
/// leave first; an image larger than an eighth of the budget is never kept, so one big PNG
/// cannot push out hundreds of small ones.
package final class ResponseCache: Sendable {
    private struct Storage {
        var bodies: [String: ByteBuffer] = [:]
        var order: Deque<String> = []
        var bytes = 0
    }

    private let storage = NIOLockedValueBox(Storage())
    /// The most bytes of bodies kept.
    package let budget: Int

    package init(budgetBytes: Int) {
        budget = budgetBytes
    }

    /// The body kept for a key, if any.
    package func body(for key: String) -> ByteBuffer? {
        guard budget > 0 else { return nil }
        return storage.withLockedValue { $0.bodies[key] }
    }

    /// Keeps a body, making room by dropping the oldest.
    package func keep(_ body: ByteBuffer, for key: String) {
        let size = body.readableBytes + key.utf8.count
        guard budget > 0, size <= budget / 8 else { return }
        storage.withLockedValue { storage in
            guard storage.bodies[key] == nil else { return }
            while storage.bytes + size > budget, let oldest = storage.order.popFirst() {
                if let dropped = storage.bodies.removeValue(forKey: oldest) {
                    storage.bytes -= dropped.readableBytes + oldest.utf8.count
                }
            }
            storage.bodies[key] = body
            storage.order.append(key)
            storage.bytes += size
        }
    }

    /// Bytes kept now (bodies and keys).
    package var bytes: Int { storage.withLockedValue { $0.bytes } }
    /// Entries kept now.
    package var count: Int { storage.withLockedValue { $0.bodies.count } }
}
#endif
