#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// Legible at every count and size. SPEC §2 "The frame and the fit", "Level of detail"
/// and §5's bounded SVG numbers, checked on the images themselves.
@Suite struct LegibilityTests {
    /// Two images differ visibly when at least this many pixels differ by more than
    /// `visibleChannelDifference` of 255 in some channel: a progress wash covers the count's
    /// share of its cell in whole pixels and at least one (SPEC §2, "Never more than the
    /// truth"), at 3.5:1 against the paper (a difference of about 117 of 255).
    static let visiblePixels = 1
    static let visibleChannelDifference = 48

    private func png(_ count: UInt64, _ settings: RenderSettings) throws -> PNGImage {
        let bytes = try Renderer.render(try #require(TallyCount(exactly: count)), as: .png, settings)
        return try #require(PNGImage(png: bytes))
    }

    /// How many pixels of two same-size images differ visibly.
    private func visiblyDifferent(_ a: PNGImage, _ b: PNGImage) throws -> Int {
        let difference = a.difference(from: b, channelThreshold: Self.visibleChannelDifference)
        return try #require(difference, "sizes differ: \(a.width) × \(a.height) and \(b.width) × \(b.height)")
            .differingPixels
    }

    /// `n` rounded down to a whole child of its frame (SPEC §2: 101 → 100, 999 → 900, 10,999 → 10,000).
    private func roundedDown(_ n: UInt64) -> UInt64 {
        let child = UnitLevel.frame(for: TallyCount(exactly: n)!).child!.capacity
        return n / child * child
    }

    /// Counts whose partial progress is easy to lose, and a seeded sample of every length.
    static let progressCounts: [UInt64] = {
        var counts: [UInt64] = [
            1, 7, 26, 101, 125, 137, 199, 999, 1_001, 1_234, 9_999, 10_001, 10_999, 99_999,
            100_001, 1_234_567, 10_000_000_000_001, 9_000_000_000_000_000_001, UInt64(Int64.max),
        ]
        var state: UInt64 = 0x5EED
        for digits in 3...19 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var limit: UInt64 = 1
            for _ in 0..<digits { limit = limit &* 10 }
            counts.append(min(state % (digits == 19 ? UInt64(Int64.max) : limit), UInt64(Int64.max)))
        }
        return counts
    }()

    /// SPEC §2: at every size from 64 px the image of n differs visibly from that of n rounded
    /// down to a whole top-level child, both drawn in n's frame (so the sizes match).
    @Test(arguments: [64.0, 160, 256, 1024])
    func partialProgressIsNeverInvisible(size: Double) throws {
        for n in sanitizerSample(Self.progressCounts, every: 4) {
            let floor = roundedDown(n)
            guard floor != n else { continue }
            let frame = UnitLevel.frame(for: try #require(TallyCount(exactly: n)))
            let settings = RenderSettings(side: .longer(size), frame: frame)
            let differing = try visiblyDifferent(try png(n, settings), try png(floor, settings))
            #expect(differing >= Self.visiblePixels, "\(n) and \(floor) at \(size) px: \(differing) pixels differ")
        }
    }

    /// The acceptance pairs, with `--fit frame`: one frame, one size.
    @Test func theAcceptancePairsDiffer() throws {
        let small = RenderSettings(side: .longer(160), fit: .frame)
        #expect(try visiblyDifferent(try png(999, small), try png(900, small)) >= Self.visiblePixels)
        let large = RenderSettings(side: .longer(1024), fit: .frame)
        #expect(try visiblyDifferent(try png(10_999, large), try png(10_001, large)) >= Self.visiblePixels)
        let row = RenderSettings(
            side: .longer(1024), frame: UnitLevel.frame(for: try #require(TallyCount(exactly: 10_001))))
        #expect(try visiblyDifferent(try png(10_001, row), try png(10_000, row)) >= Self.visiblePixels)
        #expect(try visiblyDifferent(try png(10_999, row), try png(10_000, row)) >= Self.visiblePixels)
    }

    /// `tally render 137 -o 137.png`: a collapsed hundred, a cross, and the twelve marks of the
    /// partial unit (two gates and two strokes), filling the image.
    @Test func oneHundredThirtySevenShowsEveryMarkOfItsPartialUnit() throws {
        let (scene, viewport, _) = try Renderer.layout(
            try #require(TallyCount(exactly: 137)), .png, RenderSettings())
        let kinds = scene.marks.map { "\($0.kind)(\($0.unit))" }
        #expect(kinds.filter { $0 == "box(100)" }.count == 1)
        #expect(kinds.filter { $0 == "cross(100)" }.count == 1)
        #expect(kinds.filter { $0 == "cross(25)" }.count == 1)
        // 25 + 12: the complete twenty-five-unit's 25 marks and the partial one's 12.
        #expect(kinds.filter { $0 == "stroke(1)" }.count == 20 + 10)
        #expect(kinds.filter { $0 == "slash(5)" }.count == 5 + 2)
        #expect(!kinds.contains("progress(25)"))
        // It fills the image: the ink spans most of it both ways (two squares, 183 × 77.5 units).
        let ink = try #require(scene.inkBounds)
        let box = viewport.visible
        #expect(viewport.width == 256 && viewport.height > 100 && viewport.height < 140)
        #expect(ink.width / box.width > 0.85 && ink.height / box.height > 0.85)
    }
}

#endif
