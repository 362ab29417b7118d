import TallyPOSIX

/// Messages to standard error that never stop the program: `FileHandle.standardError.write`
/// traps when the write fails (stderr closed, or a full device), which turned a clear error or
/// a finished batch into a crash. A message that cannot be written is dropped; the exit code
/// still says what happened.
package enum StandardError {
    package static func send(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
