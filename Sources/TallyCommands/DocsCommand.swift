import ArgumentParser
import TallyDocs
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender

/// `tally docs [--check] [--staged] [paths…]`: keeps the tally regions of Markdown and HTML documents
/// true (SPEC §8). A thin shell: `RegionDocument` reads the regions and `DocsPlanner` plans the
/// run; this command finds and reads the files, reads each region's command with the command
/// line's own parser and draws it with the command's own code, and writes what the plan says.
struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Keep the tally pictures in Markdown and HTML documents up to date.",
        discussion: """
            A region is an HTML comment holding a render, badge or gallery command, and a \
            closing comment. tally writes the image with the command's exact bytes (-o is \
            relative to the document) and, between the comments, an <img> with alt text from the \
            picture's own title, width and height. A theme that follows the colour scheme (auto, \
            the SVG default) gets a light and a dark file and a <picture> whose dark source \
            follows the page; --scale 1,2 writes one PNG a density and a srcset. In a .docc \
            catalogue files get DocC's names (name~dark.png, name@2x.png) and the reference is \
            ![alt](name). Regions inside fenced code blocks are text.

              <!-- tally badge 1234 --label downloads -o images/downloads.svg -->
              <!-- /tally -->

            Everything outside the regions stays byte for byte; a file whose bytes are right is \
            not written again. If any region is bad, each is named as FILE:LINE with the \
            command's own error and exit code, and no file changes.

            A region writes only images, only inside its document's folder, all or nothing.

            Examples:
              tally docs README.md docs          update README.md and docs/
              tally docs --check README.md docs  for CI: name stale regions, exit 1
              tally docs --staged README.md      for pre-commit: fail on images not staged
              tally docs                         every document below here
            """)

    /// Where the documents are.
    @Argument(
        help: ArgumentHelp(
            "Documents, or folders searched for .md, .markdown, .html and .htm files (hidden folders skipped); default: the current folder, less the documents git ignores.",
            valueName: "path"))
    var paths: [String] = []

    /// Compare instead of write.
    @Flag(help: "Write nothing: name every stale region as FILE:LINE on stderr, and exit 1 if there is one.")
    var check = false

    /// Ask git, after the run, whether every image of the regions is staged as written.
    @Flag(
        help:
            "Fail when an image a region names is not staged as written (untracked, ignored, or changed since git add): name each as FILE:LINE with the git add that stages it, and exit 1. For pre-commit; needs git."
    )
    var staged = false

    /// A document larger than this is refused before it is read, and one an update would make
    /// larger before anything is written.
    static let maximumDocumentBytes = 16 << 20

    func run() throws { try Self.run(paths: paths, check: check, staged: staged) }

    /// `tally docs [--check] [--staged] [paths…]` read without swift-argument-parser, whose
    /// reflection over every command's options costs about 10M instructions: only paths,
    /// `--check` and `--staged`; nil for anything else (help, `--`, a path starting with `-`),
    /// which the parser reads.
    static func plain(_ arguments: [String]) -> (paths: [String], check: Bool, staged: Bool)? {
        guard arguments.first == "docs" else { return nil }
        var paths: [String] = []
        var check = false
        var staged = false
        for argument in arguments.dropFirst() {
            if argument == "--check" && !check {
                check = true
            } else if argument == "--staged" && !staged {
                staged = true
            } else if argument.hasPrefix("-") {
                return nil
            } else {
                paths.append(argument)
            }
        }
        return (paths, check, staged)
    }

    /// Keeps the regions of the documents below `paths`, or checks them.
    static func run(paths: [String], check: Bool, staged: Bool = false) throws(CommandFailure) {
        // Past `ulimit -f` a write then fails with EFBIG, reported as any failure is, instead
        // of SIGXFSZ ending tally without a word.
        signal(SIGXFSZ, SIG_IGN)
        // A folder a document's regions write in stays open for the run, so a link swapped in
        // later cannot move it: a run over many folders needs more than the default 1,024.
        DescriptorLimit.raiseToHardLimit()
        let pause = getenv("TALLY_DOCS_PAUSE_AFTER_RENAME").flatMap { UInt32(String(cString: $0)) }
        let operations: any DocsFileOperations =
            pause.map { PausingFileOperations(seconds: $0) } ?? SystemFileOperations()
        let outcome = try DocsRun.update(
            paths: paths, check: check, staged: staged, operations: operations,
            say: { StandardError.send($0 + "\n") })
        StandardError.send("tally: \(outcome)\n")
    }

    /// `README.md:12: message`, with the path's unprintable bytes escaped.
    static func shown(_ finding: DocsFinding) -> String {
        "\(Values.printable(finding.path, limit: 300)):\(finding.line): \(Values.printable(finding.message, limit: 1_000))"
    }
}

/// A run of `tally docs`, apart from its command line, so tests can run it in process with
/// their own `DocsFileOperations`.
package enum DocsRun {
    /// Keeps or checks the regions of the documents below `paths`, writing through
    /// `operations`, and says what it did (`3 regions in 1 document: up to date`). The lines
    /// for stderr before the last (warnings, every bad region but the last, stale regions) go
    /// to `say`, one at a time; the last failure is thrown.
    /// With `staged`, every image of the regions must be in git's index as it is in the work
    /// tree once the run is done, or the run fails naming each (SPEC §8).
    package static func update(
        paths: [String], check: Bool, staged: Bool = false, operations: any DocsFileOperations,
        say: (String) -> Void
    ) throws(CommandFailure) -> String {
        func warn(_ message: String) { say("tally: warning: \(message)") }
        var found = try DocumentFiles.find(paths.isEmpty ? ["."] : paths, warn: warn)
        if paths.isEmpty {
            // A search of the current folder in a git work tree leaves out what git ignores
            // (SPEC §8); a document named on the command line is read all the same.
            let ignored = DocsGit.ignored(found)
            if !ignored.isEmpty {
                found.removeAll { ignored.contains($0.path) }
                warn(
                    "skipped \(Words.grouped(UInt64(ignored.count))) \(ignored.count == 1 ? "document" : "documents") git ignores; name \(ignored.count == 1 ? "it" : "one") to keep its regions"
                )
            }
        }
        let files = try DocumentFiles.load(found, warn: warn)
        let targets = DocsTargets(files)
        let plan = DocsPlanner.plan(
            files.map {
                DocsPlanner.Document(
                    path: $0.path, bytes: $0.bytes, folder: $0.isLink ? $0.realFolder : nil, realFolder: $0.realFolder)
            },
            readCommand: RegionCommand.read,
            target: { image, document throws(DocsFailure) in try targets.target(image, of: document) },
            existing: targets.compare,
            maximumDocumentBytes: DocsCommand.maximumDocumentBytes)
        for warning in plan.warnings { say("tally: warning: \(DocsCommand.shown(warning))") }
        if let last = plan.failures.last {
            for failure in plan.failures.dropLast() {
                say(CommandFailure.line(DocsCommand.shown(failure)).trimmingNewline())
            }
            throw CommandFailure(CommandFailure.Code(rawValue: last.code) ?? .usage, DocsCommand.shown(last))
        }
        // A run that finds no region says how many documents it read ("0 regions in 0
        // documents" for a file named on the command line read as if it were not read).
        var scope =
            plan.regions == 0
            ? "no region in \(Words.grouped(UInt64(files.count))) \(files.count == 1 ? "document" : "documents") read"
            : "\(Words.grouped(UInt64(plan.regions))) \(plan.regions == 1 ? "region" : "regions") in \(Words.grouped(UInt64(plan.documents))) \(plan.documents == 1 ? "document" : "documents")"
        if plan.openersNotRun > 0 {
            // An opener that is not run is never summed up as "0 regions" (SPEC §8).
            let notRun = plan.openersNotRun
            scope =
                "\(plan.regions == 0 ? "no region run" : scope), \(Words.grouped(UInt64(notRun))) \(notRun == 1 ? "opener" : "openers") not run (see the warnings)"
        }
        // --staged: each image's work tree is found before anything is written, and git is
        // asked once the images are what the run leaves.
        let placed = staged ? try DocsGit.workTrees(of: plan.images, targets: targets) : []
        func unstaged() throws(CommandFailure) -> [DocsGit.Unstaged] {
            guard staged else { return [] }
            let found = try DocsGit.unstaged(placed)
            for item in found { say(item.line) }
            return found
        }
        if check {
            for stale in plan.stale { say(DocsCommand.shown(stale)) }
            let notStaged = try unstaged()
            let staleRegions = Set(plan.stale.map { "\($0.path):\($0.line)" }).count
            guard staleRegions == 0 else {
                throw CommandFailure(
                    .failure,
                    "\(Words.grouped(UInt64(staleRegions))) of \(scope) \(staleRegions == 1 ? "is" : "are") stale; run tally docs to update \(staleRegions == 1 ? "it" : "them")"
                )
            }
            return try DocsGit.outcome("\(scope): up to date", unstaged: notStaged)
        }
        var writes: [DocsTransaction.File] = []
        for write in plan.writes {
            let target: DocsTargets.Target
            do throws(DocsFailure) {
                target = try targets.target(named: write.target)
            } catch {
                throw CommandFailure(
                    CommandFailure.Code(rawValue: error.code) ?? .cannotCreate,
                    "\(Values.printable(write.document, limit: 300)):\(write.line): \(error.message)")
            }
            // A document its owner made read-only is not rewritten behind their back (a rename
            // would replace it though it refuses writes); making it writable is how to ask.
            if !write.isImage, let mode = target.mode, mode & 0o200 == 0 {
                throw CommandFailure(
                    .cannotCreate,
                    "'\(Values.printable(write.document, limit: 300))' is read-only (mode \(String(mode & 0o7777, radix: 8))); make it writable (chmod u+w) to update its regions"
                )
            }
            writes.append(
                DocsTransaction.File(
                    target: target, bytes: write.bytes,
                    origin: "\(Values.printable(write.document, limit: 300)):\(write.line)"))
        }
        // What killed runs left beside this run's files goes first (SPEC §8), whether or not
        // this run writes them.
        var everyTarget = Array(targets.targets.values)
        for file in files {
            if let document = try? targets.target(named: file.path) { everyTarget.append(document) }
        }
        let leftovers = DocsTransaction.removeLeftovers(beside: everyTarget)
        // A second name that could not be removed after success is said, never kept quiet.
        for line in try DocsTransaction(operations: operations).apply(writes) { say("tally: warning: \(line)") }
        if leftovers > 0 {
            say(
                "tally: removed \(leftovers) \(leftovers == 1 ? "file" : "files") an interrupted run left beside its own (.NAME.tally-…)"
            )
        }
        let images = plan.writes.filter(\.isImage).count
        let written = plan.writes.count - images
        let notStaged = try unstaged()
        if plan.writes.isEmpty { return try DocsGit.outcome("\(scope): up to date", unstaged: notStaged) }
        return try DocsGit.outcome(
            "\(scope): wrote \(Words.grouped(UInt64(images))) \(images == 1 ? "image" : "images") and \(Words.grouped(UInt64(written))) \(written == 1 ? "document" : "documents")",
            unstaged: notStaged)
    }
}

/// A region's command, read by the command line's parser and drawn by the command's code.
enum RegionCommand {
    /// The commands a region may run: those that draw one image.
    static let names = ["render", "badge", "gallery"]

    /// Reads a region's words as `tally` would read them, with the same messages: `render`
    /// and `badge` as `PlainRender` reads them where it can (the parser's reflection over every
    /// option costs about 6M instructions a region), the rest by the parser.
    static func read(_ words: [String]) throws(DocsFailure) -> DocsPlanner.Command {
        guard let name = words.first, names.contains(name) else {
            throw DocsFailure(
                "a region runs render, badge or gallery, not '\(Values.printable(words.first ?? ""))'")
        }
        if let asked = words.first(where: { ["--help", "-h", "--version"].contains($0) }) {
            throw DocsFailure("a region draws an image; '\(asked)' is for the command line")
        }
        var arguments = TallyCommand.emptyValuesKept(words)
        do {
            arguments = try TallyCommand.negativeCountsRead(arguments)
            if name == "render", let plain = PlainRender.read(arguments.dropFirst(), options: RenderOption.all) {
                return try render(count: plain.count, output: plain.output, format: plain.format, given: plain.given)
            }
            if name == "badge", let plain = PlainRender.read(arguments.dropFirst(), options: RenderOption.badgeOptions)
            {
                return try badge(count: plain.count, output: plain.output, format: plain.format, given: plain.given)
            }
            switch try TallyCommand.parseAsRoot(arguments) {
            case let parsed as Render:
                return try render(
                    count: parsed.count, output: parsed.output, format: parsed.format, given: parsed.drawing.given())
            case let parsed as BadgeCommand:
                return try badge(
                    count: parsed.count, output: parsed.output, format: parsed.format, given: parsed.given())
            case let parsed as GalleryCommand:
                return try gallery(
                    counts: parsed.counts, output: parsed.output, format: parsed.format, given: parsed.drawing.given())
            default: throw DocsFailure("a region runs render, badge or gallery")
            }
        } catch let failure as DocsFailure {
            throw failure
        } catch {
            let failure =
                TallyCommand.failure(for: error, of: TallyCommand.self, arguments: arguments)
                ?? CommandFailure.usage("a region draws an image")
            throw DocsFailure(failure)
        }
    }

    /// A `render` region: SVG or PNG, by -f or -o's extension. Its alt text is its title and
    /// structure, as `tally describe` says them, or its `--label`.
    static func render(count: String, output: String?, format: String?, given: [RenderOption: String])
        throws(CommandFailure) -> DocsPlanner.Command
    {
        let count = try Values.count(count)
        let output = try self.output(output)
        guard let format = try Render.chosenFormat(format, output: output).output else {
            throw CommandFailure.usage(formatMessage("term"))
        }
        let imageFormat = try self.imageFormat(format.rawValue)
        let scales = CommandFiles.scales(given[.scale])
        // Read once with the first scale, for the title and to name a bad option before anything
        // is drawn.
        let options = try RenderOptions(given.with(.scale, scales.first))
        let alt =
            try options.settings(format: format).label
            ?? Words.title(for: count, goal: options.goal) + ": " + Words.description(for: count)
        let request = ImageRequest(
            output: output, format: imageFormat,
            followsColorScheme: CommandFiles.follows(given[.theme], format: imageFormat),
            scales: scales, alt: alt)
        // A light and a dark file share the layout of their scale: only the palette differs.
        let layouts = LayoutCache()
        return drawing(given, request: request) { variant throws(CommandFailure) in
            let options = try RenderOptions(variant)
            let settings = try options.settings(format: format)
            do throws(RenderError) {
                let key = variant[.scale] ?? ""
                if let layout = layouts.byScale[key] { return try Renderer.render(layout, as: format, settings) }
                let layout = layouts.made(key, try Renderer.layout(count, format, settings))
                return try Renderer.render(layout, as: format, settings)
            } catch {
                throw options.failure(error)
            }
        }
    }

    /// A `badge` region: its alt text is the badge's accessible name (SPEC §7).
    static func badge(count: String, output: String?, format: String?, given: [RenderOption: String])
        throws(CommandFailure) -> DocsPlanner.Command
    {
        let output = try self.output(output)
        let scales = CommandFiles.scales(given[.scale])
        let prepared = try BadgeCommand.prepared(
            count: count, output: output, format: format, given: given.with(.scale, scales.first))
        let imageFormat = try self.imageFormat(prepared.format.rawValue)
        let request = ImageRequest(
            output: output, format: imageFormat,
            followsColorScheme: CommandFiles.follows(given[.theme], format: imageFormat),
            scales: scales, alt: prepared.badge.title)
        // The layout depends on the count, goal and label alone, the same in every file.
        return drawing(given, among: RenderOption.badgeOptions, request: request) { variant throws(CommandFailure) in
            try BadgeCommand.drawn(
                try BadgeCommand.prepared(
                    count: count, output: output, format: format, given: variant, reusing: prepared.badge)
            ).bytes
        }
    }

    /// A `gallery` region: its counts are written in the region, never read from a file; its
    /// alt text is its `--label`, or the counts it shows.
    static func gallery(counts: [String], output: String?, format: String?, given: [RenderOption: String])
        throws(CommandFailure) -> DocsPlanner.Command
    {
        if let list = counts.first(where: { $0 == "-" || $0.hasPrefix("@") }) {
            throw CommandFailure.usage(
                "a region's counts are written in it; '\(Values.printable(list))' reads them from elsewhere")
        }
        let output = try self.output(output)
        let sheetFormat = try Output.format(
            given: format, output: output, fallback: Gallery.Format.svg,
            fromExtension: Gallery.Format.init(pathExtension:))
        let imageFormat = try self.imageFormat(sheetFormat.rawValue)
        let scales = CommandFiles.scales(given[.scale])
        let options = try RenderOptions(given.with(.scale, scales.first))
        let list = try CountList.parse(
            counts.isEmpty ? ["thresholds"] : counts,
            readStandardInput: { () throws(CommandFailure) in [] }, readFile: { _ throws(CommandFailure) in [] })
        let shown = (0..<min(list.total, UInt64(Gallery.maximumCounts))).map { Words.grouped(list[$0].value) }
        let alt = try options.settings(format: .svg).label ?? "Tallies of " + shown.joined(separator: ", ")
        let request = ImageRequest(
            output: output, format: imageFormat,
            followsColorScheme: CommandFiles.follows(given[.theme], format: imageFormat),
            scales: scales, alt: alt)
        return drawing(given, request: request) { variant throws(CommandFailure) in
            try GalleryCommand.drawn(counts: counts, output: output, format: format, given: variant).bytes
        }
    }

    /// A region's command whose files are drawn by `draw` from the options as given, with each
    /// file's theme and scale in them, so every file is the command's own bytes for them.
    static func drawing(
        _ given: [RenderOption: String], among options: [RenderOption] = RenderOption.all, request: ImageRequest,
        draw: @escaping ([RenderOption: String]) throws(CommandFailure) -> [UInt8]
    ) -> DocsPlanner.Command {
        DocsPlanner.Command(request: request) { image throws(DocsFailure) in
            let variant = RenderOptions.variant(
                given, theme: image.theme, scale: image.scale ?? request.scales.first, among: options)
            do throws(CommandFailure) {
                return try draw(variant)
            } catch {
                throw DocsFailure(error)
            }
        }
    }

    /// `-o`, which a region must give: a file beside or below its document.
    static func output(_ given: String?) throws(CommandFailure) -> String {
        guard let given, given != "-" else {
            throw CommandFailure.usage("a region writes a file: give -o with a path relative to the document")
        }
        return given
    }

    /// SVG or PNG: the formats an `<img>` shows.
    static func imageFormat(_ name: String) throws(CommandFailure) -> DocsImageFormat {
        guard let format = DocsImageFormat(rawValue: name) else { throw CommandFailure.usage(formatMessage(name)) }
        return format
    }

    static func formatMessage(_ name: String) -> String {
        "a region draws svg or png, which a page shows as an image; \(name) is not one"
    }
}

/// The layouts of one region's files, by scale: `Renderer.render(count, as:, settings)` is
/// `Renderer.layout` then `Renderer.render(layout, …)`, and a layout does not depend on the
/// theme, so the files of a light and dark pair are the bytes `render` writes for each.
final class LayoutCache {
    typealias Layout = (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?)
    var byScale: [String: Layout] = [:]

    /// Keeps a layout made for a scale, and gives it back.
    func made(_ scale: String, _ layout: Layout) -> Layout {
        byScale[scale] = layout
        return layout
    }
}

extension [RenderOption: String] {
    /// The options with one value replaced (nil removes it).
    func with(_ option: RenderOption, _ value: String?) -> Self {
        var copy = self
        copy[option] = value
        return copy
    }
}

extension DocsFailure {
    /// The command's own failure, with its message and exit code.
    init(_ failure: CommandFailure) { self.init(failure.message, code: failure.code.rawValue) }
}

extension String {
    /// The text without its last newline: a line as `say` takes it.
    func trimmingNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
