/// Opening a path beneath a folder, with the kernel's help where it gives it: a path that
/// climbs out of the folder (`..`, an absolute link, a link to a folder outside) fails in the
/// kernel, not in a comparison of text, so a link swapped in between a check and a write cannot
/// lead the write elsewhere (SPEC §8).
package enum Beneath {
    /// Opens `path` (relative, no `..` components) beneath the folder `folder`: the descriptor,
    /// or -1 with `errno` set. `EXDEV` when the path leads out of the folder, `ELOOP` for a
    /// loop, `ENOENT` for a missing component.
    ///
    /// On Linux 5.6 and later this is `openat2` with `RESOLVE_BENEATH` and
    /// `RESOLVE_NO_MAGICLINKS`: links that stay below the folder are followed, others refused.
    /// Elsewhere, where the kernel has no `openat2`, or with `kernel` false (for tests), each
    /// component is opened in turn with `O_NOFOLLOW`, so no link at all is followed (`ELOOP` or
    /// `ENOTDIR` at a link).
    package static func open(_ folder: Int32, _ path: String, _ flags: Int32, _ mode: mode_t = 0, kernel: Bool = true)
        -> Int32
    {
        if kernel, let descriptor = openByKernel(folder, path, flags, mode) { return descriptor }
        return openByWalk(folder, path, flags, mode)
    }

    /// `openat2`, through `syscall` (variadic in C, so looked up by name and called with the
    /// fixed arguments the kernel takes); nil when the system has no `openat2`.
    private static func openByKernel(_ folder: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        typealias Syscall = @convention(c) (Int, Int32, UnsafePointer<CChar>, UnsafeRawPointer, Int) -> Int
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall") else { return nil }
        // struct open_how { u64 flags; u64 mode; u64 resolve; }; openat2 is 437 on both
        // architectures (the table shared since Linux 5.1).
        let resolveBeneath: UInt64 = 0x08
        let resolveNoMagicLinks: UInt64 = 0x02
        var how: (UInt64, UInt64, UInt64) = (
            UInt64(UInt32(bitPattern: flags)), UInt64(mode), resolveBeneath | resolveNoMagicLinks
        )
        let result = withPath(path) { pathPointer in
            withUnsafePointer(to: &how) { howPointer in
                unsafeBitCast(symbol, to: Syscall.self)(437, folder, pathPointer, UnsafeRawPointer(howPointer), 24)
            }
        }
        // ENOSYS: a kernel before 5.6; EPERM: a seccomp filter that forbids the call (older
        // container runtimes). The walk then does the work, and finds any real refusal.
        if result < 0 && (errno == ENOSYS || errno == EPERM) { return nil }
        return Int32(truncatingIfNeeded: result)
        #else
        return nil
        #endif
    }

    /// Each component opened with `O_NOFOLLOW` from the one before.
    private static func openByWalk(_ folder: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        let components = pathComponents(path).map(String.init).filter { $0 != "." }
        guard !components.contains("..") else {
            errno = EXDEV
            return -1
        }
        guard let last = components.last else {
            return withPath(".") { openat(folder, $0, flags | O_NOFOLLOW, mode) }
        }
        var current = folder
        for component in components.dropLast() {
            let next = withPath(component) {
                openat(current, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            if current != folder { close(current) }
            guard next >= 0 else {
                errno = code
                return -1
            }
            current = next
        }
        let opened = withPath(last) { openat(current, $0, flags | O_NOFOLLOW, mode) }
        let code = errno
        if current != folder { close(current) }
        errno = code
        return opened
    }
}
