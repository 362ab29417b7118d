import Foundation
import TallyTestSupport
import Testing

@Suite(.runsTallysThreads) struct BatchTests {
    private func files(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Under a sanitizer, 1,001: the workers and the summary run the same way, and the plain run
    /// writes the 10,001.
    @Test func tenThousandAndOneValidSVGsAndOneSummaryLine() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let last = underSanitizer ? 1_000 : 10_000
        let run = try TallyProcess.run(["batch", "0...\(last)", "-f", "svg", "--out-dir", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try files(out)
        #expect(names.count == last + 1)
        #expect(Set(names) == Set((0...last).map { "tally-\($0).svg" }))
        // Every file is a complete SVG of its own count.
        for count in [0, 1, 137, 500, 999, 1_000] + (underSanitizer ? [] : [5_000, 9_999, 10_000]) {
            let text = try String(contentsOf: out.appendingPathComponent("tally-\(count).svg"), encoding: .utf8)
            #expect(text.hasPrefix("<svg ") && text.hasSuffix("</svg>\n") && text.contains("data-count=\"\(count)\""))
        }
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("tally: wrote \(underSanitizer ? "1,001" : "10,001") files, ") == true)
        #expect(run.stdout.isEmpty)
    }

    /// SPEC §2: a pinned frame gives a whole sequence one size and one scale (a flipbook).
    @Test func aPinnedFrameGivesEveryFileOneSize() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let run = try TallyProcess.run(["batch", "0...120", "--frame", "row", "-f", "svg", "--out-dir", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        var sizes: Set<String> = []
        for count in 0...120 {
            let text = try String(contentsOf: out.appendingPathComponent("tally-\(count).svg"), encoding: .utf8)
            // width, height and viewBox: the root's attributes between `width=` and `role=`.
            let start = try #require(text.range(of: " width="))
            let end = try #require(text.range(of: " role=", range: start.upperBound..<text.endIndex))
            sizes.insert(String(text[start.lowerBound..<end.lowerBound]))
        }
        #expect(sizes.count == 1, "\(sizes.count) different sizes: \(Array(sizes).prefix(3))")
        // Without a pinned frame the default fit follows each count.
        let free = try TallyProcess.run(["batch", "7,137", "-f", "svg", "--out-dir", out.path])
        #expect(free.status == 0)
        let seven = try String(contentsOf: out.appendingPathComponent("tally-7.svg"), encoding: .utf8)
        let other = try String(contentsOf: out.appendingPathComponent("tally-137.svg"), encoding: .utf8)
        #expect(seven.contains("height=\"256\"") && !other.contains("height=\"256\""))
    }

    /// Every file of a parallel batch gets 0666 less the umask.
    @Test func everyFileFollowsTheUmask() throws {
        let shell = try #require(installedProgram("sh"))
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let run = try runProgram(
            shell,
            ["-c", "umask 027 && '\(TallyProcess.executable.path)' batch 0...3000 -j 8 -f json --out-dir '\(out)'"])
        #expect(run.status == 0, "\(run.stderr)")
        var wrong: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: out) {
            let attributes = try FileManager.default.attributesOfItem(atPath: out + "/" + name)
            if (attributes[.posixPermissions] as? Int) != 0o640 { wrong.append(name) }
        }
        #expect(wrong.isEmpty, "\(wrong.count) files not 0640, e.g. \(wrong.prefix(3))")
    }

    static let strace = installedProgram("strace")

    /// Reading the umask means setting it (to 0 and back), so workers that each
    /// read it could see another's momentary 0 and create a file 0666. The race is too narrow to
    /// catch by its effect; its cause is countable: the umask is read once a process, whatever
    /// the number of files.
    @Test(
        .enabled(if: canRun(strace), "needs strace (make test-deps installs it)"),
        .disabled(if: underSanitizer, "the sanitizer's runtime reads the umask too"))
    func theUmaskIsReadOncePerProcess() throws {
        let strace = try #require(Self.strace, "strace is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("strace.log").path
        let run = try runProgram(
            strace,
            [
                "-f", "-e", "trace=umask", "-o", log, TallyProcess.executable.path,
                "batch", "0...199", "-j", "4", "-f", "json", "--out-dir", directory.appendingPathComponent("out").path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "umask(").count - 1
        #expect(calls == 2, "\(calls) umask calls for 200 files")
    }

    /// A count given twice is one file, counted once; `--out-dir ''` is bad usage.
    @Test func duplicatesAreDrawnOnceAndAnEmptyFolderIsRefused() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let run = try TallyProcess.run(["batch", "5,5,1...3,2", "-f", "json", "--out-dir", out.path])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("tally: wrote 4 files, "), "\(run.stderr)")
        #expect(try files(out) == ["tally-1.json", "tally-2.json", "tally-3.json", "tally-5.json"])
        expectOneLineError(
            try TallyProcess.run(["batch", "1", "--out-dir", ""]), status: 64, mentioning: "--out-dir '' is empty")
    }

    static let gnuTime =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? URL(fileURLWithPath: "/usr/bin/time") : nil

    /// A batch draws PNG and PDF images within a pixel budget (64 megapixels,
    /// or TALLY_BATCH_MEGAPIXELS), so three images on three workers under a budget of one peak
    /// at about the memory of one, where unbounded they took three times as much.
    @Test(
        .enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"),
        .enabled(if: canRun(gnuTime), "needs GNU time (make test-deps installs it)"),
        .disabled(if: underSanitizer, "a sanitizer's shadow memory is in the peak"))
    func largeImagesInABatchStayWithinTheBudget() throws {
        let time = try #require(Self.gnuTime, "GNU time is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func peakKilobytes(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Int {
            var env = ProcessInfo.processInfo.environment
            for (key, value) in environment { env[key] = value }
            let run = try runProgram(time, ["-f", "%M", TallyProcess.executable.path] + arguments, environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            return Int(run.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? 0
        }
        // 3,000 px squares: 9 megapixels each.
        let single = try peakKilobytes([
            "render", "9999", "--fit", "frame", "--size", "3000", "-f", "png", "-o",
            directory.appendingPathComponent("one.png").path,
        ])
        let batch = try peakKilobytes(
            [
                "batch", "9999,9998,9997", "--fit", "frame", "--size", "3000", "-f", "png", "-j", "3",
                "--out-dir", directory.appendingPathComponent("out").path,
            ], ["TALLY_BATCH_MEGAPIXELS": "10"])
        #expect(single > 0 && Double(batch) < 1.3 * Double(single), "one image \(single) KB, the batch \(batch) KB")
        expectOneLineError(
            try TallyProcess.run(
                ["batch", "1", "-f", "png", "--out-dir", directory.path],
                environment: ["TALLY_BATCH_MEGAPIXELS": "lots"]),
            status: 64, mentioning: "TALLY_BATCH_MEGAPIXELS 'lots'")
    }

    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func parallelWritesTheSameBytesAsOneAtATime() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = directory.appendingPathComponent("one")
        let two = directory.appendingPathComponent("two")
        #expect(
            try TallyProcess.run(["batch", "thresholds", "-f", "png", "-j", "1", "--out-dir", one.path]).status == 0)
        #expect(
            try TallyProcess.run(["batch", "thresholds", "-f", "png", "-j", "2", "--out-dir", two.path]).status == 0)
        let names = try files(one)
        let others = try files(two)
        #expect(names.count == 26 && names == others)
        for name in names {
            #expect(
                try Data(contentsOf: one.appendingPathComponent(name))
                    == Data(contentsOf: two.appendingPathComponent(name)), "\(name)")
        }
    }

    @Test func countsComeFromListsFilesAndStandardInput() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("list.txt")
        try "# milestones\n7\n\n  30   # a month\n40...41\r\n".write(to: list, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let run = try TallyProcess.run(
            ["batch", "1,5", "@" + list.path, "-", "-f", "json", "--name", "n{count}.{ext}", "--out-dir", out.path],
            stdin: Data("100\n101...102\n".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try files(out) == [
                "n1.json", "n100.json", "n101.json", "n102.json", "n30.json", "n40.json", "n41.json", "n5.json",
                "n7.json",
            ])
    }

    @Test(arguments: [
        (["batch", "5,x", "--out-dir", "OUT"], "'x'"),
        (["batch", "10...5", "--out-dir", "OUT"], "backwards"),
        (["batch", "1...9223372036854775808", "--out-dir", "OUT"], "9223372036854775808"),
        (["batch", "0...9223372036854775807", "--out-dir", "OUT"], "1,000,000"),
        (["batch", "1,,2", "--out-dir", "OUT"], "empty"),
        (["batch", "@/nonexistent/list", "--out-dir", "OUT"], "/nonexistent/list"),
        (["batch", "1...3", "--name", "same.svg", "--out-dir", "OUT"], "{count}"),
        (["batch", "1", "--name", "../x-{count}.svg", "--out-dir", "OUT"], "'/'"),
        (["batch", "1", "--name", "{nope}.svg", "--out-dir", "OUT"], "{nope}"),
        (["batch", "1", "-j", "0", "--out-dir", "OUT"], "-j"),
        (["batch", "1", "--ink", "red;}", "--out-dir", "OUT"], "--ink"),
        // Negative counts inside lists are errors, never 0.
        (["batch", "1,-5", "--out-dir", "OUT"], "count '-5' is negative"),
        (["batch", "1,-5...7", "--out-dir", "OUT"], "'-5' is negative"),
    ])
    func badBatchesFailBeforeWritingAnything(_ arguments: [String], _ needle: String) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let run = try TallyProcess.run(arguments.map { $0 == "OUT" ? out.path : $0 })
        expectOneLineError(run, status: 64, mentioning: needle)
        let written = FileManager.default.fileExists(atPath: out.path) ? try files(out) : []
        #expect(written.isEmpty)
    }

    @Test func aBadFileLineIsNamed() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("list.txt")
        try "1\n2\nthree\n".write(to: list, atomically: true, encoding: .utf8)
        let run = try TallyProcess.run([
            "batch", "@" + list.path, "--out-dir", directory.appendingPathComponent("out").path,
        ])
        expectOneLineError(run, status: 64, mentioning: "line 3")
    }

    @Test func aFailedWriteStopsTheBatchAndLeavesOnlyCompleteFiles() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A folder where tally-3.svg should go makes that write fail.
        try FileManager.default.createDirectory(
            at: out.appendingPathComponent("tally-3.svg"), withIntermediateDirectories: true)
        let run = try TallyProcess.run(["batch", "0...200", "-j", "1", "--out-dir", out.path])
        expectOneLineError(run, status: 73, mentioning: "tally-3.svg")
        let written = try files(out).filter { $0 != "tally-3.svg" }
        #expect(written == ["tally-0.svg", "tally-1.svg", "tally-2.svg"])
        for name in written {
            #expect(try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8).hasSuffix("</svg>\n"))
        }
    }

    @Test func anOutDirThatIsAFileExits73() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try Data().write(to: file)
        expectOneLineError(
            try TallyProcess.run(["batch", "1", "--out-dir", file.path]), status: 73, mentioning: "--out-dir")
    }

    @Test(.enabled(if: canRun(installedProgram("script")), "needs script(1), from util-linux"))
    func aProgressBarOnlyOnATerminal() throws {
        let script = try #require(installedProgram("script"), "script(1) is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let run = try runProgram(
            script, ["-qec", "\(TallyProcess.executable.path) batch 0...300 --out-dir \(out)", "/dev/null"])
        #expect(run.status == 0)
        #expect(run.text.contains("/301") && run.text.contains("["))
        #expect(run.text.contains("tally: wrote 301 files"))
    }
}

/// A count list is read on one thread, before any worker starts: ThreadSanitizer skips these
/// processes (`startingAProcess`), AddressSanitizer watches the reader's buffers.
@Suite struct CountListTests {
    /// Lists are read in one pass over their bytes: every line ending
    /// (`\n`, `\r\n`, a lone `\r`) counts once, comments and blanks are skipped, a long list of
    /// consecutive counts is fine, and a bad line is named by its number even 16 MiB in.
    @Test func countListsAreReadLineByLine() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        for (text, line) in [("1\r\n2\r\n\r\nx\r\n", 4), ("1\r2\rx", 3), ("# a\n\t 3 # b\n\n-7\n", 4)] {
            let run = try TallyProcess.run(["batch", "-", "--out-dir", out], stdin: Data(text.utf8))
            expectOneLineError(run, status: 64, mentioning: "standard input line \(line):")
        }
        // 16 MiB less a little of blank lines, then a bad count: the line is named, memory bounded.
        let blank = [UInt8](repeating: 0x0A, count: 16 * 1024 * 1024 - 16) + Array("-7\n".utf8)
        let list = directory.appendingPathComponent("blank.txt")
        try Data(blank).write(to: list)
        let run = try TallyProcess.run(["batch", "@" + list.path, "--out-dir", out])
        expectOneLineError(run, status: 64, mentioning: "line \(16 * 1024 * 1024 - 15): count '-7' is negative")
        // A million consecutive lines are one range: accepted up to the file limit, no more.
        let million = Data((0..<1_000_001).map { "\($0)\n" }.joined().utf8)
        let tooMany = try TallyProcess.run(["batch", "-", "--out-dir", out], stdin: million)
        expectOneLineError(tooMany, status: 64, mentioning: "more than 1,000,000 files")
    }
}
