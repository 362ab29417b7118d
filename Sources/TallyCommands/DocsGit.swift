import TallyDocs
import TallyGeometry
import TallyOptions
import TallyPOSIX

/// What `tally docs` asks git (SPEC §8): which documents a search of the current folder leaves
/// out because git ignores them, and, for `--staged`, which images the regions name are not in
/// git's index as they are in the work tree. git runs once for each, as a child process
/// started with `posix_spawn` (not Foundation's `Process`: linking Foundation costs every tally
/// process its start-up, System.swift), with no input and its output read to the end.
enum DocsGit {
    /// A git that ran: its exit status (128 + the signal for one killed) and what it wrote.
    struct Ran {
        var status: Int32
        var output: [UInt8]
        var errors: [UInt8]

        /// Its first line on stderr, for a message (`fatal: not a git repository …`).
        var firstError: String {
            let line = errors.split(separator: UInt8(ascii: "\n")).first.map { Array($0) } ?? []
            return Values.printable(ByteText.decode(line), limit: 300)
        }
    }

    /// The work tree that holds `folder` (a real path): the nearest folder at or above it
    /// holding `.git` (a repository's folder, or the file of a worktree or submodule), or nil.
    /// A folder not there yet (an image's, before the run makes it) is looked above.
    static func workTree(of folder: String) -> String? {
        var components = folder.split(separator: "/").map(String.init)
        while true {
            let candidate = "/" + components.joined(separator: "/")
            var info = stat()
            if withPath(ImagePlan.join(candidate, ".git"), { lstat($0, &info) }) == 0 { return candidate }
            guard !components.isEmpty else { return nil }
            components.removeLast()
        }
    }

    /// Runs `git` with `arguments`, found on PATH: nil when it cannot be started (no git), with
    /// `errno` set. Its standard input is /dev/null; both outputs are read to the end.
    static func run(_ arguments: [String]) -> Ran? {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard closeOnExecPipe(&output) == 0 else { return nil }
        guard closeOnExecPipe(&errors) == 0 else {
            for descriptor in output { close(descriptor) }
            return nil
        }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copies alone: git holds no other end of the pipes.
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // git gets the default dispositions and no blocked signal: `tally docs` ignores
        // SIGXFSZ, and a test runner may leave signals blocked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGXFSZ, SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = (["git"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        #if canImport(Darwin)
        // macOS declares no `environ` for a program's own code: the loader's copy is asked for.
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        let started = posix_spawnp(&pid, "git", &actions, &attributes, argv, environment)
        close(output[1])
        close(errors[1])
        guard started == 0 else {
            close(output[0])
            close(errors[0])
            errno = started
            return nil
        }
        var ran = Ran(status: 0, output: [], errors: [])
        var polled = [
            pollfd(fd: output[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: errors[0], events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while polled.contains(where: { $0.fd >= 0 }) {
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 { ran.output += buffer[..<count] } else { ran.errors += buffer[..<count] }
                } else if count == 0 || errno != EINTR {
                    close(polled[index].fd)
                    // poll passes over a negative descriptor.
                    polled[index].fd = -1
                }
            }
        }
        for index in polled.indices where polled[index].fd >= 0 { close(polled[index].fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7f
        ran.status = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
        return ran
    }

    /// The NUL-separated fields of git's `-z` output.
    static func fields(_ output: [UInt8]) -> [String] {
        output.split(separator: 0).map { ByteText.decode(Array($0)) }
    }

    // MARK: - A search of the current folder

    /// Of the documents a search of the current folder found (paths relative to it), those git
    /// ignores (SPEC §8): untracked and matched by `.gitignore`, `.git/info/exclude` or the
    /// global excludes. One `git ls-files` from the work tree's top over the current folder,
    /// which names the ignored files and the folders whose files are all ignored (`dir/`), from
    /// the top. (Run from an ignored folder itself, git 2.39's ls-files fails.) Outside a work
    /// tree, or without git, none: the search is what it was.
    static func ignored(_ found: [DocumentFiles.Found]) -> Set<String> {
        guard !found.isEmpty, let here = DocumentFiles.realPath("."), let top = workTree(of: here) else { return [] }
        let prefix = here == top ? "" : String(here.dropFirst(top == "/" ? 1 : top.count + 1)) + "/"
        guard
            let ran = run(
                [
                    "--literal-pathspecs", "-C", top, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                    "--directory", "--", prefix.isEmpty ? "." : String(prefix.dropLast()),
                ]),
            ran.status == 0
        else { return [] }
        let entries = fields(ran.output)
        let files = Set(entries.filter { !$0.hasSuffix("/") })
        let folders = entries.filter { $0.hasSuffix("/") }
        return Set(
            found.map(\.path).filter { path in
                let fromTop = prefix + path
                return files.contains(fromTop) || folders.contains { fromTop.hasPrefix($0) }
            })
    }

    // MARK: - --staged

    /// An image a region names whose file in the work tree is not in git's index as it is:
    /// what `git add` would change.
    struct Unstaged: Equatable {
        /// The image, as the plan names it, and its region.
        var image: DocsPlan.Image
        /// Why, from git's status: untracked, ignored, changed or unmerged.
        var reason: String
        /// The fix: `git add PATH`, or `git add -f PATH` for a file git ignores.
        var fix: String

        /// `README.md:3: image 'images/a.svg' is untracked; git add images/a.svg`.
        var line: String {
            "\(Values.printable(image.document, limit: 300)):\(image.line): image '\(Values.printable(image.path, limit: 300))' \(reason); \(fix)"
        }
    }

    /// The work trees the images are in, by each image's real folder (`targets` resolves
    /// them), checked before the run writes anything: an image outside any work tree is an
    /// environment error (69, SPEC §6), naming it.
    static func workTrees(of images: [DocsPlan.Image], targets: DocsTargets) throws(CommandFailure)
        -> [(image: DocsPlan.Image, tree: String, path: String)]
    {
        var placed: [(image: DocsPlan.Image, tree: String, path: String)] = []
        var trees: [String: String] = [:]
        for image in images {
            guard let target = try? targets.target(named: image.target) else { continue }
            let folder = ([target.rootPath] + target.folders).joined(separator: "/")
            let tree: String
            if let known = trees[folder] {
                tree = known
            } else {
                guard let found = workTree(of: folder) else {
                    throw CommandFailure(
                        .unavailable,
                        "--staged asks git whether each image is staged, and '\(Values.printable(image.path, limit: 300))' is not in a git work tree; run without --staged"
                    )
                }
                trees[folder] = found
                tree = found
            }
            let real = folder + "/" + target.name
            placed.append(
                (image, tree, tree == "/" ? String(real.dropFirst()) : String(real.dropFirst(tree.count + 1))))
        }
        return placed
    }

    /// The images of `placed` that are not staged as they are in the work tree: one
    /// `git status` for each work tree (usually one), over their paths alone.
    static func unstaged(_ placed: [(image: DocsPlan.Image, tree: String, path: String)]) throws(CommandFailure)
        -> [Unstaged]
    {
        var found: [Unstaged] = []
        var trees: [String] = []
        for item in placed where !trees.contains(item.tree) { trees.append(item.tree) }
        for tree in trees {
            let here = placed.filter { $0.tree == tree }
            guard
                let ran = run(
                    [
                        "--literal-pathspecs", "-C", tree, "status", "--porcelain=v1", "-z", "--untracked-files=all",
                        "--ignored=traditional", "--",
                    ] + here.map(\.path))
            else {
                throw CommandFailure(
                    .unavailable,
                    "--staged asks git whether each image is staged, and git cannot be run (\(errno == ENOENT ? "no git on PATH" : errorText(errno))); install git, or run without --staged"
                )
            }
            guard ran.status == 0 else {
                throw CommandFailure(
                    .unavailable,
                    "--staged asks git whether each image is staged, and git status in '\(Values.printable(tree, limit: 300))' failed: \(ran.firstError)"
                )
            }
            let states = statuses(ran.output)
            for item in here {
                guard
                    let state = states[item.path]
                        ?? states.first(where: { $0.key.hasSuffix("/") && item.path.hasPrefix($0.key) })?.value
                else { continue }
                let shown = shellWord(item.image.path)
                let (x, y) = (state.first ?? " ", state.dropFirst().first ?? " ")
                if state == "??" {
                    found.append(Unstaged(image: item.image, reason: "is untracked", fix: "git add \(shown)"))
                } else if state == "!!" {
                    found.append(
                        Unstaged(
                            image: item.image, reason: "is ignored by git, so a commit leaves it out",
                            fix: "git add -f \(shown)"))
                } else if x == "U" || y == "U" || state == "AA" || state == "DD" {
                    found.append(
                        Unstaged(image: item.image, reason: "is unmerged", fix: "git add \(shown) once it is resolved"))
                } else if y == "D" {
                    found.append(
                        Unstaged(
                            image: item.image, reason: "is staged but not in the work tree",
                            fix: "run tally docs, then git add \(shown)"))
                } else if y != " " {
                    found.append(Unstaged(image: item.image, reason: "has changes not staged", fix: "git add \(shown)"))
                }
            }
        }
        return found
    }

    /// A run's summary, or with images not staged the failure that ends `--staged` with 1,
    /// as a stale `--check` does: the summary, then how many images to `git add`.
    static func outcome(_ summary: String, unstaged: [Unstaged]) throws(CommandFailure) -> String {
        guard !unstaged.isEmpty else { return summary }
        let count = unstaged.count
        throw CommandFailure(
            .failure,
            "\(summary), but \(Words.grouped(UInt64(count))) \(count == 1 ? "image is" : "images are") not staged as written; git add \(count == 1 ? "it" : "them") (named above)"
        )
    }

    /// `git status --porcelain=v1 -z`'s entries: each path (from the work tree's top) and its
    /// two letters. A rename's or copy's second field, the path it came from, is passed over.
    static func statuses(_ output: [UInt8]) -> [String: String] {
        var states: [String: String] = [:]
        var entries = fields(output)[...]
        while let entry = entries.popFirst() {
            guard entry.count > 3 else { continue }
            let state = String(entry.prefix(2))
            states[String(entry.dropFirst(3))] = state
            if state.first == "R" || state.first == "C" { _ = entries.popFirst() }
        }
        return states
    }

    /// A path as a shell reads it back: as it is when it holds only safe characters, else in
    /// single quotes.
    static func shellWord(_ path: String) -> String {
        let safe = path.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
                || "/._-+@,=:%".unicodeScalars.contains($0)
        }
        if safe && !path.isEmpty && !path.hasPrefix("-") { return path }
        let quoted = "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        return path.hasPrefix("-") ? "-- " + quoted : quoted
    }
}
