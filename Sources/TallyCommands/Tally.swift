import ArgumentParser
import TallyPOSIX

/// `tally`: Fractal Completion Tallies from the command line.
public struct TallyCommand: ParsableCommand {
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
              tally serve --port 8080                   the same images over HTTP
              tally --generate-completion-script bash   shell completion (bash, zsh, fish)
            """,
        version: version,
        subcommands: [Render.self, Batch.self, GalleryCommand.self, Describe.self, Serve.self]
    )

    public init() {}

    /// Runs the command line and returns the process's exit code. Every failure becomes one line
    /// on stderr, `tally: error: …`, and the exit code of SPEC §6.
    public static func main(arguments: [String]) -> Int32 {
        // A reader that closes the pipe (`tally … | head`) ends tally quietly, as it ends cat:
        // SIGPIPE's default, restored in case a parent ignored it (which exec would keep).
        signal(SIGPIPE, SIG_DFL)
        TemporaryFiles.shared.prepare()
        _ = Output.newFileMode  // the umask, read once before any worker starts
        do {
            let arguments = joiningTextValues(arguments)
            try rejectUnknownCommand(arguments)
            try rejectNegativeNumbers(arguments)
            if let plain = PlainRender(arguments), try plain.run() { return 0 }
            var command = try fastRender(arguments) ?? parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let failure as CommandFailure {
            reportError(failure.message)
            return failure.code.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version, checked like every output.
                do {
                    try Output.writeToStandardOutput(Array((fullMessage(for: error) + "\n").utf8))
                } catch {
                    reportError(error.message)
                    return error.code.rawValue
                }
                return 0
            }
            reportError(parserMessage(message(for: error)))
            return code.rawValue
        }
    }

    /// `tally render …` parsed by `Render` alone, without the tree of every command: the
    /// parser reflects over each command's options (protocol-conformance lookups and demangling,
    /// most of a short run's cost), and a plain render needs only its own. Anything but a clean
    /// parse (help, a bad value, a typo) returns nil, and the whole tree parses again, so every
    /// message and exit code is the full parser's.
    static func fastRender(_ arguments: [String]) -> (any ParsableCommand)? {
        guard arguments.first == "render" else { return nil }
        let rest = arguments.dropFirst()
        // Help and the parser's own flags name the command path: leave them to the full tree.
        guard
            !rest.contains(where: {
                $0 == "-h" || $0 == "--help" || $0 == "help" || $0.hasPrefix("--version")
                    || $0.hasPrefix("--generate-completion") || $0.hasPrefix("--experimental")
            })
        else { return nil }
        return try? Render.parse(Array(rest))
    }

    /// The parser's own words, in ours, on one line; they quote the user's value as it was:
    /// escaped and bounded.
    package static func parserMessage(_ text: String) -> String {
        let message = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
        return Values.printable(
            restyled(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message), limit: 300)
    }

    /// `tally: error: …` on stderr, one line.
    package static func reportError(_ message: String) {
        StandardError.send("tally: error: \(message)\n")
    }

    /// The commands, for the "did you mean" of a mistyped one.
    static let commandNames = ["render", "batch", "gallery", "describe", "serve", "help"]

    /// `tally rendr 5`: name the unknown command and the closest one, instead of the parser's
    /// "2 unexpected arguments".
    static func rejectUnknownCommand(_ arguments: [String]) throws(CommandFailure) {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return }
        let guess = suggestion(for: first, among: Array(commandNames.dropLast()), orPrefix: true)
        throw .usage(
            "unknown command '\(Values.printable(first))'; \(guess)the commands are render, batch, gallery, describe and serve"
        )
    }

    /// "did you mean 'size'? " for the closest name within two edits (or, with `orPrefix`, one
    /// the word begins), else "".
    static func suggestion(for word: String, among names: [String], orPrefix: Bool = false) -> String {
        let closest = names.min { editDistance(word, $0) < editDistance(word, $1) }
        return closest.flatMap {
            editDistance(word, $0) <= 2 || (orPrefix && $0.hasPrefix(word)) ? "did you mean '\($0)'? " : nil
        } ?? ""
    }

    /// Levenshtein distance, small words only.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64))
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// ArgumentParser's messages in tally's words: the option and value first, then what is
    /// allowed, lowercase, one line ("--theme 'purple' is not allowed; use light, dark or auto").
    static func restyled(_ message: String) -> String {
        // "The value 'V' is invalid for '--option <name>'. Please provide one of 'a', 'b' or 'c'."
        if message.hasPrefix("The value '"), let end = message.firstRange(of: "' is invalid for '") {
            let value = String(message[message.index(message.startIndex, offsetBy: 11)..<end.lowerBound])
            let rest = message[end.upperBound...]
            let option = String(rest.prefix { $0 != " " && $0 != "'" })
            if let choices = rest.firstRange(of: "Please provide one of ") {
                var list = rest[choices.upperBound...].replacing("'", with: "")[...]
                while list.first == "." { list.removeFirst() }
                while list.last == "." { list.removeLast() }
                return "\(option) '\(value)' is not allowed; use \(list)"
            }
            return "\(option) '\(value)' is not a number"
        }
        // "Unknown option '--sizee'. Did you mean '--size'?"
        if message.hasPrefix("Unknown option ") {
            return "unknown option " + message.dropFirst(15).replacing(". Did you mean", with: "; did you mean")
        }
        // "Missing expected argument '<count>'"
        if message.hasPrefix("Missing expected argument ") {
            return "missing " + message.dropFirst(26) + "; see --help"
        }
        guard let first = message.first else { return message }
        return first.lowercased() + message.dropFirst()
    }

    /// Numeric options that must be above 0 (the others may be 0).
    static let positiveOptions: Set<String> = ["--size", "--width", "--height", "--scale"]

    /// Options whose value is text, where `-5` is a valid value (a label, a file name).
    /// (An array: a `Set` would seed its hasher at start-up, in every run, for five strings.)
    static let textOptions = ["--label", "-o", "--output", "--name", "--out-dir"]

    /// `--label -5` as `--label=-5`, so the parser takes a text value that looks like a negative
    /// number as the value it is, not as an option.
    static func joiningTextValues(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            if textOptions.contains(argument), index + 1 < arguments.count, isDashNumber(arguments[index + 1]) {
                joined.append(argument + "=" + arguments[index + 1])
                index += 2
            } else {
                joined.append(argument)
                index += 1
            }
        }
        return joined
    }

    /// `-5`, `-1.5`: what the parser would take for an option.
    static func isDashNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-")
            && argument.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && argument.dropFirst().contains(where: \.isNumber)
    }

    /// A leading `-` makes the parser read `-1` as an unknown option, even after `--`; name the
    /// value instead, as a negative count or option value.
    static func rejectNegativeNumbers(_ arguments: [String]) throws(CommandFailure) {
        for (index, argument) in arguments.enumerated() {
            guard isDashNumber(argument) else { continue }
            let previous = index > 0 ? arguments[index - 1] : ""
            if previous.hasPrefix("-"), previous != "--", !previous.dropFirst().allSatisfy(\.isNumber) {
                let allowed = positiveOptions.contains(previous) ? "a positive number" : "0 or more"
                throw .usage("\(previous) '\(argument)' is negative; it must be \(allowed)")
            }
            throw .usage("count '\(argument)' is negative; it must be \(Values.countRange)")
        }
    }
}
