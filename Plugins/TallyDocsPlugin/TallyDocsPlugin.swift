import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory tally-docs [--check] [paths…]`: runs
/// `tally docs` (SPEC §8) over a package's documents, so a package that depends on tally keeps
/// its pictures with nothing installed. Without paths: README.md, docs/ and every `.docc`
/// catalogue of the package's targets, those that exist. Every argument is passed on to
/// `tally docs` as it is (`--check` for CI).
@main
struct TallyDocsPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tally = try Self.tally(in: context)
        let root = context.package.directoryURL
        let options = arguments.filter { $0.hasPrefix("-") }
        var paths = arguments.filter { !$0.hasPrefix("-") }
        if paths.isEmpty { paths = Self.defaultPaths(of: context.package) }
        guard !paths.isEmpty else {
            Diagnostics.remark("tally-docs: no README.md, docs/ or .docc catalogue in \(context.package.displayName)")
            return
        }
        let process = Process()
        process.executableURL = tally
        process.arguments = ["docs"] + options + paths
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        // tally has said what is wrong, FILE:LINE by line, on stderr; the exit code is its own.
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            exit(process.terminationReason == .exit ? process.terminationStatus : 1)
        }
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
