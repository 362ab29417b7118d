import ArgumentParser
import TallyOptions

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parse error in tally's words, found from the arguments themselves: an unknown option (with
/// a "did you mean"), an option without its value, a missing count. What the command accepts
/// is read from swift-argument-parser's structured description of it (the JSON of
/// `--experimental-dump-help`: each argument's kind, names and whether it is optional), never
/// from the English of its messages, so a release of the parser that rewords them changes
/// nothing here.
enum ParseDiagnosis {
    /// The parser's description of a command, as much of it as a diagnosis needs.
    struct Shape: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }

        struct Argument: Decodable {
            let kind: String
            let names: [Name]?
            let isOptional: Bool
            let valueName: String?
        }

        let commandName: String
        let arguments: [Argument]?
        let subcommands: [Shape]?
    }

    private struct Tool: Decodable {
        let command: Shape
    }

    /// The one-line message for arguments the parser refused, or nil where they look right to
    /// this reading (the parser's own message is used then).
    static func message(for arguments: [String], of command: any ParsableCommand.Type) -> String? {
        guard let root = shape(of: command) else { return nil }
        var shape = root
        var rest = arguments[...]
        if let first = rest.first, let sub = root.subcommands?.first(where: { $0.commandName == first }) {
            shape = sub
            rest = rest.dropFirst()
        }
        // Every name the command takes, and whether it takes a value.
        var takesValue = ["--help": false, "-h": false, "--version": false]
        for argument in shape.arguments ?? [] where argument.kind != "positional" {
            for name in argument.names ?? [] {
                takesValue[(name.kind == "short" ? "-" : "--") + name.name] = argument.kind == "option"
            }
        }
        var positionals = 0
        var index = rest.startIndex
        while index < rest.endIndex {
            let argument = rest[index]
            index += 1
            if argument == "--" {
                positionals += rest.endIndex - index
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1, !TallyCommand.isDashNumber(argument) else {
                positionals += 1
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            guard let value = takesValue[name] else {
                let longs = takesValue.keys.filter { $0.hasPrefix("--") }.sorted()
                let guess = Values.suggestion(for: name, among: longs)
                return "unknown option '\(Values.printable(name))'; \(guess)see --help"
            }
            if value && !argument.contains("=") {
                guard index < rest.endIndex else { return "\(name) needs a value; see --help" }
                index += 1
            }
        }
        if positionals == 0,
            let required = shape.arguments?.first(where: { $0.kind == "positional" && !$0.isOptional })
        {
            return "missing '<\(required.valueName ?? "argument")>'; see --help"
        }
        return nil
    }

    /// The parser's description of the whole tool.
    private static func shape(of command: any ParsableCommand.Type) -> Shape? {
        let dump: String
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            dump = command.fullMessage(for: error)
        }
        return try? JSONDecoder().decode(Tool.self, from: Data(dump.utf8)).command
    }
}
