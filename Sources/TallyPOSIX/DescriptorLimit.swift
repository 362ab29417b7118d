/// The process's limit on open descriptors (`RLIMIT_NOFILE`), raised as servers raise it.
package enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as servers do at start (the soft limit is only a
    /// default, often 1024, far below what the system allows), and returns the soft limit in
    /// force afterwards. On macOS, whose hard limit may be unlimited, the soft limit is raised
    /// to `OPEN_MAX`, the most `setrlimit` accepts there.
    /// - Returns: the limit now in force; nil if the system does not say.
    @discardableResult
    package static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        var target = limit.rlim_max
        #if canImport(Darwin)
        target = min(target, rlim_t(OPEN_MAX))
        #endif
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // unlimited (all ones) becomes Int.max
    }

    /// The descriptors this process has open now: the entries of `/proc/self/fd` (or
    /// `/dev/fd`), less the one the listing itself holds; nil where neither folder exists.
    package static func openDescriptors() -> Int? {
        for folder in ["/proc/self/fd", "/dev/fd"] {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(2)) }
                if name.first != UInt8(ascii: ".") { count += 1 }
            }
            return max(0, count - 1)
        }
        return nil
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
