/// Every proportion of the drawing, in layout units, in one place.
///
/// The gate cell is 10 units square; everything else is sized from it. The values were chosen
/// for legibility from 16 px to 4,000 px: strokes close enough to read as one gate, gaps between
/// gates and seams between units clearly wider than the gaps inside a gate, caps bolder than
/// the detail they close. Above the hundred-block the structure repeats every two ranks, scaled
/// by `Layout.pairScale`: the widths of squares and rows grow with it, so a ten-thousand-block in
/// a row looks like a hundred-block in a row.
public enum Proportions {
    // MARK: Gate (rank 1)

    /// A gate's cell is a square of this side.
    public static let gateSide = 10.0
    /// The x of the four strokes inside the gate cell, left to right.
    public static let strokeXs: [Double] = [2, 4, 6, 8]
    /// Strokes run from top to bottom (y grows downwards).
    public static let strokeTop = 1.5
    public static let strokeBottom = 8.5
    public static let strokeWidth = 0.9
    /// The slash, the fifth mark: from lower left to upper right, across all four strokes.
    public static let slashStart = Point(0.8, 7.2)
    public static let slashEnd = Point(9.2, 2.8)
    public static let slashWidth = 1.1

    // MARK: Twenty-five-unit (rank 2)

    /// Five gates on a 3 × 3 grid of gate cells (a dice five), so the unit is 30 units square.
    public static let quincunxSide = 3 * gateSide
    /// The cross's ends sit this far inside the unit's corners.
    public static let quincunxCrossInset = 1.0
    public static let quincunxCrossWidth = 1.8

    // MARK: Hundred-block (rank 3) and the squares above it

    /// The visible seam between the four twenty-five-units of a hundred-block.
    public static let seam = 6.0
    /// The pen of a collapsed square's box and of its cross or diagonal, at hundred-block scale.
    public static let squareCapWidth = 2.6
    /// The gap between neighbouring squares in a row, and between rows in a block, at hundred-block scale.
    public static let squareGap = 8.0

    // MARK: Rows (ranks 4, 6 …)

    /// The pen of a row's line, at thousand-row scale.
    public static let rowLineWidth = 3.2

    // MARK: Level of detail

    /// Detail is drawn only while the gaps between its marks stay at least this many output pixels…
    public static let legibleGapPixels = 1.5
    /// …and its pens at least this wide: a half-pixel line still shows, anti-aliased at half
    /// strength, and keeps the boxes of a row or block visible at small sizes; thinner ones fade.
    /// (For strokes the gap decides first: it needs more pixels than the pen.)
    public static let legibleStrokePixels = 0.5
    /// No pen is drawn thinner than this many output pixels (SPEC §2): a thinner one is widened
    /// to it, so nothing fades into a hairline that reads as ruled paper.
    public static let minimumPenPixels = 1.0

    // MARK: Partial progress

    /// A progress mark (SPEC §2, "Partial progress is never invisible") is at least this many
    /// output pixels each way, so one stroke in an unseen corner still changes the picture.
    public static let progressMinimumPixels = 3.0
    /// A progress mark is a fill in the strokes' colour (c1) at this opacity: the grey the hidden
    /// strokes would average to, lighter than any cap, so it never reads as one.
    public static let progressOpacity = 0.35

    // MARK: The image

    /// The default margin on every side, as a share of the shorter side of what is shown (so a
    /// wide row gets as much margin as a square of its height): no mark touches the image's edge.
    public static let marginShare = 1.0 / 24
    /// The default margin is never under this many output pixels (where the image has room):
    /// enough for a pen widened to 1 px and the rounding of the image to whole pixels.
    public static let minimumMarginPixels = 2.0
}
