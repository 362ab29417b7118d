#if Server
import Foundation
import TallyTestSupport
import Testing

/// SPEC §7, "At home beside shields": `/badge/` takes shields.io's query names, `color`,
/// `labelColor` and `style`, for what `tally badge` calls `--color`, `--label-color` and
/// `--style`, and answers the command line's bytes and messages.
@Suite(.runsTallysThreads) struct BadgeStyleRouteTests {
    @Test(arguments: [
        (
            "/badge/5.svg?color=brightgreen&labelColor=555&style=flat-square",
            ["badge", "5", "--color", "brightgreen", "--label-color", "555", "--style", "flat-square"]
        ),
        (
            "/badge/1234.svg?label=downloads&style=for-the-badge&color=%234c1&theme=dark",
            ["badge", "1234", "--label", "downloads", "--style", "for-the-badge", "--color", "#4c1", "--theme", "dark"]
        ),
        (
            "/badge/99.svg?label=tests&style=flat&labelColor=critical",
            ["badge", "99", "--label", "tests", "--label-color", "critical"]
        ),
    ])
    func shieldsWordsGiveTheCommandLinesBytes(_ uri: String, _ arguments: [String]) async throws {
        let response = try await fetch(uri)
        #expect(response.status == .ok, "\(uri): \(response.text)")
        let run = try TallyProcess.run(arguments)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(response.bytes == run.stdout, "\(uri) differs from tally \(arguments.joined(separator: " "))")
    }

    /// 400 with the line `tally badge` prints (exit 64), naming the option and the value, with
    /// the closest name where there is one.
    @Test(arguments: [
        ("/badge/5.svg?color=brigthgreen", ["badge", "5", "--color", "brigthgreen"], "did you mean 'brightgreen'?"),
        ("/badge/5.svg?labelColor=%2311223380", ["badge", "5", "--label-color", "#11223380"], "is not opaque"),
        ("/badge/5.svg?style=flat-sqare", ["badge", "5", "--style", "flat-sqare"], "did you mean 'flat-square'?"),
        ("/badge/5.svg?style=ink", ["badge", "5", "--style", "ink"], "is not a badge style"),
    ])
    func badValuesGetTheCommandLinesMessage(_ uri: String, _ arguments: [String], _ words: String) async throws {
        let response = try await fetch(uri, headers: [.ifNoneMatch: "*"])
        #expect(response.status == .badRequest, "\(uri)")
        let run = try TallyProcess.run(arguments)
        #expect(run.status == 64)
        #expect(response.text == run.stderr + "\n" || response.text == run.stderr, "\(uri): \(response.text)")
        #expect(response.text.contains(words) && response.text.contains("'\(arguments[3])'"), "\(response.text)")
    }

    /// The query speaks shields' `labelColor`; the command line's spelling is suggested.
    @Test func theQueryNameIsShields() async throws {
        let response = try await fetch("/badge/5.svg?label-color=555")
        #expect(response.status == .badRequest)
        #expect(response.text.contains("unknown query parameter 'label-color'; did you mean 'labelColor'?"))
        // A tally's route keeps its own style (clean, ink) and takes no plate colours.
        #expect(try await fetch("/5.svg?style=ink").status == .ok)
        #expect(try await fetch("/5.svg?color=red").status == .badRequest)
    }
}
#endif
