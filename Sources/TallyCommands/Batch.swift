import ArgumentParser
import Dispatch
import TallyEncoding
import TallyGeometry
import TallyOptions
import TallyPOSIX
import TallyRender

/// `tally batch <counts…> --out-dir DIR`: many counts, one file each.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw many counts, one file each.",
        discussion: """
            Counts are numbers, ranges (0...100), comma lists (1,5,25), the word thresholds, \
            @file (one count or range a line; blank lines and # comments are skipped) or - for the \
            same from standard input. Files are written atomically, in parallel, with the same bytes \
            as one at a time. The first bad count or failed write stops the batch; every file \
            written by then is complete.

            Examples:
              tally batch 0...100 --out-dir out                     101 SVGs
              tally batch thresholds -f png --size 512 --out-dir docs
              tally batch @milestones.txt -f pdf --name 'day-{count}.{ext}' --out-dir print
              seq 1 30 | tally batch - --out-dir days
            """
    )

    /// What to draw.
    @Argument(help: ArgumentHelp("Counts, ranges a...b, comma lists, thresholds, @file or -.", valueName: "counts"))
    var counts: [String]

    /// Where the files go.
    @Option(
        name: .customLong("out-dir"), parsing: .unconditional,
        help: ArgumentHelp("The folder to write into; made when missing.", valueName: "dir"))
    var outDir: String

    /// What kind of files.
    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp("svg (the default), png, pdf or json.", valueName: "format"))
    var format: String?

    /// How files are named.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The file name: {count} is the count, {ext} the format's extension.", valueName: "template"))
    var name = "tally-{count}.{ext}"

    /// How many at once.
    @Option(
        name: .customShort("j"), parsing: .unconditional,
        help: ArgumentHelp("How many files to draw at once (default: the number of cores).", valueName: "n"))
    var jobs: String?

    @OptionGroup(title: "Drawing")
    var drawing: DrawingOptions<Batch>

    func run() throws {
        guard !outDir.isEmpty else {
            throw CommandFailure.usage("--out-dir '' is empty; give a folder, . for this one")
        }
        // A count given twice is drawn once: one file, counted once in the summary.
        let list = try CountList.parse(counts, readStandardInput: Self.readStandardInput, readFile: Self.readFile)
            .removingDuplicates()
        let template = try FileNameTemplate(name, distinctCounts: list.total > 1)
        let format: OutputFormat =
            try format.map { text throws(CommandFailure) in
                try Values.choice(text, option: "--format", noun: "a format")
            } ?? .svg
        let options = try drawing.options()
        let settings = try options.settings(format: format)
        if let note = options.note(format: format) { StandardError.send(note) }
        if let frame = settings.frame {
            // Every count must fit the pinned frame; checked before anything is written.
            for index in 0..<list.total where list[index].value > frame.capacity {
                throw options.failure(.countBeyondFrame(list[index], frame))
            }
        }
        let workers = try Self.workerCount(jobs)
        let budget = PixelBudget(capacity: try PixelBudget.capacityFromEnvironment())
        fixMallocMapThreshold()
        try Self.makeDirectory(outDir)
        let start = ContinuousClock.now
        let progress = Progress(total: list.total, enabled: isatty(STDERR_FILENO) == 1)
        let run = BatchRun()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = run.next(below: list.total) {
                let count = list[index]
                let path = joinedPath(outDir, template.fileName(count: count, format: format))
                do {
                    let bytes: [UInt8]
                    do {
                        // Raster and PDF images draw within the batch's pixel budget, so memory
                        // stays bounded whatever -j; SVG and JSON cost next to nothing.
                        let layout = try Renderer.layout(count, format, settings)
                        let pixels = format.isBinary ? Int(layout.viewport.width * layout.viewport.height) : 0
                        budget.acquire(pixels)
                        defer { budget.release(pixels) }
                        bytes = try Renderer.render(layout, as: format, settings)
                    } catch let error as RenderError {
                        throw options.failure(error)
                    }
                    try Output.writeAtomically(bytes, to: path)
                    progress.advance(to: run.finished(bytes: bytes.count))
                } catch let failure as CommandFailure {
                    run.fail(index, CommandFailure(failure.code, "count \(count.value): \(failure.message)"))
                } catch {
                    run.fail(index, CommandFailure(.io, "count \(count.value): \(error)"))
                }
            }
        }
        progress.finish()
        if let failure = run.failure { throw failure }
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        StandardError.send(
            Self.summary(files: run.finishedCount, bytes: run.bytes, seconds: seconds, directory: outDir))
    }

    static func summary(files: UInt64, bytes: Int, seconds: Double, directory: String) -> String {
        let size: String
        switch bytes {
        case ..<1024: size = "\(bytes) bytes"
        case ..<(1024 * 1024): size = DecimalText.fixed(Double(bytes) / 1024, digits: 1) + " KiB"
        default: size = DecimalText.fixed(Double(bytes) / 1024 / 1024, digits: 1) + " MiB"
        }
        let noun = files == 1 ? "file" : "files"
        return
            "tally: wrote \(Words.grouped(files)) \(noun), \(size), in \(DecimalText.fixed(seconds, digits: 2)) s to \(Values.printable(directory))\n"
    }

    static func workerCount(_ text: String?) throws(CommandFailure) -> Int {
        guard let text else { return processorCount() }
        guard let jobs = Int(text), (1...256).contains(jobs) else {
            throw .usage("-j '\(Values.printable(text))' must be a whole number from 1 to 256")
        }
        return jobs
    }

    static func makeDirectory(_ path: String) throws(CommandFailure) {
        switch fileKind(path) {
        case .directory: return
        case .other:
            throw CommandFailure(.cannotCreate, "--out-dir '\(Values.printable(path))' is a file, not a folder")
        case nil: break
        }
        // Like `mkdir -p`: each missing folder on the way, left to right.
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if fileKind(prefix) == nil, withPath(prefix, { mkdir($0, 0o777) }) != 0, errno != EEXIST {
                throw CommandFailure(
                    .cannotCreate,
                    "cannot create the folder '\(Values.printable(path))': \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
        guard fileKind(path) == .directory else {
            throw CommandFailure(
                .cannotCreate, "cannot create the folder '\(Values.printable(path))': a part of it is a file")
        }
    }

    enum FileKind { case directory, other }

    /// What is at a path (following links), or nil for nothing.
    static func fileKind(_ path: String) -> FileKind? {
        var info = stat()
        guard withPath(path, { stat($0, &info) }) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
    }

    static func readStandardInput() throws(CommandFailure) -> [UInt8] {
        try readLimited(STDIN_FILENO, name: "standard input")
    }

    static func readFile(_ path: String) throws(CommandFailure) -> [UInt8] {
        if fileKind(path) == .directory {
            throw .usage("cannot read the count list '\(Values.printable(path))': it is a folder, not a file")
        }
        let descriptor = withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw .usage("cannot read the count list '\(Values.printable(path))': no such file or no permission")
        }
        defer { close(descriptor) }
        return try readLimited(descriptor, name: "'\(Values.printable(path))'")
    }

    /// Reads at most `CountList.maximumListBytes`, failing past it rather than filling memory.
    private static func readLimited(_ descriptor: Int32, name: String) throws(CommandFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(.io, "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            bytes += chunk[..<got]
            if bytes.count > CountList.maximumListBytes {
                throw .usage("\(name) is larger than 16 MiB; split the count list")
            }
        }
        return bytes
    }
}

/// `--name`: `{count}` and `{ext}` in a plain file name.
struct FileNameTemplate {
    private let parts: [Part]
    private enum Part {
        case text(String)
        case count, ext
    }

    init(_ template: String, distinctCounts: Bool) throws(CommandFailure) {
        let shown = Values.printable(template)
        guard !template.isEmpty, !template.contains("/"), template != ".", template != ".." else {
            throw .usage("--name '\(shown)' must be a plain file name, without '/'")
        }
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .usage("--name '\(shown)' has a '{' without '}'")
            }
            switch rest[rest.index(after: open)..<close] {
            case "count": parts.append(.count)
            case "ext": parts.append(.ext)
            case let other:
                throw .usage("--name '\(shown)' has an unknown placeholder {\(other)}; use {count} and {ext}")
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        if distinctCounts && !parts.contains(where: { if case .count = $0 { true } else { false } }) {
            throw .usage("--name '\(shown)' has no {count}, so every count would overwrite the same file")
        }
        self.parts = parts
    }

    func fileName(count: TallyCount, format: OutputFormat) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .count: String(count.value)
            case .ext: format.rawValue
            }
        }.joined()
    }
}

/// The shared state of one batch: the next index, what was written, the first failure.
/// How many pixels of PNG and PDF images a batch draws at once: each worker takes its image's
/// pixels before drawing and gives them back after, waiting while the budget is spent. One
/// image larger than the whole budget still runs, alone. Memory is about 12 bytes a pixel in
/// flight (a 64-megapixel PNG peaks near 750 MB), so the default budget, one largest image,
/// bounds a batch near that whatever -j.
final class PixelBudget: @unchecked Sendable {
    /// The default: one image of the largest size (SPEC §6: 64 megapixels).
    static let defaultMegapixels = 64.0

    let capacity: Int
    private let condition = Condition()
    private var inUse = 0

    init(capacity: Int) { self.capacity = capacity }

    /// `TALLY_BATCH_MEGAPIXELS`, for machines with less memory (or tests), else the default.
    static func capacityFromEnvironment() throws(CommandFailure) -> Int {
        guard let text = environmentValue("TALLY_BATCH_MEGAPIXELS"), !text.isEmpty else {
            return Int(defaultMegapixels * 1_000_000)
        }
        guard let megapixels = Double(text), megapixels.isFinite, megapixels > 0, megapixels <= 1_000_000 else {
            throw .usage("TALLY_BATCH_MEGAPIXELS '\(Values.printable(text))' must be a number of megapixels above 0")
        }
        return max(1, Int(megapixels * 1_000_000))
    }

    func acquire(_ pixels: Int) {
        guard pixels > 0 else { return }
        condition.lock()
        while inUse > 0 && inUse + pixels > capacity { condition.wait() }
        inUse += pixels
        condition.unlock()
    }

    func release(_ pixels: Int) {
        guard pixels > 0 else { return }
        condition.lock()
        inUse -= pixels
        condition.broadcast()
        condition.unlock()
    }
}

/// What a batch's workers share: the next index, what is done, the earliest failure. Every
/// field is read and written under the lock (ThreadSanitizer found a read of the count without it).
final class BatchRun: @unchecked Sendable {
    private let lock = Lock()
    private var nextIndex: UInt64 = 0
    private var done: UInt64 = 0
    private var written = 0
    private var failedIndex: UInt64?
    private var firstFailure: CommandFailure?

    var finishedCount: UInt64 { lock.withLock { done } }
    var bytes: Int { lock.withLock { written } }
    var failure: CommandFailure? { lock.withLock { firstFailure } }

    /// The next index to draw, or nil once all are taken or something failed.
    func next(below total: UInt64) -> UInt64? {
        lock.withLock {
            guard firstFailure == nil, nextIndex < total else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Counts a written file; returns how many are done, for the progress bar.
    func finished(bytes: Int) -> UInt64 {
        lock.withLock {
            done += 1
            written += bytes
            return done
        }
    }

    /// Keeps the failure of the earliest count, so the report does not depend on timing.
    func fail(_ index: UInt64, _ failure: CommandFailure) {
        lock.withLock {
            if failedIndex == nil || index < failedIndex! {
                failedIndex = index
                firstFailure = failure
            }
        }
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal, at most ten times a second.
final class Progress: @unchecked Sendable {
    private let total: UInt64
    private let enabled: Bool
    private let lock = Lock()
    private var lastDrawn = ContinuousClock.now - .seconds(1)

    init(total: UInt64, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance(to done: UInt64) {
        guard enabled else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard now - lastDrawn >= .milliseconds(100) || done == total else { return }
            lastDrawn = now
            let width = 30
            let filled = Int(Double(width) * Double(done) / Double(max(total, 1)))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            StandardError.send("\r[\(bar)] \(Words.grouped(done))/\(Words.grouped(total))")
        }
    }

    func finish() {
        guard enabled else { return }
        StandardError.send("\r\u{1B}[K")
    }
}
