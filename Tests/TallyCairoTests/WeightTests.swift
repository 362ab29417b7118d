#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle

/// SPEC §2, "Weight follows quantity", measured as a reader sees it: ink, the darkness each
/// pixel adds to its paper (the difference of their relative luminances, WCAG 2.2), summed over
/// a cell of a rendered PNG in the light theme.
@Suite struct WeightTests {
    /// A rendered image and its layout, to find cells in pixels.
    struct Drawn {
        let image: PNGImage
        let scene: TallyScene
        let viewport: Viewport

        init(_ count: UInt64, of goal: UInt64? = nil, size: Double) throws {
            let count = try #require(TallyCount(exactly: count))
            let settings = RenderSettings(
                side: .longer(size), goal: try goal.map { try #require(TallyCount(exactly: $0)) })
            (scene, viewport, _) = try Renderer.layout(count, .png, settings)
            image = try #require(PNGImage(png: try Renderer.render(count, as: .png, settings)))
        }

        /// The layout rectangle of some segments, in pixels, grown by `margin` pixels each way.
        func pixels(_ segments: [Segment], margin: Double = 1) -> (x: Range<Int>, y: Range<Int>) {
            let xs = segments.flatMap { [$0.start.x, $0.end.x] }
            let ys = segments.flatMap { [$0.start.y, $0.end.y] }
            let ppu = viewport.pixelsPerUnit
            func px(_ value: Double, _ origin: Double) -> Double { (value - origin) * ppu }
            let x0 = max(0, Int((px(xs.min()!, viewport.visible.minX) - margin).rounded(.down)))
            let x1 = min(image.width, Int((px(xs.max()!, viewport.visible.minX) + margin).rounded(.up)))
            let y0 = max(0, Int((px(ys.min()!, viewport.visible.minY) - margin).rounded(.down)))
            let y1 = min(image.height, Int((px(ys.max()!, viewport.visible.minY) + margin).rounded(.up)))
            return (x0..<max(x0, x1), y0..<max(y0, y1))
        }

        /// The ink in a rectangle of pixels.
        func ink(_ area: (x: Range<Int>, y: Range<Int>)) -> Double {
            let paper = Self.luminance(image.pixels[0])
            var total = 0.0
            for y in area.y {
                for x in area.x { total += abs(paper - Self.luminance(image.pixels[y * image.width + x])) }
            }
            return total
        }

        static func luminance(_ pixel: UInt32) -> Double {
            func linear(_ channel: UInt32) -> Double {
                let c = Double(channel & 0xFF) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(pixel >> 16) + 0.7152 * linear(pixel >> 8) + 0.0722 * linear(pixel)
        }
    }

    /// 99: three complete twenty-five-units and one 24 of 25 full. At 64 px the partial one is a
    /// wash over nearly its whole cell; it never carries more ink than a finished sibling.
    @Test(arguments: [64.0, 128, 256])
    func aPartialUnitNeverOutweighsAFinishedOne(_ size: Double) throws {
        let drawn = try Drawn(99, size: size)
        // The block's four cells: the quadrants of everything drawn.
        let all = drawn.pixels(drawn.scene.marks.flatMap(\.segments), margin: 2)
        let midX = (all.x.lowerBound + all.x.upperBound) / 2
        let midY = (all.y.lowerBound + all.y.upperBound) / 2
        let quadrants = [
            (all.x.lowerBound..<midX, all.y.lowerBound..<midY), (midX..<all.x.upperBound, all.y.lowerBound..<midY),
            (all.x.lowerBound..<midX, midY..<all.y.upperBound), (midX..<all.x.upperBound, midY..<all.y.upperBound),
        ]
        let inks = quadrants.map { drawn.ink($0) }
        let finished = inks.prefix(3).min()!
        #expect(inks[3] <= finished, "99 at \(size) px: the partial unit's ink \(inks[3]) against \(finished)")
        #expect(inks[3] > 0, "and it is not invisible")
    }

    /// 6,200 of 10,000: the rows still to fill carry at most 0.35× the ink of a done row, at every
    /// size, dots never closing into solid outlines.
    @Test(arguments: [64.0, 128, 256, 1024])
    func remainingRowsAreQuieterThanDoneRows(_ size: Double) throws {
        let drawn = try Drawn(6200, of: 10_000, size: size)
        let remaining = drawn.scene.marks.filter { $0.kind == .remaining && $0.unit == 1000 }
        let lines = drawn.scene.marks.filter { $0.kind == .line && $0.unit == 1000 }
        try #require(remaining.count == 3 && lines.count == 6)
        let rowBox = drawn.pixels(try #require(remaining.first).segments, margin: 2)
        let height = rowBox.y.count
        let done = try lines.map { line in
            let y = drawn.pixels([try #require(line.segments.first)], margin: 0).y.lowerBound
            return drawn.ink((rowBox.x, max(0, y - height / 2)..<min(drawn.image.height, y - height / 2 + height)))
        }
        let rest = remaining.map { drawn.ink(drawn.pixels($0.segments, margin: 2)) }
        #expect(rest.max()! <= 0.35 * done.min()!, "at \(size) px: remaining \(rest) against done \(done)")
    }

    /// 37 of 100: the twenty-five-units still to fill against the finished one.
    @Test(arguments: [64.0, 128, 256, 1024])
    func remainingUnitsAreQuieterThanDoneUnits(_ size: Double) throws {
        let drawn = try Drawn(37, of: 100, size: size)
        let remaining = drawn.scene.marks.filter { $0.kind == .remaining && $0.unit == 25 }
        let cross = drawn.scene.marks.filter { $0.kind == .cross && $0.unit == 25 }
        try #require(remaining.count == 2 && !cross.isEmpty)
        // The finished unit's cell: the remaining cells' size, where its cross is.
        let cell = drawn.pixels(try #require(remaining.first).segments, margin: 2)
        let crossBox = drawn.pixels(cross.flatMap(\.segments), margin: 0)
        let midX = (crossBox.x.lowerBound + crossBox.x.upperBound) / 2
        let midY = (crossBox.y.lowerBound + crossBox.y.upperBound) / 2
        let done = drawn.ink(
            (
                midX - cell.x.count / 2..<midX - cell.x.count / 2 + cell.x.count,
                midY - cell.y.count / 2..<midY - cell.y.count / 2 + cell.y.count
            ))
        let rest = remaining.map { drawn.ink(drawn.pixels($0.segments, margin: 2)) }
        #expect(rest.max()! <= 0.35 * done, "at \(size) px: remaining \(rest) against done \(done)")
    }

    /// Past a goal, the goal's edge shows: 12,000 of 10,000 is not the picture of 12,000.
    @Test(arguments: [64.0, 128, 256, 1024])
    func anOvershootShowsWhereTheGoalEnded(_ size: Double) throws {
        let past = try Drawn(12_000, of: 10_000, size: size).image
        let plain = try Drawn(12_000, size: size).image
        try #require(past.width == plain.width && past.height == plain.height)
        let differing = zip(past.pixels, plain.pixels).filter { $0 != $1 }.count
        #expect(differing >= Int(size / 4), "at \(size) px only \(differing) pixels differ")
    }
}
#endif
