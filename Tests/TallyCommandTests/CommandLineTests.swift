import Foundation
import TallyCommands
import TallyGeometry
import TallyTestSupport
import Testing

/// Counts written with grouping, the default format for a path
/// without an extension or a device, and help text that says each default once.
@Suite struct CommandLineTests {
    /// An empty `--opt=` is an empty value, never the next argument: `--label=` is an empty
    /// label, `--size=` is "'' is not a number".
    @Test func anEmptyValueIsEmpty() throws {
        let label = try TallyProcess.run(["render", "5", "--label=", "--caption", "-f", "svg"])
        #expect(label.status == 0, "\(label.stderr)")
        #expect(label.text.contains("-title\"></title>"), "the title is the empty label")
        let size = try TallyProcess.run(["render", "137", "--size=", "-f", "svg"])
        expectOneLineError(size, status: 64, mentioning: "--size '' is not a number")
        let badge = try TallyProcess.run(["badge", "5", "--label=", "--theme", "dark"])
        #expect(badge.status == 0 && !badge.text.contains("labelPlate"), "an empty label is no label plate")
        #expect(TallyCommand.emptyValuesKept(["render", "5", "--", "--label="]) == ["render", "5", "--", "--label="])
        #expect(TallyCommand.emptyValuesKept(["render", "5", "--animate="]) == ["render", "5", "--animate="])
    }

    @Test func groupedCountsAreTheCount() throws {
        let plain = try TallyProcess.run(["render", "1234"])
        for grouped in ["1,234", "1_234"] {
            let run = try TallyProcess.run(["render", grouped])
            #expect(run.status == 0 && run.stdout == plain.stdout, "\(grouped): \(run.stderr)")
            #expect(try TallyProcess.run(["describe", grouped]).text.hasPrefix("1,234 tally marks"))
        }
        #expect(try TallyProcess.run(["render", "9,223,372,036,854,775,807", "-f", "json"]).status == 0)
        for malformed in ["1,23", "12,34,567", "1,234_567", ",123", "1,", "1__234"] {
            expectOneLineError(try TallyProcess.run(["render", malformed]), status: 64, mentioning: "is not a number")
        }
        expectOneLineError(
            try TallyProcess.run(["render", "9,223,372,036,854,775,808"]), status: 64, mentioning: "too large")
    }

    /// Grouping round-trips for any count: what `Words.grouped` writes, `TallyCount(parsing:)` reads.
    @Test func groupingRoundTrips() throws {
        var generator = SeededGenerator(state: 0x6_2011_9ED)
        for _ in 0..<2_000 {
            let value =
                UInt64.random(in: 0...UInt64(Int64.max), using: &generator)
                >> UInt64.random(in: 0...62, using: &generator)
            let grouped = Words.grouped(value)
            #expect(try TallyCount(parsing: grouped).value == value)
            #expect(try TallyCount(parsing: grouped.replacingOccurrences(of: ",", with: "_")).value == value)
        }
    }

    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"))
    func pathsWithoutAnExtensionGetTheDefaultFormat() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try TallyProcess.run(["render", "5", "-o", "/dev/null"]).status == 0)
        #expect(try TallyProcess.run(["render", "5", "-f", "png", "-o", "/dev/null"]).status == 0)
        let plain = directory.appendingPathComponent("tally").path
        #expect(try TallyProcess.run(["render", "5", "-o", plain]).status == 0)
        #expect(try String(contentsOfFile: plain, encoding: .utf8).hasPrefix("<svg"))
        // An extension that names no format is still a mistake worth a message.
        expectOneLineError(
            try TallyProcess.run(["render", "5", "-o", directory.appendingPathComponent("t.gif").path]),
            status: 64, mentioning: "cannot tell the format")
    }

    /// Every option's help says its default once, and no line of any help is wrapped mid-example.
    @Test(arguments: ["render", "batch", "gallery", "describe"])
    func helpSaysEachDefaultOnce(_ command: String) throws {
        let help = try TallyProcess.run([command, "--help"]).text
        // Options are the lines starting with two spaces and a dash; their text runs on below.
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") {
                entries.append(String(line))
            } else if line.hasPrefix("      "), !entries.isEmpty {
                entries[entries.count - 1] += String(line)
            }
        }
        for entry in entries {
            let defaults = entry.components(separatedBy: "default").count - 1
            #expect(defaults <= 1, "\(command): \(entry)")
        }
        // Example lines (under "Examples:") fit the 80 columns the help is wrapped to.
        let examples =
            help.components(separatedBy: "Examples:").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        for line in examples.split(separator: "\n") {
            #expect(line.hasPrefix("  "), "\(command): a wrapped example line: \(line)")
        }
    }
}
