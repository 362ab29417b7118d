#if Server
import Foundation
import NIOCore
import TallyGeometry
import TallyOptions
import TallyRender
import TallyServer
import TallyTestSupport
import Testing

/// SPEC §6, ETags, through the real router (no socket): pairs of URLs for `/{count}.svg` and
/// `/badge/{count}.svg` that differ in one parameter, every pair of values of every parameter
/// (`OptionSamples`), each pair asked for in both orders on a fresh cached server, against a
/// server with no cache. A URL's bytes never depend on what was
/// asked before (cached equals uncached, and both are the library's own bytes for the same
/// options), and over every answer of the run, equal tags are equal bytes and equal bytes
/// equal tags. A cache key that forgot any parameter a route takes serves the first image of
/// a pair for the second, and fails here.
@Suite struct CacheKeyPropertyTests {
    typealias Route = OptionSamples.Route

    /// A URL: its route, its count as spelt, and its parameters in the order they are written.
    struct Query: Hashable, CustomStringConvertible {
        let route: Route
        let count: String
        let parameters: [Parameter]

        struct Parameter: Hashable {
            let option: RenderOption
            let value: String
        }

        var given: [RenderOption: String] {
            Dictionary(uniqueKeysWithValues: parameters.map { ($0.option, $0.value) })
        }

        var uri: String {
            let path = (route == .badge ? "/badge/" : "/") + count + ".svg"
            guard !parameters.isEmpty else { return path }
            return path + "?"
                + parameters.map { "\($0.option.queryName)=\(Self.encoded($0.value))" }.joined(separator: "&")
        }

        var description: String { uri }

        /// Percent-encoded as a browser would: everything but letters, digits and `-._~`.
        static func encoded(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))
                ?? value
        }
    }

    /// Whether the options model takes a query (pairs of two refusals test little).
    static func isAccepted(_ query: Query) -> Bool {
        guard let options = try? RenderOptions(query.given) else { return false }
        switch query.route {
        case .render: return (try? options.settings(format: .svg)) != nil
        case .badge: return (try? options.badgeSettings(format: .svg)) != nil
        }
    }

    /// Every pair of values of every parameter of each route (`OptionSamples`), the second of
    /// every other pair with its count spelt with a leading zero (`0137` is `137`), and each URL
    /// writing its parameters in its own order: the first by name, the second the other way.
    static func pairs() -> [(Query, Query)] {
        var pairs: [(Query, Query)] = []
        for route in Route.allCases {
            for pair in OptionSamples.pairs(on: route) {
                func query(_ count: String, _ given: [RenderOption: String], reversed: Bool) -> Query {
                    let order = given.keys.sorted { ($0.name < $1.name) != reversed }
                    return Query(
                        route: route, count: count, parameters: order.map { .init(option: $0, value: given[$0]!) })
                }
                let count = String(pair.count)
                let otherCount = pairs.count % 2 == 0 ? count : "0" + count
                let (a, b) = (query(count, pair.first, reversed: false), query(otherCount, pair.second, reversed: true))
                #expect(isAccepted(a) && isAccepted(b), "\(a) and \(b) are taken")
                pairs.append((a, b))
            }
        }
        return pairs
    }

    /// What a server answered.
    struct Answer: Equatable, CustomStringConvertible {
        let status: UInt
        let bytes: [UInt8]
        let tag: String?

        init(_ response: TestResponse) {
            status = UInt(response.status.code)
            bytes = Array(Data(buffer: response.body))
            tag = response.headers[.eTag]
        }

        var description: String { "\(status), \(bytes.count) bytes, tag \(tag ?? "none")" }
    }

    /// The library's own bytes for a query, drawn as `tally render` and `tally badge` draw them
    /// (nil where the renderer refuses it).
    static func libraryBytes(_ query: Query) throws -> [UInt8]? {
        let options = try RenderOptions(query.given)
        let count = try Values.count(query.count)
        switch query.route {
        case .render:
            return try? Renderer.render(count, as: .svg, try options.settings(format: .svg))
        case .badge:
            let settings = try options.badgeSettings(format: .svg)
            return try? Renderer.badge(try options.badge(count, settings), settings)
        }
    }

    @Test(.processTimeLimit(minutes: 2))
    func aURLsBytesNeverDependOnWhatWasAskedBefore() async throws {
        let pairs = Self.pairs()
        let noCache: (inout ServeSettings) -> Void = { $0.cacheSize = 0 }
        // Every URL once, on a server that keeps nothing: what the URL alone gives.
        let alone = try await withTestApplication(noCache) { _, client in
            var answers: [Query: Answer] = [:]
            for query in Set(pairs.flatMap { [$0.0, $0.1] }) {
                answers[query] = Answer(try await client.execute(uri: query.uri, method: .get))
            }
            return answers
        }
        var bytesByTag: [String: (bytes: [UInt8], uri: String)] = [:]
        var tagByBytes: [[UInt8]: (tag: String, uri: String)] = [:]
        for (query, answer) in alone {
            let uri = query.uri
            #expect(answer.status == 200 || answer.status == 400, "\(uri) is \(answer.status)")
            guard answer.status == 200 else { continue }
            #expect(
                answer.bytes == (try Self.libraryBytes(query)), "\(uri) is not the library's image")
            let tag = try #require(answer.tag, "\(uri) has no tag")
            if let seen = bytesByTag[tag], seen.bytes != answer.bytes {
                Issue.record("one tag \(tag) for two images, \(seen.uri) and \(uri)")
            }
            if let seen = tagByBytes[answer.bytes], seen.tag != tag {
                Issue.record("one image with two tags, \(seen.uri) and \(uri)")
            }
            bytesByTag[tag] = (answer.bytes, uri)
            tagByBytes[answer.bytes] = (tag, uri)
        }
        // Each pair in both orders on a fresh cached server: the second is answered as if alone.
        var witnessed: [Route: Set<RenderOption>] = [:]
        var differing = 0
        var alike = 0
        for (index, (a, b)) in pairs.enumerated() {
            let (first, second) = (try #require(alone[a]), try #require(alone[b]))
            let pair = "pair \(index): \(a) and \(b)"
            if first.status != 200 || second.status != 200 {
                // Refused: nothing to compare but the refusal itself, in either order below.
            } else if first.bytes == second.bytes {
                alike += 1
            } else {
                differing += 1
                let changed = Set(a.given.keys).union(b.given.keys).filter { a.given[$0] != b.given[$0] }
                if changed.count == 1, let option = changed.first { witnessed[a.route, default: []].insert(option) }
            }
            // Under a sanitizer a tenth of the pairs go to fresh servers (each pair starts two):
            // the sanitizer watches the server, which a tenth runs the same way.
            for order in [[a, b], [b, a]] where !underSanitizer || index % 10 == 0 {
                try await withTestApplication { _, client in
                    for query in order {
                        let answer = Answer(try await client.execute(uri: query.uri, method: .get))
                        let expected = try #require(alone[query])
                        if answer != expected {
                            Issue.record(
                                "\(pair): \(query) after \(order[0]) is not \(query) alone: \(answer) against \(expected)"
                            )
                        }
                    }
                }
            }
        }
        #expect(differing > pairs.count / 2 && alike > 10, "\(differing) pairs differ, \(alike) are one image")
        // Each parameter a route takes was seen changing the image on its own: a key without it
        // would have been caught, and a parameter that changes nothing is not offered.
        for route in Route.allCases {
            let missed = Set(route.options).subtracting(witnessed[route] ?? []).map(\.name).sorted()
            #expect(missed.isEmpty, "no \(route) pair showed these parameters alone: \(missed)")
        }
    }
}
#endif
