#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// Properties of the planning (fit, margin, level of detail, pens) over counts up to Int64.max
/// and sizes from 16 to 4,096 px, on the scenes the renderer draws.
@Suite struct PlanningPropertyTests {
    /// A deterministic sample: counts of every length, sizes spread over 16 … 4,096 px (every
    /// fifth under a sanitizer: these are values on one thread, which the plain run checks).
    static let samples: [(count: UInt64, size: Double)] = sanitizerSample(allSamples, every: 5)
    static let allSamples: [(count: UInt64, size: Double)] = {
        var samples: [(UInt64, Double)] = []
        var state: UInt64 = 0xC0FFEE
        for index in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let digits = 1 + index % 19
            var limit: UInt64 = 1
            for _ in 0..<digits { limit = limit &* 10 }
            let count = min((state >> 1) % limit, UInt64(Int64.max))
            let size = 16 * Double(1 << (index % 9)) * (1 + Double((state >> 40) % 100) / 100)
            samples.append((count, min(size, 4096)))
        }
        return samples
    }()

    private func layout(_ count: UInt64, _ settings: RenderSettings) throws -> (
        scene: TallyScene, viewport: Viewport, newMarks: [Bool]?
    ) {
        try Renderer.layout(try #require(TallyCount(exactly: count)), .svg, settings)
    }

    /// SPEC §2: no pen is thinner than 1 output pixel, in either style.
    @Test func pensAreAtLeastOnePixel() throws {
        for (count, size) in Self.samples {
            for style in RenderSettings.Style.allCases {
                let (scene, viewport, _) = try layout(count, RenderSettings(side: .longer(size), style: style, seed: 5))
                if let thin = scene.marks.first(where: {
                    !$0.kind.isFilled && $0.width * viewport.pixelsPerUnit < 0.999_999
                }) {
                    Issue.record(
                        "\(count) at \(size) px, \(style): \(thin.kind)(\(thin.unit)) is \(thin.width * viewport.pixelsPerUnit) px"
                    )
                }
            }
        }
    }

    /// Level of detail is decided after the fit: never coarser under `content` than under `frame`.
    @Test func contentIsNeverCoarserThanFrame() throws {
        for (count, size) in Self.samples {
            // Without the caption, whose band takes its pixels from the height of either.
            let content = try layout(count, RenderSettings(side: .longer(size), fit: .content, caption: false))
            let frame = try layout(count, RenderSettings(side: .longer(size), fit: .frame, caption: false))
            #expect(content.viewport.pixelsPerUnit >= frame.viewport.pixelsPerUnit * 0.999_999)
            // Every kind of mark, of every unit, is drawn at least as often under content as
            // under frame (by kind and unit: each scale has its own whole-pixel steps).
            func histogram(_ scene: TallyScene) -> [String: Int] {
                scene.marks.filter { !$0.kind.isFilled }.reduce(into: [:]) {
                    $0["\($1.kind)(\($1.unit))", default: 0] += 1
                }
            }
            let shown = histogram(content.scene)
            for (key, number) in histogram(frame.scene) where shown[key, default: 0] < number {
                Issue.record(
                    "\(count) at \(size) px: \(number) \(key) under frame, \(shown[key, default: 0]) under content")
            }
        }
    }

    /// SPEC §2: a default margin keeps every mark off the image's edge (at least half a pixel).
    @Test func noMarkTouchesTheEdge() throws {
        for (count, size) in Self.samples {
            let (scene, viewport, _) = try layout(count, RenderSettings(side: .longer(size)))
            guard let ink = scene.inkBounds else { continue }
            let box = viewport.visible
            let gap =
                min(ink.minX - box.minX, ink.minY - box.minY, box.maxX - ink.maxX, box.maxY - ink.maxY)
                * viewport.pixelsPerUnit
            #expect(gap >= 0.5, "\(count) at \(size) px: ink \(gap) px from the edge, \(ink) in \(box)")
        }
    }

    /// SPEC §2's fit, with the literal sizes of the layout (gate 10, twenty-five-unit 30, seam
    /// 17.5, squares 77.5 with 28-unit gaps, rows 43 apart): 137 two squares, 1,234 two rows, 26
    /// the top half, 7 whole.
    @Test func contentShowsTheCellsThatHoldTheCount() throws {
        let expected: [(UInt64, Double, Double)] = [
            (0, 30, 30), (7, 30, 30), (25, 30, 30), (26, 77.5, 30), (50, 77.5, 30),
            (51, 77.5, 77.5), (100, 77.5, 77.5), (101, 183, 77.5), (137, 183, 77.5),
            (1_000, 1_027, 77.5), (1_234, 1_027, 198), (10_000, 1_027, 1_162),
        ]
        for (count, width, height) in expected {
            let shown = Canvas(for: try #require(TallyCount(exactly: count))).shown(
                .content, for: try #require(TallyCount(exactly: count)))
            #expect(
                abs(shown.width - width) < 1e-9 && abs(shown.height - height) < 1e-9 && shown.minX == 0
                    && shown.minY == 0,
                "\(count): \(shown.width) × \(shown.height)")
        }
    }
}
#endif
