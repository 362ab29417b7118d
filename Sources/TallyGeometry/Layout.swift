/// Where units sit as designed: cell sizes and child positions, derived from the proportions
/// the picture is drawn with.
///
/// Every unit's first child sits at the unit's own origin, so a mark keeps its layout position
/// when the count grows into a larger frame (the twenty-five-unit of 25 becomes the north-west
/// quarter of the hundred-block of 26, which becomes the first block of the row of 101, …).
extension Proportions {
    /// Side of the hundred-block: two twenty-five-units and the seam.
    var hundredSide: Double { 2 * quincunxSide + seam }

    /// The size of the square of a pair (index 1 … 10; x: width, y: height): the hundred-block,
    /// the ten-thousand-block, the million-block … Each above the first is ten rows of the pair
    /// below, stacked with nine row gaps: as wide as a row, taller by the wider row gaps.
    ///
    /// Worked out pair by pair when asked, a few products for the pairs a picture has: the
    /// proportions stay a value of numbers alone, with no array of sizes to make or carry.
    func squareSize(_ pair: Int) -> Point {
        guard pair > 0 else { return Point(0, 0) }
        let hundred = hundredSide
        var (width, height) = (hundred, hundred)
        for _ in 1..<pair {
            let scale = width / hundred
            (width, height) = (10 * width + 9 * squareGap * scale, 10 * height + 9 * rowGap * scale)
        }
        return Point(width, height)
    }

    /// How much the squares and rows of a pair are scaled up from pair 1 (by width).
    func pairScale(_ pair: Int) -> Double { squareSize(pair).x / hundredSide }

    /// The gap between squares of a row of a pair.
    func squareGap(_ pair: Int) -> Double { squareGap * pairScale(pair) }

    /// The gap between the rows of a block, for rows of a pair.
    func rowGap(_ pair: Int) -> Double { rowGap * pairScale(pair) }

    /// The size of a unit's cell (x: width, y: height).
    func cellSize(_ level: UnitLevel) -> Point {
        switch level.shape {
        case .stroke: return Point(0, 0)
        case .gate: return Point(gateSide, gateSide)
        case .quincunx: return Point(quincunxSide, quincunxSide)
        case .square:
            return squareSize(level.pair)
        case .row:
            let pair = level.pair
            let square = squareSize(pair)
            return Point(10 * square.x + 9 * squareGap(pair), square.y)
        }
    }

    /// Where child `index` (in fill order) of a unit sits, relative to the unit's origin.
    func childOffset(_ level: UnitLevel, _ index: Int) -> Point {
        switch level.shape {
        case .stroke, .gate:
            return Point(0, 0)
        case .quincunx:
            let (column, row) = Layout.quincunxCell(index)
            return Point(column * gateSide, row * gateSide)
        case .square where level == .hundred:
            // NW, NE, SW, SE
            let step = quincunxSide + seam
            return Point(Double(index % 2) * step, Double(index / 2) * step)
        case .square:
            // Rows, top to bottom; a block's rows belong to the pair below. (The square's size
            // worked out once, for its side and its scale: `rowGap(_:)` would again.)
            let square = squareSize(level.pair - 1)
            return Point(0, Double(index) * (square.y + rowGap * (square.x / hundredSide)))
        case .row:
            let square = squareSize(level.pair)
            return Point(Double(index) * (square.x + squareGap * (square.x / hundredSide)), 0)
        }
    }

    /// The step between consecutive children of a unit, as designed: gate cells in a
    /// twenty-five-unit, quarters of a hundred-block, rows of a block, squares of a row.
    func pitch(_ level: UnitLevel) -> Double {
        switch level.shape {
        case .stroke, .gate: 0
        case .quincunx: gateSide
        case .square where level == .hundred: quincunxSide + seam
        case .square: childOffset(level, 1).y
        case .row: childOffset(level, 1).x
        }
    }
}

/// The order units fill, whatever their proportions.
enum Layout {
    /// Dice-five fill order (SPEC §2): centre first, then NW, NE, SW, SE, in gate cells.
    static func quincunxCell(_ index: Int) -> (column: Double, row: Double) {
        switch index {
        case 0: (1, 1)
        case 1: (0, 0)
        case 2: (2, 0)
        case 3: (0, 2)
        default: (2, 2)
        }
    }
}

/// Where units sit at one output scale (SPEC §2, "Small sizes"): the proportions' layout with the
/// step between siblings (squares in a row, rows in a block, the quarters of a hundred-block,
/// the gates of a twenty-five-unit) rounded down to a whole number of output pixels.
///
/// Rounded independently, ten squares 6.16 px apart land 6 or 7 px apart and two of them can
/// touch; at one whole-pixel step every sibling is drawn alike, and the pixels saved go to the
/// margins. A unit's size follows its children's steps, so a row's line ends where its last
/// square does. Without an output scale (`Detail.full`) this is the layout as designed.
struct Placement {
    /// The proportions the picture is drawn with: every mark's shape reads them here.
    let proportions: Proportions
    /// The step between consecutive children of each rank, in layout units.
    private let pitches: [Double]
    /// The cell of each rank, in layout units (x: width, y: height).
    /// Each level's cell, width and height in turn (flat: an array of points is a generic type
    /// of its own, whose metadata a first render builds at run time, about 7K instructions).
    private let sizes: [Double]
    /// The x of a gate's four strokes in its cell, and of its slash's two ends, for a gate in
    /// each column of the dice five (0 left, 1 centre, 2 right): as designed, except where the
    /// strokes would stand under two output pixels apart (SPEC §2, "Small sizes": 4 at 20 px
    /// was one stroke and a smudge), where they stand two pixels apart (a one-pixel pen and a
    /// one-pixel gap) on pixel centres, so every stroke can be counted. The four then span
    /// 7 px, more than a cell under 7 px: a gate reaches into the empty cells of the dice five
    /// beside it, never past its twenty-five-unit: a left gate starts at its cell's left, a
    /// right one ends at its cell's right, the centre one is centred. Where the two gates of a
    /// row would then touch (cells under 5 px, 16 px images), the design stands.
    /// Four a column, then two a column: flat arrays of Double, whose type every build already
    /// has, rather than arrays of arrays or tuples, whose metadata a render would make at run time.
    private let strokeColumns: [Double]
    private let slashColumns: [Double]

    func stroke(_ index: Int, column: Int) -> Double { strokeColumns[4 * column + index] }
    func slashXs(column: Int) -> (start: Double, end: Double) {
        (slashColumns[2 * column], slashColumns[2 * column + 1])
    }

    init(_ detail: Detail, _ proportions: Proportions) {
        if case .automatic(let pixelsPerUnit) = detail {
            self.init(pixelsPerUnit: pixelsPerUnit, proportions)
        } else {
            self = .designed(proportions)
        }
    }

    /// The placement of a picture in `frame`: a twenty-five-unit that is the whole picture (1
    /// to 24) has the image's margin beside it, so at the smallest sizes its side gates' strokes
    /// may reach into it (`reach`); inside a larger unit they may not, for a neighbour is there.
    init(_ detail: Detail, frame: UnitLevel, _ proportions: Proportions) {
        guard frame == .twentyFive, case .automatic(let pixelsPerUnit) = detail else {
            self.init(detail, proportions)
            return
        }
        self.init(pixelsPerUnit: pixelsPerUnit, proportions, reach: Proportions.minimumMarginPixels)
    }

    /// The standard layout as designed, made once.
    static let design = Placement(pixelsPerUnit: nil, .standard)

    /// The layout of `proportions` as designed: the standard one made once, any other now.
    static func designed(_ proportions: Proportions) -> Placement {
        proportions == .standard ? design : Placement(pixelsPerUnit: nil, proportions)
    }

    /// - Parameters:
    ///   - pixelsPerUnit: the output scale; nil for the layout as designed.
    ///   - proportions: the proportions the picture is drawn with.
    ///   - reach: the output pixels a side gate's strokes may stand past its twenty-five-unit's
    ///     cell at small sizes, where two gates of a row would otherwise touch (`init(_:frame:)`).
    init(pixelsPerUnit: Double?, _ proportions: Proportions, reach: Double = 0) {
        guard let pixelsPerUnit, proportions == .standard else {
            self.init(computing: pixelsPerUnit, proportions, reach: reach)
            return
        }
        if let kept = PlacementMemo.shared.placement(pixelsPerUnit, reach: reach) {
            self = kept
            return
        }
        self.init(computing: pixelsPerUnit, proportions, reach: reach)
        PlacementMemo.shared.remember(self, pixelsPerUnit, reach: reach)
    }

    private init(computing pixelsPerUnit: Double?, _ proportions: Proportions, reach: Double) {
        // At a scale, from the design made once (its steps, and its stroke places, which most
        // scales keep and share): a render places units three or four times.
        let designed = pixelsPerUnit == nil ? nil : Placement.designed(proportions)
        self.proportions = proportions
        var pitches: [Double] = []
        var sizes: [Double] = []
        pitches.reserveCapacity(UnitLevel.largest.rank + 1)
        sizes.reserveCapacity(2 * (UnitLevel.largest.rank + 1))
        func append(_ size: Point) {
            sizes.append(size.x)
            sizes.append(size.y)
        }
        func size(_ rank: Int) -> Point { Point(sizes[2 * rank], sizes[2 * rank + 1]) }
        // By rank, not through `UnitLevel.all`: an array of levels built at first use.
        for rank in 0...UnitLevel.largest.rank {
            let level = UnitLevel(rank: rank)
            var pitch = designed?.pitches[rank] ?? proportions.pitch(level)
            if let pixelsPerUnit, pixelsPerUnit.isFinite, pixelsPerUnit > 0 {
                let pixels = (pitch * pixelsPerUnit).rounded(.down)
                if pixels >= 1 { pitch = pixels / pixelsPerUnit }
            }
            pitches.append(pitch)
            let last = Double(max(level.childCount - 1, 0))
            switch level.shape {
            case .stroke, .gate:
                append(proportions.cellSize(level))
            case .quincunx:
                // Three gate cells a side: two steps and one cell.
                let side = 2 * pitch + proportions.gateSide
                append(Point(side, side))
            case .square where level == .hundred:
                let side = pitch + proportions.quincunxSide
                append(Point(side, side))
            case .square:
                let row = size(level.rank - 1)
                append(Point(row.x, last * pitch + row.y))
            case .row:
                let square = size(level.rank - 1)
                append(Point(last * pitch + square.x, square.y))
            }
        }
        self.pitches = pitches
        self.sizes = sizes
        var strokeColumns = designed?.strokeColumns ?? []
        if designed == nil {
            strokeColumns.reserveCapacity(12)
            for _ in 0..<3 {
                for index in 0..<4 { strokeColumns.append(proportions.strokeX(index)) }
            }
        }
        let (slashStart, slashEnd) = (proportions.slashStart.x, proportions.slashEnd.x)
        var slashColumns = designed?.slashColumns ?? [slashStart, slashEnd, slashStart, slashEnd, slashStart, slashEnd]
        if let pixelsPerUnit, pixelsPerUnit.isFinite, proportions.strokeSpacing * pixelsPerUnit < 2 {
            let cell = proportions.gateSide * pixelsPerUnit
            let step = pitches[UnitLevel.twentyFive.rank] * pixelsPerUnit
            // The left gate's strokes end at 7 px, the right one's start 7 px before its cell's
            // end: a pixel apart at least. Where they would touch, each side reaches past the
            // twenty-five-unit's cell by the whole pixels it needs, up to `reach` (16 px images).
            let short = max(0, 8 - (2 * step + cell - 7))
            let out = (short / 2).rounded(.up)
            if out <= reach {
                // Pixel centres two apart: from the left, centred, and to the right of the cell.
                let firsts = [0.5 - out, (cell / 2 - 3.5).rounded() + 0.5, (cell - 7 + out).rounded(.down) + 0.5]
                strokeColumns = []
                slashColumns = []
                for (column, first) in firsts.enumerated() {
                    for index in 0..<4 { strokeColumns.append((first + 2 * Double(index)) / pixelsPerUnit) }
                    // The slash a pixel past the strokes each way, never past a side gate's cell.
                    // Reaching into the margin, the slash ends at the image's outer pixels' centres.
                    let (leftmost, rightmost) = out > 0 ? (0.5 - out, cell + out - 0.5) : (0, cell)
                    slashColumns.append((column == 0 ? max(leftmost, first - 1) : first - 1) / pixelsPerUnit)
                    slashColumns.append((column == 2 ? min(first + 7, rightmost) : first + 7) / pixelsPerUnit)
                }
            }
        }
        self.strokeColumns = strokeColumns
        self.slashColumns = slashColumns
    }

    /// The size of a unit's cell (x: width, y: height).
    func cellSize(_ level: UnitLevel) -> Point { Point(sizes[2 * level.rank], sizes[2 * level.rank + 1]) }

    /// The step between consecutive children of a unit, in layout units.
    func step(_ level: UnitLevel) -> Double { pitches[level.rank] }

    /// Where child `index` (in fill order) of a unit sits, relative to the unit's origin.
    func childOffset(_ level: UnitLevel, _ index: Int) -> Point {
        let step = pitches[level.rank]
        switch level.shape {
        case .stroke, .gate:
            return Point(0, 0)
        case .quincunx:
            let (column, row) = Layout.quincunxCell(index)
            return Point(column * step, row * step)
        case .square where level == .hundred:
            return Point(Double(index % 2) * step, Double(index / 2) * step)
        case .square:
            return Point(0, Double(index) * step)
        case .row:
            return Point(Double(index) * step, 0)
        }
    }
}
