import Foundation
import TallyTestSupport
import Testing

@Suite(.runsTallysThreads) struct InterruptionTests {
    /// SPEC §6: an interrupted run leaves no partial file and no temporary file behind.
    /// Fast SVGs on two workers once left `.tally-N.svg.tally-XXXXXX` files in 9 of 10 runs
    /// (files were created before they were registered, and the handler walked a set the workers
    /// changed); each signal is tried three times.
    @Test(arguments: [(SIGTERM, "svg"), (SIGINT, "svg"), (SIGHUP, "svg")])
    func anInterruptedBatchLeavesOnlyCompleteFiles(_ signal: Int32, _ format: String) throws {
        for _ in 0..<3 { try interrupt(signal, format) }
    }

    /// The same for PNG, which needs the Cairo trait.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func anInterruptedPNGBatchLeavesOnlyCompleteFiles() throws {
        try interrupt(SIGTERM, "png")
    }

    /// Sends `signal` and expects the process to die of it; a survivor is killed after 15 s,
    /// so it never hangs the test run.
    static func signal(_ process: Process, _ signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        kill(process.processIdentifier, signal)
        let stop = Date().addingTimeInterval(15)
        while process.isRunning && Date() < stop { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            Issue.record("tally kept running after signal \(signal)", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
            sourceLocation: sourceLocation)
    }

    private func interrupt(_ signal: Int32, _ format: String) throws {
        try startingAProcess()
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = TallyProcess.executable
        process.arguments = ["batch", "0...200000", "-j", "2", "-f", format, "--size", "512", "--out-dir", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Let it write for a while, then interrupt it mid-batch.
        let deadline = Date().addingTimeInterval(20)
        // Ten finished files (temporary ones start with a dot and do not count).
        func finished() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { !$0.hasPrefix(".") }.count
        }
        while Date() < deadline, finished() < 10 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        Self.signal(process, signal)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names.count >= 10 && names.count < 200_001)
        let stray = names.filter { !($0.hasPrefix("tally-") && $0.hasSuffix("." + format)) }
        #expect(stray.isEmpty, "signal \(signal), \(format): left behind \(stray.prefix(3))")
        for name in names where stray.isEmpty {
            let data = try Data(contentsOf: out.appendingPathComponent(name))
            // A complete PNG ends with its IEND chunk, a complete SVG with its closing tag.
            let end = format == "png" ? Data([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]) : Data("</svg>\n".utf8)
            #expect(data.suffix(end.count) == end, "\(name) is incomplete")
        }
    }

    /// SPEC §8, all or nothing under signals: SIGINT, SIGTERM or SIGHUP while `tally docs`
    /// renames its files into place (paused after the first, `TALLY_DOCS_PAUSE_AFTER_RENAME`)
    /// puts back what was replaced and says so; the process dies of the signal, and no file of
    /// the run and no temporary file is left. SIGKILL leaves the run's leftovers, which the next
    /// run removes where it can prove them its own.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGKILL])
    func aSignalDuringTheRenamesPutsEverythingBack(_ signal: Int32) throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("doc.md")
        func regions(_ first: Int) -> String {
            "<!-- tally render \(first) --theme light -o a.svg -->\n<!-- /tally -->\n"
                + "<!-- tally render \(first + 1) --theme light -o b.svg -->\n<!-- /tally -->\n"
        }
        try regions(5).write(to: document, atomically: true, encoding: .utf8)
        #expect(try TallyProcess.run(["docs", "doc.md"], directory: folder).status == 0)
        // A user's own file of the leftovers' pattern, which no run may take for its own.
        let mine = folder.appendingPathComponent(".doc.md.tally-mine")
        try Data("my notes\n".utf8).write(to: mine)
        try regions(15).write(to: document, atomically: true, encoding: .utf8)
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return files
        }
        let before = try snapshot()
        let process = Process()
        process.executableURL = TallyProcess.executable
        process.arguments = ["docs", "doc.md"]
        process.currentDirectoryURL = folder
        // A pause far longer than a loaded machine takes to read the line and signal: the signal
        // must land inside it (a signalled run ends at once, so the length costs nothing).
        process.environment = ["TALLY_DOCS_PAUSE_AFTER_RENAME": "60", "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait for the pause after the first rename, then signal.
        var said = Data()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !String(decoding: said, as: UTF8.self).contains("paused after a rename") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        #expect(String(decoding: said, as: UTF8.self).contains("paused after a rename"))
        Self.signal(process, signal)
        said += errors.fileHandleForReading.readDataToEndOfFile()
        if signal == SIGKILL {
            // Killed half way: the next run finishes the job and removes what it proves its own.
            let next = try TallyProcess.run(["docs", "doc.md"], directory: folder)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stderr.contains("an interrupted run left"), "\(next.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(names == [".doc.md.tally-mine", "a.svg", "b.svg", "doc.md"], "\(names)")
            #expect(try TallyProcess.run(["docs", "--check", "doc.md"], directory: folder).status == 0)
        } else {
            #expect(String(decoding: said, as: UTF8.self).contains("tally: interrupted; every file is as it was"))
            #expect(try snapshot() == before, "signal \(signal)")
        }
        #expect(try Data(contentsOf: mine) == Data("my notes\n".utf8))
    }
}
