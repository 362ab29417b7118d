/// The cores this process may run on: its CPU affinity (`taskset`, a cpuset), which a thread
/// pool should be sized by rather than the machine's count.
package enum AllowedCores {
    /// The count from `/proc/self/status` (`Cpus_allowed:`, a hexadecimal mask in groups of
    /// eight digits separated by commas), or nil where there is no such file (macOS) or line.
    /// Read from the file because glibc's `sched_getaffinity` is not visible to Swift's Glibc
    /// module, and its `CPU_COUNT` is a macro.
    package static func count() -> Int? {
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The file is a few KB; one past 64 KiB is not the one described here.
        guard let text = readAll(descriptor, limit: 65_536), text.count <= 65_536 else { return nil }
        return count(status: text)
    }

    /// The set bits of the `Cpus_allowed:` line of a `/proc/PID/status` text.
    package static func count(status text: [UInt8]) -> Int? {
        let key = Array("Cpus_allowed:".utf8)
        var lineStart = 0
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
            if text[lineStart..<lineEnd].starts(with: key) {
                var bits = 0
                for byte in text[(lineStart + key.count)..<lineEnd] {
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): bits += Int(byte - UInt8(ascii: "0")).nonzeroBitCount
                    case UInt8(ascii: "a")...UInt8(ascii: "f"):
                        bits += Int(byte - UInt8(ascii: "a") + 10).nonzeroBitCount
                    case UInt8(ascii: "A")...UInt8(ascii: "F"):
                        bits += Int(byte - UInt8(ascii: "A") + 10).nonzeroBitCount
                    case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"): continue
                    default: return nil
                    }
                }
                return bits > 0 ? bits : nil
            }
            lineStart = lineEnd + 1
        }
        return nil
    }
}
