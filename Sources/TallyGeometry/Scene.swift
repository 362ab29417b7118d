/// A point in layout units; y grows downwards.
public struct Point: Hashable, Sendable {
    /// Across, to the right.
    public var x: Double
    /// Down (y grows downwards, as in SVG and PNG).
    public var y: Double
    /// A point at `x` across and `y` down.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The point moved by another, as an offset.
    public static func + (lhs: Point, rhs: Point) -> Point { Point(lhs.x + rhs.x, lhs.y + rhs.y) }
}

/// A straight piece of a mark, from `start` to `end`, in layout units.
public struct Segment: Hashable, Sendable {
    /// Where the segment starts.
    public var start: Point
    /// Where it ends.
    public var end: Point
    /// The control point of a quadratic bow, for the hand-drawn `ink` style; nil for straight.
    public var control: Point?
    /// A segment from `start` to `end`, straight or bowed through a quadratic `control` point.
    public init(_ start: Point, _ end: Point, control: Point? = nil) {
        self.start = start
        self.end = end
        self.control = control
    }
    /// A straight segment from (`x1`, `y1`) to (`x2`, `y2`).
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(Point(x1, y1), Point(x2, y2))
    }
}

/// What a mark is (SPEC §2); every backend gives each kind its own class or layer.
///
/// Every kind but `progress` and `edge` is a pen stroked along its segments. A `progress` mark is
/// a region to fill: closed rectangles (filled with the nonzero rule, so overlaps are painted
/// once) in its colour at `Proportions.progressTintOpacity`, a light tint. It stands for the
/// progress of a unit too small to show its own detail (SPEC §2, "Partial progress is never
/// invisible"), and its `edge` is the line of whole pixels where the tint ends, filled like it
/// at `Proportions.progressOpacity`: the edge carries the 3:1 contrast, the tint only the area,
/// so a unit nearly full never outweighs a finished one (SPEC §2, "Weight follows quantity"). A `caption` mark is one
/// glyph of the count written under the tally (`--caption`), in the core's own stroke font
/// (`StrokeFont`); its `unit` is 0, as it marks no unit. A `remaining` mark outlines, in dots, a
/// cell that a goal holds and the count has not filled (`--of`, SPEC §6); its `unit` is the
/// capacity of that cell. A `dotted` mark is the outline of one cell of a unit being filled
/// (SPEC §2, "The partial unit shows its whole cell"): one rectangle through the centres of its
/// outer pixels, stroked with a one-pixel pen in dashes one pen long and two pens apart (butt
/// ends), so it reads as dots at an even rhythm at any zoom; its `unit` is the capacity of the
/// unit whose cell it outlines.
public enum MarkKind: String, CaseIterable, Hashable, Sendable {
    case stroke, slash, cross, box, line, diagonal, progress, edge, caption, remaining, dotted

    /// Whether the mark is filled rather than stroked.
    public var isFilled: Bool { self == .progress || self == .edge }

    /// Whether the mark is part of the tally: every kind but `caption`, `remaining` and
    /// `dotted`, which are written beside the count's marks and never drawn in by motion or ink.
    public var isTally: Bool { self != .caption && self != .remaining && self != .dotted }

    /// Whether the mark is stroked in dashes (`dotted`): one pen long, two pens apart.
    public var isDashed: Bool { self == .dotted }

    /// The kind's place among `allCases` (its declaration), for writers that order by kind
    /// without building the `allCases` array (whose element type is made at run time, about
    /// 11K instructions, in every SVG).
    package var ordinal: Int {
        switch self {
        case .stroke: 0
        case .slash: 1
        case .cross: 2
        case .box: 3
        case .line: 4
        case .diagonal: 5
        case .progress: 6
        case .edge: 7
        case .caption: 8
        case .remaining: 9
        case .dotted: 10
        }
    }
}

/// The colour roles of SPEC §3. Backends map them to a palette; the core never names a colour.
public enum ColorToken: String, CaseIterable, Hashable, Sendable {
    case c1, c2, c3, accent
}

/// One mark of a tally: a stroke, the slash of a gate, or the cap of a unit.
public struct Mark: Hashable, Sendable {
    /// What the mark is: its class in SVG, its `kind` in JSON.
    public var kind: MarkKind
    /// The capacity of the unit the mark belongs to: 1 for strokes, 5 for slashes, 25 for the cross
    /// of a twenty-five-unit, 100 for the cross and box of a collapsed hundred-block, 1,000 for a
    /// row's line, 10,000 for a block's diagonal and the box of a collapsed block, and so on.
    public var unit: UInt64
    /// Its colour role (SPEC §3); backends map it to a palette.
    public var color: ColorToken
    /// The pen width in layout units: part of the geometry, so backends draw it as given
    /// (0 for a filled `progress` mark).
    public var width: Double
    /// Drawn with round caps and joins; a box is its four sides, clockwise from the top.
    public var segments: [Segment]
    /// How much of its colour the mark lays down, 0 … 1: below 1 for a `progress` tint and its
    /// `edge` (`Proportions.progressTintOpacity`, `Proportions.progressOpacity`) and a goal's
    /// `remaining` cells; every tally mark proper, caps included, is opaque.
    public var opacity: Double
    /// Whether the mark belongs to the lens (SPEC §2, "A lens for the last digits"): drawn
    /// beside the picture, repeating a unit of it; never part of the count's picture itself.
    public var lens: Bool

    /// A mark, as a scene of your own or `TallyScene(json:)` needs one.
    ///
    /// ```swift
    /// let stroke = Mark(kind: .stroke, unit: 1, color: .c1, width: 0.9, segments: [Segment(2, 1, 2, 9)])
    /// ```
    /// - Parameters:
    ///   - kind: what it is.
    ///   - unit: the capacity of the unit it marks (0 for a caption glyph).
    ///   - color: its colour role.
    ///   - width: the pen in layout units (0 for a filled progress mark).
    ///   - segments: its path.
    ///   - opacity: 1, or less for a fill or a remaining cell.
    ///   - lens: whether it belongs to the lens beside the picture.
    public init(
        kind: MarkKind, unit: UInt64, color: ColorToken, width: Double, segments: [Segment], opacity: Double = 1,
        lens: Bool = false
    ) {
        self.kind = kind
        self.unit = unit
        self.color = color
        self.width = width
        self.segments = segments
        self.opacity = opacity
        self.lens = lens
    }
}

/// The canvas: the cell of the unit that holds the count (SPEC §2, "The frame").
public struct Canvas: Hashable, Sendable {
    /// The unit whose cell is the canvas.
    public var level: UnitLevel
    /// The canvas in layout units, across…
    public var width: Double
    /// …and down.
    public var height: Double

    /// The canvas of a unit: its cell.
    public var rect: Rect { Rect(minX: 0, minY: 0, width: width, height: height) }

    /// The canvas of a unit: its cell (`Canvas(level: .hundred)` is 77.5 × 77.5), drawn with the
    /// standard proportions (`Proportions.standard`).
    public init(level: UnitLevel) { self.init(level: level, .standard) }

    /// The canvas of a unit drawn with `proportions`: its cell.
    package init(level: UnitLevel, _ proportions: Proportions) {
        let size = proportions.cellSize(level)
        self.level = level
        self.width = size.x
        self.height = size.y
    }

    /// The canvas of the frame a count is drawn in (SPEC §2): the cell of the smallest unit that holds it.
    public init(for count: TallyCount) { self.init(level: UnitLevel.frame(for: count)) }
}

/// How much detail a scene shows (SPEC §2, "Level of detail").
public enum Detail: Hashable, Sendable {
    /// Every mark, whatever the size.
    case full
    /// Only detail that stays legible when one layout unit is drawn this many output pixels wide.
    case automatic(pixelsPerUnit: Double)

    /// The choice a user makes (`--detail auto|full`), before the output scale is known.
    public enum Mode: String, CaseIterable, Hashable, Sendable {
        case automatic = "auto"
        case full
    }
}

/// A count drawn as marks: what every backend receives and draws without adding geometry.
public struct TallyScene: Hashable, Sendable {
    /// The count the scene draws: what its accessible text says.
    public let count: TallyCount
    /// The canvas the marks are placed on: the cell of the frame's unit.
    public let canvas: Canvas
    /// The level of detail the marks were chosen at.
    public let detail: Detail
    /// In count order: a mark comes after every mark that was drawn before it as the count grew,
    /// and a unit's cap after the unit's own detail.
    /// (Settable inside the package, so the pen floor and the pixel grid adjust marks in place.)
    public internal(set) var marks: [Mark]

    /// The goal the count is drawn toward (`--of`, SPEC §6), or nil.
    public let goal: TallyCount?

    /// The scene for a count. `detail` defaults to every mark.
    ///
    /// ```swift
    /// let scene = TallyScene(count: 6_200, goal: 10_000)   // 62 boxes, 38 dotted outlines to go
    /// ```
    /// - Parameters:
    ///   - frame: a frame to draw in (SPEC §2, `--frame`); nil, or a unit too small to hold the
    ///     count (or the goal), gives their own frame.
    ///   - goal: a goal to draw the count toward (SPEC §6, `--of`): the frame is the goal's, and
    ///     the cells it holds that the count has not filled are `remaining` outlines. A count
    ///     beyond its goal is drawn in its own frame with the goal's frame outlined once.
    public init(count: TallyCount, frame level: UnitLevel? = nil, detail: Detail = .full, goal: TallyCount? = nil) {
        self.init(count: count, frame: level, detail: detail, goal: goal, proportions: .standard)
    }

    /// The same scene drawn with `proportions` (SPEC §2's are `Proportions.standard`): every
    /// mark, the canvas and the goal's cells are placed and sized from them.
    package init(
        count: TallyCount, frame level: UnitLevel? = nil, detail: Detail = .full, goal: TallyCount? = nil,
        proportions: Proportions
    ) {
        let own = UnitLevel.frame(for: goal.map { max($0, count) } ?? count)
        self.init(
            count: count, frame: level, detail: detail, goal: goal,
            placement: Placement(detail, frame: max(level ?? own, own), proportions))
    }

    init(count: TallyCount, frame level: UnitLevel?, detail: Detail, goal: TallyCount?, placement: Placement) {
        let own = UnitLevel.frame(for: goal.map { max($0, count) } ?? count)
        let level = max(level ?? own, own)
        self.count = count
        self.detail = detail
        self.goal = goal
        self.canvas = Canvas(level: level, placement.proportions)
        var marks = SceneBuilder.marks(count: count.value, frame: level, detail: detail, placement: placement)
        if let goal, goal.value > 0 {
            if count <= goal {
                marks += RemainingCells.marks(
                    count: count.value, goal: goal.value, frame: level, detail: detail, placement: placement)
            } else {
                marks.append(RemainingCells.goalOutline(goal, detail: detail, placement: placement))
            }
        }
        self.marks = marks
    }

    /// The smallest rectangle holding every mark with its pen width (and the control points of
    /// bowed segments); nil for an empty scene.
    public var inkBounds: Rect? { Self.inkBounds(of: marks) }

    /// The same rectangle for any marks (a caption centres on the tally's own, `isTally`).
    package static func inkBounds(of marks: some Sequence<Mark>) -> Rect? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for mark in marks {
            let half = mark.width / 2
            if mark.kind.isDashed {
                // Butt ends: a side's pen reaches out across it, never past its ends.
                for segment in mark.segments {
                    let level = segment.start.y == segment.end.y
                    minX = min(minX, min(segment.start.x, segment.end.x) - (level ? 0 : half))
                    maxX = max(maxX, max(segment.start.x, segment.end.x) + (level ? 0 : half))
                    minY = min(minY, min(segment.start.y, segment.end.y) - (level ? half : 0))
                    maxY = max(maxY, max(segment.start.y, segment.end.y) + (level ? half : 0))
                }
                continue
            }
            // Point by point, without an array of the three a segment may have (one allocation a
            // segment was most of a caption's cost: it centres on the tally's ink).
            func include(_ point: Point) {
                minX = min(minX, point.x - half)
                minY = min(minY, point.y - half)
                maxX = max(maxX, point.x + half)
                maxY = max(maxY, point.y + half)
            }
            for segment in mark.segments {
                include(segment.start)
                include(segment.end)
                if let control = segment.control { include(control) }
            }
        }
        return minX <= maxX ? Rect(minX: minX, minY: minY, width: maxX - minX, height: maxY - minY) : nil
    }

    /// The left and right edges of the tally's own ink (`isTally`: not a goal's remaining cells
    /// or the dots, whose dashes `inkBounds` treats apart), pen included, as `inkBounds` finds
    /// them: what a caption centres on. Across only, and without copying a mark: this runs for
    /// every captioned image.
    package static func inkSpan(of marks: [Mark]) -> (low: Double, high: Double)? {
        var low = Double.infinity
        var high = -Double.infinity
        for index in marks.indices where marks[index].kind.isTally {
            let half = marks[index].width / 2
            for segment in marks[index].segments {
                low = min(low, min(segment.start.x, segment.end.x) - half)
                high = max(high, max(segment.start.x, segment.end.x) + half)
                if let control = segment.control {
                    low = min(low, control.x - half)
                    high = max(high, control.x + half)
                }
            }
        }
        return low <= high ? (low, high) : nil
    }

    /// A scene of given marks: one read back from the JSON scene (`TallyScene(json:)`), or a scene
    /// transformed by a caller (marks recoloured, filtered, moved). Backends draw whatever marks
    /// they are given; `count` is what the accessible text says.
    /// - Parameters:
    ///   - canvas: the cell the marks are placed on (`Canvas(level:)`).
    ///   - detail: the level of detail the marks were chosen at; `.full` for all of them.
    ///   - marks: in count order.
    ///   - goal: the goal the count is drawn toward, if any (`--of`).
    public init(count: TallyCount, canvas: Canvas, detail: Detail = .full, goal: TallyCount? = nil, marks: [Mark]) {
        self.count = count
        self.canvas = canvas
        self.detail = detail
        self.goal = goal
        self.marks = marks
    }

    /// The marks of this scene that `earlier`, a scene of a smaller count, does not have: the
    /// ones `--animate-from` draws in.
    public func marksNew(since earlier: TallyScene) -> [Bool] {
        let old = Set(earlier.marks)
        return marks.map { $0.kind.isTally && !old.contains($0) }
    }

    /// Draws the lens beside the picture (`--inset`, SPEC §2): its marks follow the rest.
    package mutating func append(lens: [Mark]) {
        marks += lens
    }

    /// Writes a caption under the scene (`--caption`): the caption's glyphs follow the tally's marks.
    package mutating func append(_ caption: Caption) {
        marks += caption.marks
    }
}
