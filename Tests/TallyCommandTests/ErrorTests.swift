import Foundation
import TallyTestSupport
import Testing

/// SPEC §6: one line on stderr naming the value and what is allowed; exit 64, 73 or 74.
@Suite struct ErrorTests {
    @Test(arguments: [
        (["render", "--", "-1", "-f", "json"], "'-1'"),
        (["render", "-1", "-f", "json"], "'-1'"),
        (["render", "-5"], "'-5'"),
        (["describe", "--", "-42"], "'-42'"),
        (["render", "abc", "-f", "json"], "'abc'"),
        (["render", "1.5", "-f", "json"], "'1.5'"),
        (["render", "", "-f", "json"], "''"),
        (["render", "9223372036854775808", "-f", "json"], "'9223372036854775808'"),
        (["render", "123456789012345678901234567890", "-f", "json"], "too large"),
        (["describe", "x"], "'x'"),
    ])
    func badCountsExit64(_ arguments: [String], _ needle: String) throws {
        let run = try TallyProcess.run(arguments)
        expectOneLineError(run, status: 64, mentioning: needle)
        #expect(run.stderr.contains("0 to 9,223,372,036,854,775,807"))
    }

    @Test(arguments: [
        (["render", "5", "-f", "gif"], "gif"),
        (["render", "5", "--size", "100000", "-f", "json"], "16,384"),
        (["render", "5", "--size", "0", "-f", "json"], "--size"),
        (["render", "5", "--size", "-3", "-f", "json"], "--size"),
        (["render", "5", "--width", "nan", "-f", "json"], "--width"),
        (["render", "5", "--scale", "0", "-f", "json"], "--scale"),
        (["render", "5", "--size", "10", "--padding", "5", "-f", "json"], "--padding"),
        (["render", "5", "--size", "10", "--width", "5", "-f", "json"], "only one"),
        (["render", "5", "-o", "out.tga"], "out.tga"),
        (["render"], "count"),
        (["render", "5", "--bogus"], "--bogus"),
        (["frobnicate"], "frobnicate"),
        (["render", "5", "--frame", "7"], "--frame '7'"),
        (["render", "5", "--frame", "gate"], "--frame 'gate'"),
        (["render", "5", "--frame", "100000000000000000000"], "hundred-block, row or block"),
        (["render", "1234", "--frame", "1000"], "count 1,234 does not fit in --frame '1000', a thousand-row of 1,000"),
        (["render", "101", "--frame", "hundred"], "a hundred-block of 100"),
        (["batch", "1,2,5000", "--frame", "row", "--out-dir", "/tmp/tally-never-made"], "count 5,000 does not fit"),
        (["gallery", "1", "26", "--frame", "25", "-f", "svg"], "count 26 does not fit in --frame '25'"),
        (["render", "5", "--fit", "ink"], "ink"),
        // The parser's messages in tally's words, and a "did you mean".
        (["rendr", "5"], "unknown command 'rendr'; did you mean 'render'?"),
        (["render", "5", "--theme", "purple"], "--theme 'purple' is not a theme; use light, dark or auto"),
        (["render", "5", "--size", "abc"], "--size 'abc' is not a number"),
        (["render", "5", "--sizee", "3"], "unknown option '--sizee'; did you mean '--size'?"),
        (["render"], "missing '<count>'"),
        // Found from the arguments and the parser's structured description of each command,
        // never by reading its English.
        (["render", "5", "--size"], "--size needs a value; see --help"),
        (["badge", "5", "--lable", "x"], "unknown option '--lable'; did you mean '--label'?"),
        // A badge draws no crosses or diagonals, so it has no --c2 to take and ignore (SPEC §7).
        (["badge", "5", "--c2", "red"], "unknown option '--c2'"),
        (["render", "5", "-x"], "unknown option '-x'; see --help"),
        (["serve", "--prot", "5"], "unknown option '--prot'; did you mean '--port'?"),
        (["serve", "--port", "x"], "--port 'x' is not a whole number"),
        (["serve", "--timeout", "soon"], "--timeout 'soon' is not a number of seconds"),
        (["batch", "1", "-j", "x", "--out-dir", "OUT"], "-j 'x' must be a whole number from 1 to 256"),
        // Sub-pixel sizes are refused; messages name the value given.
        (["render", "5", "--size", "1e-200", "-f", "svg"], "--size '1e-200' gives a side under 1 px"),
        (["render", "5", "--size", "0.5", "-f", "png"], "--size '0.5' gives a side under 1 px"),
        (["render", "5", "--scale", "1e-9", "-f", "svg"], "--scale '1e-9' gives a side under 1 px"),
        (["render", "5", "--size", "inf", "-f", "svg"], "--size 'inf' is not a number; it must be a positive number"),
        (
            ["render", "5", "--scale", "inf", "-f", "svg"],
            "--scale 'inf' is not a number; it must be a positive number"
        ),
        (["render", "5", "--size", "1e308", "-f", "svg"], "--size '1e308' gives a side of more than 16,384 px"),
        (["render", "5", "--size", "-5", "-f", "svg"], "--size '-5' is negative; it must be a positive number"),
        (["render", "5", "--size", "0", "-f", "svg"], "--size '0' must be a positive number"),
        (
            ["render", "5", "--width", "16000", "-f", "svg"],
            "gives 256,000,000 pixels; images are at most 16,384 px a side"
        ),
    ])
    func badValuesExit64(_ arguments: [String], _ needle: String) throws {
        expectOneLineError(try TallyProcess.run(arguments), status: 64, mentioning: needle)
    }

    /// A closed or full standard error used to crash tally (SIGILL, 132).
    @Test func anUnwritableStandardErrorIsNoCrash() throws {
        let shell = try #require(installedProgram("sh"))
        let tally = TallyProcess.executable.path
        for redirect in ["2>&-", "2>/dev/full"] {
            let run = try runProgram(shell, ["-c", "'\(tally)' render -5 \(redirect)"])
            #expect(run.status == 64, "render -5 \(redirect)")
        }
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("o").path
        let batch = try runProgram(shell, ["-c", "'\(tally)' batch 1...50 --out-dir '\(out)' 2>/dev/full"])
        #expect(batch.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 50)
    }

    /// One-character and trailing-slash paths used to crash (132). A plain name
    /// is written beside the working folder; a path without a file name is exit 73.
    @Test(arguments: [("a", Int32(0)), (".", 73), ("./", 73), ("a/", 73), ("sub/", 73)])
    func shortAndTrailingSlashPathsAreNoCrash(_ path: String, _ status: Int32) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try TallyProcess.run(["render", "5", "-f", "svg", "-o", path], directory: directory)
        #expect(run.status == status, "-o \(path): \(run.stderr)")
        if status == 0 {
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [path])
        } else {
            expectOneLineError(run, status: status, mentioning: "'\(path)'")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
        let gallery = try TallyProcess.run(["gallery", "1", "-f", "html", "-o", "g"], directory: directory)
        #expect(gallery.status == 0)
    }

    /// A full or closed standard output is exit 74 in every command, --help and
    /// --version included; a reader that closes the pipe ends tally quietly by SIGPIPE (141), as
    /// it ends cat, even when the parent ignored SIGPIPE.
    @Test func standardOutputFailuresAreReported() throws {
        let shell = try #require(installedProgram("bash"))
        let tally = "'\(TallyProcess.executable.path)'"
        for command in [
            "describe 1234 > /dev/full", "--help > /dev/full", "--version > /dev/full",
            "render 5 -f svg > /dev/full", "describe 5 >&-",
        ] {
            let run = try runProgram(shell, ["-c", "\(tally) \(command)"])
            expectOneLineError(run, status: 74, mentioning: "cannot write to standard output")
        }
        for ignore in ["", "trap '' PIPE; "] {
            let run = try runProgram(
                shell,
                [
                    "-c",
                    "\(ignore)\(tally) render 9223372036854775807 --detail full -f json | head -c 10 > /dev/null; echo \"${PIPESTATUS[0]}\"",
                ])
            #expect(run.text == "141\n" && run.stderr.isEmpty, "\(ignore): \(run.text) \(run.stderr)")
        }
    }

    /// Values in errors have control characters escaped and are cut short;
    /// a folder given as a count list is named as one.
    @Test func errorsQuoteValuesSafely() throws {
        let escape = try TallyProcess.run(["render", "5", "--theme", "\u{1B}]0;x\u{07}"])
        expectOneLineError(escape, status: 64, mentioning: "'\\u{1B}]0;x\\u{7}'")
        #expect(!escape.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("counts.txt")
        try Data(("1\n" + String(repeating: "x", count: 100_000) + "\u{1B}\n").utf8).write(to: list)
        let long = try TallyProcess.run([
            "batch", "@" + list.path, "--out-dir", directory.appendingPathComponent("o").path,
        ])
        expectOneLineError(long, status: 64, mentioning: "line 2")
        #expect(long.stderr.utf8.count < 400, "\(long.stderr.utf8.count) bytes of error")
        let folder = try TallyProcess.run([
            "batch", "@" + directory.path, "--out-dir", directory.appendingPathComponent("o").path,
        ])
        expectOneLineError(folder, status: 64, mentioning: "it is a folder")
        #expect(!folder.stderr.contains("NSCocoaErrorDomain"))
        let digits = try TallyProcess.run(["render", String(repeating: "9", count: 5_000)])
        expectOneLineError(digits, status: 64, mentioning: "too large")
        #expect(digits.stderr.utf8.count < 400)
    }

    /// A file name near the 255-byte limit is written (the temporary name
    /// would have passed it), and a file written over keeps its mode.
    @Test func longNamesAndModesOfOverwrittenFiles() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = directory.appendingPathComponent(String(repeating: "n", count: 251) + ".svg").path
        let run = try TallyProcess.run(["render", "5", "-o", long])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == [
                (long as NSString).lastPathComponent
            ])
        let kept = directory.appendingPathComponent("kept.svg").path
        #expect(
            FileManager.default.createFile(
                atPath: kept, contents: Data("old".utf8), attributes: [.posixPermissions: 0o640]))
        #expect(try TallyProcess.run(["render", "5", "-o", kept]).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int == 0o640)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix("<svg"))
    }

    /// SPEC §6: outputs replace their target by rename, never
    /// by writing into it. A hard link to the old file keeps the old bytes; a write in place
    /// would change them through the link.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func outputsReplaceTheTargetNotItsBytes() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in ["svg", "png", "json"] {
            let target = directory.appendingPathComponent("t.\(format)").path
            let link = directory.appendingPathComponent("link-\(format)").path
            #expect(FileManager.default.createFile(atPath: target, contents: Data("old bytes".utf8)))
            try FileManager.default.linkItem(atPath: target, toPath: link)
            #expect(try TallyProcess.run(["render", "7", "-o", target]).status == 0)
            #expect(
                try String(contentsOfFile: link, encoding: .utf8) == "old bytes",
                "\(format): the old file was written into")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)).count > 20)
        }
        // A batch writes the same way.
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let target = out.appendingPathComponent("tally-3.svg").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old bytes".utf8)))
        try FileManager.default.linkItem(atPath: target, toPath: directory.appendingPathComponent("batch-link").path)
        #expect(try TallyProcess.run(["batch", "1...5", "--out-dir", out.path]).status == 0)
        #expect(
            try String(contentsOfFile: directory.appendingPathComponent("batch-link").path, encoding: .utf8)
                == "old bytes")
    }

    /// Text that looks like a negative number is valid text.
    @Test func textValuesMayLookLikeNegativeNumbers() throws {
        let labelled = try TallyProcess.run(["render", "5", "-f", "svg", "--label", "-5"])
        #expect(labelled.status == 0, "\(labelled.stderr)")
        #expect(labelled.text.contains("-title\">-5</title>"))
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try TallyProcess.run(["render", "5", "-f", "svg", "-o", "-5"], directory: directory)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["-5"])
        // Numbers stay numbers: a negative size is still named as one.
        expectOneLineError(
            try TallyProcess.run(["render", "5", "--size", "-5"]), status: 64, mentioning: "--size '-5' is negative")
    }

    @Test func anOutputThatCannotBeCreatedExits73() throws {
        let run = try TallyProcess.run(["render", "5", "-o", "/nonexistent-folder/t.json"])
        expectOneLineError(run, status: 73, mentioning: "/nonexistent-folder/t.json")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        expectOneLineError(
            try TallyProcess.run(["render", "5", "-f", "json", "-o", directory.path]), status: 73,
            mentioning: "directory")
    }

    @Test func aFailedRunLeavesNoFileBehind() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("t.json").path
        _ = try TallyProcess.run(["render", "abc", "-o", target])
        _ = try TallyProcess.run(["render", "5", "--size", "999999", "-o", target])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    // Writing into a full device is an I/O error, reported and not crashed on; the device is
    // written in place, never renamed over.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full") || isCI, "needs /dev/full"))
    func aFullDeviceExits74AndStaysADevice() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is missing")
        let run = try TallyProcess.run(["render", "9999", "-f", "json", "-o", "/dev/full"])
        expectOneLineError(run, status: 74, mentioning: "/dev/full")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
        #expect(try TallyProcess.run(["render", "9999", "-f", "json", "-o", "/dev/null"]).status == 0)
    }

}
