import TallyDocs
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
    /// Called after each file is put in place, outside every lock: a test's place to stop.
    func putInPlace()
    /// Removes `name` in an open folder (a second name the run no longer needs): 0, or `errno`.
    func remove(in folder: Int32, _ name: String) -> Int32
}

extension DocsFileOperations {
    package func putInPlace() {}

    package func remove(in folder: Int32, _ name: String) -> Int32 {
        withPath(name) { unlinkat(folder, $0, 0) } == 0 ? 0 : errno
    }
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

/// The system's calls, pausing after the run's first rename for `seconds` and saying so on
/// stderr (`tally: paused after a rename`): how the tests send a signal while a run is half
/// applied, which no timing could hit reliably. `tally docs` uses it only when the
/// environment's `TALLY_DOCS_PAUSE_AFTER_RENAME` holds the seconds.
package final class PausingFileOperations: DocsFileOperations, @unchecked Sendable {
    let system = SystemFileOperations()
    let seconds: UInt32
    private var paused = false

    package init(seconds: UInt32) { self.seconds = seconds }

    package func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 { system.write(descriptor, bytes) }

    package func rename(in folder: Int32, _ from: String, _ to: String) -> Int32 { system.rename(in: folder, from, to) }

    package func putInPlace() {
        guard !paused else { return }
        paused = true
        _ = writeFully(2, Array("tally: paused after a rename\n".utf8))
        // The whole pause, even where a signal's handler runs on this thread and cuts `sleep`
        // short: the run must stay half applied until the watcher has put it back, or it would
        // go on renaming and commit first (a race the tests met about one run in ten).
        var left = seconds
        while left > 0 { left = sleep(left) }
    }
}

/// A run's writes, all or nothing (SPEC §8), as a database commits a transaction: every file,
/// image or document, is first written whole into a temporary file beside its target, and a
/// file it replaces gets a second name (a hard link, the rollback journal); only when all are
/// written are they renamed into place, images first. A failure before the renames (a full
/// disk, an immutable file, which refuses the link) removes every temporary file and every
/// folder the run made, so no file changes. A failure during the renames puts the files
/// already replaced back from their second names; only if that fails too (the disk gone) does
/// a run end half done, and then the error names every file replaced and every file not.
struct DocsTransaction {
    /// A file to put in place.
    struct File {
        var target: DocsTargets.Target
        var bytes: [UInt8]
        /// The region it is for, `README.md:12`, which a failure names.
        var origin: String
    }

    let operations: any DocsFileOperations

    /// A file written, waiting for its rename: its temporary name and, when it replaces a file,
    /// the old file's second name. Both are registered, so an interruption removes them (the
    /// second name is only a link: removing it loses no bytes).
    private struct Staged {
        var folder: Int32
        var temporary: String
        var backup: String?
        var file: File
        var folderPath: String

        func registered(_ name: String) -> String { folderPath + "/" + name }

        /// Removes a name of its own in its folder, and forgets it.
        func remove(_ name: String?) {
            guard let name else { return }
            _ = withPath(name) { unlinkat(folder, $0, 0) }
            TemporaryFiles.shared.remove(registered(name))
        }
    }

    /// Writes `files`, all or none. Returns a line for each second name it could not remove
    /// once every file was in place (the run succeeded; the name is a link to an old file).
    func apply(_ files: [File]) throws(CommandFailure) -> [String] {
        var folders = FolderMaker()
        var staged: [Staged] = []
        defer {
            // Before the folders close: an interruption puts back by their descriptors.
            TemporaryFiles.shared.committed()
            folders.closeAll()
        }
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
                for item in staged {
                    item.remove(item.temporary)
                    item.remove(item.backup)
                }
                folders.removeMade()
                throw failure
            }
        }
        for (index, item) in staged.enumerated() {
            // Each file is checked just before it is replaced: an editor's save since the run
            // read it (in place, or by rename) is never lost (SPEC §8).
            let changed = !Self.isAsFound(item)
            let code =
                changed
                ? 0
                : TemporaryFiles.shared.replace(
                    in: item.folder, item.file.target.name, backup: item.backup,
                    backupPath: item.backup.map(item.registered)
                ) { operations.rename(in: item.folder, item.temporary, item.file.target.name) }
            if !changed && code == 0 {
                TemporaryFiles.shared.remove(item.registered(item.temporary))
                operations.putInPlace()
                continue
            }
            for rest in staged[index...] {
                rest.remove(rest.temporary)
                rest.remove(rest.backup)
            }
            let kept = rollBack(staged[..<index])
            if kept.isEmpty { folders.removeMade() }
            let shown = "'\(Values.printable(item.file.target.shown))'"
            let outcome =
                kept.isEmpty
                ? "every file is as it was"
                : "replaced and not put back: \(kept.map { "'\(Values.printable($0))'" }.joined(separator: ", ")); as they were: \(staged[index...].map { "'\(Values.printable($0.file.target.shown))'" }.joined(separator: ", "))"
            if changed { throw Self.changedDuringTheRun(shown, outcome) }
            throw CommandFailure(.io, "\(item.file.origin): cannot replace \(shown): \(errorText(code)); \(outcome)")
        }
        // A write in place between the check and the rename went to the file replaced, which
        // the backup still names: found there, every file is put back.
        if let changed = staged.first(where: { !Self.backupIsAsFound($0) }) {
            let kept = rollBack(staged[...])
            if kept.isEmpty { folders.removeMade() }
            let outcome =
                kept.isEmpty
                ? "every file is as it was"
                : "replaced and not put back: \(kept.map { "'\(Values.printable($0))'" }.joined(separator: ", "))"
            throw Self.changedDuringTheRun("'\(Values.printable(changed.file.target.shown))'", outcome)
        }
        // On disk before success is said: each file was synced before its rename, and each
        // folder's new names are synced now.
        if let failure = folders.syncAll() {
            let kept = rollBack(staged[...])
            if kept.isEmpty { folders.removeMade() }
            throw CommandFailure(
                .io,
                "cannot sync the folder of '\(Values.printable(staged.first?.file.target.shown ?? ""))': \(errorText(failure)); \(kept.isEmpty ? "every file is as it was" : "replaced and not put back: \(kept.map { "'\(Values.printable($0))'" }.joined(separator: ", "))")"
            )
        }
        TemporaryFiles.shared.committed()
        var leftBehind: [String] = []
        for item in staged {
            guard let backup = item.backup else { continue }
            let code = operations.remove(in: item.folder, backup)
            TemporaryFiles.shared.remove(item.registered(backup))
            if code != 0 && code != ENOENT {
                leftBehind.append(
                    "cannot remove '\(Values.printable(item.registered(backup)))', a second name of the old '\(Values.printable(item.file.target.shown))': \(errorText(code)); remove it by hand"
                )
            }
        }
        return leftBehind
    }

    /// Removes the leftovers of killed runs beside every target that is there (`removeLeftovers(of:in:)`):
    /// an image or document a run writes now, or one it found up to date. Returns how many.
    static func removeLeftovers(beside targets: [DocsTargets.Target]) -> Int {
        var removed = 0
        for target in targets where target.existingFolders == target.folders.count {
            let path = target.folders.isEmpty ? "." : target.folders.joined(separator: "/")
            let folder = Beneath.open(target.root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { continue }
            removed += removeLeftovers(of: target, in: folder)
            close(folder)
        }
        return removed
    }

    /// Removes what a run killed without a chance to clean up (SIGKILL, a power cut) left
    /// beside a file, `.NAME.tally-…`, where it can prove the entry its own and of no use: a
    /// second name of the file as it is now (a backup link the run never used), a temporary
    /// image tally recognises as its own, or a document's temporary that differs from the
    /// document only inside its regions (the run's update, never renamed). Anything else of the
    /// pattern stays: it may hold the only copy of something. Returns how many it removed.
    static func removeLeftovers(of target: DocsTargets.Target, in folder: Int32) -> Int {
        let prefix = Array(".\(target.name).tally-".utf8)
        let copy = dup(folder)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return 0
        }
        defer { closedir(listing) }
        // A copy of a descriptor shares its place in the folder: from the start, every time.
        rewinddir(listing)
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard name.count > prefix.count, name.starts(with: prefix),
                name[prefix.count...].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) })
            else { continue }
            names.append(ByteText.decode(name))
        }
        var removed = 0
        for name in names where isProvablyLeftOver(name, of: target, in: folder) {
            if withPath(name, { unlinkat(folder, $0, 0) }) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether `name` in `folder` is a killed run's leftover beside `target` (`removeLeftovers`).
    private static func isProvablyLeftOver(_ name: String, of target: DocsTargets.Target, in folder: Int32) -> Bool {
        var info = stat()
        var current = stat()
        guard withPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
            info.st_mode & S_IFMT == S_IFREG
        else { return false }
        // A second name of the file as it is.
        if withPath(target.name, { fstatat(folder, $0, &current, AT_SYMLINK_NOFOLLOW) }) == 0,
            FileIdentity(info) == FileIdentity(current)
        {
            return true
        }
        let descriptor = withPath(name) { openat(folder, $0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let bytes = readAll(descriptor, limit: DocsCommand.maximumDocumentBytes) else { return false }
        // A document's update: the document itself, but for its regions' bodies.
        if let read = target.read {
            let kind = RegionDocument.Kind(path: target.name)
            guard let document = try? RegionDocument(read, kind: kind),
                let update = try? RegionDocument(bytes, kind: kind), update.regions.count == document.regions.count
            else { return false }
            return update.replacingBodies(document.regions.map(\.body)).bytes == read
        }
        return TallyImage.recognises(Array(bytes.prefix(TallyImage.headLength)))
    }

    /// SPEC §8: a file the run would replace changed since it was read; nothing of the run is
    /// kept, and running again reads it anew. 74, as for any write that cannot be made.
    private static func changedDuringTheRun(_ shown: String, _ outcome: String) -> CommandFailure {
        CommandFailure(.io, "\(shown) changed during the run; run again (\(outcome))")
    }

    /// Whether the file a write replaces is as the run found it: nothing there for a new file;
    /// else the same file, size and modification time, and for a document the same bytes.
    private static func isAsFound(_ item: Staged) -> Bool {
        let target = item.file.target
        var info = stat()
        let there = withPath(target.name) { fstatat(item.folder, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
        guard let found = target.found else { return !there && errno == ENOENT }
        guard there, info.st_mode & S_IFMT == S_IFREG, FileVersion(info) == found else { return false }
        return hasBytes(target.read, named: target.name, in: item.folder)
    }

    /// Whether the file replaced, by its second name, is still as the run found it.
    private static func backupIsAsFound(_ item: Staged) -> Bool {
        guard let backup = item.backup, let found = item.file.target.found else { return true }
        var info = stat()
        guard withPath(backup, { fstatat(item.folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
            FileVersion(info) == found
        else { return false }
        return hasBytes(item.file.target.read, named: backup, in: item.folder)
    }

    /// Whether a file holds `bytes` (true when there are none to compare).
    private static func hasBytes(_ bytes: [UInt8]?, named name: String, in folder: Int32) -> Bool {
        guard let bytes else { return true }
        let descriptor = withPath(name) { openat(folder, $0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return DocumentFiles.compare(descriptor, bytes) == .same
    }

    /// Puts back the files replaced, last first: the old file from its second name, or a new
    /// file removed. Returns the files that could not be put back.
    private func rollBack(_ replaced: ArraySlice<Staged>) -> [String] {
        var kept: [String] = []
        for item in replaced.reversed() {
            let name = item.file.target.name
            if let backup = item.backup {
                let done = TemporaryFiles.shared.putBack(in: item.folder, name) {
                    operations.rename(in: item.folder, backup, name) == 0
                }
                if done {
                    TemporaryFiles.shared.remove(item.registered(backup))
                } else {
                    item.remove(backup)
                    kept.append(item.file.target.shown)
                }
            } else if !TemporaryFiles.shared.putBack(
                in: item.folder, name, { withPath(name) { unlinkat(item.folder, $0, 0) } == 0 })
            {
                kept.append(item.file.target.shown)
            }
        }
        return kept.reversed()
    }

    /// Writes a file's bytes into a new temporary file in its folder, with the mode the target
    /// keeps (its own, or a new file's), and gives the file it replaces a second name.
    private func stage(_ file: File, in folder: Int32) throws(CommandFailure) -> Staged {
        let shown = Values.printable(file.target.shown)
        func failure(_ code: Int32, _ exit: CommandFailure.Code) -> CommandFailure {
            CommandFailure(exit, "\(file.origin): cannot write '\(shown)': \(errorText(code))")
        }
        let name = file.target.name
        let folderPath = ([file.target.rootPath] + file.target.folders).joined(separator: "/")
        var staged = Staged(folder: folder, temporary: "", backup: nil, file: file, folderPath: folderPath)
        var descriptor: Int32 = -1
        staged.temporary = Self.uniqueName(for: name, in: folderPath) { temporary in
            descriptor = withPath(temporary) {
                openat(folder, $0, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            return descriptor
        }
        guard descriptor >= 0 else { throw failure(errno, .cannotCreate) }
        var code = operations.write(descriptor, file.bytes)
        if code == 0 && fchmod(descriptor, file.target.mode ?? Output.newFileMode) != 0 { code = errno }
        // The old file's owner and group, where they are not the run's: only root may give a
        // file away, and a user's own run makes the file theirs, as an editor's save does.
        if code == 0, let found = file.target.found, found.owner != geteuid() || found.group != getegid(),
            geteuid() == 0, fchown(descriptor, found.owner, found.group) != 0
        {
            code = errno
        }
        // On disk before it is renamed into place: a crash after the rename never leaves an
        // empty file where the old one was.
        if code == 0 && fsync(descriptor) != 0 { code = errno }
        if close(descriptor) != 0 && code == 0 { code = errno }
        guard code == 0 else {
            staged.remove(staged.temporary)
            throw failure(code, .io)
        }
        guard file.target.mode != nil else { return staged }
        // The old file's second name; an immutable or append-only file refuses it (EPERM), so
        // it is found here, before any rename.
        var linked: Int32 = -1
        let backup = Self.uniqueName(for: name, in: folderPath) { backup in
            linked = withPath(name) { from in withPath(backup) { linkat(folder, from, folder, $0, 0) } }
            return linked
        }
        if linked == 0 {
            staged.backup = backup
        } else if errno != ENOENT {
            let code = errno
            staged.remove(staged.temporary)
            throw CommandFailure(.cannotCreate, "\(file.origin): cannot replace '\(shown)': \(errorText(code))")
        }
        return staged
    }

    /// A new name beside `name`, made by `create` (which returns -1 with `errno` set, else
    /// anything) and registered under the lock, so an interruption always finds it: the
    /// target's name with a prefix and suffix, or a short one where that would pass the
    /// 255-byte limit of a file name.
    private static func uniqueName(for name: String, in folderPath: String, _ create: (String) -> Int32) -> String {
        let prefix = ByteText.bytes(name).count + 16 <= 255 ? ".\(name).tally-" : ".tally-"
        var candidate = ""
        for _ in 0..<100 {
            candidate = prefix + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            let made = TemporaryFiles.shared.creating(folderPath + "/" + candidate) { create(candidate) }
            if made >= 0 || errno != EEXIST { break }
        }
        return candidate
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

    /// Syncs every folder written in (their new names): 0 on success, else the first `errno`.
    func syncAll() -> Int32? {
        for descriptor in opened.values where fsync(descriptor) != 0 && errno != EINVAL {
            return errno
        }
        return nil
    }

    mutating func closeAll() {
        for descriptor in opened.values { close(descriptor) }
        for (parent, _) in made { close(parent) }
        opened = [:]
        made = []
    }
}
