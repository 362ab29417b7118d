#if Server
import Foundation
import TallyTestSupport
import Testing

/// The edges of a count and a label through the server's router, in process (SPEC §6, §7): one
/// parser serves `tally badge` and `/badge/`, so `-0` is zero here too, and the label messages
/// are the command line's words.
@Suite struct CountEdgeTests {
    /// `-0` is zero, as `+0` and `00` are: the same bytes as `0`, for a badge and a tally.
    @Test func negativeZeroIsZero() async throws {
        try await withTestApplication { _, client in
            for route in ["/badge/", "/"] {
                let zero = try await client.execute(uri: "\(route)0.svg", method: .get)
                #expect(zero.status == .ok)
                for spelling in ["-0", "+0", "-000"] {
                    let response = try await client.execute(uri: "\(route)\(spelling).svg", method: .get)
                    #expect(response.status == .ok, "\(route)\(spelling).svg: \(response.text)")
                    #expect(response.bytes == zero.bytes, "\(route)\(spelling).svg")
                }
            }
            let negative = try await client.execute(uri: "/badge/-1.svg", method: .get)
            #expect(negative.status == .badRequest)
            #expect(negative.text.hasPrefix("tally: error: count '-1' is negative"))
        }
    }

    /// The soft hyphen is named as an invisible format character, and a combining mark is
    /// quoted on a dotted circle, in the 400's one line.
    @Test(arguments: [
        (
            "/badge/5.svg?label=co%C2%ADop",
            "tally: error: --label 'co\\u{AD}op' has an invisible format character (U+00AD), which a badge cannot show; a badge's label is visible text"
        ),
        ("/badge/5.svg?label=e%CC%81", "has '\u{25CC}\u{301}' (U+0301), which the badge's font does not have"),
    ])
    func labelRefusalsSayWhatTheCharacterIs(_ uri: String, _ message: String) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .badRequest)
        #expect(response.text.contains(message), "\(response.text)")
        #expect(response.text.split(separator: "\n").count == 1)
    }

    /// A huge share is capped at `>999%` (SPEC §7), so Int64.max toward a goal of 1 (22
    /// characters of share) gives the badge that 10 toward 1 (1,000%) gives.
    @Test func aHugeShareIsCappedAsAnyShareOver999Percent() async throws {
        try await withTestApplication { _, client in
            func width(_ uri: String) async throws -> Double {
                let text = try await client.execute(uri: uri, method: .get).text
                let attribute = try #require(text.firstRange(of: "width=\""))
                return try #require(Double(text[attribute.upperBound...].prefix { $0 != "\"" }))
            }
            let capped = try await width("/badge/9223372036854775807.svg?of=1")
            let thousandPercent = try await width("/badge/10.svg?of=1")
            #expect(capped == thousandPercent, "\(capped) against \(thousandPercent)")
        }
    }
}
#endif
