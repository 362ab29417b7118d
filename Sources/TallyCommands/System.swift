import TallyPOSIX

// The few threading and file primitives the command line needs, on POSIX directly rather than
// through Foundation: linking full Foundation (and its ICU data) costs every `tally` process
// millions of instructions at start-up, in dynamic linking and in the protocol-conformance
// scans that swift-argument-parser's reflection triggers. Synchronization's `Mutex`
// cannot be held past a scope, which the signal watcher needs (`TemporaryFiles.watch`), so
// these are written by hand, each a thin wrapper over one pthread object.

/// A mutual-exclusion lock over `pthread_mutex_t`.
final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable with its own lock, over `pthread_cond_t`.
final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    func lock() { mutex.lock() }
    func unlock() { mutex.unlock() }
    /// Waits for a broadcast; call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex.mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// Runs `body` on a new detached thread.
func detachThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    let started = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
    if started == 0 { pthread_detach(thread) } else { Unmanaged<ThreadBody>.fromOpaque(context).release() }
    #else
    var thread: pthread_t?
    let started = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
    if started == 0, let thread { pthread_detach(thread) } else { Unmanaged<ThreadBody>.fromOpaque(context).release() }
    #endif
}

/// A thread's work, carried through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// `path` joined with a file name, as a path: `out` + `a.svg` → `out/a.svg`.
func joinedPath(_ directory: String, _ name: String) -> String {
    if directory.isEmpty { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
}

/// Image buffers (megabytes) always from mmap, so each returns to the system when freed.
/// Otherwise glibc raises its mmap threshold after the first large free and keeps later images
/// in per-thread arenas: batch workers taking turns under the pixel budget would each still hold
/// an image's memory, and the budget would bound the drawing but not the peak. `mallopt` is
/// glibc's (malloc.h, which Swift's Glibc module leaves out), so it is looked up by name.
func fixMallocMapThreshold() {
    #if canImport(Glibc)
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
    _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
    #endif
}
