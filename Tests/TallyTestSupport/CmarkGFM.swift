import Foundation
import Testing

/// python3 with cmark-gfm, the parser GitHub renders Markdown with (the PyPI package
/// `cmarkgfm`; `scripts/install-deps test` installs it); nil where either is missing.
public let cmarkGFMPython: URL? = {
    guard let python = installedProgram("python3") else { return nil }
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", "import cmarkgfm"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? python : nil
}()

/// Whether a test that asks cmark-gfm runs: where it is installed, and always under CI, where a
/// missing one fails the test. Use with `.enabled(if:_:)`.
public let canAskCmarkGFM = cmarkGFMPython != nil || isCI

/// Markdown documents rendered to HTML by cmark-gfm with GitHub's extensions, raw HTML kept
/// (as GitHub keeps a comment), all in one python process.
public func cmarkGFMRender(_ documents: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String]
{
    let script = """
        import json, sys, cmarkgfm
        from cmarkgfm.cmark import Options
        docs = json.load(sys.stdin)
        json.dump([cmarkgfm.github_flavored_markdown_to_html(d, options=Options.CMARK_OPT_UNSAFE) for d in docs], sys.stdout)
        """
    return try askCmarkGFM(script, documents, sourceLocation: sourceLocation)
}

/// The output of a python `script` that reads JSON `documents` on stdin and writes a JSON list
/// of one answer a document, in one process with a timeout.
public func askCmarkGFM<Answer>(
    _ script: String, _ documents: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> [Answer] {
    let python = try #require(
        cmarkGFMPython, "python3 with cmarkgfm is missing (scripts/install-deps test)", sourceLocation: sourceLocation)
    let input = try JSONSerialization.data(withJSONObject: documents)
    let run = try runProgram(
        python, ["-c", script], stdin: input, timeout: 60, inQuickCheck: true, sourceLocation: sourceLocation)
    try #require(run.status == 0, "cmarkgfm failed: \(run.stderr)", sourceLocation: sourceLocation)
    let answers = try #require(
        try JSONSerialization.jsonObject(with: run.stdout) as? [Answer], sourceLocation: sourceLocation)
    try #require(answers.count == documents.count, sourceLocation: sourceLocation)
    return answers
}

/// cmark-gfm's HTML with every region's span (its opener to its closer, both included) cut out:
/// what the page shows outside regions (SPEC §8). A paragraph that held only a region counts as
/// the region.
public func htmlOutsideRegions(_ html: String) -> String {
    html.replacing(/<!-- tally [\s\S]*?<!-- \/tally -->/, with: "<!--region-->")
        .replacing(/<p><!--region--><\/p>|<p>\s*<!--region-->\s*<\/p>/, with: "<!--region-->")
}
