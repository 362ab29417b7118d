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
