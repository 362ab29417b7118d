/// SPEC §2, "The frame and the fit": which part of the layout an image shows.
public enum Fit: String, CaseIterable, Hashable, Sendable {
    /// The cells of the frame's children that hold any of the count: 137 shows two squares of
    /// its row, 1,234 two rows of its block, 26 the top half of its hundred-block. A
    /// twenty-five-unit frame is always shown whole.
    case content
    /// The whole frame, so every count of one frame gives an image of one size.
    case frame
}

extension Canvas {
    /// The part of this frame that `fit` shows for `count`, in layout units.
    ///
    /// For `.content` it is the smallest rectangle around the cells of the frame's children that
    /// hold any of the count; it depends on the cells only, never on the marks, so the level of
    /// detail (decided after the fit) cannot change what is shown.
    /// A frame drawn with the standard proportions (`Proportions.standard`).
    public func shown(_ fit: Fit, for count: TallyCount) -> Rect {
        shown(fit, for: count, .standard)
    }

    /// The same for a frame drawn with `proportions`.
    package func shown(_ fit: Fit, for count: TallyCount, _ proportions: Proportions) -> Rect {
        shown(fit, for: count, placement: .designed(proportions))
    }

    /// The part of this frame that `fit` shows for `count` as the scene of that level of detail
    /// places it: with its sibling steps in whole output pixels (`Placement`), so a little
    /// smaller than `shown(_:for:)`.
    package func shown(_ fit: Fit, for count: TallyCount, detail: Detail, _ proportions: Proportions) -> Rect {
        shown(fit, for: count, placement: Placement(detail, proportions))
    }

    func shown(_ fit: Fit, for count: TallyCount, placement: Placement) -> Rect {
        let whole = placement.cellSize(level)
        guard fit == .content, level > .smallestFrame, let child = level.child else {
            return Rect(minX: 0, minY: 0, width: whole.x, height: whole.y)
        }
        // At least one child, so an empty count still shows a first cell.
        let (quotient, remainder) = count.value.quotientAndRemainder(dividingBy: child.capacity)
        let used = max(1, min(Int(quotient) + (remainder > 0 ? 1 : 0), level.childCount))
        let size = placement.cellSize(child)
        var maxX = 0.0
        var maxY = 0.0
        for index in 0..<used {
            let offset = placement.childOffset(level, index)
            maxX = max(maxX, offset.x + size.x)
            maxY = max(maxY, offset.y + size.y)
        }
        return Rect(minX: 0, minY: 0, width: maxX, height: maxY)
    }
}
