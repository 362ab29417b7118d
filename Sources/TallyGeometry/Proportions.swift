/// Every proportion of the drawing, in layout units, as one value: the geometry (the layout,
/// `Placement`, `MarkShapes`, the goal's cells, the fit and the lens) is drawn with the value it
/// is given, and `standard` is SPEC §2's. A new drawing parameter is one field here, read where
/// the geometry uses it; the render options set the value in one place (`RenderOptions`).
///
/// The gate cell is 10 units square; everything else is sized from it. The values were chosen
/// for legibility from 16 px to 4,000 px: strokes close enough to read as one gate, caps bolder
/// than the detail they close, and every grouping wider than the one inside it. The seams
/// between the twenty-five-units of a hundred-block, the gaps between the squares of a row and
/// between the rows of a block are each at least 1.5 × the largest gap inside the units they
/// separate (the ink gap between gates, between twenty-five-units, between squares), so the
/// grouping reads at a glance. Above the hundred-block the structure repeats every two ranks,
/// scaled by `pairScale(_:)`, so a ten-thousand-block in a row looks like a hundred-block in
/// a row.
///
/// A plain struct of numbers, passed by value: the standard one folds into the code that reads
/// it, and no render makes a type at run time for it. The rules in output pixels below the
/// fields (legibility, opacities, margins, the gallery) are constants, not proportions.
package struct Proportions: Hashable, Sendable {
    // MARK: Gate (rank 1)

    /// A gate's cell is a square of this side.
    package var gateSide: Double
    /// The distance between a gate's four strokes, centred in its cell (`strokeX(_:)`): 2.1, so
    /// the gap between them (1.2) stays 1.5 px where a row's first two squares fill a 256 px image.
    package var strokeSpacing: Double
    /// Strokes run from top to bottom (y grows downwards), nearly the cell's height, so the
    /// empty cells of the dice-five leave gaps no wider than the seam allows.
    package var strokeTop: Double
    package var strokeBottom: Double
    package var strokeWidth: Double
    /// The slash, the fifth mark: from lower left to upper right, across all four strokes.
    package var slashStart: Point
    package var slashEnd: Point
    package var slashWidth: Double

    // MARK: Twenty-five-unit (rank 2)

    /// The cross's ends sit this far inside the unit's corners.
    package var quincunxCrossInset: Double
    package var quincunxCrossWidth: Double

    // MARK: Hundred-block (rank 3) and the squares above it

    /// The seam between the four twenty-five-units of a hundred-block: its ink gap (17.7, the
    /// crosses' ends reach 0.1 into their cells) is over 1.5 × the largest ink gap between the
    /// gates inside one (11.65: a gate still without its slash beside a complete one, across an
    /// empty cell of the dice-five).
    package var seam: Double
    /// The pen of a collapsed square's box and of its cross or diagonal, at hundred-block scale.
    package var squareCapWidth: Double
    /// The gap between neighbouring squares in a row, at hundred-block scale: over 1.5 × the
    /// widest seam inside a hundred-block being filled (about 18.05 of ink).
    package var squareGap: Double
    /// The gap between the rows of a block, at hundred-block scale: over 1.5 × the gap between
    /// the squares inside a row (about 28.1 of ink), so a block reads as ten rows, not a grid.
    /// A block is therefore taller than wide.
    package var rowGap: Double

    // MARK: Rows (ranks 4, 6 …)

    /// The pen of a row's line, at thousand-row scale.
    package var rowLineWidth: Double

    /// SPEC §2's proportions: what every picture is drawn with unless told otherwise.
    package static let standard = Proportions(
        gateSide: 10, strokeSpacing: 2.1, strokeTop: 0.9, strokeBottom: 9.1, strokeWidth: 0.9,
        slashStart: Point(0.8, 7.2), slashEnd: Point(9.2, 2.8), slashWidth: 1.1, quincunxCrossInset: 1,
        quincunxCrossWidth: 1.5, seam: 17.5, squareCapWidth: 2.6, squareGap: 28, rowGap: 43, rowLineWidth: 3.2)

    /// Every length times `factor`: a picture like this one at another size, other than it in
    /// every field, for the tests that show a value reaches every mark. Each field is listed
    /// here, so a new one is a compile error here until it is, in the same file as its
    /// declaration.
    package func scaled(by factor: Double) -> Proportions {
        func scaled(_ point: Point) -> Point { Point(point.x * factor, point.y * factor) }
        return Proportions(
            gateSide: gateSide * factor, strokeSpacing: strokeSpacing * factor, strokeTop: strokeTop * factor,
            strokeBottom: strokeBottom * factor, strokeWidth: strokeWidth * factor, slashStart: scaled(slashStart),
            slashEnd: scaled(slashEnd), slashWidth: slashWidth * factor,
            quincunxCrossInset: quincunxCrossInset * factor, quincunxCrossWidth: quincunxCrossWidth * factor,
            seam: seam * factor, squareCapWidth: squareCapWidth * factor, squareGap: squareGap * factor,
            rowGap: rowGap * factor, rowLineWidth: rowLineWidth * factor)
    }

    /// Five gates on a 3 × 3 grid of gate cells (a dice five), so the unit is 30 units square.
    package var quincunxSide: Double { 3 * gateSide }

    /// The x of stroke `index` (0–3, left to right) in its gate's cell: `strokeSpacing` apart,
    /// centred. To a billionth of a unit, so the standard strokes stand at the decimals they
    /// were designed at (1.85, 3.95, 6.05, 8.15), not a rounding error beside them.
    package func strokeX(_ index: Int) -> Double {
        ((gateSide / 2 + (Double(index) - 1.5) * strokeSpacing) * 1e9).rounded() / 1e9
    }

    // MARK: Level of detail

    /// Detail is drawn only while the gaps between its marks stay at least this many output pixels…
    package static let legibleGapPixels = 1.5
    /// …and its pens at least this wide. The pen floor (`minimumPenPixels`) draws a thinner pen
    /// at 1 px, so a quarter-pixel pen is drawn at most 4× its design: the boxes of a row stay
    /// boxes down to where they are about 7 px apart; thinner ones, widened, would crowd into a
    /// grid that reads as ruled paper. (For strokes the gap decides first: it needs more pixels.)
    package static let legibleStrokePixels = 0.25
    /// No pen is drawn thinner than this many output pixels (SPEC §2): a thinner one is widened
    /// to it, so nothing fades into a hairline that reads as ruled paper.
    package static let minimumPenPixels = 1.0

    // MARK: Partial progress

    /// The edge of a progress wash (`ProgressMark`, kind `edge`) is a fill in the strokes'
    /// colour (c1) at this opacity: over either theme's paper it is the lightest mark of the
    /// picture, lighter than every cap so it never reads as one, and still at least 3:1 against
    /// the paper (SPEC §2, "Contrast": 3.53:1 light, 5.20:1 dark).
    package static let progressOpacity = 0.55
    /// The wash itself (kind `progress`) is a tint of the strokes' colour at most this opaque:
    /// a grey bar over the area covered, against the dots of the cell still empty, so the share
    /// reads at a glance. Where the covered area is large against a finished sibling's ink (24 of
    /// 25 at 64 px, under a sibling that is a cross alone) it is lighter, down to
    /// `faintestTintOpacity` (`ProgressMark.tintOpacity`, SPEC §2, "Weight follows quantity");
    /// its edge carries the contrast.
    package static let progressTintOpacity = 0.12
    /// The lightest a wash's tint is drawn, where a finished sibling carries little ink against
    /// the area the wash covers (`ProgressMark.tintOpacity`).
    package static let faintestTintOpacity = 0.03
    /// The dots of a wash's empty part (`ProgressMark.cellDots`, the terminal's lattice) are
    /// single pixels about this many pixels apart: close enough to read as the cell's outline at
    /// 64 px, sparse enough that they never close into a box. A dotted cell outline (kind
    /// `dotted`) has the same rhythm: dashes one pen long, two pens apart.
    package static let progressDotPeriod = 3
    /// The cells a goal still holds (`--of`, `RemainingCells`): dotted outlines in the colour of
    /// boxes (c3, never the ink of progress) at this opacity, so they meet 3:1 against either
    /// paper (SPEC §2, "Contrast": 3.26:1 light, 4.75:1 dark, below boxes' 4.26 and 6.06) and,
    /// with half a mark's pen and broken into dots, still read after every mark.
    package static let remainingOpacity = 0.85
    /// The colour role of remaining outlines.
    package static let remainingColor = ColorToken.c3

    // MARK: Small sizes

    /// A collapsed square whose box is narrower than this many output pixels keeps its box and
    /// drops the cross or diagonal inside it, which would only smear the box into a grey
    /// checker (SPEC §2, "Small sizes").
    package static let smallestCappedBoxPixels = 8.0
    /// A complete twenty-five-unit keeps its gates under its cross while they stand at least
    /// this many output pixels apart, alone or inside a larger picture (SPEC §2, "Detail by a
    /// unit's own size, wherever it stands"): 25 keeps them in every image from about 11 px,
    /// as 24 does, and 26 keeps its first quarter's from 32 px; closer, a gate's four strokes
    /// and slash are one grey dot and the cross alone says "complete" (863 at 256 px: two
    /// crosses).
    package static let smallestGatePixels = 3.0

    // MARK: The lens (`--inset`, `Lens`)

    /// The lens draws its twenty-five-unit this many times larger than the smallest scale at
    /// which a gate's strokes stand a legible gap apart, where the room allows: the strokes are
    /// then about 3 px apart rather than 1.5, so four read as four and a slash as a slash at a
    /// glance (fresh readers misread gates in copies drawn at 1.5×, strokes 2 px apart).
    package static let insetLegibleMargin = 2.0
    /// A lens squeezed by its room under this many times the least legible scale is not drawn
    /// (the count is written instead, `Magnitude.writesDigits`): fresh readers read copies at
    /// 1.04 to 1.07 times (235 at 64 px, 6,395 at 256 px) 1 to 8 off in 5 of 9 readings, and
    /// copies from 1.33 times (3,815 at 256 px) 1 off in 2 of 18.
    package static let insetGlanceMargin = 1.25

    // MARK: The gallery sheet (`tally gallery`), in output pixels

    /// Tiles a row holds at most.
    package static let galleryColumns = 6
    /// The empty border around the sheet, and between tiles.
    package static let galleryMargin = 24.0
    package static let galleryGap = 24.0
    /// The band under each tile for its label, the label's digit height, and the gap above it.
    package static let galleryLabelHeight = 22.0
    package static let galleryLabelDigitHeight = 11.0
    package static let galleryLabelGap = 6.0
    /// A tile's side when no size is given.
    package static let galleryTile = 160.0

    // MARK: The image

    /// The default margin on every side, as a share of the shorter side of what is shown (so a
    /// wide row gets as much margin as a square of its height): no mark touches the image's edge.
    package static let marginShare = 1.0 / 24
    /// The default margin is never under this many output pixels (where the image has room):
    /// enough for a pen widened to 1 px and the rounding of the image to whole pixels.
    package static let minimumMarginPixels = 2.0
}
