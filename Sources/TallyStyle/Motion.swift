import TallyGeometry

/// SPEC §4's motion: each new mark draws in, in count order.
package enum Motion {
    /// How long one mark takes to draw in, in seconds.
    package static func duration(of kind: MarkKind) -> Double {
        switch kind {
        case .stroke: 0.28
        case .slash: 0.2
        // Caps draw in at the pace of a stroke: the design system names no other.
        case .cross, .box, .line, .diagonal: 0.28
        // A progress fill has no pen to draw in, and a caption or a goal's remaining cell is
        // not a mark of the count, nor a cell's dotted outline: they are shown at once.
        case .progress, .edge, .caption, .remaining, .dotted: 0
        }
    }

    /// The whole animation ends near this many seconds, however many marks are new.
    package static let totalLimit = 3.0

    package struct Timing: Hashable, Sendable {
        package var delay: Double
        package var duration: Double
    }

    /// When each mark starts and how long it takes; nil for marks that are shown at once.
    /// Marks follow each other; when that would take longer than `totalLimit`, their starts are
    /// pulled closer together (they overlap), keeping every duration.
    package static func timings(for marks: [Mark], animated: [Bool]) -> [Timing?] {
        let animated = zip(marks, animated).map { $1 && duration(of: $0.kind) > 0 }
        let durations = zip(marks, animated).map { $1 ? duration(of: $0.kind) : 0 }
        guard let last = animated.lastIndex(of: true) else { return marks.map { _ in nil } }
        let before = durations[..<last].reduce(0, +)
        let squeeze = before > 0 ? min(1, max(0, totalLimit - durations[last]) / before) : 1
        var start = 0.0
        var result: [Timing?] = []
        result.reserveCapacity(marks.count)
        for (index, isAnimated) in animated.enumerated() {
            guard isAnimated else {
                result.append(nil)
                continue
            }
            result.append(Timing(delay: start, duration: durations[index]))
            start += durations[index] * squeeze
        }
        return result
    }
}
