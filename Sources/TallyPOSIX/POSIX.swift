// The one place that names the C library: Glibc on Linux, Darwin on macOS. Every module that
// calls libc (file descriptors, signals, stat, time) imports this shim instead, so no other file
// has to choose between the two, and no call is spelt `Glibc.read` where Darwin has no Glibc.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("tally needs a C library with POSIX calls: Glibc or Darwin")
#endif

/// UTC calendar fields of a time in seconds since 1970, through the C library's `gmtime_r` (no
/// time zone, no locale): year, month 1–12, day 1–31, hour, minute, second.
package func utcCalendar(_ seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    var time = time_t(seconds)
    var fields = tm()
    _ = gmtime_r(&time, &fields)
    return (
        Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
        Int(fields.tm_min), Int(fields.tm_sec)
    )
}

/// Makes sure descriptors 0, 1 and 2 are open before anything else opens one, as coreutils and
/// OpenSSH do: a program started with one of them closed would otherwise hand that number to
/// the next file or pipe it opens, and its output (or a signal pipe's bytes) would go astray.
/// A closed one gets `/dev/null` in the opposite mode (standard input write-only, the others
/// read-only), so using it still fails as a closed descriptor does (EBADF): output to a closed
/// standard output stays an I/O error, never a silent success.
package func reserveStandardDescriptors() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
        // open returns the lowest free number: this one, as the lower ones are open by now.
        let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
        if opened >= 0 && opened != descriptor {
            _ = dup2(opened, descriptor)
            _ = close(opened)
        }
    }
}

/// A pipe whose two descriptors close on `exec`, so a program tally runs (tally serve runs
/// tally-server) inherits neither. Returns 0, or -1 with `errno` set.
package func closeOnExecPipe(_ descriptors: inout [Int32]) -> Int32 {
    #if canImport(Glibc)
    // pipe2 sets the flag atomically; Swift's Glibc module leaves it out (it is a GNU
    // extension), so it is looked up by name.
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") {
        return descriptors.withUnsafeMutableBufferPointer {
            unsafeBitCast(symbol, to: Pipe2.self)($0.baseAddress!, O_CLOEXEC)
        }
    }
    #endif
    guard pipe(&descriptors) == 0 else { return -1 }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return 0
}

/// Opens an unnamed file in a folder (Linux's `O_TMPFILE`), to be named with `linkFile` once
/// complete: until then nothing in the folder refers to it, so a killed process leaves nothing.
/// Returns the descriptor, or -1 where the system or the file system has no such files (then
/// use a named temporary file).
package func openUnnamedFile(_ directory: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
    // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; Swift's Glibc module leaves it out, and
    // __O_TMPFILE is 0o20000000 on these architectures (not on alpha, sparc or parisc).
    let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
    return open(directory, temporaryFile | O_WRONLY | O_CLOEXEC, mode)
    #else
    return -1
    #endif
}

/// Gives an unnamed file (`openUnnamedFile`) a name: 0, or -1 with `errno` set (`EEXIST`
/// when the name is taken: Linux cannot link over a name). `ENOSYS` when `/proc`, through which
/// the file is named, is not mounted.
package func linkFile(_ descriptor: Int32, _ path: UnsafePointer<CChar>) -> Int32 {
    #if os(Linux)
    if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return 0 }
    if errno == ENOENT && access("/proc/self/fd", F_OK) != 0 { errno = ENOSYS }
    return -1
    #else
    errno = ENOSYS
    return -1
    #endif
}

/// A stream connection to the Unix socket at `path`: the descriptor, or -1 with `errno` set.
package func connectUnixSocket(_ path: [UInt8]) -> Int32 {
    var address = sockaddr_un()
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.count < capacity else {
        errno = ENAMETOOLONG
        return -1
    }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in path.enumerated() { buffer[index] = byte }
    }
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return -1 }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard connected == 0 else {
        let code = errno
        close(descriptor)
        errno = code
        return -1
    }
    return descriptor
}

/// At most `limit` bytes of a descriptor and one more (so a file that grew, or one longer than
/// expected, reads as more than `limit`), or nil on an error.
package func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
        count = 0
        while count < buffer.count {
            let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if got < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            if got == 0 { return }
            count += got
        }
    }
    return failed ? nil : bytes
}
