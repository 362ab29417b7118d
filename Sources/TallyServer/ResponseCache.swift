#if Server
import DequeModule
import HTTPTypes
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
///
/// Each entry also remembers the request-targets it was answered for (`/1234.svg`,
/// `/1234.svg?theme=light`), with the response's headers, so that the same target asked for
/// again is answered on the connection's own thread (`CacheHitResponder`) without routing or
/// reading the URL again. A target is only ever an alias of an entry the router answered:
/// it names the bytes the key names, and it leaves with its entry.
///
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

    /// What the router sent for a request-target: the entry, the 200 response's headers as the
    /// router made them (Content-Length included, Date not), and the route that answered.
    package struct Sent: Sendable {
        package let entry: Entry
        package let headers: HTTPFields
        package let route: String
        /// The status line and the fields as NIO's HTTP/1.1 encoder writes them, the Date field
        /// and the empty line not: what `RawCacheHitResponder` sends ahead of them. Nil unless
        /// the fields frame the body by its length, as every image's do: the encoder would add
        /// a chunked framing to others.
        let head: ByteBuffer?
        /// The Content-Length field's value, for the access line.
        let length: String?
        package init(entry: Entry, headers: HTTPFields, route: String) {
            self.init(entry: entry, headers: headers, route: route, head: Self.encodedHead(headers))
        }
        init(entry: Entry, headers: HTTPFields, route: String, head: ByteBuffer?) {
            self.entry = entry
            self.headers = headers
            self.route = route
            self.head = head
            length = headers[.contentLength]
        }
        /// `head` for these fields.
        static func encodedHead(_ headers: HTTPFields) -> ByteBuffer? {
            guard headers[.contentLength] != nil, !headers.contains(.transferEncoding) else { return nil }
            var head = ByteBuffer(string: "HTTP/1.1 200 OK\r\n")
            for field in headers {
                head.writeString(field.name.rawName)
                head.writeString(": ")
                head.writeString(field.value)
                head.writeString("\r\n")
            }
            return head
        }
        /// The bytes a target holds against the budget (its body is its entry's).
        func weight(target: String) -> Int {
            target.utf8.count + ResponseCache.targetWeight + (head?.readableBytes ?? 0)
        }
    }

    private struct Kept {
        var entry: Entry
        var targets: [String] = []
    }

    private struct Storage {
        var entries: [Key: Kept] = [:]
        var byTarget: [String: Sent] = [:]
        var order: Deque<Key> = []
        var bytes = 0

        /// Drops the oldest entries, and their targets, until `size` more bytes fit.
        mutating func makeRoom(for size: Int, budget: Int) {
            while bytes + size > budget, let oldest = order.popFirst() {
                guard let dropped = entries.removeValue(forKey: oldest) else { continue }
                bytes -= dropped.entry.weight
                for target in dropped.targets {
                    if let sent = byTarget.removeValue(forKey: target) { bytes -= sent.weight(target: target) }
                }
            }
        }
    }

    /// What a key is counted as: a count and a settings value, or a badge's, with its label.
    static var keyWeight: Int { 256 }
    /// What a target is counted as beyond its own bytes and its head's: its headers and the
    /// tables' share.
    static var targetWeight: Int { 512 }
    /// The most targets remembered for one entry: enough for the spellings a page uses
    /// (`/7.svg`, `/07.svg?theme=light`), while a client inventing spellings of one image
    /// cannot grow the table past this.
    static var targetsPerEntry: Int { 8 }

    private let storage = NIOLockedValueBox(Storage())
    /// The most bytes of entries kept.
    package let budget: Int

    package init(budgetBytes: Int) {
        budget = budgetBytes
    }

    /// The entry kept for a key, if any.
    package func entry(for key: Key) -> Entry? {
        guard budget > 0 else { return nil }
        return storage.withLockedValue { $0.entries[key]?.entry }
    }

    /// Keeps an entry, making room by dropping the oldest.
    package func keep(_ entry: Entry, for key: Key) {
        let size = entry.weight
        guard budget > 0, size <= budget / 8 else { return }
        storage.withLockedValue { storage in
            guard storage.entries[key] == nil else { return }
            storage.makeRoom(for: size, budget: budget)
            storage.entries[key] = Kept(entry: entry)
            storage.order.append(key)
            storage.bytes += size
        }
    }

    /// What was sent for a request-target, while its entry is kept.
    package func sent(for target: String) -> Sent? {
        guard budget > 0 else { return nil }
        return storage.withLockedValue { $0.byTarget[target] }
    }

    /// Remembers that `target` was answered with the entry kept for `key`; nothing when the
    /// entry is not kept (too big, or the cache is off) or already has its share of targets.
    package func remember(target: String, for key: Key, headers: HTTPFields, route: String) {
        guard budget > 0 else { return }
        let head = Sent.encodedHead(headers)  // made before the lock, which every event loop takes
        storage.withLockedValue { storage in
            guard storage.byTarget[target] == nil, let kept = storage.entries[key],
                kept.targets.count < Self.targetsPerEntry
            else { return }
            let sent = Sent(entry: kept.entry, headers: headers, route: route, head: head)
            let size = sent.weight(target: target)
            storage.makeRoom(for: size, budget: budget)
            // Room may have been made by dropping this very entry, the oldest.
            guard storage.entries[key] != nil else { return }
            storage.entries[key]?.targets.append(target)
            storage.byTarget[target] = sent
            storage.bytes += size
        }
    }

    /// Bytes kept now (bodies, tags, keys and targets).
    package var bytes: Int { storage.withLockedValue { $0.bytes } }
    /// Entries kept now.
    package var count: Int { storage.withLockedValue { $0.entries.count } }
    /// Request-targets remembered now.
    package var targets: Int { storage.withLockedValue { $0.byTarget.count } }
}
#endif
