import Foundation
import TallyRender
import Testing

@testable import TallyGeometry

/// SPEC §2, "An inset for the last digits" (`--inset`): the unit that holds the last two digits,
/// too small in place for its gates to read, drawn once more beside the picture, enlarged until
/// they do, in room the image gains on its free side; the picture itself does not move.
@Suite struct InsetTests {
    /// Counts below 10,000 whose last two digits are not zero, in rows and in blocks, and a
    /// hundred-block frame's; the sizes of the reader's sheet and between.
    static let counts: [UInt64] = [38, 99, 137, 506, 863, 1_746, 2_372, 2_743, 4_184, 6_272, 9_999]
    static let sizes: [Double] = [32, 64, 128, 256]

    private func layout(_ count: UInt64, size: Double, inset: Bool) throws -> (scene: TallyScene, viewport: Viewport) {
        var settings = RenderSettings(side: .longer(size))
        settings.inset = inset
        let layout = try Renderer.layout(try #require(TallyCount(exactly: count)), .svg, settings)
        return (layout.scene, layout.viewport)
    }

    /// Nothing in the picture moves: the marks without the inset come first and unchanged, at
    /// the same scale from the same corner, and the image grows on one side only, never past
    /// the side fixed (`--size`: the longer side).
    @Test(arguments: sizes)
    func thePictureStaysWhereItWas(size: Double) throws {
        for count in Self.counts {
            let plain = try layout(count, size: size, inset: false)
            let inset = try layout(count, size: size, inset: true)
            #expect(inset.viewport.pixelsPerUnit == plain.viewport.pixelsPerUnit, "\(count) at \(size) px: scale")
            #expect(inset.viewport.visible.minX == plain.viewport.visible.minX)
            #expect(inset.viewport.visible.minY == plain.viewport.visible.minY)
            try #require(inset.scene.marks.count >= plain.scene.marks.count)
            #expect(
                Array(inset.scene.marks.prefix(plain.scene.marks.count)) == plain.scene.marks, "\(count) at \(size) px")
            #expect(inset.viewport.width <= max(size, plain.viewport.width))
            #expect(inset.viewport.height <= max(size, plain.viewport.height))
            #expect(inset.viewport.width == plain.viewport.width || inset.viewport.height == plain.viewport.height)
        }
    }

    /// Every count, of every magnitude, at sizes from 1 px to SPEC §6's largest side: an inset
    /// never makes a picture fail that draws without it, and never takes the image past the
    /// limits (16,384 px a side, 64 megapixels).
    @Test func theInsetNeverBreaksALimit() throws {
        var counts: [UInt64] = [1, 26, 99, 101, 863, 9_999, 10_001, 123_456, 1_234_567, UInt64(Int64.max)]
        var power: UInt64 = 10
        while power < UInt64(Int64.max) / 10 {
            power *= 10
            counts.append(power - 1)
        }
        for count in counts {
            for size: Double in [1, 7, 32, 256, 4_096, 16_384] {
                guard (try? layout(count, size: size, inset: false)) != nil else { continue }
                let inset = try layout(count, size: size, inset: true)
                #expect(inset.viewport.width <= Viewport.maximumSide && inset.viewport.height <= Viewport.maximumSide)
                #expect(inset.viewport.width * inset.viewport.height <= Viewport.maximumPixels, "\(count) at \(size)")
            }
        }
    }

    /// Where it is drawn at 256 px, the inset shows what the picture cannot: the strokes of the
    /// gates of the hundred-block being filled, a legible gap apart (SPEC §2, "Level of
    /// detail": about 1.5 px) wherever the picture leaves half the image free, inside the image.
    @Test func theInsetShowsTheGatesThePictureCannot() throws {
        var drawn = 0
        for count in Self.counts {
            let plain = try layout(count, size: 256, inset: false)
            let inset = try layout(count, size: 256, inset: true)
            let added = inset.scene.marks.dropFirst(plain.scene.marks.count)
            let roomy = min(plain.viewport.width, plain.viewport.height) <= 128
            guard !added.isEmpty else {
                // No inset: the gates already read in place, or the picture fills the square
                // the image may grow to (9,999 at 256 px, ten rows 228 px wide).
                let strokes = plain.scene.marks.contains { $0.kind == .stroke }
                #expect(strokes || min(plain.viewport.width, plain.viewport.height) >= 0.85 * 256, "\(count)")
                continue
            }
            drawn += 1
            let ppu = inset.viewport.pixelsPerUnit
            let strokes = added.filter { $0.kind == .stroke }
            #expect(!strokes.isEmpty, "\(count): the inset has no strokes")
            // The first two strokes of the first gate, as drawn: their gap in output pixels.
            if roomy, strokes.count >= 2 {
                let first = try #require(strokes[0].segments.first)
                let second = try #require(strokes[1].segments.first)
                let gap = (abs(second.start.x - first.start.x) - strokes[0].width) * ppu
                #expect(gap >= 1.5, "\(count): the inset's strokes stand \(gap) px apart")
            }
            let bounds = try #require(TallyScene.inkBounds(of: added))
            let image = inset.viewport.visible
            #expect(bounds.minX >= image.minX && bounds.maxX <= image.maxX, "\(count): the inset leaves the image")
            #expect(bounds.minY >= image.minY && bounds.maxY <= image.maxY, "\(count): the inset leaves the image")
        }
        #expect(drawn >= 7, "at 256 px most counts below 10,000 need an inset; \(drawn) got one")
    }

    /// The count is the count: the accessible title and description, and every format's bytes,
    /// are the same twice over; the title is the one without the inset.
    @Test func theTextSaysNothingNew() throws {
        for count: UInt64 in [863, 6_272] {
            let value = try #require(TallyCount(exactly: count))
            var settings = RenderSettings(side: .longer(256))
            let plain = String(decoding: try Renderer.render(value, as: .svg, settings), as: UTF8.self)
            settings.inset = true
            let svg = String(decoding: try Renderer.render(value, as: .svg, settings), as: UTF8.self)
            #expect(svg != plain)
            // The element's text (its id is the image's own, SPEC §2, "Inline-safe SVG").
            func between(_ text: String, _ open: String, _ close: String) -> String? {
                guard let start = text.range(of: open),
                    let end = text.range(of: close, range: start.upperBound..<text.endIndex)
                else { return nil }
                return String(text[start.upperBound..<end.lowerBound].drop { $0 != ">" })
            }
            #expect(between(svg, "<title", "</title>") == between(plain, "<title", "</title>"))
            #expect(between(svg, "<desc", "</desc>") == between(plain, "<desc", "</desc>"))
            for format in [OutputFormat.svg, .json] {
                #expect(
                    try Renderer.render(value, as: format, settings) == Renderer.render(value, as: format, settings))
            }
        }
    }
}
