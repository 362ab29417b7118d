#if Server
import Foundation
import NIOCore
import TallyGeometry
import TallyOptions
import TallyRender
import TallyServer
import TallyTestSupport
import Testing

/// SPEC §6, ETags, through the real router (no socket): random pairs of URLs for
/// `/{count}.svg` and `/badge/{count}.svg`, each pair asked for in both orders on a fresh
/// cached server, against a server with no cache. A URL's bytes never depend on what was
/// asked before (cached equals uncached, and both are the library's own bytes for the same
/// options), and over every answer of the run, equal tags are equal bytes and equal bytes
/// equal tags. A cache key that forgot any parameter a route takes serves the first image of
/// a pair for the second, and fails here.
@Suite struct CacheKeyPropertyTests {
    enum Route: String, Hashable, CustomStringConvertible {
        case render, badge
        var description: String { rawValue }
    }

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

    /// Values for every parameter a route takes: defaults spelt out (same bytes), and others.
    static let renderPool: [RenderOption: [String]] = [
        .size: ["256", "64", "100"], .width: ["256", "90"], .height: ["40", "256"], .scale: ["1", "2"],
        .padding: ["0", "3"], .theme: ["auto", "light", "dark"], .style: ["clean", "ink"], .seed: ["0", "5"],
        .fit: ["content", "frame"], .frame: ["1000", "100000"], .detail: ["auto", "full"],
        .background: ["none", "paper", "#ffffff"], .ink: ["#262629", "#000"], .c2: ["#111", "#c2c2c2"],
        .c3: ["#222", "teal"], .accent: ["#00f", "red"], .animate: ["true", "false"], .animateFrom: ["0", "20"],
        .label: ["x", "downloads", "stars", "R&D <b>\"x\""], .caption: ["true", "false"], .inset: ["true", "false"],
        .of: ["1000", "10000", "20000"],
    ]
    static let badgePool: [RenderOption: [String]] = [
        .scale: ["1", "2"], .theme: ["auto", "light", "dark"], .ink: ["#262629", "#000"], .c2: ["#111", "#c2c2c2"],
        .c3: ["#222", "teal"], .accent: ["#00f", "red"], .label: ["", "downloads", "stars", "R&D"],
        .of: ["1000", "10000", "20000"], .badgeStyle: ["flat", "flat-square", "for-the-badge"],
        .color: ["brightgreen", "4c1", "blue"], .labelColor: ["555", "critical"],
    ]
    /// Counts, some spelt two ways (`0137` is `137`), with gates (the accent), crosses (c2) and
    /// boxes (c3) among their marks.
    static let counts: [Route: [String]] = [
        .render: ["137", "0137", "50", "1234"], .badge: ["1234", "01234", "6200", "12", "60"],
    ]

    /// Whether the options model takes a query (pairs of two refusals test little).
    static func isAccepted(_ query: Query) -> Bool {
        guard let options = try? RenderOptions(query.given) else { return false }
        switch query.route {
        case .render: return (try? options.settings(format: .svg)) != nil
        case .badge: return (try? options.badgeSettings(format: .svg)) != nil
        }
    }

    /// Random pairs on one route that differ in one parameter (sometimes two, sometimes the
    /// count's spelling): changed, added or left out. The first parameter changed takes each
    /// of the route's parameters in turn, so every one is varied on its own many times.
    static func pairs(_ number: Int, seed: UInt64) -> [(Query, Query)] {
        var generator = SeededGenerator(state: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(generator.next() % UInt64(values.count))] }
        var pairs: [(Query, Query)] = []
        var turn = 0
        while pairs.count < number {
            turn += 1
            let route: Route = turn % 2 == 0 ? .render : .badge
            let pool = route == .render ? renderPool : badgePool
            let options = RenderOption.allCases.filter { pool[$0] != nil }
            var given: [RenderOption: String] = [:]
            for option in options where generator.next() % 5 == 0 { given[option] = pick(pool[option] ?? []) }
            var other = given
            var changed = [options[(turn / 2) % options.count]]
            if generator.next() % 4 == 0 { changed.append(pick(options)) }
            for option in changed {
                // A seed moves only the ink style's wobble: vary it where it can show.
                if option == .seed { (given[.style], other[.style]) = ("ink", "ink") }
                let values = (pool[option] ?? []).filter { $0 != given[option] }
                other[option] = generator.next() % 3 == 0 && given[option] != nil ? nil : pick(values)
            }
            // The lens shows only in a picture of rows too small for its gates (SPEC §2): vary it
            // where it can show, 1,234 at 256 px. (No draw of the generator is added or dropped.)
            let lens = route == .render && changed.contains(.inset)
            if lens { (given[.size], other[.size]) = ("256", "256") }
            if lens { for option in [RenderOption.width, .height] { (given[option], other[option]) = (nil, nil) } }
            let counts = counts[route] ?? []
            let count = lens ? "1234" : pick(counts)
            let otherCount = generator.next() % 4 == 0 && !lens ? pick(counts) : count
            // Each URL writes its parameters in its own order.
            func query(_ count: String, _ given: [RenderOption: String]) -> Query {
                let order = given.keys.sorted { $0.name < $1.name }.shuffled(using: &generator)
                return Query(route: route, count: count, parameters: order.map { .init(option: $0, value: given[$0]!) })
            }
            let (a, b) = (query(count, given), query(otherCount, other))
            guard isAccepted(a), isAccepted(b) else { continue }
            pairs.append((a, b))
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

    /// The generator's seed: a failure names it with its pair, so it reproduces.
    static let seed: UInt64 = 0x5EED_CAC4E
    static var seedText: String { "seed 0x" + String(seed, radix: 16) }

    @Test(.processTimeLimit(minutes: 2))
    func aURLsBytesNeverDependOnWhatWasAskedBefore() async throws {
        let pairs = Self.pairs(300, seed: Self.seed)
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
            #expect(answer.status == 200 || answer.status == 400, "\(Self.seedText): \(uri) is \(answer.status)")
            guard answer.status == 200 else { continue }
            #expect(
                answer.bytes == (try Self.libraryBytes(query)), "\(Self.seedText): \(uri) is not the library's image")
            let tag = try #require(answer.tag, "\(uri) has no tag")
            if let seen = bytesByTag[tag], seen.bytes != answer.bytes {
                Issue.record("\(Self.seedText): one tag \(tag) for two images, \(seen.uri) and \(uri)")
            }
            if let seen = tagByBytes[answer.bytes], seen.tag != tag {
                Issue.record("\(Self.seedText): one image with two tags, \(seen.uri) and \(uri)")
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
            let pair = "\(Self.seedText), pair \(index): \(a) and \(b)"
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
        #expect(differing > 150 && alike > 30, "\(Self.seedText): \(differing) pairs differ, \(alike) are one image")
        // Each parameter a route takes was seen changing the image on its own: a key without it
        // would have been caught.
        #expect(Set(Self.renderPool.keys) == Set(RenderOption.all), "the render pool has every render option")
        #expect(Set(Self.badgePool.keys) == Set(RenderOption.badgeOptions), "the badge pool has every badge option")
        let required: [Route: Set<RenderOption>] = [
            .render: Set(Self.renderPool.keys), .badge: Set(Self.badgePool.keys),
        ]
        for (route, options) in required {
            let missed = options.subtracting(witnessed[route] ?? []).map(\.name).sorted()
            #expect(missed.isEmpty, "\(Self.seedText): no \(route) pair showed these parameters alone: \(missed)")
        }
    }
}
#endif
