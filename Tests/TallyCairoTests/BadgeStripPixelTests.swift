import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import Testing

#if Cairo
import TallyCairo

/// SPEC §7's strip as Cairo draws it: every pen 1 px on a pixel centre, so at 1×, 2× and 3×
/// the strip's ink stays inside the value plate's interior (y 1…19, inside its frame) and every
/// mark but the goal's edge inside the strokes' box (y 5…14), with no smear into the rows
/// above and below; and a done stroke is solid ink with paper between it and the next.
@Suite struct BadgeStripPixelTests {
    /// The strokes' box and the goal's edge (y 3…16), in pixels at scale 1.
    static let (top, floor) = (5, 14)
    static let (edgeTop, edgeBottom) = (3, 16)
    /// The value plate's padding before the strip; the strip's width (19 px, 33 with a goal).
    static let padding = 6
    static let (stripWidth, goalStripWidth) = (19, 33)
    /// SPEC §3's light paper, the plate behind the marks, and the ink of done strokes.
    static let (paper, ink): (UInt32, UInt32) = (0xFAFAF7, 0x262629)

    static let cases: [(UInt64, UInt64?)] = [
        (0, nil), (4, nil), (9, nil), (99, nil), (137, nil), (UInt64(Int64.max), nil), (0, 10), (9, 10),
        (6_200, 10_000), (118, 100), (100, 100), (150, 100), (UInt64(Int64.max), 1),
    ]

    func png(_ value: UInt64, of goal: UInt64?, scale: Double) throws -> (Badge, PNGImage) {
        let target = try goal.map { try #require(TallyCount(exactly: $0)) }
        let badge = try Badge(count: try #require(TallyCount(exactly: value)), goal: target, label: "downloads")
        let settings = BadgeSettings(
            format: .png, label: "downloads", goal: target, scale: scale, appearance: Appearance(theme: .light))
        return (badge, try #require(PNGImage(png: try Renderer.badge(badge, settings))))
    }

    /// The strip's left edge at scale 1: after the label plate, ⌈2·6 + w("downloads")⌉, and
    /// the value plate's padding.
    static let left = Int((12 + BadgeFont.width(of: "downloads", size: 11)).rounded(.up)) + padding

    /// The columns from the strip's first slot to its last, and a pixel before, where the
    /// first gate's slash reaches, as image columns.
    static func stripColumns(goal: Bool, scale: Int) -> Range<Int> {
        ((left - 1) * scale)..<((left + (goal ? goalStripWidth : stripWidth)) * scale)
    }

    @Test(arguments: [1, 2, 3])
    func everyMarkStaysInItsBox(_ scale: Int) throws {
        for (value, goal) in Self.cases {
            let (badge, image) = try png(value, of: goal, scale: Double(scale))
            #expect(badge.height == 20)
            let columns = Self.stripColumns(goal: goal != nil, scale: scale)
            let left = Self.left
            // The edge's column: two clear pixels after the tenth slot's pen (column 18), at 21.
            let edge = (left + 21) * scale..<(left + 22) * scale
            let frame = image.pixels[0 * image.width + columns.lowerBound] & 0xFF_FFFF
            var marked = 0
            for x in columns {
                for y in 0..<image.height {
                    let pixel = image.pixels[y * image.width + x] & 0xFF_FFFF
                    let context = "\(value) of \(String(describing: goal)) at \(scale)×, pixel (\(x), \(y))"
                    if y < scale || y >= 19 * scale {
                        // The frame, above and below the plate's interior: untouched by marks.
                        #expect(pixel == frame, "\(context): ink on the frame")
                        continue
                    }
                    guard pixel != Self.paper else { continue }
                    marked += 1
                    let (low, high) =
                        goal != nil && edge.contains(x)
                        ? (Self.edgeTop, Self.edgeBottom) : (Self.top, Self.floor)
                    #expect(y >= low * scale && y < high * scale, "\(context): outside y \(low)…\(high)")
                }
            }
            // Zero without a goal draws nothing; every other case has ink.
            #expect(
                (marked > 0) == (value > 0 || goal != nil),
                "\(value) of \(String(describing: goal)) at \(scale)×: \(marked) marked")
        }
    }

    /// Four strokes (the count 4) are solid ink over their 9 px and the columns between them
    /// paper: each pen covers whole output pixels at every scale.
    @Test(arguments: [1, 2, 3])
    func strokesAreCrisp(_ scale: Int) throws {
        let (_, image) = try png(4, of: nil, scale: Double(scale))
        let left = Self.left
        for slot in 0..<4 {
            for y in (Self.top * scale)..<(Self.floor * scale) {
                for dx in 0..<scale {
                    let stroke = image.pixels[y * image.width + (left + 2 * slot) * scale + dx] & 0xFF_FFFF
                    let gap = image.pixels[y * image.width + (left + 2 * slot + 1) * scale + dx] & 0xFF_FFFF
                    #expect(stroke == Self.ink, "slot \(slot) at \(scale)×, row \(y)")
                    #expect(gap == Self.paper, "after slot \(slot) at \(scale)×, row \(y)")
                }
            }
        }
    }
}
#endif
