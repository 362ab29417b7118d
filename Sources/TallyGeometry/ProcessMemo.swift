#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock for what a long-lived process (the server) keeps between requests rather than work
/// out again for each: a square's gate rule at a scale, a glyph's outline. Over
/// `pthread_mutex_t`, not Synchronization's `Mutex`, which needs macOS 15 (the package supports
/// 13), and not generic, so a render that never waits on it makes no type at run time for it.
package final class ProcessLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
}

/// Whether a square being filled keeps its quarters' gates (`SceneBuilder`), by the scale,
/// placement and proportions it was weighed at: the answer is a function of those alone, and
/// weighing builds two squares (about 65K instructions), every drawn request of a server at one
/// size. A flat array of Doubles (the scale, two places of the placement, the answer), of a type
/// every build already has, for one set of proportions: the first it is told an answer for. A
/// process sees few sizes, and draws with one set of proportions; past `capacity` answers, or
/// for other proportions, it weighs without keeping.
final class SquareGateMemo: @unchecked Sendable {
    static let shared = SquareGateMemo()
    static let capacity = 64

    private let lock = ProcessLock()
    private var entries: [Double] = []
    /// The proportions every entry was weighed with.
    private var proportions = Proportions.standard

    func answer(_ key: (Double, Double, Double), _ proportions: Proportions) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        guard proportions == self.proportions else { return nil }
        var index = 0
        while index + 3 < entries.count {
            if entries[index] == key.0 && entries[index + 1] == key.1 && entries[index + 2] == key.2 {
                return entries[index + 3] != 0
            }
            index += 4
        }
        return nil
    }

    func remember(_ key: (Double, Double, Double), _ proportions: Proportions, _ answer: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if entries.isEmpty { self.proportions = proportions }
        guard entries.count < 4 * Self.capacity, proportions == self.proportions else { return }
        entries += [key.0, key.1, key.2, answer ? 1 : 0]
    }
}

/// The placements a process has made at a scale (`Placement.init(pixelsPerUnit:_:reach:)`), for
/// the standard proportions: a placement is a function of its scale and reach alone, and making
/// one (four arrays, each rank's step and cell) cost about 4K instructions, five times a drawn
/// request (the lens's room and copy, the fit, the scene), 20K of a server's SVG request.
/// Looked up by the scale's and the reach's values; past `capacity` placements, or for other
/// proportions, a placement is made and not kept.
final class PlacementMemo: @unchecked Sendable {
    static let shared = PlacementMemo()
    static let capacity = 32

    private let lock = ProcessLock()
    /// Each kept placement's scale and reach, in turn.
    private var keys: [Double] = []
    private var placements: [Placement] = []

    func placement(_ pixelsPerUnit: Double, reach: Double) -> Placement? {
        lock.lock()
        defer { lock.unlock() }
        var index = 0
        while index + 1 < keys.count {
            if keys[index] == pixelsPerUnit && keys[index + 1] == reach { return placements[index / 2] }
            index += 2
        }
        return nil
    }

    func remember(_ placement: Placement, _ pixelsPerUnit: Double, reach: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard placements.count < Self.capacity else { return }
        keys += [pixelsPerUnit, reach]
        placements.append(placement)
    }
}
