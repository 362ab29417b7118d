#if Server
import Foundation
import NIOCore
import TallyGeometry
import TallyOptions
import TallyRender
import TallyServer
import TallyTestSupport
import Testing

/// SPEC §6, ETags: a tag names exactly one image, and one image has one tag, however it was
/// asked for. Tags are taken from the bytes and the cache is keyed by every setting the renderer
/// reads, so these hold by construction; the tests below are what would catch a second copy of
/// the renderer's rules creeping back.
@Suite(.runsTallysThreads) struct EntityTagTests {

    struct Request: Hashable {
        let count: UInt64
        let format: OutputFormat
        let given: [RenderOption: String]
    }

    /// The request's settings, or nil where the options model refuses them.
    static func settings(_ request: Request) -> RenderSettings? {
        try? RenderOptions(request.given).settings(format: request.format)
    }

    /// Every render option's pairs of values (`OptionSamples`), in every format this build draws.
    static func pairs() -> [(option: RenderOption, first: Request, second: Request, bothGiven: Bool)] {
        let formats: [OutputFormat] = cairoIsBuiltIn ? [.svg, .json, .png, .pdf] : [.svg, .json]
        return OptionSamples.pairs(on: .render).flatMap { pair in
            formats.map { format in
                (
                    pair.option, Request(count: pair.count, format: format, given: pair.first),
                    Request(count: pair.count, format: format, given: pair.second), pair.bothGiven
                )
            }
        }
    }

    /// The tag's two lanes, pinned from the formula worked out apart from the code (in Python), so
    /// a faster loop cannot change a tag clients already hold: nothing, a short tail alone, whole
    /// words alone, and words with a tail.
    @Test func tagsArePinned() {
        #expect(URLText.entityTag(of: []) == "\"af63bd4c29620a9393159ee1caabe540\"")
        #expect(URLText.entityTag(of: Array("<svg/>".utf8)) == "\"e7a73c31642a869a0db86f225bca7ea3\"")
        let ramp = (0..<773).map { UInt8($0 % 256) }
        #expect(URLText.entityTag(of: Array(ramp.prefix(768))) == "\"e4cc707b1aefe5a17d2722e5287df6c3\"")
        #expect(URLText.entityTag(of: ramp) == "\"6e5bcc50a72f5ba8b9b63b5802357240\"")
    }

    /// Any one changed bit, at any place (in a whole word or the tail, at each bit of a word),
    /// changes each lane, alone, so neither leans on the other, and no two such changes give one
    /// lane; an added or dropped byte, even a zero, changes the tag.
    @Test func everyBitAndTheLengthReachTheTag() throws {
        var generator = SeededGenerator(state: 0x7A6_B175)
        for length in [1, 7, 8, 9, 16, 23, 64, 101] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let tag = URLText.entityTag(of: bytes)
            var lanes: Set<Substring> = [tag.dropFirst().prefix(16)]
            for index in bytes.indices {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[index] ^= 1 << bit
                    let other = URLText.entityTag(of: changed)
                    let place = "byte \(index) bit \(bit) of \(length)"
                    #expect(other.dropFirst().prefix(16) != tag.dropFirst().prefix(16), "first lane, \(place)")
                    #expect(other.dropLast().suffix(16) != tag.dropLast().suffix(16), "second lane, \(place)")
                    lanes.insert(other.dropFirst().prefix(16))
                }
            }
            #expect(lanes.count == 1 + length * 8, "no two one-bit changes of \(length) bytes share a first lane")
            #expect(URLText.entityTag(of: bytes + [0]) != tag, "a zero added to \(length) bytes")
            #expect(URLText.entityTag(of: Array(bytes.dropLast())) != tag, "the last of \(length) bytes dropped")
        }
        let zeros = (0...17).map { URLText.entityTag(of: [UInt8](repeating: 0, count: $0)) }
        #expect(Set(zeros).count == zeros.count, "runs of zeros of every length up to 17 have their own tags")
    }

    /// Equal tags exactly when the bytes are equal, and equal cache keys only for equal bytes,
    /// over every pair of values of every render option, each varied alone where it shows. Two
    /// samples of an option give two SVG images, two tags and two keys, so a key or a tag that
    /// forgot any one option would have served one image for another.
    @Test(.oneThreadOfValues) func tagsAreEqualExactlyWhenTheBytesAre() throws {
        var drawn: [Request: [UInt8]?] = [:]
        func bytes(_ request: Request) -> [UInt8]? {
            if let known = drawn[request] { return known }
            let count = TallyCount(exactly: request.count)!
            let result = Self.settings(request).flatMap { try? Renderer.render(count, as: request.format, $0) }
            drawn[request] = result
            return result
        }
        var witnessed: Set<RenderOption> = []
        var equalImages = 0
        for (option, a, b, bothGiven) in Self.pairs() {
            guard let first = bytes(a), let second = bytes(b) else {
                // Refused: motion in a format that cannot move, and no other.
                #expect(a.format != .svg, "\(a.count).svg \(a.given) or \(b.given) is refused")
                continue
            }
            let pair = "\(a.count).\(a.format) \(a.given) against \(b.given)"
            let sameBytes = first == second
            if sameBytes { equalImages += 1 } else { witnessed.insert(option) }
            #expect((URLText.entityTag(of: first) == URLText.entityTag(of: second)) == sameBytes, "\(pair)")
            let count = try #require(TallyCount(exactly: a.count))
            let keyA = ImageRequest.render(count, a.format, try #require(Self.settings(a)))
            let keyB = ImageRequest.render(count, b.format, try #require(Self.settings(b)))
            if keyA == keyB { #expect(sameBytes, "one cache entry for two images: \(pair)") }
            if bothGiven {
                #expect(keyA != keyB, "two samples, one key: \(pair)")
                if a.format == .svg { #expect(!sameBytes, "two samples, one SVG image: \(pair)") }
            }
        }
        #expect(equalImages > 10, "defaults spelt out are one image with none given")
        let missed = RenderOption.all.filter { !witnessed.contains($0) }.map(\.name)
        #expect(missed.isEmpty, "no pair of these options' samples changed the image: \(missed)")
    }

    /// The pairs that once shared a tag, and the cached server: each URL gets the command line's
    /// bytes and its own tag, in either order, and a tag from one never gets a 304 for the other.
    @Test(arguments: [
        ("/50.svg?of=20000&fit=frame", "/50.svg?of=20000&fit=frame&caption=false"),
        ("/137.svg?of=100000&fit=frame", "/137.svg?of=100000&fit=frame&caption=false"),
        ("/137.json?of=100000&fit=frame&size=256", "/137.json?of=100000&fit=frame&caption=false&size=256"),
        ("/50.svg?of=20000", "/50.svg?of=20000&label=50%20tally%20marks"),
    ])
    func pairsThatDifferGetTheirOwnTagsAndBytes(_ first: String, _ second: String) async throws {
        for order in [[first, second], [second, first]] {
            try await withTestApplication { server, client in
                var tags: [String: String] = [:]
                for uri in order {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .ok, "\(uri): \(response.text)")
                    #expect(Array(response.bytes) == (try Self.commandLineBytes(uri)), "\(uri) after \(order)")
                    let tag: String = try #require(response.headers[.eTag])
                    tags[uri] = tag
                }
                #expect(tags[first] != tags[second], "\(first) and \(second) are different images")
                #expect(server.responses.count == 2, "each its own cache entry")
                let stale = try await client.execute(
                    uri: second, method: .get, headers: [.ifNoneMatch: try #require(tags[first])])
                #expect(stale.status == .ok, "a tag of \(first) is no 304 for \(second)")
            }
        }
    }

    /// One image asked for two ways: one tag.
    @Test(arguments: [
        ("/137.svg", "/137.svg?width=256"), ("/137.svg?frame=1000", "/137.svg?fit=frame"),
        ("/137.png", "/137.png?theme=auto"), ("/137.json", "/137.json?theme=dark"), ("/137.json", "/137.json?label=x"),
        ("/137.svg?animate", "/137.svg?animate-from=0"),
    ])
    func oneImageHasOneTag(_ first: String, _ second: String) async throws {
        if first.contains(".png") { guard cairoIsBuiltIn else { return } }
        try await withTestApplication { _, client in
            let a = try await client.execute(uri: first, method: .get)
            let b = try await client.execute(uri: second, method: .get)
            #expect(a.status == .ok && b.status == .ok)
            #expect(a.bytes == b.bytes, "\(first) and \(second) are one image")
            #expect(a.headers[.eTag] == b.headers[.eTag])
        }
    }

    /// The request a URL makes, through the options model as the command line reads it.
    static func commandLineBytes(_ uri: String) throws -> [UInt8] {
        let components = try #require(URLComponents(string: "http://h" + uri))
        let file = components.path.dropFirst()
        let dot = try #require(file.lastIndex(of: "."))
        var arguments = ["render", String(file[..<dot]), "-f", String(file[file.index(after: dot)...])]
        for item in components.queryItems ?? [] {
            if item.name == "caption" || item.name == "inset" {
                arguments.append(item.value == "false" ? "--no-\(item.name)" : "--\(item.name)")
            } else {
                arguments += ["--\(item.name)", item.value ?? ""]
            }
        }
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0, "\(arguments): \(run.stderr)")
        return Array(run.stdout)
    }

    // MARK: - The hostile sweep's findings

    /// `If-None-Match: *` on a request that is otherwise 400 gets the 400: checked first.
    @Test func aWildcardTagNeverHidesABadRequest() async throws {
        for uri in ["/5.png?size=99999", "/5.svg?size=0", "/-1.svg", "/5.svg?frame=1&of=9"] {
            let response = try await fetch(uri, headers: [.ifNoneMatch: "*"])
            #expect(response.status == .badRequest, "\(uri) with If-None-Match: *")
        }
        let good = try await fetch("/5.svg", headers: [.ifNoneMatch: "*"])
        #expect(good.status == .notModified)
    }

    /// `/metrics` says nosniff, as every answer does.
    @Test func metricsSayNosniff() async throws {
        let response = try await fetch("/metrics")
        #expect(response.headers[.xContentTypeOptions] == "nosniff")
    }
}
#endif
