import Foundation
import Testing

/// Runs the built `tally` executable, as a user would, and captures what it prints.
public struct TallyRun: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: String
    public var text: String { String(decoding: stdout, as: UTF8.self) }
}

public enum TallyProcess {
    /// The built `tally`: the test bundle sits beside the executable its target depends on.
    public static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("tally")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return url
            }
        }
        return packageRoot.appendingPathComponent(".build/debug/tally")
    }()

    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, stdin: Data? = nil,
        timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TallyRun {
        var env = ProcessInfo.processInfo.environment
        // The Makefile fixes SwiftPM's hash seed (a workaround for its trait order); tally's bytes
        // must not depend on any Set's order, so each tally process draws its own seed.
        env["SWIFT_DETERMINISTIC_HASHING"] = nil
        for (key, value) in environment { env[key] = value }
        return try runProgram(
            executable, arguments, environment: env, directory: directory, stdin: stdin, timeout: timeout,
            sourceLocation: sourceLocation)
    }

    /// A fresh empty folder for a test's files.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The one-line error of SPEC §6.
public func expectOneLineError(
    _ run: TallyRun, status: Int32, mentioning needle: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.status == status, "exit status", sourceLocation: sourceLocation)
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
    #expect(lines.count == 1, "stderr: \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("tally: error: "), "stderr: \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.contains(needle), "stderr: \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
}

/// A program on PATH, or nil; tests that need one skip with a printed reason when it is missing.
public func installedProgram(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}

/// Whether the tests run under CI (`CI` is set), where every outside program is installed and a
/// missing one is a failure, not a reason to skip.
public let isCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

/// Whether a test that needs `program` runs: where it is installed, and always under CI, where
/// the test then fails on `#require` if it is missing. Use with `.enabled(if:_:)`.
public func canRun(_ program: URL?) -> Bool { program != nil || isCI }

/// Whether this build draws PNG and PDF (tally's Cairo trait, on by default). Tests of PNG or
/// PDF output use `.enabled(if: cairoIsBuiltIn, …)`, so `swift test --disable-default-traits`
/// tests the pure-Swift library.
public let cairoIsBuiltIn: Bool = {
    #if Cairo
    return true
    #else
    return false
    #endif
}()

/// Whether the tests run under a sanitizer (`make test-sanitize` sets TALLY_SANITIZER), whose own
/// memory and system calls make measurements of the process meaningless.
public let underSanitizer = ProcessInfo.processInfo.environment["TALLY_SANITIZER"] != nil

/// The cases of a property a sanitizer runs: all of them in the plain run, every `stride`-th
/// (the first and the last always) under a sanitizer. A sanitizer watches the code a case runs,
/// which a sample runs through the same paths, several times slower than plain; the property
/// over every case is the plain run's, in the same CI run.
public func sanitizerSample<Element>(_ cases: [Element], every stride: Int) -> [Element] {
    guard underSanitizer, stride > 1, let last = cases.last else { return cases }
    var sample = Swift.stride(from: 0, to: cases.count, by: stride).map { cases[$0] }
    if (cases.count - 1) % stride != 0 { sample.append(last) }
    return sample
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that starts processes or a server: `minutes`, or five times that
    /// under a sanitizer. A sanitized tally runs several times slower and `runProgram` already gives its
    /// processes four times as long, so an unscaled limit failed a slow run that was not a hang;
    /// a real hang still fails either way.
    public static func processTimeLimit(minutes: Int) -> Self {
        .timeLimit(.minutes(underSanitizer ? 5 * minutes : minutes))
    }
}

extension Trait where Self == ConditionTrait {
    /// Off under a sanitizer: for a test whose subject is an outside program's reading of tally's
    /// bytes (Chromium's or rsvg-convert's drawing, scour, jsonschema, a tmux pane). The sanitizers
    /// watch tally's own code, which the other tests run through the same paths, and `make test`
    /// runs this test in the same CI run; the outside programs are not sanitized, so under a
    /// sanitizer they only compete for the cores and stretch the run.
    public static var readByAnOutsideProgram: Self {
        .disabled(
            if: underSanitizer, "an outside program reads tally's bytes: make test runs it, the sanitizers watch tally")
    }

    /// Off under ThreadSanitizer: a test of values on one thread, in process, in a suite whose
    /// other tests ThreadSanitizer runs. Races need threads; `make test` runs it.
    public static var oneThreadOfValues: Self {
        .disabled(if: underThreadSanitizer, "values on one thread: make test runs it, ThreadSanitizer watches threads")
    }
}

/// Headless Chromium, under either of its Debian names.
public let chromiumProgram = installedProgram("chromium") ?? installedProgram("chromium-browser")

/// Whether this is `make check`'s run (`TALLY_CHECK` set): the unit tests only, in minutes.
public let isQuickCheck = ProcessInfo.processInfo.environment["TALLY_CHECK"] != nil

/// Called before a test starts a process (tally, tally-server or an outside program): under
/// `make check` the test is cancelled there, reported as skipped, and `make test` runs it. So
/// the unit tests and the integration tests are told apart where the difference is, whatever
/// suite they sit in.
///
/// Under ThreadSanitizer the test is cancelled there too, unless it or its suite carries
/// `.runsTallysThreads`: races need threads, and a process of tally's that runs one command on
/// one thread (with the signal watcher idle) shows TSan nothing the in-process tests have not.
public func startingAProcess(sourceLocation: SourceLocation = #_sourceLocation) throws {
    if isQuickCheck {
        try Test.cancel("starts a process: make test runs it, make check does not", sourceLocation: sourceLocation)
    }
    if underThreadSanitizer, let test = Test.current, !test.traits.contains(where: { $0 is RunsTallysThreadsTrait }) {
        try Test.cancel(
            "a process of tally's on one thread: make test and AddressSanitizer run it", sourceLocation: sourceLocation)
    }
}

/// Whether the tests run under ThreadSanitizer (`make test-sanitize` sets TALLY_SANITIZER=thread).
public let underThreadSanitizer = ProcessInfo.processInfo.environment["TALLY_SANITIZER"] == "thread"

/// Marks a test or suite whose processes run tally's threads together: the server's event loops
/// and raster queue, batch workers, the signal watcher removing a temporary file while the
/// command writes it. ThreadSanitizer runs these processes; it skips the rest (`startingAProcess`).
public struct RunsTallysThreadsTrait: SuiteTrait, TestTrait {
    /// The suite's tests carry it too.
    public var isRecursive: Bool { true }
}

extension Trait where Self == RunsTallysThreadsTrait {
    /// This test's (or suite's) processes run tally's threads together: ThreadSanitizer runs them.
    public static var runsTallysThreads: Self { Self() }
}

/// Runs any program and returns its exit status and output. A program still running after
/// `timeout` seconds is a failure recorded against the test: it is sent SIGTERM, then SIGKILL
/// two seconds later, and reaped, so a hung child fails its test and is never left running.
public func runProgram(
    _ url: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
    stdin: Data? = nil, timeout: TimeInterval = 60, inQuickCheck: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> TallyRun {
    // An oracle that answers in a second (cmark-gfm) runs in make check too: the scanner's
    // mistakes are found only by asking it (`inQuickCheck`).
    if !inQuickCheck { try startingAProcess(sourceLocation: sourceLocation) }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    final class Collected: @unchecked Sendable { var data = Data() }
    let errors = Collected()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errors.data = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    final class Flag: @unchecked Sendable {
        var timedOut = false
        var threads = ""
    }
    let expired = Flag()
    let identifier = process.processIdentifier
    let timer = DispatchWorkItem {
        guard process.isRunning else { return }
        expired.timedOut = true
        // The child and everything it started (a shell's tally holds the pipes open too).
        let tree = [identifier] + descendants(of: identifier)
        // Where each thread waits, read before the kill: a hang that comes once in hundreds of
        // runs must say where it was the first time.
        expired.threads = tree.map(threadStates(of:)).joined(separator: "; ")
        for pid in tree { kill(pid, SIGTERM) }
        // Whatever ignores SIGTERM (or is stopped) is killed outright.
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
            for pid in tree { kill(pid, SIGKILL) }
        }
    }
    // Sanitized builds run several times slower: the same deadline would fail them for that alone.
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout * (underSanitizer ? 4 : 1), execute: timer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    timer.cancel()
    if expired.timedOut {
        let command = "\(url.lastPathComponent) \(arguments.joined(separator: " "))"
        Issue.record(
            "\(command) ran past \(Int(timeout)) s and was killed; its threads: \(expired.threads)",
            sourceLocation: sourceLocation)
    }
    return TallyRun(
        status: process.terminationStatus, stdout: outData, stderr: String(decoding: errors.data, as: UTF8.self))
}

/// A process's threads as Linux shows them: its name, then each thread's name, state (R
/// running, S sleeping, D in the disk, t traced or stopped) and the kernel function it waits in,
/// from /proc (elsewhere only the pid).
func threadStates(of pid: Int32) -> String {
    #if os(Linux)
    func read(_ path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let tasks = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).sorted()
    let threads = tasks.map { task -> String in
        let state = procStatFields(read("/proc/\(pid)/task/\(task)/stat")).first ?? "?"
        return "\(read("/proc/\(pid)/task/\(task)/comm")) \(state) \(read("/proc/\(pid)/task/\(task)/wchan"))"
    }
    return "\(pid) \(read("/proc/\(pid)/comm")) [\(threads.joined(separator: ", "))]"
    #else
    return "\(pid)"
    #endif
}

/// The fields of a /proc `stat` line after the process's name, state first, then the parent's
/// pid: "pid (name) state ppid …", where the name may hold spaces and ")", so the fields are
/// read after its last ")". None for a line without one.
func procStatFields(_ stat: String) -> [Substring] {
    guard let close = stat.lastIndex(of: ")") else { return [] }
    return stat[stat.index(after: close)...].split(separator: " ")
}

/// The processes descended from `pid`, children first (Linux: from /proc; elsewhere none).
func descendants(of pid: Int32) -> [Int32] {
    #if os(Linux)
    var parents: [Int32: Int32] = [:]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
        guard let child = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)
        else { continue }
        let fields = procStatFields(stat)
        if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
    }
    var found: [Int32] = []
    var frontier = [pid]
    while let next = frontier.popLast() {
        for (child, parent) in parents where parent == next {
            found.append(child)
            frontier.append(child)
        }
    }
    return found
    #else
    return []
    #endif
}

/// A seeded random number generator (a 64-bit linear congruential step with an output shift):
/// property tests draw the same cases on every run and machine, so a failure can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 33)
    }
}

/// `body` on a thread of its own, for a wait that blocks or must keep time: socket reads, an
/// in-process server's handlers needing the cooperative threads meanwhile, or a watch on a
/// process that must react within milliseconds while the test pool's threads are busy with
/// other suites (a `Task.sleep` there can resume seconds late).
public func onAThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// rsvg-convert's PNG of an SVG document, drawn in a folder of its own (removed after).
public func rsvgPNG(of svg: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let rsvg = try #require(installedProgram("rsvg-convert"), "rsvg-convert is missing", sourceLocation: sourceLocation)
    let directory = try TallyProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("drawn.svg")
    try Data(svg.utf8).write(to: url)
    let run = try runProgram(rsvg, [url.path], sourceLocation: sourceLocation)
    try #require(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    return Array(run.stdout)
}
