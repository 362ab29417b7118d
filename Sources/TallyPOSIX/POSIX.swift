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
