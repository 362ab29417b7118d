/// SPEC §4's `ink` style: hand-drawn strokes. Every segment's ends wobble a little, it bows
/// into a gentle curve, and its pen swells or thins, all from a small deterministic generator
/// seeded by the mark's own position and the user's seed, so the same inputs give the same
/// bytes and a mark keeps its look as the count grows. In the core so every backend draws the
/// same wobble.
public enum InkStyle {
    /// How far ends move, across and along the segment, as a fraction of the pen width.
    static let endWobble = 0.18
    /// The largest bow, as a fraction of the segment's length.
    static let bow = 0.025
    /// The pen width varies by up to this fraction either way.
    static let widthWobble = 0.12

    public static func apply(to scene: Scene, seed: UInt64) -> Scene {
        let marks = scene.marks.map { mark in
            // A progress fill is a region, not a pen: its rectangles stay closed and straight. A
            // caption is type, not the hand: its glyphs stay as designed, to be read.
            if mark.kind.isFilled || !mark.kind.isTally { return mark }
            var generator = SplitMix64(seed: seed, mark: mark)
            var inked = mark
            inked.width = mark.width * (1 + widthWobble * generator.nextSigned())
            inked.segments = mark.segments.map { wobble($0, pen: mark.width, with: &generator) }
            return inked
        }
        return Scene(count: scene.count, frame: scene.frame, detail: scene.detail, marks: marks)
    }

    private static func wobble(_ segment: Segment, pen: Double, with generator: inout SplitMix64) -> Segment {
        let dx = segment.end.x - segment.start.x, dy = segment.end.y - segment.start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return segment }
        let (ux, uy) = (dx / length, dy / length)      // along
        let (nx, ny) = (-uy, ux)                         // across
        let reach = endWobble * pen
        func moved(_ point: Point, inward: Double) -> Point {
            let across = reach * generator.nextSigned()
            let along = reach * abs(generator.nextSigned()) * inward   // ends only ever pull in
            return Point(point.x + nx * across + ux * along, point.y + ny * across + uy * along)
        }
        let start = moved(segment.start, inward: 1)
        let end = moved(segment.end, inward: -1)
        let bend = bow * length * generator.nextSigned()
        let control = Point((start.x + end.x) / 2 + nx * bend, (start.y + end.y) / 2 + ny * bend)
        return Segment(start, end, control: control)
    }
}

/// SplitMix64: a tiny, well-known generator whose output depends only on its seed.
struct SplitMix64 {
    private var state: UInt64

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
