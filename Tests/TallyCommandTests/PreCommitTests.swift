import Foundation
import TallyTestSupport
import Testing

/// tally's pre-commit hooks (`.pre-commit-hooks.yaml`, SPEC §8), as a user's repository runs
/// them: `tally-docs-check` fails on a stale region, and on an image not staged, and passes once
/// `tally-docs` has redrawn it and the image is added.
/// The hooks are `language: system`, so they run the `tally` this build made, put first on
/// PATH: no build in pre-commit's cache, a few seconds of CPU for the three runs (each clones
/// tally's checkout). try-repo reads the checkout at HEAD; where it has uncommitted changes to
/// tracked files (a worktree's too) it commits them in a shadow copy first, but an untracked file
/// is left out, so a new `.pre-commit-hooks.yaml` must be committed for this test to see it.
@Suite struct PreCommitTests {
    static let preCommit = installedProgram("pre-commit")

    @Test(
        .enabled(if: canRun(preCommit), "needs pre-commit (make test-deps installs it from PyPI)"),
        .processTimeLimit(minutes: 2))
    func theCheckHookFailsOnAStaleRegionAndPassesAfterTheUpdateHook() throws {
        let preCommit = try #require(Self.preCommit, "pre-commit is missing: make test-deps installs it")
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = folder.appendingPathComponent("user")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: false)
        let tallyFolder = TallyProcess.executable.deletingLastPathComponent().path
        let environment = [
            "PATH": tallyFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // pre-commit's cache, and the identity of the commit try-repo makes of a dirty checkout.
            "PRE_COMMIT_HOME": folder.appendingPathComponent("cache").path,
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
        ].merging(ProcessInfo.processInfo.environment) { ours, _ in ours }
        func run(_ program: URL, _ arguments: [String]) throws -> TallyRun {
            try runProgram(program, arguments, environment: environment, directory: repository, timeout: 40)
        }
        let git = try #require(installedProgram("git"), "git is missing")
        let readme = "# A project\n\n<!-- tally render 5 -o five.svg -->\n<!-- /tally -->\n"
        try Data(readme.utf8).write(to: repository.appendingPathComponent("README.md"))
        try #require(try run(git, ["init", "-q"]).status == 0)
        try #require(try run(git, ["add", "README.md"]).status == 0)

        func hook(_ id: String) throws -> TallyRun {
            try run(preCommit, ["try-repo", TallyProcess.packageRoot.path, id, "--all-files"])
        }
        let stale = try hook("tally-docs-check")
        #expect(stale.status == 1, "\(stale.text)\(stale.stderr)")
        #expect(stale.text.contains("README.md:3: image 'five.svg' is missing"), "\(stale.text)")
        // The update hook redraws: pre-commit reports the files it changed (and so fails).
        let update = try hook("tally-docs")
        #expect(update.text.contains("files were modified by this hook"), "\(update.text)\(update.stderr)")
        let svg = try Data(contentsOf: repository.appendingPathComponent("five.svg"))
        #expect(svg == (try TallyProcess.run(["render", "5"])).stdout)
        let updated = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(updated.contains("<img src=\"five.svg\""))
        // Up to date, but the image is not in the commit: both hooks run --staged and fail,
        // naming it and the git add that stages it (SPEC §8).
        let untracked = try hook("tally-docs-check")
        #expect(untracked.status == 1, "\(untracked.text)\(untracked.stderr)")
        #expect(
            untracked.text.contains("README.md:3: image 'five.svg' is untracked; git add five.svg"), "\(untracked.text)"
        )
        try #require(try run(git, ["add", "."]).status == 0)
        let fresh = try hook("tally-docs-check")
        #expect(fresh.status == 0, "\(fresh.text)\(fresh.stderr)")
        #expect(fresh.text.contains("Passed"), "\(fresh.text)")
    }
}
