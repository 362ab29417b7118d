import Foundation
import TallyTestSupport
import Testing

@Suite struct HelpTests {
    @Test(arguments: [
        ["--help"], ["render", "--help"], ["batch", "--help"], ["gallery", "--help"], ["describe", "--help"],
        ["docs", "--help"], ["help", "render"],
    ])
    func helpShowsExamples(_ arguments: [String]) throws {
        let run = try TallyProcess.run(arguments)
        #expect(run.status == 0)
        #expect(run.text.contains("Examples:") && run.text.contains("tally "), "\(arguments)")
    }

    @Test func versionAndCompletions() throws {
        let version = try TallyProcess.run(["--version"])
        #expect(version.status == 0 && version.text.split(separator: ".").count == 3)
        for shell in ["bash", "zsh", "fish"] {
            let run = try TallyProcess.run(["--generate-completion-script", shell])
            #expect(
                run.status == 0 && run.text.contains("gallery") && run.text.contains("animate-from")
                    && run.text.contains("docs"),
                "\(shell)")
        }
    }

    /// `render --help` is about one image: it speaks neither of galleries, whose tiles and sheet
    /// are the gallery's own options, nor of dashes, where SPEC §2 and §6 draw a goal's remaining
    /// cells dotted.
    @Test func renderHelpIsAboutOneImage() throws {
        let help = try TallyProcess.run(["render", "--help"]).text.lowercased()
        #expect(!help.contains("galler"), "\(help)")
        #expect(!help.contains("dashed"), "\(help)")
        #expect(help.contains("dotted"), "the goal's cells, as SPEC §6 draws them")
    }

    /// `describe` has no `-f`: its preview is asked for with --picture, and its help says so.
    @Test func describeHelpNamesNoFormatOption() throws {
        let help = try TallyProcess.run(["describe", "--help"]).text
        #expect(try Self.optionsNamed(in: help).isDisjoint(with: ["-f", "--format"]), "\(help)")
        #expect(help.contains("With --picture"), "the preview options name what draws the preview")
    }

    /// The options a help text names from its usage line on (its option rows, and options its
    /// descriptions refer to, such as "-f term" or "--frame implies"): a dash or two and a
    /// letter, not inside a word (`hundred-block`) and not a value (`-5`).
    static func optionsNamed(in help: String) throws -> Set<String> {
        let usage = try #require(help.range(of: "USAGE:"), "a usage line")
        // Runs of letters, digits and dashes; an option is one that starts with a dash or two
        // and then a letter.
        let runs = help[usage.lowerBound...].split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }
        return Set(
            runs.filter { run in
                let name = run.drop { $0 == "-" }
                return (1...2).contains(run.count - name.count) && name.first?.isLetter == true
            }.map(String.init))
    }

    /// Every option a command's help names, in its option rows or in the words of another
    /// option's help, is one that command shows and takes: its parser declares it, and not as
    /// hidden (a gallery parses --animate only to refuse it). Over every command. So no help
    /// sends a reader to an option of another command (`describe -f term`).
    @Test(arguments: ["render", "batch", "gallery", "badge", "describe", "docs", "serve"])
    func everyOptionAHelpNamesIsTheCommands(_ command: String) throws {
        let help = try TallyProcess.run([command, "--help"]).text
        let run = try TallyProcess.run(["--experimental-dump-help"])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let root = try #require(object["command"] as? [String: Any])
        let subcommands = try #require(root["subcommands"] as? [[String: Any]])
        let sub = try #require(subcommands.first { $0["commandName"] as? String == command })
        var shown: Set<String> = []
        for argument in sub["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool == true {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String, let kind = name["kind"] as? String else { continue }
                shown.insert((kind == "short" ? "-" : "--") + text)
            }
        }
        let named = try Self.optionsNamed(in: help)
        #expect(!named.isEmpty)
        #expect(named.subtracting(shown).isEmpty, "\(command) --help names \(named.subtracting(shown).sorted())")
    }

    /// The man page is made from the same command definitions (`make man`); its source, the
    /// tool description, carries every command's examples.
    @Test func theManPageSourceHasTheExamples() throws {
        let run = try TallyProcess.run(["--experimental-dump-help"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let command = try #require(object["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        for name in ["render", "batch", "gallery", "describe", "docs"] {
            let sub = try #require(subcommands.first { $0["commandName"] as? String == name })
            #expect((sub["discussion"] as? String)?.contains("Examples:") == true, "\(name)")
        }
    }
}
