/// One step of a mark's outline, as every vector backend draws it.
public enum PathElement: Hashable, Sendable {
    case move(Point)
    case line(Point)
    /// A quadratic bow (the ink style) to `end`.
    case quadratic(control: Point, end: Point)
    /// Back to the subpath's start, joined (a box's fourth side).
    case close
}

extension Mark {
    /// The mark's segments as a path: connected segments continue a subpath, and a segment that
    /// returns to its subpath's start closes it, so corners join instead of overlapping caps.
    public var path: [PathElement] {
        var elements: [PathElement] = []
        elements.reserveCapacity(segments.count + 1)
        forEachPathElement { elements.append($0) }
        return elements
    }

    /// The elements of `path`, one by one, without building the array (a backend draws
    /// thousands of marks).
    @inlinable
    public func forEachPathElement(_ body: (PathElement) -> Void) {
        var current: Point?
        var subpathStart = Point(0, 0)
        for segment in segments {
            if current != segment.start {
                body(.move(segment.start))
                subpathStart = segment.start
            }
            if let control = segment.control {
                body(.quadratic(control: control, end: segment.end))
            } else if segment.end == subpathStart {
                body(.close)
            } else {
                body(.line(segment.end))
            }
            current = segment.end
        }
    }
}
