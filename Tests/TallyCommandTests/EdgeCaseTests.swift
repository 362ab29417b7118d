import Foundation
import TallyBadge
import TallyCommands
import TallyGeometry
import TallyOptions
import TallyRender
import TallyTestSupport
import Testing

/// Counts, labels, memory and the gallery's limit at their edges (SPEC §6 and §7): each gives
/// the one-line message and the exit code the contract says. In process where the reading is a
/// function; through the built `tally` where only the process shows it.
@Suite struct EdgeCaseTests {
    // MARK: - A count of -0

    /// `-0` is zero, as `+0` is: handed on as `0` wherever a count stands (after `--` too),
    /// while a negative count is still refused with its own message, and an option's value
    /// (`--of -0`) is left for the option to judge.
    @Test func negativeZeroIsZero() throws {
        #expect(try TallyCommand.negativeCountsRead(["badge", "--", "-0"]) == ["badge", "--", "0"])
        #expect(
            try TallyCommand.negativeCountsRead(["render", "-000", "-f", "json"]) == ["render", "0", "-f", "json"])
        #expect(try TallyCommand.negativeCountsRead(["badge", "5", "--of", "-0"]) == ["badge", "5", "--of", "-0"])
        #expect(throws: CommandFailure.usage("count '-01' is negative; it must be \(Values.countRange)")) {
            try TallyCommand.negativeCountsRead(["badge", "--", "-01"])
        }
        #expect(try Values.count("-0").value == 0)
        #expect(try Values.count("+0").value == 0)
    }

    @Test(.processTimeLimit(minutes: 2))
    func negativeZeroDrawsTheBadgeOfZero() throws {
        let zero = try TallyProcess.run(["badge", "0"])
        for arguments in [["badge", "--", "-0"], ["badge", "-0"], ["badge", "+0"]] {
            let run = try TallyProcess.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout == zero.stdout, "\(arguments)")
        }
        expectOneLineError(
            try TallyProcess.run(["badge", "--", "-1"]), status: 64, mentioning: "count '-1' is negative")
    }

    // MARK: - Labels

    /// The message for a label the badge refuses.
    func labelMessage(_ label: String) throws -> String? {
        let options = try RenderOptions([.label: label])
        do {
            _ = try options.badge(5, try options.badgeSettings(format: .svg))
            return nil
        } catch {
            return error.message
        }
    }

    /// The soft hyphen U+00AD is an invisible format character, named as one (SPEC §7), and the
    /// help says the face's Latin-1 leaves it out; a control character is still named as such.
    @Test func theSoftHyphenIsAnInvisibleFormatCharacter() throws {
        #expect(
            try labelMessage("co\u{AD}op")
                == "--label 'co\\u{AD}op' has an invisible format character (U+00AD), which a badge cannot show; a badge's label is visible text"
        )
        #expect(try labelMessage("a\u{200B}b")?.contains("has an invisible format character (U+200B)") == true)
        #expect(try labelMessage("a\u{7}")?.contains("has a control character (U+0007)") == true)
        #expect(BadgeFont.coverage.contains("U+00A0 to U+00FF but the invisible soft hyphen U+00AD"))
    }

    /// A combining mark is quoted on a dotted circle (U+25CC), so a terminal draws it on that
    /// and not over the quote sign; other characters are quoted as they are.
    @Test func aCombiningMarkIsQuotedOnADottedCircle() throws {
        let acute = try #require(try labelMessage("e\u{301}"))
        #expect(acute.contains("has '\u{25CC}\u{301}' (U+0301), which the badge's font does not have"), "\(acute)")
        #expect(!acute.contains("'\u{301}'"))
        let check = try #require(try labelMessage("ok ✓"))
        #expect(check.contains("has '✓' (U+2713), which the badge's font does not have"))
    }

    // MARK: - Memory

    /// A backend that ran out of memory is "out of memory", exit 71 (EX_OSERR, SPEC §6), not an
    /// I/O error: nothing was being written. Cairo's other failures stay 74.
    @Test func runningOutOfMemoryIsItsOwnFailure() throws {
        #expect(CommandFailure.Code.outOfMemory.rawValue == 71)
        let options = try RenderOptions([:])
        let memory = options.failure(
            .backend(BackendFailure(format: .png, reason: "cairo could not create a 7134×8000 image: out of memory")))
        #expect(memory.code.rawValue == 71)
        #expect(memory.message.hasSuffix("out of memory"))
        let loading = options.failure(
            .backend(BackendFailure(format: .png, reason: "libcairo.so.2 could not be loaded: out of memory")))
        #expect(loading.code.rawValue == 71 && !loading.message.contains("install"))
        let other = options.failure(
            .backend(
                BackendFailure(
                    format: .png, reason: "cairo could not write the PNG: error while writing to output stream")))
        #expect(other.code.rawValue == 74)
    }

    /// Runs `tally` under `ulimit -v kilobytes` through a shell, in `directory`.
    func underMemoryLimit(_ kilobytes: Int, _ arguments: String, in directory: URL) throws -> TallyRun {
        let tally = TallyProcess.executable.path
        return try runProgram(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -v \(kilobytes); exec '\(tally)' \(arguments)"],
            directory: directory)
    }

    /// Under `ulimit -v`: an image too large for the memory, and libcairo that cannot be mapped
    /// for want of it, each say "out of memory" and exit 71, name no package to install, and
    /// keep the file that was there.
    @Test(
        .processTimeLimit(minutes: 2),
        .disabled(
            if: underSanitizer, "the sanitizers reserve terabytes of address space, so ulimit -v stops them first"),
        .enabled(if: cairoIsBuiltIn, "PNG needs the Cairo trait"))
    func memoryLimitsSayOutOfMemory() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("k.png")
        try Data("old".utf8).write(to: kept)
        let label = String(repeating: "W", count: 100)
        for (limit, arguments) in [
            (150_000, "render 9999 --size 8000 -o k.png"),
            (40_000, "badge 1234567 --scale 13 --label \(label) -o k.png"),
        ] {
            let run = try underMemoryLimit(limit, arguments, in: directory)
            expectOneLineError(run, status: 71, mentioning: "out of memory")
            #expect(!run.stderr.contains("install"), "\(run.stderr)")
            #expect(try Data(contentsOf: kept) == Data("old".utf8), "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["k.png"])
        }
    }

    // MARK: - The gallery's limit

    /// The limit is in `--help`, and its message writes both numbers alike.
    @Test(.processTimeLimit(minutes: 2))
    func theGalleryLimitIsSaidAlike() throws {
        let run = try TallyProcess.run(["gallery", "0...1000", "-f", "svg"])
        expectOneLineError(run, status: 64, mentioning: "a gallery shows at most 1,000 counts; this one has 1,001")
        let help = try TallyProcess.run(["gallery", "--help"])
        // The parser wraps help to the terminal's width: read it as words.
        let words = help.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("at most 1,000 in all"), "\(help.text)")
    }
}
