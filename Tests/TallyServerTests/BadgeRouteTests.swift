#if Server
import Foundation
import NIOCore
import TallyOptions
import TallyServer
import TallyTestSupport
import Testing

/// SPEC §7: `GET /badge/{count}.{svg|png|pdf}` answers with `tally badge`'s bytes, cached and
/// tagged as images are, its parameters read by the same options model.
@Suite(.runsTallysThreads) struct BadgeRouteTests {
    @Test(arguments: [
        ("/badge/1234.svg?label=downloads", ["badge", "1234", "--label", "downloads"]),
        (
            "/badge/6200.svg?of=10000&label=funded&theme=dark",
            ["badge", "6200", "--of", "10000", "--label", "funded", "--theme", "dark"]
        ),
        ("/badge/0.svg", ["badge", "0"]),
    ])
    func badgesAreTheCommandLinesBytes(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .ok, "\(uri): \(response.text)")
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(response.bytes == run.stdout, "\(uri) differs from tally \(arguments.joined(separator: " "))")
        #expect(response.headers[.contentType] == "image/svg+xml")
        #expect(response.headers[.cacheControl] == Pinned.immutable)
        #expect(response.headers[.contentSecurityPolicy] == Pinned.svgPolicy)
        #expect(response.headers[.xContentTypeOptions] == "nosniff")
    }

    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func pngBadgesAreTheCommandLinesBytes() async throws {
        let response = try await fetch("/badge/1234.png?label=downloads&scale=2")
        #expect(response.status == .ok && response.headers[.contentType] == "image/png")
        let run = try TallyProcess.run([
            "badge", "1234", "--label", "downloads", "--scale", "2", "-f", "png", "-o", "-",
        ])
        #expect(response.bytes == run.stdout)
    }

    @Test func badgesAreTaggedAndCachedLikeImages() async throws {
        try await withTestApplication { server, client in
            let first = try await client.execute(uri: "/badge/1234.svg?label=downloads", method: .get)
            let tag = try #require(first.headers[.eTag])
            let again = try await client.execute(
                uri: "/badge/01234.svg?label=downloads", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(server.responses.count == 1, "one badge, one entry")
            let other = try await client.execute(uri: "/badge/1234.svg?label=downloads&theme=dark", method: .get)
            #expect(other.headers[.eTag] != tag)
            // A badge and the tally of the same count are different images.
            let tally = try await client.execute(uri: "/1234.svg", method: .get)
            #expect(tally.headers[.eTag] != tag)
        }
    }

    /// 400 with the line `tally badge` prints for the same values.
    @Test(arguments: [
        ("/badge/-1.svg", ["badge", "-1"]),
        ("/badge/5.svg?of=0", ["badge", "5", "--of", "0"]),
        ("/badge/5.svg?label=ok%20%E2%9C%93", ["badge", "5", "--label", "ok ✓"]),
        ("/badge/5.svg?label=a%07", ["badge", "5", "--label", "a\u{7}"]),
        (
            "/badge/5.svg?label=" + String(repeating: "x", count: 101),
            ["badge", "5", "--label", String(repeating: "x", count: 101)]
        ),
        ("/badge/5.svg?theme=purple", ["badge", "5", "--theme", "purple"]),
    ])
    func badValuesGetTheCommandLinesMessage(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri, headers: [.ifNoneMatch: "*"])
        #expect(response.status == .badRequest, "\(uri)")
        let run = try TallyProcess.run(arguments)
        #expect(run.status == 64)
        #expect(response.text == run.stderr + "\n" || response.text == run.stderr, "\(uri): \(response.text)")
    }

    /// A tally's options a badge has no use for are refused, not ignored: `c2` too, since a
    /// badge draws no crosses or diagonals (SPEC §7).
    @Test func optionsABadgeDoesNotTakeAreNamed() async throws {
        for (query, name) in [("size=64", "size"), ("c2=red", "c2")] {
            let response = try await fetch("/badge/5.svg?" + query)
            #expect(response.status == .badRequest, "\(query)")
            #expect(response.text.hasPrefix("tally: error: unknown query parameter '\(name)'; "), "\(query)")
            #expect(response.text.contains("the parameters are a badge's options: "), "\(query): \(response.text)")
        }
        #expect(try await fetch("/").text.contains("/badge/{count}.svg"))
        #expect(try await fetch("/badge/5.json").status == .notFound, "a badge has no JSON")
    }
}
#endif
