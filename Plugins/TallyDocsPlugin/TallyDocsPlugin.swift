import Foundation
import PackagePlugin

/// `swift package [--allow-writing-to-package-directory] tally-docs [--check] [paths…]`: runs
/// `tally docs` (SPEC §8) over a package's documents, so a package that depends on tally keeps
/// its pictures with nothing installed. Without paths: README.md, docs/ and every `.docc`
/// catalogue of the package's targets, those that exist. Every other argument is passed on to
/// `tally docs` as it is (`--check` for CI).
///
/// The plugin declares no permission, so `--check`, which writes nothing, runs without one and
/// exits with tally's own codes (1: stale). A run that would write needs
/// `--allow-writing-to-package-directory`; without it the plugin exits 73 (SPEC §6: an output
/// that cannot be created), with the command to run, and writes nothing.
@main
struct TallyDocsPlugin: CommandPlugin {
    /// The exit code of a run that must write and may not: SPEC §6's "an output that cannot be
    /// created", what tally itself says of a file it cannot create; never 1, which is "stale".
    static let mayNotWrite: Int32 = 73

    /// SwiftPM's option that lets a plugin write in the package.
    static let permission = "--allow-writing-to-package-directory"

    /// The plugin's help: its own defaults, not `tally docs`'s (the current folder).
    static let help = """
        OVERVIEW: Keep the tally pictures of this package's documents up to date (tally docs).

        USAGE: swift package \(permission) tally-docs [<path> ...]
               swift package tally-docs --check [<path> ...]

        ARGUMENTS:
          <path>    Documents, or folders searched for .md, .markdown and .html files.
                    Default: README.md, docs/ and every .docc catalogue of the package's
                    targets, those that exist.

        OPTIONS:
          --check   Write nothing: name every stale region as FILE:LINE on stderr and exit 1.
                    Needs no permission: the command for CI.
          -h, --help  Show this help.

        Updating writes images and documents in the package, so it needs
        \(permission); without it, a run that would write exits 73 and writes nothing.
        The plugin ends with 0 up to date (or brought up to date); 1 stale (--check); 64 a bad
        region; 73 no permission to write, or a file a region may not write; 74 a write that
        failed. SwiftPM shows it ("Plugin ended with exit code 73") and exits 1 for any failure.
        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Self.help)
            return
        }
        let tally = try Self.tally(in: context)
        let root = context.package.directoryURL
        let options = arguments.filter { $0.hasPrefix("-") }
        var paths = arguments.filter { !$0.hasPrefix("-") }
        if paths.isEmpty { paths = Self.defaultPaths(of: context.package) }
        guard !paths.isEmpty else {
            Diagnostics.remark("tally-docs: no README.md, docs/ or .docc catalogue in \(context.package.displayName)")
            return
        }
        // The plugin writes only inside the package: a path that leads out of it (`..`, a
        // link) is refused before tally runs.
        let inside = root.resolvingSymlinksInPath().standardizedFileURL.path
        for path in paths {
            let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appending(path: path))
                .resolvingSymlinksInPath().standardizedFileURL.path
            guard url == inside || url.hasPrefix(inside + "/") else {
                FileHandle.standardError.write(
                    Data(
                        "tally-docs: error: '\(path)' is outside the package; the plugin keeps the package's own documents\n"
                            .utf8))
                exit(64)
            }
        }
        // An update that would write needs the permission; one that finds everything up to date,
        // or a bad region, writes nothing and says so as tally docs does.
        if !options.contains("--check"), !Self.mayWrite(in: root),
            try Self.run(tally, ["docs", "--check"] + options + paths, in: root, quietly: true) == 1
        {
            FileHandle.standardError.write(
                Data(
                    "tally-docs: error: the pictures are stale, and writing them needs permission; run: swift package \(Self.permission) tally-docs\n"
                        .utf8))
            exit(Self.mayNotWrite)
        }
        // tally has said what is wrong, FILE:LINE by line, on stderr; the exit code is its own.
        let status = try Self.run(tally, ["docs"] + options + paths, in: root, quietly: false)
        if status == 1 && options.contains("--check") {
            // tally's own advice names tally; through the plugin the update is the plugin's.
            FileHandle.standardError.write(
                Data("tally-docs: to update them: swift package \(Self.permission) tally-docs\n".utf8))
        }
        if status != 0 { exit(status) }
    }

    /// Runs tally in `folder`, and gives its exit code (1 when a signal ended it); `quietly`
    /// sends its stderr nowhere.
    static func run(_ tally: URL, _ arguments: [String], in folder: URL, quietly: Bool) throws -> Int32 {
        let process = Process()
        process.executableURL = tally
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if quietly { process.standardError = FileHandle.nullDevice }
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 1
    }

    /// Whether this run may write in the package. On Linux SwiftPM runs plugins without a
    /// sandbox, so the plugin reads the command SwiftPM was given (its parent's arguments) for
    /// the permission; elsewhere (macOS's sandbox), whether a file can be made in the package.
    static func mayWrite(in root: URL) -> Bool {
        #if os(Linux)
        if let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(getppid())/cmdline")) {
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if words.first?.hasSuffix("swift-package") == true { return words.contains(permission) }
        }
        #endif
        let probe = root.appending(path: ".tally-docs-\(getpid())").path
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        unlink(probe)
        return true
    }

    /// The `tally` this package builds.
    static func tally(in context: PluginContext) throws -> URL {
        if let tool = try? context.tool(named: "tally") { return tool.url }
        return try context.tool(named: "TallyTool").url
    }

    /// README.md, docs/ and the targets' `.docc` catalogues, as paths from the package's root.
    static func defaultPaths(of package: Package) -> [String] {
        let root = package.directoryURL
        var paths: [String] = []
        for name in ["README.md", "docs"] where FileManager.default.fileExists(atPath: root.appending(path: name).path)
        {
            paths.append(name)
        }
        for target in package.targets {
            guard let module = target as? SourceModuleTarget else { continue }
            let folder = module.directoryURL
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for entry in entries.sorted() where entry.hasSuffix(".docc") {
                let full = folder.appending(path: entry).standardizedFileURL.path
                let base = root.standardizedFileURL.path
                guard full.hasPrefix(base + "/") else { continue }
                paths.append(String(full.dropFirst(base.count + 1)))
            }
        }
        return paths
    }
}
