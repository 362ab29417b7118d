import TallyDocs
import TallyGeometry
import TallyOptions
import TallyPOSIX

/// A document of a run, found and read: as it was named, and as it is on disk.
struct DocumentFile {
    /// The path as named or found (`./README.md` is `README.md`): how findings name it.
    var path: String
    var bytes: [UInt8]
    /// The folder its regions write in, every link resolved: the real file's folder, also for
    /// a document named through a link.
    var realFolder: String
    /// Its real file's name in `realFolder`: what a write replaces, so a document named
    /// through a link is updated through it and the link stays a link.
    var realName: String
    /// Whether it was named through a link.
    var isLink: Bool
    var identity: FileIdentity
    /// Its permission bits, which the updated file keeps.
    var mode: mode_t
    /// The file as it was read.
    var version: FileVersion
}

/// A file's identity on its file system: two paths with the same one name the same file.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) { (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino)) }
}

/// A file as a run found it, which it must still be when the run replaces it (SPEC §8, "a
/// change during the run"): the same file (device and inode: a save by rename makes a new one),
/// the same size and the same modification time to the nanosecond (a write in place moves it),
/// and for a document, whose bytes the run holds, the same bytes. Not the change time: the
/// run's own second name for the file (its backup link) moves that.
struct FileVersion: Equatable {
    var identity: FileIdentity
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    /// Its owner and group, which the file that replaces it keeps where the run may give them
    /// (a run as root), so a run never hands a user's file to another.
    var owner: uid_t
    var group: gid_t

    init(_ info: stat) {
        identity = FileIdentity(info)
        size = Int64(info.st_size)
        (modifiedSeconds, modifiedNanoseconds) = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        (owner, group) = (info.st_uid, info.st_gid)
    }
}

/// The documents on disk: found and read (SPEC §8). A folder's search is forgiving: an entry it
/// cannot use is a warning and the search goes on. A path named on the command line is strict:
/// the same entry is an error.
enum DocumentFiles {
    static let extensions = [".md", ".markdown", ".html", ".htm"]
    /// Folders a search skips (named on the command line they are searched): Jekyll's and
    /// GitHub Pages' generated site, and npm's installed packages.
    static let generatedFolders: Set<String> = ["_site", "node_modules"]

    /// A document found: its path, and the real folder of the search that found it (nil for a
    /// path named on the command line).
    struct Found {
        var path: String
        var searchedFolder: String?
    }

    /// The documents `paths` name: files as they are, folders searched (sorted, hidden folders
    /// and files skipped, links to folders not followed) for .md, .markdown, .html and .htm.
    static func find(_ paths: [String], warn: (String) -> Void) throws(CommandFailure) -> [Found] {
        var found: [Found] = []
        for path in paths {
            var info = stat()
            guard withPath(path, { stat($0, &info) }) == 0 else {
                throw CommandFailure.usage("cannot read '\(Values.printable(path))': \(unreadable(path, errno))")
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let real = realPath(path) ?? path
                found += try search(normalized(path), root: real, warn: warn)
            case S_IFREG: found.append(Found(path: normalized(path), searchedFolder: nil))
            default:
                throw CommandFailure.usage(
                    "cannot read '\(Values.printable(path))': it is \(kind(of: info.st_mode)), not a document")
            }
        }
        return found
    }

    /// Why `path` cannot be read, in words: a link to nothing, a loop of links, or `errno`'s.
    static func unreadable(_ path: String, _ code: Int32) -> String {
        var info = stat()
        if code == ENOENT, withPath(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return "it is a link to nothing"
        }
        if code == ENOENT { return "no such file or folder" }
        if code == ELOOP { return "it is a loop of links" }
        return errorText(code)
    }

    /// "a folder", "a FIFO": what a file of this mode is, for messages.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFLNK: "a link"
        default: "not a file"
        }
    }

    /// A path without `.` and empty components (`./README.md` is `README.md`), so one document
    /// named twice is kept once and its findings name it one way. `..` stays: what it climbs
    /// out of may be a link.
    static func normalized(_ path: String) -> String {
        let components = pathComponents(path).filter { $0 != "." }
        let joined = components.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The documents below `folder`, whose real path is `root`; `warn` hears of every entry
    /// that is no document (a link to nothing, a loop, a link to a folder, a FIFO, a folder
    /// that cannot be read).
    private static func search(_ folder: String, root: String, warn: (String) -> Void) throws(CommandFailure)
        -> [Found]
    {
        guard let directory = withPath(folder, { opendir($0) }) else {
            throw CommandFailure.usage("cannot read the folder '\(Values.printable(folder))': \(errorText(errno))")
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { ByteText.decode($0.prefix { $0 != 0 }) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(directory)
        var found: [Found] = []
        for name in names.sorted(by: { ByteText.bytes($0).lexicographicallyPrecedes(ByteText.bytes($1)) }) {
            let path = ImagePlan.join(folder, name)
            let shown = Values.printable(path)
            var info = stat()
            // Never a silent skip: an entry past PATH_MAX, or one that went away, is said.
            guard withPath(path, { lstat($0, &info) }) == 0 else {
                let code = errno
                if code != ENOENT {
                    warn(
                        "skipped '\(Values.printable(path, limit: 300))': \(code == ENAMETOOLONG ? "its path is longer than the system takes (PATH_MAX); run tally docs in a folder nearer it" : errorText(code))"
                    )
                }
                continue
            }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR && generatedFolders.contains(name) {
                // A generated site or installed packages: their documents are another program's
                // output or another project's, rewritten by their own builds (SPEC §8).
                warn(
                    "skipped '\(shown)': \(name == "_site" ? "a generated site" : "installed packages"); name it to keep its documents"
                )
                continue
            }
            if type == S_IFDIR {
                // A folder below that cannot be read is one more entry the search goes past.
                do {
                    found += try search(path, root: root, warn: warn)
                } catch {
                    warn("skipped '\(shown)': \(error.message)")
                }
                continue
            }
            let lowered = name.lowercased()
            guard extensions.contains(where: { lowered.hasSuffix($0) }) else { continue }
            switch type {
            case S_IFREG: found.append(Found(path: path, searchedFolder: root))
            case S_IFLNK:
                var target = stat()
                guard withPath(path, { stat($0, &target) }) == 0 else {
                    warn("skipped '\(shown)': \(unreadable(path, errno))")
                    continue
                }
                if target.st_mode & S_IFMT == S_IFREG {
                    found.append(Found(path: path, searchedFolder: root))
                } else {
                    warn("skipped '\(shown)': it is a link to \(kind(of: target.st_mode)), not a document")
                }
            default: warn("skipped '\(shown)': it is \(kind(of: info.st_mode)), not a document")
            }
        }
        return found
    }

    /// Reads the documents found: each once (a file found by two paths, or through a link, is
    /// one document, named by its first path), refused past `DocsCommand.maximumDocumentBytes`
    /// before it is read. A link found in a search that leads out of the searched folder is
    /// skipped with a warning, as git will not write through a link that leaves its tree.
    static func load(_ found: [Found], warn: (String) -> Void) throws(CommandFailure) -> [DocumentFile] {
        var documents: [DocumentFile] = []
        var seen: Set<FileIdentity> = []
        for item in found {
            let shown = Values.printable(item.path)
            guard let real = realPath(item.path) else {
                throw CommandFailure.usage("cannot read '\(shown)': \(unreadable(item.path, errno))")
            }
            if let root = item.searchedFolder, !isBeneath(real, root) {
                warn("skipped '\(shown)': it is a link to '\(Values.printable(real))', outside the folder searched")
                continue
            }
            let (bytes, info) = try contents(of: real, shown: shown)
            guard seen.insert(FileIdentity(info)).inserted else { continue }
            var linkInfo = stat()
            let isLink = withPath(item.path) { lstat($0, &linkInfo) } == 0 && linkInfo.st_mode & S_IFMT == S_IFLNK
            let (folder, name) = Output.split(real)
            documents.append(
                DocumentFile(
                    path: item.path, bytes: bytes, realFolder: folder, realName: name, isLink: isLink,
                    identity: FileIdentity(info), mode: info.st_mode & 0o7777, version: FileVersion(info)))
        }
        return documents
    }

    /// Whether `path` is `folder` or below it (both real paths).
    static func isBeneath(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// A document's bytes and status, opened without waiting (a FIFO never blocks the run)
    /// and refused unless it is a regular file no larger than the limit.
    static func contents(of path: String, shown: String) throws(CommandFailure) -> ([UInt8], stat) {
        let descriptor = withPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw CommandFailure.usage("cannot read '\(shown)': \(errorText(errno))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw CommandFailure.usage("cannot read '\(shown)': it is \(kind(of: info.st_mode)), not a document")
        }
        guard info.st_size <= DocsCommand.maximumDocumentBytes else {
            throw CommandFailure.usage(
                "'\(shown)' is \(Words.grouped(UInt64(info.st_size))) bytes; a document is at most \(Words.grouped(UInt64(DocsCommand.maximumDocumentBytes))) bytes"
            )
        }
        guard let bytes = readAll(descriptor, limit: Int(info.st_size)) else {
            throw CommandFailure(.io, "cannot read '\(shown)': \(errorText(errno))")
        }
        // The status after the bytes: a write while they were read moves its time past the
        // version held, so the run finds the change before it replaces the file.
        var after = stat()
        if fstat(descriptor, &after) == 0 && Int(after.st_size) == bytes.count { info = after }
        return (bytes, info)
    }

    /// The path with every link resolved, or nil with `errno` set.
    static func realPath(_ path: String) -> String? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard withPath(path, { realpath($0, &resolved) }) != nil else { return nil }
        return ByteText.decode(resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// How an open file compares with `bytes`: its size first, so a file of another size is
    /// never read.
    static func compare(_ descriptor: Int32, _ bytes: [UInt8]) -> FileState {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .different }
        guard Int(info.st_size) == bytes.count, let existing = readAll(descriptor, limit: bytes.count) else {
            return .different
        }
        guard existing.count == bytes.count, !bytes.isEmpty else { return existing == bytes ? .same : .different }
        // memcmp: Array's == compares element by element, ten times the instructions.
        let same = existing.withUnsafeBytes { old in
            bytes.withUnsafeBytes { new in memcmp(old.baseAddress!, new.baseAddress!, new.count) == 0 }
        }
        return same ? .same : .different
    }
}

/// `errno`'s words; a file past `ulimit -f` is "file too large" (SIGXFSZ is ignored in
/// `tally docs`, so the write fails with EFBIG instead of killing the process silently).
func errorText(_ code: Int32) -> String {
    code == EFBIG ? "file too large" : String(cString: strerror(code))
}

/// Where a region's files go, checked before anything is drawn or written (SPEC §8: only
/// images, only inside). Each target is opened beneath its document's real folder with the
/// kernel's help (`Beneath`), so a link in its folders that leads out is refused, and one
/// swapped in later cannot lead a write out either: the writes go through the descriptors of
/// the folders opened here.
final class DocsTargets {
    /// A file a run may write: where it is, from the document's folder, and what is there now.
    struct Target {
        /// The document's real folder, opened.
        var root: Int32
        var rootPath: String
        /// The folders below the root, as `-o` names them, and the file's name.
        var folders: [String]
        var name: String
        /// How many of `folders` exist now; the rest are made when the run writes.
        var existingFolders: Int
        /// The file's permission bits when it is there, else nil (a new file gets the umask's).
        var mode: mode_t?
        /// The file as the run found it (nil: nothing was there), and for a document the bytes
        /// it read: what must still be there when it is replaced.
        var found: FileVersion?
        var read: [UInt8]?
        /// The path as the plan names it, for messages.
        var shown: String
    }

    private var roots: [String: Int32] = [:]
    private(set) var targets: [String: Target] = [:]
    private let documents: [String: DocumentFile]
    private let identities: Set<FileIdentity>

    init(_ documents: [DocumentFile]) {
        var byPath: [String: DocumentFile] = [:]
        for document in documents { byPath[document.path] = document }
        self.documents = byPath
        identities = Set(documents.map(\.identity))
    }

    /// Where a write goes: a checked image by its key, or a document (whose key is its path)
    /// in its real folder under its real name, so a document named through a link is updated
    /// through it.
    func target(named key: String) throws(DocsFailure) -> Target {
        if let target = targets[key] { return target }
        guard let document = documents[key] else {
            throw DocsFailure(
                "cannot write '\(Values.printable(key))': it was not checked",
                code: CommandFailure.Code.cannotCreate.rawValue)
        }
        let root = try root(document.realFolder, shown: document.path)
        return Target(
            root: root, rootPath: document.realFolder, folders: [], name: document.realName, existingFolders: 0,
            mode: document.mode, found: document.version, read: document.bytes, shown: document.path)
    }

    deinit {
        for descriptor in roots.values { close(descriptor) }
    }

    /// The folder a document's regions write in, opened once. Its path is real (every link
    /// resolved), so it is opened from `/` following no link at all: a link swapped in for one
    /// of its folders since it was resolved is refused, not followed.
    private func root(_ folder: String, shown: String) throws(DocsFailure) -> Int32 {
        if let open = roots[folder] { return open }
        let top = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let descriptor = Beneath.open(
            top, String(folder.drop { $0 == "/" }), O_RDONLY | O_DIRECTORY | O_CLOEXEC, kernel: false)
        let code = errno
        if top >= 0 { close(top) }
        errno = code
        guard descriptor >= 0 else {
            throw DocsFailure(
                "cannot open the folder of '\(Values.printable(shown))': \(errorText(errno))",
                code: CommandFailure.Code.cannotCreate.rawValue)
        }
        roots[folder] = descriptor
        return descriptor
    }

    /// Checks a planned image where it would be written and names it by its real place: the
    /// file system and inode of its deepest existing folder, then the rest of its path, so
    /// two spellings of one file (`self/x.svg` where `self` is `.`) get one name.
    func target(_ image: PlannedImage, of document: DocsPlanner.Document) throws(DocsFailure) -> String {
        let shown = Values.printable(image.path)
        func refuse(_ reason: String) -> DocsFailure {
            DocsFailure("cannot write '\(shown)': \(reason)", code: CommandFailure.Code.cannotCreate.rawValue)
        }
        guard let file = documents[document.path] else { throw refuse("its document was not read") }
        // The inside: the document's real folder, or in a .docc catalogue the catalogue.
        let (rootPath, below) = Self.inside(file.realFolder)
        let root = try self.root(rootPath, shown: file.path)
        var folders = below
        for component in pathComponents(image.reference).map(String.init) {
            guard component == ".." else {
                folders.append(component)
                continue
            }
            guard !folders.isEmpty else { throw refuse("it leaves the catalogue") }
            folders.removeLast()
        }
        let name = folders.removeLast()
        for component in folders + [name] where ByteText.bytes(component).count > 255 {
            throw refuse(
                "the name '\(Values.printable(component, limit: 40))' is \(ByteText.bytes(component).count) bytes; a file name is at most 255"
            )
        }
        // The deepest folder that exists, opened beneath the root.
        var existing = folders.count
        var folder: Int32 = -1
        while folder < 0 {
            let path = existing == 0 ? "." : folders[..<existing].joined(separator: "/")
            folder = Beneath.open(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 { break }
            let code = errno
            switch code {
            case ENOENT where existing > 0: existing -= 1
            case EXDEV:
                throw refuse("'\(Values.printable(path))' leads out of the document's folder (links are resolved)")
            case ELOOP:
                throw refuse("'\(Values.printable(path))' is a loop of links, or a link this system will not follow")
            case ENOTDIR: throw refuse("'\(Values.printable(path))' is not a folder")
            default: throw refuse(errorText(code))
            }
        }
        defer { close(folder) }
        var info = stat()
        guard fstat(folder, &info) == 0 else { throw refuse(errorText(errno)) }
        let missing = folders[existing...]
        // NUL first: no document's path, the key of its own update, can start so.
        let key = "\0\(info.st_dev):\(info.st_ino)/" + (missing + [name]).joined(separator: "/")
        // A missing folder must be truly absent: a dangling link in its place is not made.
        if let first = missing.first {
            var entry = stat()
            if withPath(first, { fstatat(folder, $0, &entry, AT_SYMLINK_NOFOLLOW) }) == 0 {
                throw refuse("'\(Values.printable(first))' is \(DocumentFiles.kind(of: entry.st_mode)) to nothing")
            }
        }
        var existingFile: (mode: mode_t, version: FileVersion)? = nil
        if missing.isEmpty {
            existingFile = try checkExisting(name, in: folder, refuse: refuse)
        }
        targets[key] = Target(
            root: root, rootPath: rootPath, folders: folders, name: name, existingFolders: existing,
            mode: existingFile?.mode, found: existingFile?.version, read: nil, shown: image.path)
        return key
    }

    /// The folder a document's regions may write in, and the document's folder below it:
    /// its own folder, or the nearest `.docc` catalogue on its real path (SPEC §8).
    static func inside(_ realFolder: String) -> (root: String, below: [String]) {
        guard let depth = ImagePlan.depthInDocC(realFolder), depth > 0 else { return (realFolder, []) }
        var components = pathComponents(realFolder).map(String.init)
        let below = Array(components.suffix(depth))
        components.removeLast(depth)
        return ("/" + components.joined(separator: "/"), below)
    }

    /// What may be replaced: nothing there, or a regular file that is an image tally could
    /// have written and no document of the run. Returns its mode and version, nil when nothing
    /// is there.
    private func checkExisting(_ name: String, in folder: Int32, refuse: (String) -> DocsFailure) throws(DocsFailure)
        -> (mode: mode_t, version: FileVersion)?
    {
        var info = stat()
        guard withPath(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            if errno == ENOENT { return nil }
            throw refuse(errorText(errno))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw refuse("it is \(DocumentFiles.kind(of: info.st_mode)); a region writes only image files")
        }
        if identities.contains(FileIdentity(info)) {
            throw refuse("it is a document of this run; a region writes only images")
        }
        let descriptor = withPath(name) { openat(folder, $0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw refuse(errorText(errno)) }
        defer { close(descriptor) }
        guard let head = readAll(descriptor, limit: TallyImage.headLength - 1),
            TallyImage.recognises(head)
        else {
            throw refuse("it is there and is not an image tally wrote; move it, or give -o another name")
        }
        return (info.st_mode & 0o7777, FileVersion(info))
    }

    /// How the file a target names compares with `bytes`, read without following a link or
    /// waiting on a FIFO.
    func compare(_ key: String, _ bytes: [UInt8]) -> FileState {
        guard let target = targets[key], target.existingFolders == target.folders.count else { return .missing }
        let path = (target.folders + [target.name]).joined(separator: "/")
        let descriptor = Beneath.open(target.root, path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : .different }
        defer { close(descriptor) }
        return DocumentFiles.compare(descriptor, bytes)
    }
}

/// tally's own images, recognised by their first bytes (SPEC §8): a region replaces a file that
/// is there only when it is one, so a hand-made `logo-dark.svg` is never overwritten. tally
/// keeps no manifest: the images are what the repository holds, and a clone, a checkout or
/// another machine recognises them the same way.
enum TallyImage {
    /// How much of a file is read to recognise it.
    static let headLength = 4096

    /// An SVG that starts as every SVG tally writes does (`<svg xmlns=… id="tally-…`, `badge-`
    /// or `gallery-`; `id="tally"` and `id="badge"` as 0.2 wrote them), or a PNG whose chunks before
    /// its pixels hold the `Title` text tally writes in every PNG.
    static func recognises(_ head: [UInt8]) -> Bool {
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"".utf8)
        if head.starts(with: svg) {
            let id = head.dropFirst(svg.count)
            return ["tally", "badge", "gallery"].contains { name in
                id.starts(with: Array(name.utf8))
                    && [UInt8(ascii: "-"), UInt8(ascii: "\"")].contains(id.dropFirst(name.utf8.count).first)
            }
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard head.starts(with: signature) else { return false }
        var offset = signature.count
        while offset + 8 <= head.count {
            let length =
                head[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: head[offset + 4..<offset + 8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { return false }
            let data = head.dropFirst(offset + 8).prefix(length)
            if type == "tEXt" || type == "iTXt", data.starts(with: Array("Title\0".utf8)) { return true }
            offset += 12 + length
        }
        return false
    }
}
