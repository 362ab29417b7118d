import TallyOptions
import TallyPOSIX
import TallyRender

/// Where rendered bytes go: a file, written atomically, or standard output.
package enum Output {
    /// The format after -f, else the extension of -o, else `fallback` (standard output).
    static func format<Format: RawRepresentable & CaseIterable>(
        given: String?, output: String?, fallback: Format,
        fromExtension: (String) -> Format?
    ) throws(CommandFailure) -> Format
    where Format.RawValue == String {
        if let given {
            // Matched here, where the format's type is known, before the generic refusal: one
            // switch instead of generic metadata looked up at run time (part of start-up).
            if let format = Format(rawValue: given) { return format }
            return try Values.choice(given, option: "--format", noun: "a format")
        }
        guard let output, output != "-" else { return fallback }
        // A path with no extension, or a device (`-o /dev/null`, `-o /dev/stdout`), gets the
        // default; an extension that names no format is a mistake worth a message.
        if lowercasedExtension(of: output) == nil || output.hasPrefix("/dev/") {
            return fromExtension(output) ?? fallback
        }
        guard let format = fromExtension(output) else {
            throw .usage(
                "cannot tell the format of '\(Values.printable(output))'; use -f \(Values.list(Format.allCases.map(\.rawValue))), or a path ending in one of them"
            )
        }
        return format
    }

    /// Writes to `path` atomically, or to standard output for nil or `-`; binary formats are
    /// refused on a terminal with a hint to use -o.
    static func emit(_ bytes: [UInt8], to path: String?, binary: Bool, formatName: String) throws(CommandFailure) {
        if let path, path != "-" {
            try writeAtomically(bytes, to: path)
        } else {
            if binary && standardOutputIsTerminal {
                throw .usage(
                    "will not write \(formatName.uppercased()) to a terminal; use -o FILE or redirect the output")
            }
            try writeToStandardOutput(bytes)
        }
    }

    /// Writes `bytes` to `path`: a file atomically, a descriptor or a device as it is.
    ///
    /// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are the descriptor they
    ///   name, written directly, whatever it is (a terminal, a pipe, a file stdout was redirected
    ///   to), so the link in `/dev` is never replaced.
    /// - A character device, FIFO or socket (or a link to one) is opened and written directly.
    /// - Anything else is replaced atomically (`replaceFile`). Nothing in `/dev` or `/proc` is
    ///   created or replaced.
    ///
    /// Fails with exit 73 when the file cannot be created and 74 when writing fails.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        // Made only for a message: the path as shown, escaped.
        func shown() -> String { Values.printable(path) }
        if let descriptor = namedDescriptor(path) {
            guard fcntl(descriptor, F_GETFD) != -1 else {
                throw CommandFailure(.cannotCreate, "cannot write '\(shown())': descriptor \(descriptor) is not open")
            }
            try writeAll(bytes, to: descriptor, name: "'\(shown())'")
            return
        }
        let (directory, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw CommandFailure(.cannotCreate, "cannot create '\(shown())': not a file name")
        }
        var status = stat()
        // A file written over keeps its mode; a new one gets 0666 less the umask.
        var mode = newFileMode
        let exists = withPath(path) { stat($0, &status) } == 0
        if exists {
            switch status.st_mode & S_IFMT {
            case S_IFREG: mode = status.st_mode & 0o7777
            case S_IFDIR: throw CommandFailure(.cannotCreate, "cannot create '\(shown())': it is a directory")
            case S_IFSOCK:
                try writeToSocket(bytes, at: path)
                return
            default:
                // A device or pipe (/dev/null, a FIFO): renaming over it would replace it.
                try writeInPlace(bytes, to: path)
                return
            }
        }
        if isSystemFolder(directory) {
            guard exists else {
                throw CommandFailure(
                    .cannotCreate, "cannot create '\(shown())': tally creates no files in /dev or /proc")
            }
            try writeInPlace(bytes, to: path)
            return
        }
        try replaceFile(bytes, directory: directory, name: name, path: path, mode: mode)
    }

    /// The descriptor a path names: `/dev/stdout` 1, `/dev/stderr` 2, `/dev/stdin` 0,
    /// `/dev/fd/N` and `/proc/self/fd/N` N; nil for any other path.
    static func namedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                guard !number.isEmpty, number.count < 10, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return nil
                }
                return Int32(number)
            }
            return nil
        }
    }

    /// `/dev` itself and everything in `/proc`: tally never creates or renames files there.
    static func isSystemFolder(_ directory: String) -> Bool {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let real =
            withPath(directory) { realpath($0, &resolved) } != nil ? ByteText.decode(cString: resolved) : directory
        return real == "/dev" || real == "/proc" || real.hasPrefix("/proc/")
    }

    /// Replaces `path` with a file of `bytes` so that it is either untouched or complete.
    ///
    /// On Linux the bytes go into an unnamed file (`O_TMPFILE`) in the target's folder, which
    /// is only given a name once it is whole: a run killed by SIGKILL leaves nothing behind. Then
    /// `linkat` names it: the target itself when there was none, else a temporary name that is
    /// renamed over the target at once (Linux cannot link over a name). Where the file system
    /// has no `O_TMPFILE`, a named temporary file (`mkstemp`) and a rename, as everywhere else;
    /// SIGINT, SIGTERM and SIGHUP still remove it.
    private static func replaceFile(_ bytes: [UInt8], directory: String, name: String, path: String, mode: mode_t)
        throws(CommandFailure)
    {
        // Made only for a message: the path as shown, escaped.
        func shown() -> String { Values.printable(path) }
        // The temporary name is the target's with a prefix and suffix, unless that would pass
        // the 255-byte limit of a file name; then a short one.
        let prefix = ByteText.bytes(name).count + 16 <= 255 ? ".\(name).tally-" : ".tally-"
        let template = joinedPath(directory, prefix)
        let unnamed = withPath(directory) { openUnnamedFile($0, mode) }
        if unnamed >= 0 {
            var failure = fill(unnamed, with: bytes, mode: mode, shown: shown())
            if failure == nil {
                switch TemporaryFiles.shared.name(unnamed, as: path, temporaryPrefix: template) {
                case .done: break
                case .failed(let code):
                    failure = CommandFailure(
                        .cannotCreate, "cannot create '\(shown())': \(String(cString: strerror(code)))")
                case .unsupported:
                    close(unnamed)
                    try replaceThroughNamedFile(bytes, template: template, path: path, mode: mode)
                    return
                }
            }
            if close(unnamed) != 0, failure == nil {
                failure = CommandFailure(.io, "cannot write '\(shown())': \(errorText())")
            }
            if let failure { throw failure }
            return
        }
        try replaceThroughNamedFile(bytes, template: template, path: path, mode: mode)
    }

    /// A named temporary file beside the target, then a rename.
    private static func replaceThroughNamedFile(_ bytes: [UInt8], template: String, path: String, mode: mode_t)
        throws(CommandFailure)
    {
        // Made only for a message: the path as shown, escaped.
        func shown() -> String { Values.printable(path) }
        var templateBytes = (ByteText.bytes(template) + Array("XXXXXX".utf8)).map { CChar(bitPattern: $0) } + [0]
        // Created and registered in one step, so an interruption always finds it.
        let descriptor = TemporaryFiles.shared.create(&templateBytes)
        guard descriptor >= 0 else {
            throw CommandFailure(.cannotCreate, "cannot create '\(shown())': \(errorText())")
        }
        let temporary = ByteText.decode(templateBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        defer { TemporaryFiles.shared.remove(temporary) }
        var failure = fill(descriptor, with: bytes, mode: mode, shown: shown())
        if close(descriptor) != 0, failure == nil {
            failure = CommandFailure(.io, "cannot write '\(shown())': \(errorText())")
        }
        if failure == nil, withPath(temporary, { from in withPath(path) { rename(from, $0) } }) != 0 {
            failure = CommandFailure(.cannotCreate, "cannot create '\(shown())': \(errorText())")
        }
        if let failure {
            _ = withPath(temporary) { unlink($0) }
            throw failure
        }
    }

    /// Writes the bytes into a temporary file and gives it the target's mode (a temporary file
    /// is created 0600); the failure, if the write failed.
    private static func fill(
        _ descriptor: Int32, with bytes: [UInt8], mode: mode_t, shown: @autoclosure () -> String
    ) -> CommandFailure? {
        do {
            try writeAll(bytes, to: descriptor, name: "'\(shown())'")
        } catch {
            return error
        }
        _ = fchmod(descriptor, mode)
        return nil
    }

    /// A path's folder and last component, split at the last `/` by hand (Foundation's
    /// `deletingLastPathComponent` traps on some one-character paths): `a` → (`.`, `a`),
    /// `/a` → (`/`, `a`), `d/a` → (`d`, `a`), `a/` → (`a`, ``) — an empty name, refused.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        // Made only for a message: the path as shown, escaped.
        func shown() -> String { Values.printable(path) }
        let descriptor = withPath(path) { open($0, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw CommandFailure(.cannotCreate, "cannot open '\(shown())': \(errorText())") }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, name: "'\(shown())'")
    }

    /// A Unix socket is written through a connection to it.
    private static func writeToSocket(_ bytes: [UInt8], at path: String) throws(CommandFailure) {
        // Made only for a message: the path as shown, escaped.
        func shown() -> String { Values.printable(path) }
        let descriptor = connectUnixSocket(ByteText.bytes(path))
        guard descriptor >= 0 else {
            throw CommandFailure(.cannotCreate, "cannot connect to the socket '\(shown())': \(errorText())")
        }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, name: "'\(shown())'")
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: @autoclosure () -> String)
        throws(CommandFailure)
    {
        let failed = writeFully(descriptor, bytes)
        if failed != 0 { throw CommandFailure(.io, "cannot write \(name()): \(String(cString: strerror(failed)))") }
    }

    /// Writes to standard output; exit 74 when that fails (a closed pipe, a full disk).
    package static func writeToStandardOutput(_ bytes: [UInt8]) throws(CommandFailure) {
        try writeAll(bytes, to: STDOUT_FILENO, name: "to standard output")
    }

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    /// The mode of new files, `0666` less the umask, read once when the process starts
    /// (`TallyCommand.main` touches it before any command runs). Reading the umask means setting it, so
    /// reading it from concurrent batch workers let one worker see another's momentary 0 and
    /// create a file 0666.
    static let newFileMode: mode_t = {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }()
}

/// Temporary files under way, removed if the process is interrupted (SIGINT, SIGTERM, SIGHUP)
/// so that no partial file stays behind.
///
/// The signal handler only writes the signal's number to a pipe, the one async-signal-safe
/// thing it needs, whatever thread the signal lands on. A watcher thread reads the pipe, takes
/// the lock under which every temporary file is created *and* registered (so none exists
/// unregistered), removes them all, and ends the process by the same signal, still holding the
/// lock so that no worker can create another.
///
/// The handlers and the watcher come with the first temporary file (under the lock, before the
/// file is made); until then there is nothing to remove, and a signal ends the process as it
/// ends any other. Most runs (an SVG to standard output, to a device, or to a new file, which
/// is named from an unnamed one without a temporary) never start the thread, whose start was a
/// tenth of what `tally render 1 -f svg` spent above Swift's floor (BENCHMARKS.md).
final class TemporaryFiles: @unchecked Sendable {
    static let shared = TemporaryFiles()
    private let lock = Lock()
    private var paths: Set<String> = []
    private var installed = false

    /// Whether the handlers are installed and the watcher started (the first temporary file).
    private var watching = false

    /// Unblocks the signals, before any worker starts (a test runner or a supervisor may leave
    /// them blocked, and the workers inherit the mask). Until the first temporary file they keep
    /// their dispositions: there is nothing to remove, and a signal ends the process as it ends
    /// any other.
    func prepare() {
        lock.lock()
        defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Starts the watcher and installs the handlers, once, before the first temporary file is
    /// made (called under the lock). Signals the parent ignores stay ignored, as `nohup` expects.
    private func watchBeforeTheFirstFile() {
        guard !watching else { return }
        watching = true
        var descriptors: [Int32] = [0, 0]
        guard closeOnExecPipe(&descriptors) == 0 else { return }
        signalPipe = descriptors[1]
        let reader = descriptors[0]
        detachThread { TemporaryFiles.shared.watch(reader) }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(signalNumber, SIG_IGN)
            }
        }
    }

    /// What became of naming an unnamed file.
    enum Naming {
        case done
        /// Naming failed with this `errno`.
        case failed(Int32)
        /// The system cannot name unnamed files (no `/proc`): use a named temporary file.
        case unsupported
    }

    /// Names a complete unnamed file `path`: by a link when `path` is free, else by a link to
    /// a temporary name (made and registered under the lock, so an interruption removes it)
    /// and a rename over `path`.
    func name(_ descriptor: Int32, as path: String, temporaryPrefix: String) -> Naming {
        if withPath(path, { linkFile(descriptor, $0) }) == 0 { return .done }
        guard errno == EEXIST else { return errno == ENOSYS ? .unsupported : .failed(errno) }
        var temporary = ""
        lock.lock()
        watchBeforeTheFirstFile()
        for _ in 0..<100 {
            let candidate = temporaryPrefix + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            if withPath(candidate, { linkFile(descriptor, $0) }) == 0 {
                temporary = candidate
                paths.insert(candidate)
                break
            }
            if errno != EEXIST { break }
        }
        let code = errno
        lock.unlock()
        guard !temporary.isEmpty else { return .failed(code) }
        defer { remove(temporary) }
        guard withPath(temporary, { from in withPath(path) { rename(from, $0) } }) == 0 else {
            let code = errno
            _ = withPath(temporary) { unlink($0) }
            return .failed(code)
        }
        return .done
    }

    /// Creates a temporary file from a `mkstemp` template and registers it, under the lock.
    /// - Returns: the open descriptor, or -1 with `errno` set.
    func create(_ template: inout [CChar]) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        watchBeforeTheFirstFile()
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            paths.insert(ByteText.decode(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }))
        }
        return descriptor
    }

    /// Creates a temporary file by `create` and registers `path` for it, under the lock, so an
    /// interruption always finds it.
    /// - Returns: `create`'s descriptor, or -1 with `errno` set.
    func creating(_ path: String, _ create: () -> Int32) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        watchBeforeTheFirstFile()
        let descriptor = create()
        let code = errno
        if descriptor >= 0 { paths.insert(path) }
        errno = code
        return descriptor
    }

    func remove(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }

    /// A file a transaction has put in place (`tally docs`, SPEC §8): on an interruption it is
    /// put back from its second name (`backup`, registered at `backupPath`), or removed where
    /// it was new, last first, before the temporary files go.
    private struct Replaced {
        var folder: Int32
        var name: String
        var backup: String?
        var backupPath: String?
    }
    private var replaced: [Replaced] = []

    /// Runs `rename`, which puts a file in place, under the lock, and on success records it
    /// for an interruption to put back: a signal never falls between the two.
    func replace(in folder: Int32, _ name: String, backup: String?, backupPath: String?, _ rename: () -> Int32)
        -> Int32
    {
        lock.lock()
        defer { lock.unlock() }
        watchBeforeTheFirstFile()
        let code = rename()
        if code == 0 { replaced.append(Replaced(folder: folder, name: name, backup: backup, backupPath: backupPath)) }
        return code
    }

    /// Runs `putBack` for a file the transaction put in place, under the lock, and on success
    /// forgets it: a signal puts back only what the transaction has not.
    func putBack(in folder: Int32, _ name: String, _ putBack: () -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let done = putBack()
        if done { replaced.removeAll { $0.folder == folder && $0.name == name } }
        return done
    }

    /// The transaction is over (all in place, or all put back): nothing for a signal to undo.
    func committed() {
        lock.lock()
        replaced = []
        lock.unlock()
    }

    private func watch(_ reader: Int32) {
        var byte: UInt8 = 0
        var signalNumber: Int32 = 0
        // Only the handler writes here, and only these numbers: anything else is not a signal
        // to act on, and the watch goes on.
        while ![SIGINT, SIGTERM, SIGHUP].contains(signalNumber) {
            let got = read(reader, &byte, 1)
            if got == 1 {
                signalNumber = Int32(byte)
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
        lock.lock()  // never released: the process ends here
        // A transaction's files already in place are put back first (SPEC §8: all or nothing,
        // under SIGINT, SIGTERM and SIGHUP too), from their second names; a second name that
        // could not be used is kept, for it holds the only copy of the old file.
        var notPutBack: [String] = []
        for item in replaced.reversed() {
            let done =
                item.backup.map { backup in
                    withPath(backup) { from in withPath(item.name) { renameat(item.folder, from, item.folder, $0) } }
                        == 0
                } ?? (withPath(item.name) { unlinkat(item.folder, $0, 0) } == 0)
            if !done {
                notPutBack.append(item.name)
                if let path = item.backupPath { paths.remove(path) }
            }
        }
        for path in paths { _ = withPath(path) { unlink($0) } }
        if !replaced.isEmpty {
            let note =
                notPutBack.isEmpty
                ? "tally: interrupted; every file is as it was\n"
                : "tally: interrupted; not put back: \(notPutBack.map { "'\(Values.printable($0))'" }.joined(separator: ", ")) (the old files keep their names beside them)\n"
            _ = writeFully(2, Array(note.utf8))
        }
        signal(signalNumber, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(signalNumber)
        _exit(128 + signalNumber)
    }
}

/// The write end of the signal pipe, read by the handler (a C function cannot capture); set
/// before the handler is installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1
