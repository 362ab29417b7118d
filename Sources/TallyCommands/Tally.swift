import ArgumentParser
import TallyOptions
import TallyPOSIX

/// `tally`: Fractal Completion Tallies from the command line.
package struct TallyCommand: ParsableCommand {
    package static let version = tallyVersion

    package static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Draw counts as Fractal Completion Tallies.",
        discussion: """
            Tally marks that stay readable at any count: five strokes make a gate, five gates a \
            twenty-five-unit, four of those a hundred-block, ten a thousand-row, ten rows a \
            ten-thousand-block, and so on up to 9,223,372,036,854,775,807.

            Examples:
              tally render 137 -o 137.svg               a 256 px SVG of 137
              tally render 9999 --size 512 -o t.png     PNG (and PDF) through Cairo
              tally badge 1234 --label downloads -o b.svg   a 20 px badge for a README
              tally batch 0...100 --out-dir out         one file per count
              tally gallery -o thresholds.html          a contact sheet for docs
              tally describe 1234                       the structure in words
              tally docs README.md docs                 keep the pictures in Markdown up to date
              tally serve --port 8080                   the same images over HTTP
              tally --generate-completion-script bash   shell completion (bash, zsh, fish)
            """,
        version: version,
        subcommands: [
            Render.self, BadgeCommand.self, Batch.self, GalleryCommand.self, Describe.self, DocsCommand.self,
            Serve.self,
        ]
    )

    package init() {}

    /// Runs the command line and returns the process's exit code. Every failure becomes one line
    /// on stderr, `tally: error: …`, and the exit code of SPEC §6.
    package static func main(arguments: [String]) -> Int32 {
        // A reader that closes the pipe (`tally … | head`) ends tally quietly, as it ends cat:
        // SIGPIPE's default, restored in case a parent ignored it (which exec would keep).
        signal(SIGPIPE, SIG_DFL)
        TemporaryFiles.shared.prepare()
        _ = Output.newFileMode  // the umask, read once before any worker starts
        var arguments = emptyValuesKept(arguments)
        do {
            if arguments.first == GeneratedDocsCommand.name {
                try GeneratedDocsCommand.run(arguments.dropFirst())
                return 0
            }
            try rejectUnknownCommand(arguments)
            arguments = try negativeCountsRead(arguments)
            if let plain = PlainRender(arguments), try plain.run() { return 0 }
            if arguments.first == "badge",
                let plain = PlainRender.read(arguments.dropFirst(), options: RenderOption.badgeOptions)
            {
                try BadgeCommand.run(count: plain.count, output: plain.output, format: plain.format, given: plain.given)
                return 0
            }
            if let docs = DocsCommand.plain(arguments) {
                try DocsCommand.run(paths: docs.paths, check: docs.check, staged: docs.staged)
                return 0
            }
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            return report(error, of: Self.self, arguments: arguments)
        }
    }

    /// Reports a failure of `command` (tally's or tally-server's) and returns the exit code:
    /// one line on stderr for a `CommandFailure` or a parse error, or the help or version text
    /// on stdout, checked like every output.
    /// - Parameter arguments: the arguments parsed, for a parse error's own words
    ///   (`ParseDiagnosis`).
    package static func report(_ error: any Error, of command: any ParsableCommand.Type, arguments: [String]) -> Int32 {
        if let failure = failure(for: error, of: command, arguments: arguments) {
            reportError(failure.message)
            return failure.code.rawValue
        }
        do {
            try Output.writeToStandardOutput(Array((command.fullMessage(for: error) + "\n").utf8))
        } catch {
            reportError(error.message)
            return error.code.rawValue
        }
        return 0
    }

    /// The one-line failure a command's error is (SPEC §6), or nil when it is not one: the help
    /// or version a user asked for.
    /// - Parameter arguments: the arguments parsed, for a parse error's own words
    ///   (`ParseDiagnosis`).
    package static func failure(for error: any Error, of command: any ParsableCommand.Type, arguments: [String])
        -> CommandFailure?
    {
        if let failure = error as? CommandFailure { return failure }
        let code = command.exitCode(for: error)
        if code == .success { return nil }
        let message =
            ParseDiagnosis.message(for: arguments, of: command)
            ?? parserMessage(command.message(for: error))
        return CommandFailure(CommandFailure.Code(rawValue: code.rawValue) ?? .usage, message)
    }

    /// A parse error that `ParseDiagnosis` cannot name, in the parser's own words as they are
    /// (never reworded, so nothing depends on their English), on one line, escaped and bounded.
    package static func parserMessage(_ text: String) -> String {
        let message = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
        let bare = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        guard let first = bare.first else { return "failed" }
        return Values.printable(first.lowercased() + bare.dropFirst(), limit: 300)
    }

    /// `tally: error: …` on stderr, one line.
    package static func reportError(_ message: String) {
        StandardError.send(CommandFailure.line(message))
    }

    /// The commands, for the "did you mean" of a mistyped one.
    static let commandNames = ["render", "badge", "batch", "gallery", "describe", "docs", "serve", "help"]

    /// `tally rendr 5`: name the unknown command and the closest one, instead of the parser's
    /// "2 unexpected arguments".
    static func rejectUnknownCommand(_ arguments: [String]) throws(CommandFailure) {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return }
        let guess = Values.suggestion(for: first, among: Array(commandNames.dropLast()), orPrefix: true)
        throw .usage(
            "unknown command '\(Values.printable(first))'; \(guess)the commands are render, badge, batch, gallery, describe, docs and serve"
        )
    }

    /// `--label=` is an empty label and `--size=` an empty size, which the options model names
    /// ("'' is not a size"): the parser would instead take the next argument as the value. So an
    /// option written with `=` and nothing after it becomes the option and an empty argument,
    /// which the parser hands over as the value. Switches (`--animate=`) and everything after
    /// `--` stay as they are.
    package static func emptyValuesKept(_ arguments: [String]) -> [String] {
        guard arguments.contains(where: { $0.hasPrefix("--") && $0.hasSuffix("=") }) else { return arguments }
        var kept: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                kept += arguments[index...]
                break
            }
            let name = argument.dropLast()
            if argument.hasPrefix("--"), argument.hasSuffix("="), name.count > 2, !name.dropFirst(2).contains("="),
                !switches.contains(String(name))
            {
                kept += [String(name), ""]
            } else {
                kept.append(argument)
            }
        }
        return kept
    }

    /// The switches, which take no value: a number after one is the count.
    static let switches =
        RenderOption.allCases.filter(\.isSwitch).map(\.flag) + RenderOption.invertible.map(\.inversion)
        + ["--json", "--picture"]

    /// `-5`, `-1.5`: what the parser would take for an option.
    static func isDashNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-")
            && argument.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && argument.dropFirst().contains(where: \.isNumber)
    }

    /// A leading `-` makes the parser read a count of `-1` as an unknown option, even after
    /// `--`; name it as a negative count instead. A count of `-0`, `-000` is zero, as `+0` is
    /// (SPEC §6), and is handed on as `0`. A value after an option (`--size -5`) is the
    /// option's, and the options model names it.
    /// - Returns: the arguments, each negative zero in a count's place written `0`.
    package static func negativeCountsRead(_ arguments: [String]) throws(CommandFailure) -> [String] {
        var afterSeparator = false
        var read = arguments
        for (index, argument) in arguments.enumerated() {
            if argument == "--" && !afterSeparator {
                afterSeparator = true
                continue
            }
            guard isDashNumber(argument) else { continue }
            let previous = index > 0 ? arguments[index - 1] : ""
            let isValue =
                !afterSeparator && previous.hasPrefix("-") && previous != "--" && !isDashNumber(previous)
                && !previous.contains("=") && !switches.contains(previous)
            if isValue { continue }
            if argument.dropFirst().allSatisfy({ $0 == "0" }) {
                read[index] = "0"
                continue
            }
            throw .usage("count '\(argument)' is negative; it must be \(Values.countRange)")
        }
        return read
    }
}
