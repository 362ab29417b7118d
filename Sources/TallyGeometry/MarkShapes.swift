/// The shape of every mark, placed at a unit's origin. Units, colours and pens per SPEC §2–§3;
/// every length from the placement's proportions.
enum MarkShapes {
    static func stroke(_ index: Int, gateAt origin: Point, column: Int, placement: Placement) -> Mark {
        let x = origin.x + placement.stroke(index, column: column)
        let proportions = placement.proportions
        return Mark(
            kind: .stroke, unit: 1, color: .c1, width: proportions.strokeWidth,
            segments: [Segment(x, origin.y + proportions.strokeTop, x, origin.y + proportions.strokeBottom)])
    }

    static func slash(gateAt origin: Point, column: Int, placement: Placement) -> Mark {
        let (start, end) = placement.slashXs(column: column)
        let proportions = placement.proportions
        return Mark(
            kind: .slash, unit: 5, color: .accent, width: proportions.slashWidth,
            segments: [
                Segment(
                    origin + Point(start, proportions.slashStart.y), origin + Point(end, proportions.slashEnd.y))
            ])
    }

    /// The cross over a complete twenty-five-unit, opaque over its gates or alone.
    static func quincunxCross(at origin: Point, placement: Placement) -> Mark {
        let low = placement.proportions.quincunxCrossInset
        let high = placement.cellSize(.twentyFive).x - low
        return Mark(
            kind: .cross, unit: 25, color: .c2, width: placement.proportions.quincunxCrossWidth,
            segments: diagonals(origin: origin, low: low, high: high))
    }

    /// The pen of a square's box and cross or diagonal.
    /// (From the placement, not its proportions handed on: a copy of those, in every box, cost
    /// 3K instructions in `render 9999`.)
    static func squarePen(_ level: UnitLevel, _ placement: Placement) -> Double {
        placement.proportions.squareCapWidth * placement.proportions.pairScale(level.pair)
    }

    /// A square's outline, inset by half its pen so the ink stays inside the cell.
    static func box(_ level: UnitLevel, at origin: Point, placement: Placement) -> Mark {
        let pen = squarePen(level, placement)
        let size = placement.cellSize(level)
        let (x0, y0) = (origin.x + pen / 2, origin.y + pen / 2)
        let (x1, y1) = (origin.x + size.x - pen / 2, origin.y + size.y - pen / 2)
        return Mark(
            kind: .box, unit: level.capacity, color: .c3, width: pen,
            segments: [
                Segment(x0, y0, x1, y0), Segment(x1, y0, x1, y1),
                Segment(x1, y1, x0, y1), Segment(x0, y1, x0, y0),
            ])
    }

    /// The cross of a collapsed hundred-block, corner to corner of its box.
    static func squareCross(at origin: Point, placement: Placement) -> Mark {
        let pen = squarePen(.hundred, placement)
        return Mark(
            kind: .cross, unit: 100, color: .c2, width: pen,
            segments: diagonals(origin: origin, low: pen / 2, high: placement.cellSize(.hundred).x - pen / 2))
    }

    /// A block's closing diagonal, top left to bottom right; the same whether the block is the
    /// frame (over its rows) or collapsed inside a larger structure (over its box).
    static func diagonal(_ level: UnitLevel, at origin: Point, placement: Placement) -> Mark {
        let pen = squarePen(level, placement)
        let size = placement.cellSize(level)
        return Mark(
            kind: .diagonal, unit: level.capacity, color: capColor(level), width: pen,
            segments: [
                Segment(
                    origin.x + pen / 2, origin.y + pen / 2,
                    origin.x + size.x - pen / 2, origin.y + size.y - pen / 2)
            ])
    }

    /// A row's line, through the middle of all ten squares, end to end.
    static func line(_ level: UnitLevel, at origin: Point, placement: Placement) -> Mark {
        let pen = placement.proportions.rowLineWidth * placement.proportions.pairScale(level.pair)
        let size = placement.cellSize(level)
        let y = origin.y + size.y / 2
        return Mark(
            kind: .line, unit: level.capacity, color: capColor(level), width: pen,
            segments: [Segment(origin.x + pen / 2, y, origin.x + size.x - pen / 2, y)])
    }

    /// SPEC §2, colours by kind at every rank: lines C1, diagonals C2 (boxes C3, crosses C2), so
    /// a cap is never drawn in the colour of the boxes it closes.
    static func capColor(_ level: UnitLevel) -> ColorToken {
        level.shape == .row ? .c1 : .c2
    }

    private static func diagonals(origin: Point, low: Double, high: Double) -> [Segment] {
        [
            Segment(origin.x + low, origin.y + low, origin.x + high, origin.y + high),
            Segment(origin.x + high, origin.y + low, origin.x + low, origin.y + high),
        ]
    }
}
