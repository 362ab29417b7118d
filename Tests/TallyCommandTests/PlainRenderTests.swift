import Foundation
import TallyCommands
import TallyTestSupport
import Testing

/// `tally render` with a count, `-o`, `-f` and render options skips the argument parser
/// (`PlainRender`). It must be invisible: the same bytes, messages and exit codes as the parsed
/// command, which `--color auto` (a terminal option, the default, that the plain path leaves to
/// the parser) forces. Both run `Render.write` after reading the arguments.
@Suite struct PlainRenderTests {
    static let cases: [[String]] = [
        ["render", "0"], ["render", "1"], ["render", "137"], ["render", "9223372036854775807"],
        ["render", "99", "-f", "json"], ["render", "99", "--format", "png"], ["render", "1234", "-f", "pdf"],
        ["render", "1234", "--size", "512", "-f", "svg"], ["render", "--size", "64", "25", "-f", "png"],
        ["render", "5", "-o", "-"], ["render", "7", "--output", "-", "-f", "json"],
        ["render", "9223372036854775807", "-f", "json", "--detail", "full"],
        ["render", "9999", "--detail", "auto", "--size", "64"],
        ["render", "5", "--detail", "most"],
        // Failures: the plain path hands them to the parser.
        ["render", "abc"], ["render", "1,5"], ["render", "99999999999999999999"], ["render", "5", "--size", "0"],
        ["render", "5", "--size", "20000"], ["render", "5", "-f", "gif"], ["render", "5", "--size", "x"],
        ["render", "5", "-o", "t.gif"], ["render", "5", "-f", "png"], ["render"], ["render", "5", "-o"],
        ["render", "5", "6"], ["render", "5", "-f", "svg", "-f", "png"], ["render", "5", "--size=64"],
        // Every format with render options, spelt both ways.
        ["render", "1234", "--theme", "dark", "--style", "ink", "--seed", "3", "-f", "svg"],
        ["render", "1234", "--theme=dark", "--background", "paper", "-f", "png"],
        ["render", "6200", "--of", "10000", "--caption", "-f", "pdf"],
        ["render", "100000", "--no-caption", "--size", "128", "-f", "json"],
        ["render", "863", "--no-inset", "-f", "svg"], ["render", "4184", "--inset", "--size", "64", "-f", "png"],
        ["render", "5", "--no-inset", "--no-inset"], ["render", "5", "--no-inset=true"],
        ["render", "26", "--animate-from", "25", "--ink", "#336699", "-f", "svg"],
        ["render", "137", "--frame", "row", "--fit", "frame", "--label", "days", "--width", "300", "-f", "png"],
        ["render", "137", "--padding", "0", "--scale", "2", "--detail", "full", "--c2", "red", "-f", "svg"],
        ["render", "5", "--theme", "auto", "-f", "png"], ["render", "5", "--animate", "-f", "png"],
        ["render", "5", "--size", "-5"], ["render", "5", "--label", "-x", "-f", "svg"],
        ["render", "5", "--caption=false"], ["render", "5", "--sizee", "3"], ["render", "5", "--theme"],
        ["render", "5", "--theme", "a", "--theme", "b"],
    ]

    /// The plain path takes every render option, in both spellings, and leaves the rest to the parser.
    @Test func thePlainPathTakesTheRenderOptions() {
        #expect(PlainRender(["render", "1234", "--theme", "dark", "--style=ink", "--caption", "-f", "png"]) != nil)
        #expect(PlainRender(["render", "5", "--no-caption", "--of", "10", "-o", "a.svg"]) != nil)
        #expect(PlainRender(["render", "863", "--no-inset", "--inset=false", "-o", "a.svg"]) == nil)
        #expect(PlainRender(["render", "863", "--no-inset", "-o", "a.svg"]) != nil)
        for parsed in [
            ["render", "5", "--color", "auto"], ["render", "5", "--help"], ["render", "5", "--sizee", "3"],
            ["render", "5", "--size", "1", "--size", "2"], ["render", "5", "--caption=false"], ["render", "5", "6"],
        ] {
            #expect(PlainRender(parsed) == nil, "\(parsed)")
        }
    }

    @Test(arguments: cases)
    func thePlainPathIsTheParsersPath(_ arguments: [String]) throws {
        let plain = try TallyProcess.run(arguments)
        let parsed = try TallyProcess.run(Array(arguments.prefix(1)) + ["--color", "auto"] + arguments.dropFirst())
        #expect(plain.status == parsed.status, "\(arguments): \(plain.stderr) | \(parsed.stderr)")
        #expect(plain.stdout == parsed.stdout, "\(arguments)")
        #expect(plain.stderr == parsed.stderr, "\(arguments)")
    }

    /// `tally badge` (SPEC §7) with a count, `-o`, `-f` and the badge's options takes the same
    /// plain path, as invisibly. The parser reads the same arguments when the count comes after
    /// `--`, which the plain path leaves to it.
    static let badgeCases: [[String]] = [
        ["badge", "1234", "--label", "downloads"], ["badge", "0"], ["badge", "9223372036854775807", "-f", "png"],
        ["badge", "6200", "--of", "10000", "--label", "funded", "--style", "for-the-badge", "-f", "pdf"],
        ["badge", "5", "--color", "brightgreen", "--label-color=red", "--theme", "dark", "--ink", "#336699"],
        ["badge", "5", "--scale", "2", "-f", "png"], ["badge", "5", "--theme", "auto"], ["badge", "5", "-o", "-"],
        ["badge", "5", "--label", "下"], ["badge", "5", "--size", "64"], ["badge", "abc"], ["badge", "5", "-f", "json"],
        ["badge", "5", "--style", "ink"], ["badge", "5", "--scale", "1,2"], ["badge", "5", "--of", "0"],
        ["badge", "5", "--label", "a", "--label", "b"],
    ]

    @Test(arguments: badgeCases)
    func aBadgesPlainPathIsTheParsersPath(_ arguments: [String]) throws {
        let plain = try TallyProcess.run(arguments)
        let parsed = try TallyProcess.run(Array(arguments.prefix(1)) + arguments.dropFirst(2) + ["--", arguments[1]])
        #expect(plain.status == parsed.status, "\(arguments): \(plain.stderr) | \(parsed.stderr)")
        #expect(plain.stdout == parsed.stdout, "\(arguments)")
        #expect(plain.stderr == parsed.stderr, "\(arguments)")
    }

    /// Written files too: the same bytes, and a failure to create one reported the same way.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func filesAreTheSame() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a.svg", "a.png", "a.pdf", "a.json"] {
            let plainPath = directory.appendingPathComponent("plain-" + name).path
            let parsedPath = directory.appendingPathComponent("parsed-" + name).path
            #expect(try TallyProcess.run(["render", "1234", "-o", plainPath]).status == 0)
            #expect(try TallyProcess.run(["render", "1234", "-o", parsedPath, "--color", "auto"]).status == 0)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: plainPath))
                    == Data(contentsOf: URL(fileURLWithPath: parsedPath)), "\(name)")
        }
        let missing = directory.appendingPathComponent("no/such/folder/t.svg").path
        let plain = try TallyProcess.run(["render", "5", "-o", missing])
        let parsed = try TallyProcess.run(["render", "5", "-o", missing, "--color", "auto"])
        #expect(plain.status == 73 && plain.status == parsed.status && plain.stderr == parsed.stderr, "\(plain.stderr)")
    }
}
