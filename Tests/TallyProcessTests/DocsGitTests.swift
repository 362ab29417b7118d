import Foundation
import TallyTestSupport
import Testing

/// `tally docs` in a git work tree (SPEC §8): `--staged` fails while an image a region names is
/// not in git's index as written (untracked, ignored, changed since `git add`), naming each with
/// the `git add` that stages it; a search of the current folder leaves out the documents git
/// ignores, with one warning, and a document named on the command line is read all the same.
@Suite struct DocsGitTests {
    static let git = installedProgram("git")

    /// A fresh repository holding `README.md` with `readme`, and a `run` of git in it.
    struct Repository {
        let folder: URL
        let git: URL

        init(readme: String) throws {
            git = try #require(DocsGitTests.git, "git is missing")
            folder = try TallyProcess.temporaryDirectory()
            try #require(try run(["init", "-q"]).status == 0)
            // Set here: the machine's own identity and hooks are not the test's.
            _ = try run(["config", "user.name", "t"])
            _ = try run(["config", "user.email", "t@example.invalid"])
            try write("README.md", readme)
        }

        @discardableResult
        func run(_ arguments: [String]) throws -> TallyRun {
            try runProgram(git, arguments, directory: folder, timeout: 30)
        }

        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func tally(_ arguments: [String], environment: [String: String] = [:]) throws -> TallyRun {
            try TallyProcess.run(arguments, environment: environment, directory: folder)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static let readme = "# A project\n\n<!-- tally render 5 -o images/five.svg -->\n<!-- /tally -->\n"

    @Test(.enabled(if: git != nil || isCI, "needs git"), .processTimeLimit(minutes: 2))
    func stagedFailsUntilEveryImageIsStagedAsWritten() throws {
        try startingAProcess()
        let repository = try Repository(readme: Self.readme)
        defer { repository.remove() }
        try repository.run(["add", "README.md"])

        // The run writes the image, which git has not seen: the hook's run fails naming it.
        let untracked = try repository.tally(["docs", "--staged", "README.md"])
        #expect(untracked.status == 1, "\(untracked.stderr)")
        #expect(
            untracked.stderr.contains("README.md:3: image 'images/five.svg' is untracked; git add images/five.svg"),
            "\(untracked.stderr)")
        #expect(untracked.stderr.contains("3 images are not staged as written; git add them"), "\(untracked.stderr)")
        // The same with --check, which writes nothing and finds everything up to date.
        let checked = try repository.tally(["docs", "--check", "--staged", "README.md"])
        #expect(checked.status == 1, "\(checked.stderr)")
        #expect(checked.stderr.contains("image 'images/five.svg' is untracked"), "\(checked.stderr)")

        // Staged (an auto SVG is three files): both pass.
        try repository.run(["add", "README.md", "images"])
        for arguments in [["docs", "--staged", "README.md"], ["docs", "--check", "--staged", "README.md"]] {
            let passed = try repository.tally(arguments)
            #expect(passed.status == 0, "\(arguments): \(passed.stderr)")
            #expect(!passed.stderr.contains("staged"), "\(passed.stderr)")
        }

        // Changed after git add: the file in the work tree is not what a commit takes.
        let image = repository.folder.appendingPathComponent("images/five.svg")
        let drawn = try Data(contentsOf: image)
        try repository.write("README.md", Self.readme.replacingOccurrences(of: "render 5", with: "render 6"))
        let modified = try repository.tally(["docs", "--staged", "README.md"])
        #expect(modified.status == 1, "\(modified.stderr)")
        #expect(
            modified.stderr.contains(
                "README.md:3: image 'images/five.svg' has changes not staged; git add images/five.svg"),
            "\(modified.stderr)")
        #expect(try Data(contentsOf: image) != drawn)
        try repository.run(["add", "images"])
        #expect(try repository.tally(["docs", "--check", "--staged", "README.md"]).status == 0)
    }

    @Test(.enabled(if: git != nil || isCI, "needs git"), .processTimeLimit(minutes: 2))
    func stagedCoversEveryFileOfARegionAndIgnoredImages() throws {
        try startingAProcess()
        // An auto SVG writes three files, a PNG pair at two scales four: each is asked about.
        let readme = """
            <!-- tally badge 7 --theme auto -o images/seven.svg -->
            <!-- /tally -->
            <!-- tally render 8 --theme auto --scale 1,2 -f png -o images/eight.png -->
            <!-- /tally -->

            """
        let repository = try Repository(readme: readme)
        defer { repository.remove() }
        try repository.write(".gitignore", "images/seven-dark.svg\n")
        let run = try repository.tally(["docs", "--staged", "README.md"])
        #expect(run.status == 1, "\(run.stderr)")
        let expected = [
            "seven.svg", "seven-light.svg", "eight.png", "eight-dark.png", "eight@2x.png", "eight-dark@2x.png",
        ]
        for name in expected {
            #expect(
                run.stderr.contains("image 'images/\(name)' is untracked; git add images/\(name)"),
                "\(name): \(run.stderr)")
        }
        // An image git ignores is left out of a commit: git add -f stages it.
        #expect(
            run.stderr.contains(
                "image 'images/seven-dark.svg' is ignored by git, so a commit leaves it out; git add -f images/seven-dark.svg"
            ),
            "\(run.stderr)")
        try repository.run(["add", "images"])
        try repository.run(["add", "-f", "images/seven-dark.svg"])
        let staged = try repository.tally(["docs", "--staged", "README.md"])
        #expect(staged.status == 0, "\(staged.stderr)")
    }

    @Test(.enabled(if: git != nil || isCI, "needs git"), .processTimeLimit(minutes: 1))
    func stagedOutsideAWorkTreeOrWithoutGitIsAnEnvironmentError() throws {
        try startingAProcess()
        let folder = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.readme.utf8).write(to: folder.appendingPathComponent("README.md"))
        // The temporary folder is in no work tree, unless the machine's temporary folder is in one.
        let ancestors = sequence(first: folder.deletingLastPathComponent()) {
            $0.path == "/" ? nil : $0.deletingLastPathComponent()
        }
        if !ancestors.contains(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent(".git").path) }
        ) {
            let outside = try TallyProcess.run(["docs", "--staged", "README.md"], directory: folder)
            expectOneLineError(outside, status: 69, mentioning: "'images/five.svg' is not in a git work tree")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("images/five.svg").path))
        }
        let repository = try Repository(readme: Self.readme)
        defer { repository.remove() }
        let withoutGit = try repository.tally(
            ["docs", "--staged", "README.md"], environment: ["PATH": folder.appendingPathComponent("no-bin").path])
        expectOneLineError(withoutGit, status: 69, mentioning: "git cannot be run")
    }

    @Test(.enabled(if: git != nil || isCI, "needs git"), .processTimeLimit(minutes: 2))
    func aSearchOfTheCurrentFolderSkipsDocumentsGitIgnores() throws {
        try startingAProcess()
        let repository = try Repository(readme: Self.readme)
        defer { repository.remove() }
        let region = "<!-- tally render 3 -o three.svg -->\n<!-- /tally -->\n"
        try repository.write("build/out.md", region)
        try repository.write("notes.md", region)
        // A document git ignores by pattern but tracks is git's, and is kept.
        try repository.write("docs/kept.md", region)
        try repository.write(".gitignore", "build/\nnotes.md\ndocs/kept.md\n")
        try repository.run(["add", "-f", "docs/kept.md"])

        let bare = try repository.tally(["docs"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(
            bare.stderr.contains("tally: warning: skipped 2 documents git ignores; name one to keep its regions"),
            "\(bare.stderr)")
        #expect(bare.stderr.contains("2 regions in 2 documents"), "\(bare.stderr)")
        let folder = repository.folder
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("images/five.svg").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("docs/three.svg").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("three.svg").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("build/three.svg").path))

        // Named, an ignored document is read; so is an ignored folder's.
        let named = try repository.tally(["docs", "notes.md", "build"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!named.stderr.contains("git ignores"), "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("three.svg").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("build/three.svg").path))

        // From a folder below the top, paths are git's relative to it too.
        let below = try TallyProcess.run(["docs"], directory: folder.appendingPathComponent("build"))
        #expect(below.status == 0, "\(below.stderr)")
        #expect(below.stderr.contains("skipped 1 document git ignores; name it to keep its regions"), "\(below.stderr)")
        #expect(below.stderr.contains("no region in 0 documents read"), "\(below.stderr)")
    }
}
