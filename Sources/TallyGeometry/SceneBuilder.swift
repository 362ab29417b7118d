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
/// The cap of a complete unit is always drawn, and the detail under it depends on the unit's
/// level and its size in output pixels only, never on where it stands: a complete unit inside a
/// larger picture shows what it shows drawn alone at that size, save the collapsed squares
/// (SPEC §2, "Detail by a unit's own size, wherever it stands"). A complete unit keeps the
/// children its count less one drew (SPEC §2, "Structure is kept at completions": one more
/// never empties the picture): a row its ten boxes, a frame block its ten rows, a
/// twenty-five-unit its gates wherever they stand apart (`Proportions.smallestGatePixels`).
/// A unit being filled inside a larger structure and drawn with its children has its cell and
/// its empty children's cells dotted, as a wash's empty part is (SPEC §2, "The partial unit
/// shows its whole cell"). A cap is opaque, over its detail or alone (SPEC §2, "Tone follows level"): a
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
    /// Whether a complete twenty-five-unit keeps its gates under its cross, and one being filled
    /// shows them: false inside a square being filled where its quarters' gates would make it
    /// outweigh a finished sibling at this scale (`squareKeepsGates`).
    private var keepsGates = true

    /// - Parameter placement: where units sit, and the proportions every mark is drawn with.
    static func marks(count: UInt64, frame: UnitLevel, detail: Detail, placement: Placement) -> [Mark] {
        var builder = SceneBuilder(detail: detail, placement: placement)
        let origin = Point(0, 0)
        // Room for the marks of any picture of rows (nine rows of eleven marks, the row being
        // filled and its square's detail), so the array is not grown a dozen times on the way.
        if count > 0 { builder.marks.reserveCapacity(160) }
        if count == frame.capacity {
            builder.complete(frame, at: origin, isFrame: true)
        } else if count > 0 {
            builder.partial(frame, count: count, at: origin, isFrame: true)
        }
        return builder.marks
    }

    /// - Parameter column: for a gate, its column in its twenty-five-unit's dice five (its
    ///   strokes' places at small sizes, `Placement.stroke(_:column:)`); a gate alone is centred.
    private mutating func partial(
        _ level: UnitLevel, count: UInt64, at origin: Point, isFrame: Bool, column: Int = 1
    ) {
        if level == .gate {
            for index in 0..<Int(count) {
                marks.append(MarkShapes.stroke(index, gateAt: origin, column: column, placement: placement))
            }
            return
        }
        guard let child = level.child, let grandchild = child.child else { return }
        let complete = Int(count / child.capacity)
        let rest = count % child.capacity
        func columnOf(_ index: Int) -> Int { level.shape == .quincunx ? Int(Layout.quincunxCell(index).column) : 1 }
        for index in 0..<complete {
            self.complete(
                child, at: origin + placement.childOffset(level, index), isFrame: false, column: columnOf(index))
        }
        defer {
            // SPEC §2, "The partial unit shows its whole cell": every child of a unit being filled
            // that is not complete has its cell outlined in dots, the one being filled too, from
            // the moment the unit starts until the child completes, so a stroke landing in an
            // empty cell adds marks and removes none ("Marks are only added"). The frame's empty
            // children are the picture's own extent: only its child being filled is outlined.
            let last = isFrame ? (rest > 0 ? complete + 1 : complete) : level.childCount
            for index in complete..<last {
                if let outline = cellOutline(child, at: origin + placement.childOffset(level, index)) {
                    marks.append(outline)
                }
            }
        }
        guard rest > 0 else { return }
        let at = origin + placement.childOffset(level, complete)
        // SPEC §2, "Siblings of one pixel size have one level of detail": a twenty-five-unit
        // being filled shows its gates wherever a finished one of its size keeps them, and a gate
        // being filled its strokes wherever its finished siblings are drawn (41 at 64 px: three
        // gates and a stroke, never a wash beside a finished quarter's gates).
        let showsChildren =
            child.shape == .quincunx
            ? keepsGates && (showsUnits(of: grandchild) || showsGates(inQuincunxAt: child))
            : showsUnits(of: grandchild) || (child.shape == .gate && showsGates(inQuincunxAt: level))
        if showsChildren {
            if child == .hundred, case .automatic(let pixelsPerUnit) = detail {
                // Whether the square's quarters keep their gates is decided by the scale alone
                // (`squareKeepsGates`), so one more never takes them away.
                // Weighed only where a quarter's gates could show at all (rows at 256 px have no
                // room for them): elsewhere the answer changes no mark.
                var square = SceneBuilder(detail: detail, placement: placement)
                square.marks.reserveCapacity(64)  // a square's rows, the one being filled in detail
                let gatesCouldShow = showsUnits(of: .gate) || showsGates(inQuincunxAt: .twentyFive)
                square.keepsGates = !gatesCouldShow || squareKeepsGates(pixelsPerUnit: pixelsPerUnit)
                square.partial(child, count: rest, at: at, isFrame: false)
                marks += square.marks
            } else {
                partial(child, count: rest, at: at, isFrame: false, column: columnOf(complete))
            }
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

    private mutating func complete(_ level: UnitLevel, at origin: Point, isFrame: Bool, column: Int = 1) {
        switch level.shape {
        case .stroke:
            break
        case .gate:
            for index in 0..<4 {
                marks.append(MarkShapes.stroke(index, gateAt: origin, column: column, placement: placement))
            }
            marks.append(MarkShapes.slash(gateAt: origin, column: column, placement: placement))
        case .quincunx:
            // The same alone as inside (SPEC §2, "Detail by a unit's own size, wherever it
            // stands"): 24 draws its four gates at every size, so 25 keeps its five, and so does
            // every complete twenty-five-unit as large, down to gates too small to be anything
            // but grey dots (`Proportions.smallestGatePixels`), where the cross alone says
            // "complete".
            if keepsGates && showsGates(inQuincunxAt: level) {
                for index in 0..<5 {
                    complete(
                        .gate, at: origin + placement.childOffset(level, index), isFrame: false,
                        column: Int(Layout.quincunxCell(index).column))
                }
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
                for index in 0..<10 {
                    complete(row, at: origin + placement.childOffset(level, index), isFrame: false)
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
            // SPEC §2, "Structure is kept at completions" and "Detail by a unit's own size,
            // wherever it stands": 999 draws its nine boxes whatever the size, so a complete row
            // keeps its ten, whether it is the frame (1,000) or stands in a block (1,001, 10,000
            // under its caption), as large as it is.
            for index in 0..<10 {
                marks.append(
                    MarkShapes.box(square, at: origin + placement.childOffset(level, index), placement: placement))
            }
            marks.append(MarkShapes.line(level, at: origin, placement: placement))
        }
    }

    /// The dotted outline of one cell of a unit being filled (kind `dotted`): a rectangle through
    /// the centres of the cell's outer pixels, a one-pixel pen, in the progress edge's light ink,
    /// so the unit's extent and what is left of it read at a glance, lighter than any finished
    /// sibling (SPEC §2, "Weight follows quantity"). One mark a cell, whatever its size. Nil
    /// without an output scale, whose pixels they are, for gates (their cells are the strokes'
    /// own), and for a cell under 3 pixels a side, where dots would be a smudge.
    private func cellOutline(_ level: UnitLevel, at origin: Point) -> Mark? {
        guard case .automatic(let pixelsPerUnit) = detail, level > .gate else { return nil }
        let cell = ProgressMark.cellPixels(placement.cellSize(level), pixelsPerUnit)
        // A twenty-five-unit's cell under 8 px is not outlined: beside the crosses of its
        // finished siblings (as small), a dotted square of that size read as one more cross to
        // fresh readers (1,673 at 256 px read 1,698). A cell wider or taller than any image (a
        // scale no viewport gives) is never shown whole.
        let least = level == .twentyFive ? Proportions.smallestCappedBoxPixels : 3
        guard cell.width >= least, cell.height >= least, max(cell.width, cell.height) <= Viewport.maximumSide else {
            return nil
        }
        return ProgressMark.dottedOutline(
            of: Rect(minX: 0, minY: 0, width: cell.width, height: cell.height), unit: level.capacity, at: origin,
            pixelsPerUnit: pixelsPerUnit)
    }

    /// Whether a square being filled inside a row keeps its quarters' gates at this scale.
    ///
    /// SPEC §2, "Weight follows quantity", "Marks are only added" and "Siblings of one size have
    /// one detail": where the gates' strokes are closer than a legible gap, the pen floor widens
    /// each to a pixel and a quarter's five gates are a grey smudge heavier than its cross:
    /// three such quarters outweighed a finished square about twice at 0.3 to 1.25 pixels a
    /// unit. Whether they may stay is decided on the heaviest square being filled, 99 (three
    /// complete quarters and 24), against a finished square, so it depends on the scale alone:
    /// at one scale every square being filled keeps its quarters' gates, or none does (its
    /// complete quarters then their crosses alone, its quarter being filled a wash). The rule it
    /// replaces weighed each count, and 374 → 375 at 256 px took 49 marks away.
    private func squareKeepsGates(pixelsPerUnit: Double) -> Bool {
        // A function of the scale and the placement alone: weighed once a process for each. The
        // placement is known by its proportions and two of its places, which its own scale and
        // reach decide (a stored copy of those would make every Placement's destruction ask the
        // runtime for `[Double]`'s metadata: 15K instructions in `render 9999`).
        let key = (pixelsPerUnit, placement.step(.hundred), placement.stroke(0, column: 0))
        if let known = SquareGateMemo.shared.answer(key, placement.proportions) { return known }
        var heaviest = SceneBuilder(detail: detail, placement: placement)
        heaviest.partial(.hundred, count: UnitLevel.hundred.capacity - 1, at: Point(0, 0), isFrame: false)
        var finished = SceneBuilder(detail: detail, placement: placement)
        finished.complete(.hundred, at: Point(0, 0), isFrame: false)
        let keeps =
            ProgressMark.ink(heaviest.marks, pixelsPerUnit: pixelsPerUnit)
            <= ProgressMark.ink(finished.marks, pixelsPerUnit: pixelsPerUnit)
        SquareGateMemo.shared.remember(key, placement.proportions, keeps)
        return keeps
    }

    /// Whether units of this level are drawn one by one at this detail and proportions.
    private func showsUnits(of level: UnitLevel) -> Bool { detail.showsUnits(of: level, placement.proportions) }

    /// Whether a complete twenty-five-unit's gates stand at least
    /// `Proportions.smallestGatePixels` apart at the output scale, alone or inside.
    private func showsGates(inQuincunxAt level: UnitLevel) -> Bool {
        guard case .automatic(let pixelsPerUnit) = detail else { return true }
        return placement.step(level) * pixelsPerUnit >= Proportions.smallestGatePixels - 1e-9
    }

    /// Whether a collapsed square of this level is large enough at the output scale for the
    /// cross or diagonal inside its box to read (`Proportions.smallestCappedBoxPixels`).
    private func showsCap(inBoxOf level: UnitLevel) -> Bool {
        guard case .automatic(let pixelsPerUnit) = detail else { return true }
        return placement.cellSize(level).x * pixelsPerUnit >= Proportions.smallestCappedBoxPixels
    }
}
