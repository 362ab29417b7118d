#if Server
import Foundation
import TallyTestSupport
import Testing

/// The hardening issue's hostile values, as URLs: never a 5xx (503 alone is deliberate), and
/// every refusal one safe line.
@Suite struct HostileQueryTests {
    static let paths = [
        "/%00.svg", "/%0A.svg", "/1%00.svg", "/%E2%80%AE1.svg", "/%D9%A1%D9%A2%D9%A3.svg", "/1e3.svg", "/0x10.svg",
        "/+5.svg",
        "/%205.svg", "/5%20.svg", "/9223372036854775807.svg", "/99999999999999999999999.svg",
        "/..%2F..%2Fetc%2Fpasswd.svg",
        "/%2e%2e.svg", "/5.svg.svg", "/.svg", "/5.", "/5..svg", "/1,2,3.svg", "/1__2.svg", "/%.svg", "/%%.svg",
        "/5.SvG",
        "/describe/%00", "/describe/99999999999999999999", "/describe/5?frame=%1B[2J", "/describe/", "/metrics?x=1",
        "/healthz?%ZZ",
        "/9223372036854775807.json?detail=full", "/9223372036854775807.svg?caption&style=ink&seed=18446744073709551615",
    ]

    static let queries = [
        "size=1e308", "size=1e-200", "size=nan", "size=-0", "size=0x10", "size=%20", "size=", "width=99999999999",
        "height=1e-5&scale=1e10",
        "scale=1e-300", "scale=inf", "scale=-1", "padding=-1", "padding=1e308", "padding=nan",
        "seed=18446744073709551616", "seed=-1",
        "seed=abc", "theme=", "theme=%1B[31m", "style=INK", "ink=%23GGG", "ink=%23", "ink=rgb(1,2,3)",
        "background=transparent",
        "c2=%23ffffffff", "accent=red", "c3=%E2%80%AE", "frame=0", "frame=1e30", "frame=-1", "frame=%00", "detail=none",
        "fit=none",
        "label=%3Cscript%3Ealert(1)%3C/script%3E", "label=%EF%BF%BE", "label=%E2%80%AE", "label=%00%01%02",
        "label=" + String(repeating: "%F0%9F%98%80", count: 150),
        "caption=1", "caption=", "animate=yes", "animate-from=-1", "animate-from=abc",
        "animate-from=99999999999999999999", "=&=&", "&&&",
        "a=b=c", "%=1", "size", "size=1&size", "__proto__=1", "label=--help", "label=-5", "size=--help", "label=%2B",
        "ink=%23abc&c2=%23abcd&c3=%23aabbcc&accent=%23aabbccdd",
    ]

    static var uris: [String] {
        paths + queries.flatMap { ["/137.svg?\($0)", "/42.json?\($0)"] }
            + (cairoIsBuiltIn
                ? queries.prefix(20).flatMap { ["/99.png?\($0)", "/99.pdf?\($0)"] } + [
                    "/7.pdf?label=%EF%BF%BE", "/7.png?label=%EF%BF%BE",
                ] : [])
    }

    @Test func hostileURLsNeverGetAServerError() async throws {
        try await withTestApplication { _, client in
            for uri in Self.uris {
                let response = try await client.execute(uri: uri, method: .get)
                let code = response.status.code
                #expect(!(500..<600).contains(code) || code == 503, "\(uri): \(code) \(response.text)")
                guard (400..<600).contains(code) else {
                    #expect(response.headers[.contentType] != nil, "\(uri)")
                    continue
                }
                let text = response.text
                #expect(text.hasPrefix("tally: error: ") && text.hasSuffix("\n"), "\(uri): \(text)")
                #expect(
                    text.dropLast().unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f..<0xa0).contains($0.value) },
                    "\(uri): control characters reach the message: \(text.debugDescription)")
                #expect(text.utf8.count < 1200, "\(uri): the message is bounded")
            }
        }
    }

    /// A parameter with no name (`?=5`) is quoted as given, with no guess at a name: nothing is
    /// closest to an empty one.
    @Test(arguments: ["/1.svg?=5", "/badge/1.svg?=5", "/describe/1?=5", "/1.svg?size=9&=5"])
    func aParameterWithNoNameIsNamedAsGivenWithNoSuggestion(_ uri: String) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .badRequest, "\(uri)")
        #expect(response.text.hasPrefix("tally: error: query parameter '=5' has no name; "), "\(uri): \(response.text)")
        #expect(!response.text.contains("did you mean"), "\(uri): \(response.text)")
        #expect(response.text.split(separator: "\n").count == 1)
    }
}
#endif
