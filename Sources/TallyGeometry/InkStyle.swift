/// SPEC §4's `ink` style: hand-drawn strokes, deterministic. Four things show the hand, each
/// from a small generator seeded by the mark's own position and the user's seed, so the same
/// inputs give the same bytes, a mark keeps its look as the count grows, and every backend
/// draws the same strokes (the wobble is geometry, made here):
/// - **slant**: a hand leans its strokes one way. The seed picks the hand's lean (2° to 7°
///   clockwise from upright); each mark varies it a little. Long caps turn by the same angle
///   but their ends move at most a couple of pens, so a row's line stays on its row.
/// - **bow**: every segment curves gently, up to 5% of its length (at most two pens).
/// - **ends**: each end moves across the segment and pulls in along it, by up to a third of
///   the pen, so strokes differ in length and never meet exactly.
/// - **pressure**: each mark's pen is up to 25% wider or thinner than designed.
/// The amounts keep neighbouring strokes of a gate (2.1 apart, 1.2 of gap) from touching.
package enum InkStyle {
    /// How far ends move, across and along the segment, as a fraction of the pen width.
    static let endWobble = 0.35
    /// The largest bow, as a fraction of the segment's length, and in pens.
    static let bow = 0.05
    static let bowPens = 2.0
    /// The pen width varies by up to this fraction either way.
    static let widthWobble = 0.25
    /// The hand's lean in radians (2° … 7°), and how much one mark departs from it (±2°).
    static let handSlant = (0.035, 0.122)
    static let markSlant = 0.035
    /// The most a slant moves a long mark's ends across it, in pens.
    static let slantPens = 2.0

    /// The scene drawn by hand: every stroked mark slanted, bowed, its ends moved and its pen varied.
    ///
    /// ```swift
    /// let inked = InkStyle.apply(to: TallyScene(count: 99), seed: 7)
    /// ```
    /// - Parameters:
    ///   - scene: the clean scene.
    ///   - seed: the hand: the same seed gives the same wobble, and so the same bytes.
    /// - Returns: the scene with bowed segments (progress fills and captions unchanged).
    package static func apply(to scene: TallyScene, seed: UInt64) -> TallyScene {
        var hand = SplitMix64(seed: seed)
        let lean = handSlant.0 + (handSlant.1 - handSlant.0) * (hand.nextSigned() + 1) / 2
        let marks = scene.marks.map { mark in
            // A progress fill is a region, not a pen: its rectangles stay closed and straight. A
            // caption is type, not the hand: its glyphs stay as designed, to be read.
            if mark.kind.isFilled || !mark.kind.isTally { return mark }
            var generator = SplitMix64(seed: seed, mark: mark)
            var inked = mark
            inked.width = mark.width * (1 + widthWobble * generator.nextSigned())
            let slant = lean + markSlant * generator.nextSigned()
            inked.segments = mark.segments.map { wobble($0, pen: mark.width, slant: slant, with: &generator) }
            return inked
        }
        return TallyScene(
            count: scene.count, canvas: scene.canvas, detail: scene.detail, goal: scene.goal, marks: marks)
    }

    private static func wobble(_ segment: Segment, pen: Double, slant: Double, with generator: inout SplitMix64)
        -> Segment
    {
        let dx = segment.end.x - segment.start.x
        let dy = segment.end.y - segment.start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return segment }
        let (ux, uy) = (dx / length, dy / length)  // along
        let (nx, ny) = (-uy, ux)  // across
        // The slant turns the segment about its middle: its ends move across it, oppositely.
        // (Turning clockwise on screen, y down: the end moves towards +across.)
        let turn = min(length / 2 * slant, slantPens * pen)
        let reach = endWobble * pen
        func moved(_ point: Point, inward: Double) -> Point {
            let across = reach * generator.nextSigned() + turn * inward * -1
            let along = reach * abs(generator.nextSigned()) * inward  // ends only ever pull in
            return Point(point.x + nx * across + ux * along, point.y + ny * across + uy * along)
        }
        let start = moved(segment.start, inward: 1)
        let end = moved(segment.end, inward: -1)
        let bend = min(bow * length, bowPens * pen) * generator.nextSigned()
        let control = Point((start.x + end.x) / 2 + nx * bend, (start.y + end.y) / 2 + ny * bend)
        return Segment(start, end, control: control)
    }
}

/// SplitMix64: a tiny, well-known generator whose output depends only on its seed.
struct SplitMix64 {
    private var state: UInt64

    /// A generator of the seed alone (the hand: what every mark shares).
    init(seed: UInt64) {
        state = seed ^ 0xD1B5_4A32_D192_ED03
    }

    init(seed: UInt64, mark: Mark) {
        var state = seed ^ 0x9E37_79B9_7F4A_7C15
        let first = mark.segments.first ?? Segment(0, 0, 0, 0)
        for value in [first.start.x, first.start.y, first.end.x, first.end.y] {
            state = (state ^ value.bitPattern) &* 0xBF58_476D_1CE4_E5B9
            state ^= state >> 31
        }
        state ^= UInt64(mark.unit) &* 0x94D0_49BB_1331_11EB
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in -1 … 1.
    mutating func nextSigned() -> Double {
        Double(next() >> 11) / Double(1 << 52) - 1
    }
}
