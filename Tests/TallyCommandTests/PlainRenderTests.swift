import Foundation
import TallyTestSupport
import Testing

/// The plainest `tally render` (a count, `-o`, `-f`, `--size`, `--detail`) skips the argument
/// parser. It must be invisible: the same bytes, messages and exit codes as the parser's path,
/// which `--style clean` (the default, but an option the plain path does not take) forces.
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
    ]

    @Test(arguments: cases)
    func thePlainPathIsTheParsersPath(_ arguments: [String]) throws {
        let plain = try TallyProcess.run(arguments)
        let parsed = try TallyProcess.run(Array(arguments.prefix(1)) + ["--style", "clean"] + arguments.dropFirst())
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
            #expect(try TallyProcess.run(["render", "1234", "-o", parsedPath, "--scale", "1"]).status == 0)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: plainPath))
                    == Data(contentsOf: URL(fileURLWithPath: parsedPath)), "\(name)")
        }
        let missing = directory.appendingPathComponent("no/such/folder/t.svg").path
        let plain = try TallyProcess.run(["render", "5", "-o", missing])
        let parsed = try TallyProcess.run(["render", "5", "-o", missing, "--scale", "1"])
        #expect(plain.status == 73 && plain.status == parsed.status && plain.stderr == parsed.stderr, "\(plain.stderr)")
    }
}
