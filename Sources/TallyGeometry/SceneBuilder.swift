/// SPEC §2 as code: which marks a count is drawn with, in count order.
///
/// A unit is drawn in one of two ways:
/// - **complete**: in its cap form. A gate is its four strokes and the slash; a twenty-five-unit
///   its gates under a cross; a hundred-block collapses to a box and a cross; a row keeps its
///   squares' boxes under one line; a block that is the frame keeps its rows under a diagonal,
///   and a block inside a larger structure collapses to a box and the same diagonal.
/// - **partial**: its complete children in their cap form, then the child being filled: drawn
///   the same way if the level of detail shows that child's own children, else as a progress
///   mark (`ProgressMark`), so partial progress is never invisible.
/// The cap of a complete unit is always drawn; only the detail under it follows the level of
/// detail, except in a complete frame, which keeps the children its count less one drew as
/// complete ones (SPEC §2, "Structure is kept at completions": one more never empties the
/// picture). A cap is opaque, over its detail or alone (SPEC §2, "Tone follows level"): a
/// translucent cap mixed its colour into the marks under it (a grey cross over the red slash
/// read brown) and drew a block's diagonal in the grey of the boxes it crosses.
/// At an output scale, units sit at whole-pixel steps (`Placement`), and the cross or diagonal
/// of a collapsed square smaller than `Proportions.smallestCappedBoxPixels` is left out: in a
/// box a few pixels wide it is a grey smear, and the box alone already says "complete"
/// (SPEC §2, "Small sizes").
struct SceneBuilder {
    let detail: Detail
    let placement: Placement
    private(set) var marks: [Mark] = []

    /// - Parameter placement: where units sit; nil for the level of detail's own (`Placement(_:)`).
    static func marks(count: UInt64, frame: UnitLevel, detail: Detail, placement: Placement? = nil) -> [Mark] {
        var builder = SceneBuilder(detail: detail, placement: placement ?? Placement(detail))
        let origin = Point(0, 0)
        if count == frame.capacity {
            builder.complete(frame, at: origin, isFrame: true)
        } else if count > 0 {
            builder.partial(frame, count: count, at: origin)
        }
        return builder.marks
    }

    private mutating func partial(_ level: UnitLevel, count: UInt64, at origin: Point) {
        if level == .gate {
            for index in 0..<Int(count) { marks.append(MarkShapes.stroke(index, gateAt: origin)) }
            return
        }
        guard let child = level.child, let grandchild = child.child else { return }
        let complete = Int(count / child.capacity)
        let rest = count % child.capacity
        for index in 0..<complete {
            self.complete(child, at: origin + placement.childOffset(level, index), isFrame: false)
        }
        guard rest > 0 else { return }
        let at = origin + placement.childOffset(level, complete)
        if detail.showsUnits(of: grandchild) {
            partial(child, count: rest, at: at)
        } else if case .automatic(let pixelsPerUnit) = detail {
            // Too small for its own detail: the child being filled still shows its progress,
            // never heavier than the child would be finished (SPEC §2, "Weight follows quantity").
            var finished = SceneBuilder(detail: detail, placement: placement)
            finished.complete(child, at: at, isFrame: false)
            marks += ProgressMark.marks(
                child, count: rest, at: at, size: placement.cellSize(child), pixelsPerUnit: pixelsPerUnit,
                finishedInk: ProgressMark.inkPixels(finished.marks, pixelsPerUnit: pixelsPerUnit))
        }
    }

    private mutating func complete(_ level: UnitLevel, at origin: Point, isFrame: Bool) {
        switch level.shape {
        case .stroke:
            break
        case .gate:
            for index in 0..<4 { marks.append(MarkShapes.stroke(index, gateAt: origin)) }
            marks.append(MarkShapes.slash(gateAt: origin))
        case .quincunx:
            if isFrame || detail.showsUnits(of: .gate) {
                for index in 0..<5 { complete(.gate, at: origin + placement.childOffset(level, index), isFrame: false) }
            }
            marks.append(MarkShapes.quincunxCross(at: origin, placement: placement))
        case .square where level == .hundred:
            marks.append(MarkShapes.box(level, at: origin, placement: placement))
            if isFrame || showsCap(inBoxOf: level) {
                marks.append(MarkShapes.squareCross(at: origin, placement: placement))
            }
        case .square:
            if isFrame {
                // The closure of SPEC §2: ten rows in cap form under one diagonal.
                let row = level.child!
                // SPEC §2, "Structure is kept at completions": the count before showed its
                // complete rows whatever the size, so the complete block shows all ten.
                if isFrame || detail.showsUnits(of: row) {
                    for index in 0..<10 {
                        complete(row, at: origin + placement.childOffset(level, index), isFrame: false)
                    }
                }
            } else {
                // Inside a larger structure a complete block collapses to its box.
                marks.append(MarkShapes.box(level, at: origin, placement: placement))
                guard showsCap(inBoxOf: level) else { return }
            }
            marks.append(MarkShapes.diagonal(level, at: origin, placement: placement))
        case .row:
            // The squares drop their crosses or diagonals and keep their boxes; one line through all.
            let square = level.child!
            // SPEC §2, "Structure is kept at completions": a row that is the frame keeps the
            // boxes its count before showed whatever the size (999 drew nine); inside a larger
            // structure its boxes follow the level of detail, as its siblings' do.
            if isFrame || detail.showsUnits(of: square) {
                for index in 0..<10 {
                    marks.append(
                        MarkShapes.box(square, at: origin + placement.childOffset(level, index), placement: placement))
                }
            }
            marks.append(MarkShapes.line(level, at: origin, placement: placement))
        }
    }

    /// Whether a collapsed square of this level is large enough at the output scale for the
    /// cross or diagonal inside its box to read (`Proportions.smallestCappedBoxPixels`).
    private func showsCap(inBoxOf level: UnitLevel) -> Bool {
        guard case .automatic(let pixelsPerUnit) = detail else { return true }
        return placement.cellSize(level).x * pixelsPerUnit >= Proportions.smallestCappedBoxPixels
    }
}
