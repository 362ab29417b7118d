import TallyOptions
import TallyPOSIX

/// The two steps of a run's writes that can fail for reasons no check before them can see (a
/// full disk, `ulimit -f`, a disk that goes away), behind a protocol so that tests, which run as
/// root and cannot make a folder refuse them, can make any one of them fail.
package protocol DocsFileOperations {
    /// Writes every byte to an open temporary file: 0, or the `errno` of the write that failed.
    func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32
    /// Renames `from` to `to` in an open folder, replacing `to`: 0, or `errno`.
    func rename(in folder: Int32, _ from: String, _ to: String) -> Int32
}

/// The system's own calls.
package struct SystemFileOperations: DocsFileOperations {
    package init() {}

    package func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 { writeFully(descriptor, bytes) }

    package func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 {
        let done = withPath(from) { source in withPath(to) { renameat(folder, source, folder, $0) } }
        return done == 0 ? 0 : errno
    }
}

/// A run's writes, all or nothing (SPEC §8), as a database commits a transaction: every file,
/// image or document, is first written whole into a temporary file beside its target; only
/// when all are written are they renamed into place, images first. A failure before the renames
/// removes every temporary file and every folder the run made, so no file changes. A failure
/// during the renames (the disk gone) names every file already replaced and every one not.
struct DocsTransaction {
    /// A file to put in place.
    struct File {
        var target: DocsTargets.Target
        var bytes: [UInt8]
        /// The region it is for, `README.md:12`, which a failure names.
        var origin: String
    }

    let operations: any DocsFileOperations

    /// A temporary file written, waiting for its rename.
    private struct Staged {
        var folder: Int32
        var temporary: String
        var registered: String
        var file: File
    }

    /// Writes `files`, all or none.
    func apply(_ files: [File]) throws(CommandFailure) {
        var folders = FolderMaker()
        var staged: [Staged] = []
        func undo() {
            for item in staged {
                _ = withPath(item.temporary) { unlinkat(item.folder, $0, 0) }
                TemporaryFiles.shared.remove(item.registered)
            }
            folders.removeMade()
        }
        defer { folders.closeAll() }
        for file in files {
            let failure: CommandFailure?
            do throws(CommandFailure) {
                let folder = try folders.open(file)
                staged.append(try stage(file, in: folder))
                failure = nil
            } catch {
                failure = error
            }
            if let failure {
                undo()
                throw failure
            }
        }
        for (index, item) in staged.enumerated() {
            let code = operations.rename(in: item.folder, item.temporary, item.file.target.name)
            TemporaryFiles.shared.remove(item.registered)
            guard code == 0 else {
                for rest in staged[(index + 1)...] {
                    _ = withPath(rest.temporary) { unlinkat(rest.folder, $0, 0) }
                    TemporaryFiles.shared.remove(rest.registered)
                }
                _ = withPath(item.temporary) { unlinkat(item.folder, $0, 0) }
                let replaced = staged[..<index].map { "'\(Values.printable($0.file.target.shown))'" }
                let notReplaced = staged[index...].map { "'\(Values.printable($0.file.target.shown))'" }
                throw CommandFailure(
                    .io,
                    "\(item.file.origin): cannot replace '\(Values.printable(item.file.target.shown))': \(errorText(code)); replaced: \(replaced.isEmpty ? "none" : replaced.joined(separator: ", ")); not replaced: \(notReplaced.joined(separator: ", "))"
                )
            }
        }
    }

    /// Writes a file's bytes into a new temporary file in its folder, with the mode the target
    /// keeps (its own, or a new file's).
    private func stage(_ file: File, in folder: Int32) throws(CommandFailure) -> Staged {
        let shown = Values.printable(file.target.shown)
        func failure(_ code: Int32, _ exit: CommandFailure.Code) -> CommandFailure {
            CommandFailure(exit, "\(file.origin): cannot write '\(shown)': \(errorText(code))")
        }
        let name = file.target.name
        // The temporary name is the target's with a prefix and suffix, unless that would pass
        // the 255-byte limit of a file name; then a short one.
        let prefix = ByteText.bytes(name).count + 15 <= 255 ? ".\(name).tally-" : ".tally-"
        let folderPath = ([file.target.rootPath] + file.target.folders).joined(separator: "/")
        var descriptor: Int32 = -1
        var temporary = ""
        var registered = ""
        for _ in 0..<100 {
            temporary = prefix + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            registered = folderPath + "/" + temporary
            descriptor = TemporaryFiles.shared.creating(registered) {
                withPath(temporary) { openat(folder, $0, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            }
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw failure(errno, .cannotCreate) }
        var code = operations.write(descriptor, file.bytes)
        if code == 0 && fchmod(descriptor, file.target.mode ?? Output.newFileMode) != 0 { code = errno }
        if close(descriptor) != 0 && code == 0 { code = errno }
        guard code == 0 else {
            _ = withPath(temporary) { unlinkat(folder, $0, 0) }
            TemporaryFiles.shared.remove(registered)
            throw failure(code, .io)
        }
        return Staged(folder: folder, temporary: temporary, registered: registered, file: file)
    }
}

/// The folders a run writes in, opened beneath their documents' folders, and those it made.
private struct FolderMaker {
    private var opened: [String: Int32] = [:]
    /// Folders made, in order: their parent, opened, and their name.
    private var made: [(parent: Int32, name: String)] = []

    /// The file's folder, opened beneath its document's folder; missing ones are made (a link
    /// swapped in for one is not followed out: every step is opened beneath the root).
    mutating func open(_ file: DocsTransaction.File) throws(CommandFailure) -> Int32 {
        let target = file.target
        let key = "\(target.root)/" + target.folders.joined(separator: "/")
        if let descriptor = opened[key] { return descriptor }
        let shown = Values.printable(target.shown)
        func failure(_ path: String, _ code: Int32) -> CommandFailure {
            let reason = code == EXDEV ? "it leads out of the document's folder" : errorText(code)
            return CommandFailure(
                .cannotCreate, "\(file.origin): cannot create '\(shown)': '\(Values.printable(path))': \(reason)")
        }
        for depth in 0...target.folders.count {
            let path = depth == 0 ? "." : target.folders[..<depth].joined(separator: "/")
            let descriptor = Beneath.open(target.root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 {
                if depth == target.folders.count {
                    opened[key] = descriptor
                    return descriptor
                }
                close(descriptor)
                continue
            }
            guard errno == ENOENT, depth > 0 else { throw failure(path, errno) }
            let parentPath = depth == 1 ? "." : target.folders[..<(depth - 1)].joined(separator: "/")
            let parent = Beneath.open(target.root, parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard parent >= 0 else { throw failure(parentPath, errno) }
            let name = target.folders[depth - 1]
            guard withPath(name, { mkdirat(parent, $0, 0o777) }) == 0 else {
                let code = errno
                close(parent)
                throw failure(path, code)
            }
            made.append((parent, name))
            // Opened again beneath the root on the next pass round the loop: the folder just made.
            let again = Beneath.open(target.root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard again >= 0 else { throw failure(path, errno) }
            if depth == target.folders.count {
                opened[key] = again
                return again
            }
            close(again)
        }
        throw failure(target.folders.joined(separator: "/"), ENOENT)
    }

    /// Removes the folders made, deepest first.
    mutating func removeMade() {
        for (parent, name) in made.reversed() {
            _ = withPath(name) { unlinkat(parent, $0, AT_REMOVEDIR) }
        }
    }

    mutating func closeAll() {
        for descriptor in opened.values { close(descriptor) }
        for (parent, _) in made { close(parent) }
        opened = [:]
        made = []
    }
}
