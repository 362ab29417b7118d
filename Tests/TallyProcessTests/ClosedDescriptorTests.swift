import Foundation
import TallyTestSupport
import Testing

/// SPEC §6's exit codes when tally starts with standard descriptors closed (`>&-`, `<&-`): the
/// output that cannot be written is an I/O error (74), the input that cannot be read too, and
/// nothing hangs or kills itself. Before, the signal pipe took the closed numbers: output went
/// into it, and the watcher raised whatever byte it read as a signal (244, 188, hangs).
@Suite(.runsTallysThreads) struct ClosedDescriptorTests {
    /// Runs tally through `/bin/sh`, which closes the descriptors: `$1` is tally, `$2` a folder.
    private func shell(_ script: String, _ folder: URL) throws -> TallyRun {
        try runProgram(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", TallyProcess.executable.path, folder.path],
            timeout: 30)
    }

    @Test(arguments: [
        ("\"$1\" --version >&- 2>&-", 74),
        ("\"$1\" render 5 <&- >&-", 74),
        ("\"$1\" render 5 -f svg >&-", 74),
        ("\"$1\" gallery 1,2,3 >&- 2>&-", 74),
        ("\"$1\" batch - --out-dir \"$2/out\" <&-", 74),
        ("\"$1\" render 137 -o \"$2/t.svg\" <&- >&- 2>&-", 0),
    ])
    func closedStandardDescriptorsAreIOErrorsNeverSignals(_ script: String, _ status: Int32) throws {
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The old failure came in 6 runs of 10: each case runs five times, and stops at the first
        // failure, so a regression that hangs costs one deadline, not five.
        for attempt in 0..<5 {
            let run = try shell(script, folder)
            #expect(run.status == status, "\(script), run \(attempt + 1): exit \(run.status), \(run.stderr)")
            if run.status != status { break }
        }
        if status == 0 {
            let svg = try String(contentsOf: folder.appendingPathComponent("t.svg"), encoding: .utf8)
            #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        }
    }
}
