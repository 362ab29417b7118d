import TallyOptions
import TallyPOSIX

/// `tally generated-docs [ROOT]`: `make docs` runs it to write the docs' lists of options from
/// their declarations (`GeneratedDocs`) into the package at ROOT (default: the current folder).
/// Not a user's command, and not one of the parser's: the man page, which swift-argument-parser
/// writes from every command it declares, hidden or not, and help and the completions leave it out.
enum GeneratedDocsCommand {
    static let name = "generated-docs"

    /// Writes each region that differs from its declarations, and names it on stdout.
    static func run(_ arguments: ArraySlice<String>) throws(CommandFailure) {
        guard arguments.count <= 1 else { throw .usage("\(name) takes one argument at most, the package's root") }
        let root = arguments.first ?? "."
        for region in GeneratedDocs.regions {
            let path = root + "/" + region.file
            let (bytes, _) = try DocumentFiles.contents(of: path, shown: Values.printable(path))
            let document = String(decoding: bytes, as: UTF8.self)
            guard let filled = GeneratedDocs.filled(document, region) else {
                throw .usage("'\(Values.printable(path))' has no region '\(GeneratedDocs.opening(region.name))'")
            }
            guard filled != document else { continue }
            try Output.writeAtomically(Array(filled.utf8), to: path)
            try Output.writeToStandardOutput(Array("wrote \(region.file): \(region.name)\n".utf8))
        }
    }
}
