import ArgumentParser
import Foundation

/// `tally`: Fractal Completion Tallies from the command line.
public struct Tally: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Draw counts as Fractal Completion Tallies.",
        discussion: """
        Tally marks that stay readable at any count: five strokes make a gate, five gates a \
        twenty-five-unit, four of those a hundred-block, ten a thousand-row, ten rows a \
        ten-thousand-block, and so on up to 9,223,372,036,854,775,807.

        Examples:
          tally render 137 -o 137.svg               a 256 px SVG of 137
          tally render 9999 --size 512 -o t.png     PNG (and PDF) through Cairo
          tally batch 0...100 --out-dir out         one file per count
          tally gallery -o thresholds.html          a contact sheet for docs
          tally describe 1234                       the structure in words
          tally --generate-completion-script bash   shell completion (bash, zsh, fish)
        """,
        version: version,
        subcommands: [Render.self, Batch.self, GalleryCommand.self, Describe.self]
    )

    public init() {}

    /// Runs the command line and returns the process's exit code. Every failure becomes one line
    /// on stderr, `tally: error: …`, and the exit code of SPEC §6.
    public static func main(arguments: [String]) -> Int32 {
        TemporaryFiles.shared.prepare()
        do {
            try rejectNegativeNumbers(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let failure as CommandFailure {
            reportError(failure.message)
            return failure.code.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version
                print(fullMessage(for: error))
                return 0
            }
            let message = self.message(for: error)
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
            reportError(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
            return code.rawValue
        }
    }

    static func reportError(_ message: String) {
        StandardError.send("tally: error: \(message)\n")
    }

    /// A leading `-` makes the parser read `-1` as an unknown option, even after `--`; name the
    /// value instead, as a negative count or option value.
    static func rejectNegativeNumbers(_ arguments: [String]) throws(CommandFailure) {
        for (index, argument) in arguments.enumerated() {
            guard argument.count > 1, argument.hasPrefix("-"),
                  argument.dropFirst().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  argument.dropFirst().contains(where: \.isNumber)
            else { continue }
            let previous = index > 0 ? arguments[index - 1] : ""
            if previous.hasPrefix("-"), previous != "--", !previous.dropFirst().allSatisfy(\.isNumber) {
                throw .usage("\(previous) '\(argument)' is negative; it must be 0 or more")
            }
            throw .usage("count '\(argument)' is negative; it must be \(Values.countRange)")
        }
    }
}
