#if Server
import DequeModule
import NIOConcurrencyHelpers
import NIOCore

/// Images already drawn, with their entity tags, by what was asked for: a URL always gives the
/// same bytes, so an image asked for again (a README's badge, on every visit) is sent, not
/// redrawn.
///
/// The server's key is the very value an image is drawn from (`ImageRequest`: the count, the
/// format and every setting, compared field by field), never a second copy of the renderer's
/// rules, so two requests share an entry only when nothing the drawing reads differs (SPEC §6,
/// ETags).
/// Bounded by bytes (`tally serve --cache-size`, in MiB; 0 turns it off). The oldest entries
/// leave first; an image larger than an eighth of the budget is never kept, so one big PNG
/// cannot push out hundreds of small ones.
package final class ResponseCache<Key: Hashable & Sendable>: Sendable {
    /// A drawn image and its entity tag (from its bytes).
    package struct Entry: Sendable {
        package let body: ByteBuffer
        package let tag: String
        package init(body: ByteBuffer, tag: String) {
            self.body = body
            self.tag = tag
        }
        /// The bytes an entry holds against the budget: body, tag, and a fixed share for the key.
        var weight: Int { body.readableBytes + tag.utf8.count + ResponseCache.keyWeight }
    }

    private struct Storage {
        var entries: [Key: Entry] = [:]
        var order: Deque<Key> = []
        var bytes = 0
    }

    /// What a key is counted as: a count and a settings value, or a badge's, with its label.
    static var keyWeight: Int { 256 }

    private let storage = NIOLockedValueBox(Storage())
    /// The most bytes of entries kept.
    package let budget: Int

    package init(budgetBytes: Int) {
        budget = budgetBytes
    }

    /// The entry kept for a key, if any.
    package func entry(for key: Key) -> Entry? {
        guard budget > 0 else { return nil }
        return storage.withLockedValue { $0.entries[key] }
    }

    /// Keeps an entry, making room by dropping the oldest.
    package func keep(_ entry: Entry, for key: Key) {
        let size = entry.weight
        guard budget > 0, size <= budget / 8 else { return }
        storage.withLockedValue { storage in
            guard storage.entries[key] == nil else { return }
            while storage.bytes + size > budget, let oldest = storage.order.popFirst() {
                if let dropped = storage.entries.removeValue(forKey: oldest) { storage.bytes -= dropped.weight }
            }
            storage.entries[key] = entry
            storage.order.append(key)
            storage.bytes += size
        }
    }

    /// Bytes kept now (bodies, tags and keys).
    package var bytes: Int { storage.withLockedValue { $0.bytes } }
    /// Entries kept now.
    package var count: Int { storage.withLockedValue { $0.entries.count } }
}
#endif
