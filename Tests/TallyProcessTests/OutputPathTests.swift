import Foundation
import TallyTestSupport
import Testing

/// SPEC §6, where the bytes go: paths that name a descriptor or a device are written as they
/// are; files are replaced atomically and leave nothing behind, even when killed; names are the
/// bytes given.
@Suite(.runsTallysThreads) struct OutputPathTests {
    static let shell = installedProgram("sh")
    static let tally = "'\(TallyProcess.executable.path)'"

    /// What `tally render 137 -f svg` writes to a pipe.
    static func reference() throws -> Data { try TallyProcess.run(["render", "137", "-f", "svg"]).stdout }

    /// The entries of a folder as raw bytes (Foundation would repair names that are not UTF-8).
    static func entries(_ directory: URL) -> [[UInt8]] {
        guard let folder = opendir(directory.path) else { return [] }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether a path is a symbolic link, without following it.
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1` are standard output, whatever it is: a
    /// file it was redirected to (the link in /dev stays a link) or a pipe.
    @Test(arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func pathsThatNameADescriptorAreThatDescriptor(_ path: String) throws {
        let shell = try #require(Self.shell)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.svg")
        let redirected = try runProgram(shell, ["-c", "\(Self.tally) render 137 -o \(path) > '\(file.path)'"])
        #expect(redirected.status == 0, "\(path): \(redirected.stderr)")
        #expect(try Data(contentsOf: file) == (try Self.reference()), "\(path) into a redirected file")
        #expect(Self.isLink("/dev/stdout"), "/dev/stdout is still a link")
        #expect(Self.entries(directory) == [Array("out.svg".utf8)], "no temporary file beside it")
        let piped = try runProgram(shell, ["-c", "\(Self.tally) render 137 -o \(path) | cat"])
        #expect(piped.status == 0)
        #expect(piped.stdout == (try Self.reference()), "\(path) into a pipe")
        // A descriptor that is not open is a file that cannot be created.
        if path.hasSuffix("/1") {
            let closed = try TallyProcess.run(["render", "5", "-o", String(path.dropLast()) + "9"])
            #expect(closed.status == 73, "\(path) with 9: \(closed.stderr)")
        }
    }

    /// A FIFO, and a link to a device, are written in place and stay what they are.
    @Test func devicesAndFIFOsAreWrittenInPlace() throws {
        let shell = try #require(Self.shell)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.svg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let out = directory.appendingPathComponent("read.svg").path
        let run = try runProgram(
            shell, ["-c", "cat '\(fifo)' > '\(out)' & \(Self.tally) render 137 -o '\(fifo)'; wait"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == (try Self.reference()))
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        let link = directory.appendingPathComponent("null.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        #expect(try TallyProcess.run(["render", "137", "-o", link]).status == 0)
        #expect(Self.isLink(link), "the link to /dev/null is still a link")
        let format = cairoIsBuiltIn ? "png" : "svg"
        #expect(try TallyProcess.run(["render", "137", "-o", "/dev/null", "-f", format]).status == 0)
    }

    /// A Unix socket is written through a connection to it.
    @Test func aSocketIsWrittenThroughAConnection() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.svg").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        final class Received: @unchecked Sendable { var bytes: [UInt8] = [] }
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while connection >= 0 {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                received.bytes += buffer[..<count]
            }
            close(connection)
            done.signal()
        }
        let run = try TallyProcess.run(["render", "137", "-o", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(Data(received.bytes) == (try Self.reference()))
    }

    /// Nothing is created or replaced in /dev or /proc.
    @Test func nothingIsCreatedInDev() throws {
        let run = try TallyProcess.run(["render", "5", "-o", "/dev/tally-test.svg"])
        expectOneLineError(run, status: 73, mentioning: "/dev/tally-test.svg")
        #expect(!FileManager.default.fileExists(atPath: "/dev/tally-test.svg"))
    }

    /// File names, folders and count lists are the bytes given, UTF-8 or not; messages show
    /// such bytes as `\xFF`.
    @Test func namesAreTheBytesGiven() throws {
        let shell = try #require(Self.shell)
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ command: String) throws -> TallyRun {
            try runProgram(shell, ["-c", command], directory: directory)
        }
        let file = try run("\(Self.tally) render 1 -o \"$(printf 'a\\377.svg')\"")
        #expect(file.status == 0, "\(file.stderr)")
        #expect(Self.entries(directory) == [[0x61, 0xFF, 0x2E, 0x73, 0x76, 0x67]])
        let folder = try run("\(Self.tally) batch 1,2 --out-dir \"$(printf 'd\\377')\" 2>/dev/null")
        #expect(folder.status == 0)
        #expect(Self.entries(directory).contains([0x64, 0xFF]), "the folder's name is d\\xFF")
        let list = try run(
            "printf '5\\n6\\n' > \"$(printf 'l\\377.txt')\"; \(Self.tally) batch @\"$(printf 'l\\377.txt')\" --out-dir o"
        )
        #expect(list.status == 0, "\(list.stderr)")
        #expect(Self.entries(directory.appendingPathComponent("o")).count == 2)
        let missing = try run("\(Self.tally) render 1 -o \"$(printf 'no\\377/x.svg')\"")
        expectOneLineError(missing, status: 73, mentioning: "'no\\xFF/x.svg'")
    }

    /// A count list may start with a UTF-8 byte order mark, as some editors write.
    @Test func aByteOrderMarkStartingACountListIsSkipped() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("list.txt")
        try Data([0xEF, 0xBB, 0xBF] + Array("5\n6\n".utf8)).write(to: list)
        let out = directory.appendingPathComponent("o").path
        #expect(try TallyProcess.run(["batch", "@" + list.path, "--out-dir", out]).status == 0)
        let piped = try TallyProcess.run(
            ["batch", "-", "--out-dir", out], stdin: Data([0xEF, 0xBB, 0xBF] + Array("7\n".utf8)))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [
                "tally-5.svg", "tally-6.svg", "tally-7.svg",
            ])
    }

    /// SIGKILL in the middle of a batch leaves only complete files: with `O_TMPFILE` a file has
    /// no name until it is whole. Tried on the test folder's file system and on tmpfs
    /// (/dev/shm) where there is one. Under a sanitizer the files are 512 px, which a sanitized
    /// tally still draws more slowly than a plain one draws 1,024 px.
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG)"))
    func sigkillLeavesNoTemporaryFile() async throws {
        try startingAProcess()
        var folders = [FileManager.default.temporaryDirectory]
        if FileManager.default.fileExists(atPath: "/dev/shm") { folders.append(URL(fileURLWithPath: "/dev/shm")) }
        for base in folders {
            for attempt in 0..<4 {
                let directory = base.appendingPathComponent("tally-kill-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let process = Process()
                process.executableURL = TallyProcess.executable
                process.arguments = [
                    "batch", "1...300", "-f", "png", "--size", underSanitizer ? "512" : "1024", "-j", "2",
                    "--out-dir", directory.path,
                ]
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Killed once a few files are there, at a different moment each time, or after
                // 20 s. Watched on a thread of its own: a `Task.sleep` on the test pool, busy
                // with the rest of the suite, resumed seconds late, and the batch drew on for a
                // minute of CPU before the kill.
                let wanted = 2 + attempt * 3
                let pid = process.processIdentifier
                await onAThread { [directory] in
                    let deadline = ContinuousClock.now + .seconds(20)
                    while ContinuousClock.now < deadline && Self.entries(directory).count < wanted
                        && kill(pid, 0) == 0
                    {
                        usleep(2_000)
                    }
                    kill(pid, SIGKILL)
                }
                process.waitUntilExit()
                let names = Self.entries(directory).map { String(decoding: $0, as: UTF8.self) }
                #expect(!names.isEmpty, "the batch had started")
                #expect(names.allSatisfy { $0.hasPrefix("tally-") && $0.hasSuffix(".png") }, "\(base.path): \(names)")
                for name in names {
                    let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
                    let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
                    #expect(Array(bytes.suffix(12)) == end, "\(name) is a whole PNG")
                }
            }
        }
    }
}
