#if Server
import Foundation
import Hummingbird
import Logging
import NIOCore
import TallyOptions
import TallyServer
import TallyTestSupport
import Testing

@Suite struct ResponseCacheTests {
    @Test func keepsUpToItsBudgetAndDropsTheOldestFirst() {
        typealias Entry = ResponseCache<String>.Entry
        func entry(_ byte: UInt8, _ count: Int) -> Entry {
            Entry(body: ByteBuffer(repeating: byte, count: count), tag: "\"t\"")
        }
        let cache = ResponseCache<String>(budgetBytes: 8000)
        for index in 0..<20 { cache.keep(entry(UInt8(index), 500), for: "key\(index)") }
        #expect(cache.bytes <= 8000)
        #expect(cache.entry(for: "key0") == nil, "the oldest left first")
        #expect(cache.entry(for: "key19")?.body == ByteBuffer(repeating: 19, count: 500))
        // Each entry weighs its body, its tag and a fixed 256 bytes for its key: 759 bytes.
        #expect(cache.count == 10, "20 × 759 bytes in 8,000: the first 10 left")
        cache.keep(entry(1, 1001), for: "big")
        #expect(cache.entry(for: "big") == nil, "over an eighth of the budget: never kept")
        let off = ResponseCache<String>(budgetBytes: 0)
        off.keep(entry(1, 10), for: "a")
        #expect(off.entry(for: "a") == nil && off.count == 0)
    }

    @Test func aCachedImageIsTheSameBytes() async throws {
        try await withTestApplication { server, client in
            let first = try await client.execute(uri: "/137.svg?theme=dark", method: .get)
            #expect(server.responses.count == 1)
            let second = try await client.execute(uri: "/0137.svg?theme=dark", method: .get)
            #expect(server.responses.count == 1, "the same settings: served from the cache")
            #expect(second.bytes == first.bytes)
            #expect(second.headers[.eTag] == first.headers[.eTag])
        }
        let withoutCache: (inout ServeSettings) -> Void = { $0.cacheSize = 0 }
        try await withTestApplication(withoutCache) { uncached, client in
            let response = try await client.execute(uri: "/137.svg", method: .get)
            #expect(response.status == .ok)
            #expect(uncached.responses.count == 0, "--cache-size 0 keeps nothing")
        }
    }
}
#endif
