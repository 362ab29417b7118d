/// Writes every byte to a descriptor, retrying after signals and short writes.
/// - Returns: 0, or the `errno` of the write that failed.
package func writeFully(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
        if result < 0 {
            if errno == EINTR { continue }
            return errno
        }
        written += result
    }
    return 0
}

/// Messages to standard error that never stop the program: `FileHandle.standardError.write`
/// traps when the write fails (stderr closed, or a full device), which turned a clear error or
/// a finished batch into a crash. A message that cannot be written is dropped; the exit code
/// still says what happened.
package enum StandardError {
    package static func send(_ text: String) {
        _ = writeFully(2, Array(text.utf8))
    }
}

/// An environment variable, or nil.
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// The processors online, at least 1: the default number of batch workers and server threads.
package func processorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
