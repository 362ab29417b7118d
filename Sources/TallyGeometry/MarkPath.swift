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
        var current: Point?
        var subpathStart = Point(0, 0)
        for segment in segments {
            if current != segment.start {
                elements.append(.move(segment.start))
                subpathStart = segment.start
            }
            if let control = segment.control {
                elements.append(.quadratic(control: control, end: segment.end))
            } else if segment.end == subpathStart {
                elements.append(.close)
            } else {
                elements.append(.line(segment.end))
            }
            current = segment.end
        }
        return elements
    }
}
