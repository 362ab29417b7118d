#if Server
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import TallyOptions
import TallyRender
import TallyServer
import TallyTestSupport
import Testing

/// Runs `body` against an application over `ImageServer` with these options, quiet (its log is
/// tested end to end), through the router (no sockets); then stops the server's raster threads,
/// whatever `body` did, so no test leaves a thread pool behind.
func withTestApplication<Value: Sendable>(
    version: String = tallyVersion, _ configure: (inout ServeSettings) -> Void = { _ in },
    _ body: @Sendable (ImageServer, any TestClientProtocol) async throws -> Value
) async throws -> Value {
    var options = ServeSettings()
    configure(&options)
    let server = ImageServer(options: options, version: version)
    var logger = Logger(label: "tally-server-test")
    logger.logLevel = .critical
    let client = RouterClient(router: server.makeRouter(), logger: logger)
    let result: Result<Value, any Error>
    do {
        result = .success(try await body(server, client))
    } catch {
        result = .failure(error)
    }
    try await server.raster.shutdown()
    return try result.get()
}

/// GET (or another method) through the router, no sockets.
func fetch(
    _ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
    _ configure: (inout ServeSettings) -> Void = { _ in }
) async throws -> TestResponse {
    try await withTestApplication(configure) { _, client in
        try await client.execute(uri: uri, method: method, headers: headers)
    }
}

extension TestResponse {
    var bytes: Data { Data(buffer: body) }
    var text: String { String(buffer: body) }
}

/// What `tally render` prints on stderr, without the trailing newline, for the same values.
func commandLineError(_ arguments: [String]) throws -> String {
    let run = try TallyProcess.run(arguments)
    #expect(run.status == 64, "tally \(arguments) exits 64")
    return run.stderr
}

/// SPEC's literal values, pinned here rather than read from the code under test.
enum Pinned {
    static let immutable = "public, max-age=31536000, immutable"
    static let svgPolicy = "default-src 'none'; style-src 'unsafe-inline'"
}

@Suite(.runsTallysThreads) struct ServerRouteTests {
    /// The inset (SPEC §2, "An inset for the last digits") through the query: no parameter is
    /// the default (a copy where it reads: 863 at 256 px has one), `inset=false` the picture
    /// alone, `inset` and `inset=true` a copy wherever one is larger; each the bytes the options
    /// model draws for the same value, which is what the command line draws.
    @Test func theInsetQueryDrawsWhatTheOptionsModelDraws() async throws {
        var bytes: [String: Data] = [:]
        for (query, value) in [("", nil), ("?inset=false", "false"), ("?inset", "true"), ("?inset=true", "true")] {
            let response = try await fetch("/863.svg" + query)
            #expect(response.status == .ok)
            let settings = try RenderOptions(value.map { [.inset: $0] } ?? [:]).settings(format: .svg)
            #expect(response.bytes == Data(try Renderer.render(863, as: .svg, settings)), "/863.svg\(query)")
            bytes[query] = response.bytes
        }
        #expect(bytes[""] == bytes["?inset"], "863 at 256 px: the default draws the copy that reads")
        #expect(bytes[""] != bytes["?inset=false"])
    }

    @Test(arguments: [
        ("/1234.svg?theme=auto", ["render", "1234", "--theme", "auto", "-f", "svg"]),
        ("/137.svg", ["render", "137", "-f", "svg"]),
        (
            "/99.svg?style=ink&seed=7&size=512&caption",
            ["render", "99", "--style", "ink", "--seed", "7", "--size", "512", "--caption", "-f", "svg"]
        ),
        ("/6200.svg?of=10000", ["render", "6200", "--of", "10000", "-f", "svg"]),
        (
            "/26.svg?animate-from=25&background=paper&ink=%23336699",
            ["render", "26", "--animate-from", "25", "--background", "paper", "--ink", "#336699", "-f", "svg"]
        ),
        ("/1%2C234.json?size=300", ["render", "1,234", "--size", "300", "-f", "json"]),
        ("/42.json", ["render", "42", "-f", "json"]),
        // The magnitude caption: on by default from 10,000; caption=false is --no-caption.
        ("/100000.svg", ["render", "100000", "-f", "svg"]),
        ("/100000.svg?caption=false", ["render", "100000", "--no-caption", "-f", "svg"]),
        // The inset (SPEC §2, "An inset for the last digits"): by default where its copy reads,
        // inset=false is --no-inset, inset is --inset.
        ("/863.svg", ["render", "863", "-f", "svg"]),
        ("/863.svg?inset=false", ["render", "863", "--no-inset", "-f", "svg"]),
        ("/4184.svg?inset", ["render", "4184", "--inset", "-f", "svg"]),
        ("/34567.json?size=256", ["render", "34567", "--size", "256", "-f", "json"]),
        (
            "/7.svg?label=Days+since%3A+7&frame=25&fit=frame",
            ["render", "7", "--label", "Days since: 7", "--frame", "25", "--fit", "frame", "-f", "svg"]
        ),
    ])
    func imagesAreTheCommandLinesBytes(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .ok, "\(uri): \(response.text)")
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(response.bytes == run.stdout, "\(uri) differs from tally \(arguments.joined(separator: " "))")
    }

    @Test(
        .enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"),
        arguments: [
            ("/99.png?size=64", ["render", "99", "--size", "64", "-f", "png"]),
            (
                "/1234.pdf?theme=dark&background=paper",
                ["render", "1234", "--theme", "dark", "--background", "paper", "-f", "pdf"]
            ),
        ])
    func rasterImagesAreTheCommandLinesBytes(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .ok, "\(uri): \(response.text)")
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(response.bytes == run.stdout)
    }

    @Test(arguments: [
        ("/5.svg", "image/svg+xml"), ("/5.png", "image/png"), ("/5.pdf", "application/pdf"),
        ("/5.json", "application/json"), ("/describe/5", "application/json"),
    ])
    func imageHeaders(_ uri: String, _ type: String) async throws {
        if uri.hasSuffix(".png") || uri.hasSuffix(".pdf") { guard cairoIsBuiltIn else { return } }
        let response = try await fetch(uri)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == type)
        #expect(response.headers[.cacheControl] == Pinned.immutable)
        #expect(response.headers[.xContentTypeOptions] == "nosniff")
        let tag = try #require(response.headers[.eTag])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), "a strong tag: \(tag)")
        #expect(response.headers[.contentLength] == String(response.body.readableBytes))
        #expect(response.headers[.contentSecurityPolicy] == (uri.hasSuffix(".svg") ? Pinned.svgPolicy : nil))
    }

    @Test func entityTagsFollowTheBytes() async throws {
        func tag(_ uri: String, version: String = tallyVersion) async throws -> String? {
            return try await withTestApplication(version: version) { _, client in
                try await client.execute(uri: uri, method: .get).headers[.eTag]
            }
        }
        let base = try #require(try await tag("/137.svg?size=512&theme=auto"))
        // The same settings however spelt: order, leading zeros, defaults given, case of the extension.
        for same in [
            "/137.svg?theme=auto&size=0512", "/137.svg?size=512.0&theme=auto&style=clean&seed=0",
            "/137.SVG?size=512&theme=auto",
            "/0137.svg?size=512&theme=auto&animate=false", "/137.svg?size=512",
        ] {
            #expect(try await tag(same) == base, "\(same)")
        }
        // Options equal to their defaults change nothing (SPEC §6, ETags).
        let plain = try #require(try await tag("/137.svg"))
        for same in [
            "/137.svg?size=256", "/137.svg?scale=1&fit=content&detail=auto", "/137.svg?background=none&seed=9",
            "/137.svg?caption=false&label=137%20tally%20marks",
        ] {
            #expect(try await tag(same) == plain, "\(same)")
        }
        // Anything that changes the bytes changes the tag.
        for other in [
            "/137.svg?size=513&theme=auto", "/137.svg?size=512&theme=light", "/138.svg?size=512&theme=auto",
            "/137.json?size=512&theme=auto", "/137.svg?size=512&theme=auto&caption",
            "/137.svg?size=512&theme=auto&label=x", "/137.svg?size=512&theme=auto&of=1000",
        ] {
            #expect(try await tag(other) != base, "\(other)")
        }
        // The tag is the bytes': a version that draws the same bytes gives the same tag (SPEC §6).
        #expect(try await tag("/137.svg?size=512&theme=auto", version: "0.0.0-other") == base)
    }

    @Test func ifNoneMatchGets304WithoutABody() async throws {
        try await withTestApplication { _, client in
            let first = try await client.execute(uri: "/1234.svg?theme=auto", method: .get)
            let tag = try #require(first.headers[.eTag])
            for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let again = try await client.execute(
                    uri: "/1234.svg?theme=auto", method: .get, headers: [.ifNoneMatch: header])
                #expect(again.status == .notModified, "If-None-Match: \(header)")
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.eTag] == tag)
                #expect(again.headers[.cacheControl] == Pinned.immutable)
                #expect(again.headers[.contentLength] == nil, "a 304 must not claim a length of 0")
            }
            let stale = try await client.execute(
                uri: "/1234.svg?theme=auto", method: .get, headers: [.ifNoneMatch: "\"stale\""])
            #expect(stale.status == .ok)
            #expect(stale.bytes == first.bytes)
        }
    }

    @Test(arguments: ["/1234.svg?theme=auto", "/describe/42", "/", "/healthz", "/-1.svg", "/nothing-here"])
    func headGivesGetsHeadersAndNoBody(_ uri: String) async throws {
        try await withTestApplication { _, client in
            let get = try await client.execute(uri: uri, method: .get)
            let head = try await client.execute(uri: uri, method: .head)
            #expect(head.status == get.status)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.eTag] == get.headers[.eTag])
        }
    }

    /// 400 with the very line `tally render` prints for the same values.
    @Test(arguments: [
        ("/-1.svg", ["render", "-1", "-f", "svg"]),
        ("/abc.svg", ["render", "abc", "-f", "svg"]),
        ("/9223372036854775808.svg", ["render", "9223372036854775808", "-f", "svg"]),
        ("/5.svg?size=-5", ["render", "5", "--size", "-5", "-f", "svg"]),
        ("/5.svg?size=0", ["render", "5", "--size", "0", "-f", "svg"]),
        ("/5.svg?size=inf", ["render", "5", "--size", "inf", "-f", "svg"]),
        ("/5.svg?size=100000", ["render", "5", "--size", "100000", "-f", "svg"]),
        ("/5.svg?size=10&width=5", ["render", "5", "--size", "10", "--width", "5", "-f", "svg"]),
        ("/5.svg?theme=purple", ["render", "5", "--theme", "purple", "-f", "svg"]),
        ("/5.svg?ink=nope", ["render", "5", "--ink", "nope", "-f", "svg"]),
        ("/5.svg?background=%1B%5D0%3Bx%07", ["render", "5", "--background", "\u{1B}]0;x\u{07}", "-f", "svg"]),
        ("/500.svg?frame=100", ["render", "500", "--frame", "100", "-f", "svg"]),
        ("/5.svg?frame=gate", ["render", "5", "--frame", "gate", "-f", "svg"]),
        ("/5.svg?animate-from=9", ["render", "5", "--animate-from", "9", "-f", "svg"]),
        ("/5.json?animate", ["render", "5", "--animate", "-f", "json"]),
        ("/5.svg?seed=-1", ["render", "5", "--seed", "-1", "-f", "svg"]),
        ("/5.svg?scale=0", ["render", "5", "--scale", "0", "-f", "svg"]),
        ("/5.svg?size=10&padding=5", ["render", "5", "--size", "10", "--padding", "5", "-f", "svg"]),
    ])
    func badValuesGetTheCommandLinesMessage(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .badRequest, "\(uri)")
        #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.text == (try commandLineError(arguments)), "\(uri)")
        #expect(response.text.split(separator: "\n").count == 1)
    }

    /// The options model's table is the query's: every render option is a parameter, named
    /// with its help on the index page, and a control character in its value is escaped in a
    /// 400 that names the option.
    @Test func everyRenderOptionIsAParameter() async throws {
        let page = try await fetch("/").text
        for option in RenderOption.all {
            #expect(page.contains("<code>\(option.name)"), "the index page lists \(option.name)")
            let response = try await fetch("/5.svg?\(option.name)=a%0D%0AX")
            #expect(!response.text.contains("unknown query parameter"), "\(option.name)")
            if response.status == .badRequest {
                #expect(response.text.contains("--\(option.name) 'a\\u{D}\\u{A}X'"), "\(response.text)")
                #expect(response.text.split(separator: "\n").count == 1)
            } else {
                #expect(option == .label, "only the label takes any text")
            }
        }
    }

    @Test(arguments: [
        ("/5.svg?sise=10", "did you mean 'size'?"),
        ("/5.svg?output=x.svg", "unknown query parameter 'output'"),
        ("/5.svg?format=png", "unknown query parameter 'format'"),
        ("/5.svg?size=10&size=20", "'size' is given twice"),
        ("/5.svg?caption=maybe", "is not true or false"),
        ("/5.svg?label=%ZZ", "not percent-encoded UTF-8"),
        ("/5.svg?label=%C3", "not percent-encoded UTF-8"),
        ("/5.svg?%FF=1", "not percent-encoded UTF-8"),
        ("/%FF.svg", "not percent-encoded UTF-8"),
        ("/--help.svg", "'--help' is not a number"),
        ("/describe/5?size=3", "a description takes only frame and of"),
        ("/describe/-3", "'-3' is negative"),
        ("/describe/30?frame=25", "does not fit in --frame '25'"),
    ])
    func badQueriesAreNamed(_ uri: String, _ needle: String) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .badRequest, "\(uri): \(response.text)")
        #expect(response.text.hasPrefix("tally: error: "))
        #expect(response.text.contains(needle), "\(uri): \(response.text)")
        #expect(response.text.split(separator: "\n").count == 1)
    }

    @Test(arguments: ["/nope", "/1234.gif", "/1234", "/a/b.svg", "/describe", "/describe/5/x", "/metrics/x"])
    func unknownRoutesAre404(_ uri: String) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .notFound, "\(uri)")
        #expect(response.text.hasPrefix("tally: error: no page at "))
        #expect(response.text.split(separator: "\n").count == 1)
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .options, .patch])
    func otherMethodsAre405(_ method: HTTPRequest.Method) async throws {
        for uri in ["/1234.svg", "/", "/nope"] {
            let response = try await fetch(uri, method: method)
            #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
            #expect(response.headers[.allow] == "GET, HEAD")
            #expect(
                response.text
                    == "tally: error: method \(method.rawValue) is not allowed; tally serve answers GET and HEAD\n")
        }
    }

    @Test func theServersSizeCapComesBeforeAnyWork() async throws {
        // The default cap is 4,096 px a side, after scale and whichever side was given.
        #expect(try await fetch("/5.svg?size=4096").status == .ok)
        for uri in [
            "/5.svg?size=4097", "/5.svg?size=2049&scale=2", "/1000.svg?height=1000", "/10000.svg?width=4000",
            "/5.png?size=5000",
        ] {
            let response = try await fetch(uri)
            #expect(response.status == .badRequest, "\(uri)")
            #expect(response.text.contains("at most 4,096 px a side"), "\(uri): \(response.text)")
        }
        // --max-size sets it.
        #expect(try await fetch("/5.svg?size=100") { $0.maxSize = 100 }.status == .ok)
        #expect(try await fetch("/5.svg?size=101") { $0.maxSize = 100 }.status == .badRequest)
        #expect(
            try await fetch("/5.svg") { $0.maxSize = 100 }.status == .badRequest,
            "the default 256 px is over a cap of 100")
    }

    @Test func longAndCrowdedQueriesAreRefused() async throws {
        let long = try await fetch("/5.svg?label=" + String(repeating: "a", count: 2100))
        #expect(long.status == .uriTooLong)
        #expect(long.text.contains("at most 2,048"))
        let crowded = try await fetch("/5.svg?" + (1...33).map { "x\($0)=1" }.joined(separator: "&"))
        #expect(crowded.status == .badRequest)
        #expect(crowded.text.contains("at most 32"))
    }

    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func aFullRasterQueueGets503WithRetryAfter() async throws {
        let configure: (inout ServeSettings) -> Void = {
            $0.jobs = 1
            $0.queue = 0
        }
        try await withTestApplication(configure) { server, client in
            let release = Gate()
            // Hold the only place, then ask for a PNG: refused at once, not queued.
            let holder = Task { try await server.raster.run { release.wait() } }
            try await release.waitUntilEntered()
            // Refused at once; a request that waited instead would block here until released,
            // so give it 10 s, then release the place and fail.
            let answered = Gate()
            let request = Task {
                let response = try await client.execute(uri: "/5.png", method: .get)
                answered.open()
                return response
            }
            for _ in 0..<1000 where !answered.isOpened { try await Task.sleep(for: .milliseconds(10)) }
            if !answered.isOpened {
                Issue.record("a PNG request over the limit waited instead of getting 503")
                release.open()
            }
            let busy = try await request.value
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "1")
            #expect(busy.text.hasPrefix("tally: error: the server is drawing 1 PNG"))
            // SVG is not raster work: it is served while every raster thread is busy.
            #expect(try await client.execute(uri: "/5.svg", method: .get).status == .ok)
            release.open()
            _ = try await holder.value
            #expect(
                try await client.execute(uri: "/5.png", method: .get).status == .ok, "served once the place is free")
        }
    }

    @Test func workThatWaitedPastTheTimeoutIsDropped() async throws {
        // The queue's clock is the test's: it moves only when the test says, so a loaded machine
        // that is slow to hand work to a thread cannot time out the fresh request below.
        let start = ContinuousClock.now
        let elapsed = NIOLockedValueBox(Duration.zero)
        let queue = RasterQueue(threads: 1, queue: 1, timeout: .milliseconds(50)) {
            start + elapsed.withLockedValue { $0 }
        }
        let release = Gate()
        let holder = Task { try await queue.run { release.wait() } }
        try await release.waitUntilEntered()
        let waiting = Task { try await queue.run { 42 } }
        // Admitted (so its wait has begun), then kept waiting past the timeout.
        for _ in 0..<1000 where queue.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        try #require(queue.count == 2)
        elapsed.withLockedValue { $0 = .milliseconds(51) }
        release.open()
        _ = try await holder.value
        await #expect(throws: RasterQueue.Refusal.self) { try await waiting.value }
        #expect(try await queue.run { 7 } == 7, "a fresh request is drawn")
        #expect(queue.count == 0)
        try await queue.shutdown()
    }

    @Test func pagesHealthAndMetrics() async throws {
        try await withTestApplication { _, client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && health.text == "ok\n")
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<img src=\"/1234.svg?theme=auto&amp;caption\""))
            #expect(
                !page.text.contains("src=\"http") && !page.text.contains("href=\"http")
                    && !page.text.contains("<script"),
                "the page references nothing outside the server")
            _ = try await client.execute(uri: "/-7.svg", method: .get)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            #expect(
                text.contains(
                    "http_server_requests{http_route=\"/healthz\",http_request_method=\"GET\",http_response_status_code=\"200\"}"
                ))
            #expect(
                text.contains(
                    "http_server_requests{http_route=\"/{file}\",http_request_method=\"GET\",http_response_status_code=\"400\"}"
                ))
            #expect(text.contains("# TYPE http_server_request_duration histogram"))
            #expect(text.contains("http_server_request_duration_bucket{http_route=\"/{file}\""))
            #expect(text.contains("tally_build_info_info{version=\"\(tallyVersion)\"} 1"))
        }
    }

    @Test(arguments: [
        ("/describe/1234", ["describe", "1234", "--json"]),
        ("/describe/30?frame=100", ["describe", "30", "--json", "--frame", "100"]),
    ])
    func describeIsTheCommandLinesJSON(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .ok)
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0)
        #expect(response.bytes == run.stdout)
    }
}

/// A door a raster job waits at, so a test can hold a thread for as long as it needs.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var entered = false
    private var isOpen = false

    /// Called on the raster thread: says it is in, then waits until the test opens.
    func wait() {
        condition.lock()
        entered = true
        condition.broadcast()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    var isOpened: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isOpen
    }

    private var hasEntered: Bool {
        condition.lock()
        defer { condition.unlock() }
        return entered
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Polls until the job is on its thread (bounded: 10 s).
    func waitUntilEntered() async throws {
        for _ in 0..<1000 {
            if hasEntered { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the raster job never started")
    }
}
#endif
