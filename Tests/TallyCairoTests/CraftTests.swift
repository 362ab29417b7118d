#if Cairo
import Foundation
import Testing
import TallyCairo
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport

/// Crisp pixels, captions in the core's strokes, a gallery whose bytes do not depend
/// on the fonts a machine has.
@Suite struct CraftTests {
    private func count(_ value: UInt64) throws -> TallyCount { try #require(TallyCount(exactly: value)) }

    /// In a clean PNG every axis-aligned pen is a whole number of pixels wide and its edges lie
    /// on pixel edges, for counts of every frame at several sizes.
    @Test(arguments: [UInt64(7), 99, 137, 1_000, 1_234, 10_000, 99_999, 1_234_567, 9_223_372_036_854_775_807])
    func axisAlignedPensLandOnWholePixels(_ value: UInt64) throws {
        for size in [64.0, 160, 256, 700] {
            let (scene, viewport, _) = try Renderer.layout(
                try count(value), .png, RenderSettings(side: .longer(size)))
            let scale = viewport.pixelsPerUnit
            for mark in scene.marks where !mark.kind.isFilled && mark.kind != .caption {
                let axisAligned = mark.segments.allSatisfy { $0.start.x == $0.end.x || $0.start.y == $0.end.y }
                guard axisAligned else { continue }
                let pen = mark.width * scale
                #expect(
                    abs(pen - pen.rounded()) < 1e-6 && pen.rounded() >= 1,
                    "\(value) at \(size) px: a \(mark.kind) pen of \(pen) px")
                for segment in mark.segments {
                    // The pen's edge: the centre less half the pen, in pixels, is a whole number.
                    let x = (segment.start.x - viewport.visible.minX) * scale - pen / 2
                    let y = (segment.start.y - viewport.visible.minY) * scale - pen / 2
                    let edge = segment.start.x == segment.end.x ? x : y
                    #expect(
                        abs(edge - edge.rounded()) < 1e-6, "\(value) at \(size) px: a \(mark.kind) edge at \(edge) px")
                }
            }
        }
    }

    /// The case: 1,000 at 256 px. Across the row, halfway between the boxes' tops and the
    /// line, the only ink is the boxes' sides: every pixel is empty or fully inked (no grey ghost
    /// columns), and all twenty sides are equally wide.
    @Test func boxSidesAreCrispAndEqual() throws {
        let settings = RenderSettings(side: .longer(256), appearance: Appearance(background: .none))
        let layout = try Renderer.layout(try count(1_000), .png, settings)
        let image = try #require(PNGImage(png: try Renderer.render(layout, as: .png, settings)))
        let box = try #require(layout.scene.marks.first { $0.kind == .box })
        let line = try #require(layout.scene.marks.first { $0.kind == .line })
        let scale = layout.viewport.pixelsPerUnit
        let top = (box.segments[0].start.y - layout.viewport.visible.minY) * scale
        let middle = (line.segments[0].start.y - layout.viewport.visible.minY) * scale
        let row = Int(((top + middle) / 2).rounded(.down))
        try #require(row > 0 && row < image.height)
        let alphas = (0..<image.width).map { Int(image.pixels[row * image.width + $0] >> 24) }
        let grey = alphas.filter { $0 > 0 && $0 < 255 }.count
        #expect(grey == 0, "\(grey) partly inked pixels on row \(row): \(alphas)")
        var runs: [Int] = []
        var run = 0
        for alpha in alphas + [0] {
            if alpha == 255 {
                run += 1
            } else if run > 0 {
                runs.append(run)
                run = 0
            }
        }
        #expect(runs.count == 20 && Set(runs).count == 1, "sides \(runs)")
    }

    /// How far, in output pixels, a layout's caption is from the middle of its tally's ink
    /// (the marks of the count, not a goal's cells), or from the nearest place inside the
    /// margins where it would be.
    private func captionOffCentre(_ layout: (scene: TallyScene, viewport: Viewport, newMarks: [Bool]?)) throws -> Double
    {
        func span(_ marks: [Mark]) throws -> (Double, Double) {
            var (low, high) = (Double.infinity, -Double.infinity)
            for mark in marks {
                let half = mark.width / 2
                for segment in mark.segments {
                    low = min(low, segment.start.x - half, segment.end.x - half)
                    high = max(high, segment.start.x + half, segment.end.x + half)
                }
            }
            try #require(low <= high)
            return (low, high)
        }
        let scale = layout.viewport.pixelsPerUnit
        let (low, high) = try span(layout.scene.marks.filter { $0.kind == .caption })
        let (tallyLow, tallyHigh) = try span(layout.scene.marks.filter { $0.kind.isTally })
        let width = (high - low) * scale
        let margin = max(2, layout.viewport.width / 24)
        let wanted = ((tallyLow + tallyHigh) / 2 - layout.viewport.visible.minX) * scale
        let centre = min(max(wanted, margin + width / 2), layout.viewport.width - margin - width / 2)
        return abs(((low + high) / 2 - layout.viewport.visible.minX) * scale - centre)
    }

    /// `tally render 99999 --caption` writes "99,999" under the tally, in strokes: the same marks
    /// in the JSON scene, SVG paths of class caption, and ink in the PNG below the tally.
    @Test func theCaptionIsTheCountUnderTheTally() throws {
        let settings = RenderSettings(side: .longer(256), caption: true)
        let layout = try Renderer.layout(try count(99_999), .png, settings)
        let glyphs = layout.scene.marks.filter { $0.kind == .caption }
        #expect(glyphs.count == 6)  // 9 9 , 9 9 9
        let tally = try #require(TallyScene(count: try count(99_999)).inkBounds)
        #expect(glyphs.allSatisfy { $0.segments.allSatisfy { $0.start.y > tally.maxY && $0.end.y > tally.maxY } })
        // Centred on the marks it describes (SPEC §2, "The caption"), within a pixel, in ink
        // (c1), and taller than a glance needs (about 20 px at 256 px wide).
        let ys = glyphs.flatMap { $0.segments.flatMap { [$0.start.y, $0.end.y] } }
        #expect(try captionOffCentre(layout) < 1)
        #expect(glyphs.allSatisfy { $0.color == .c1 })
        #expect((try #require(ys.max()) - (try #require(ys.min()))) * layout.viewport.pixelsPerUnit > 15)
        // Where the tally is not in the image's middle (a whole frame, a count at its left) the
        // caption follows the marks, inside the margins.
        for (count, fit) in [(UInt64(12_345), Fit.frame), (10_400, .frame), (1_234_567, .content), (10_001, .content)] {
            let placed = try Renderer.layout(
                try self.count(count), .png, RenderSettings(side: .longer(512), fit: fit, inset: false))
            let off = try captionOffCentre(placed)
            #expect(off < 1, "\(count): \(off) px off")
        }
        // With --no-caption the image is shorter: the caption adds its own band.
        let plain = try Renderer.layout(
            try count(99_999), .png, RenderSettings(side: .longer(256), caption: false))
        #expect(plain.viewport.height < layout.viewport.height)
        #expect(!plain.scene.marks.contains { $0.kind == .caption })
        // The PNG has ink in the caption's band, and the SVG draws the same glyphs as paths.
        let image = try #require(PNGImage(png: try Renderer.render(layout, as: .png, settings)))
        let band =
            Int(
                ((try #require(ys.min())) - layout.viewport.visible.minY) * layout.viewport.pixelsPerUnit)..<image
            .height
        // Ink: pixels darker than the paper by a clear step (the PNG is on its paper).
        let inked = band.reduce(0) { sum, y in
            sum + (0..<image.width).filter { image.pixels[y * image.width + $0] & 0xFF < 0xC0 }.count
        }
        #expect(inked > 100)
        let svgSettings = settings
        let svg = String(decoding: try Renderer.render(try count(99_999), as: .svg, svgSettings), as: UTF8.self)
        // The six glyphs in one path (SPEC §5: marks of one class in a row share a path), a
        // subpath for each of their polylines.
        let caption = try #require(svg.components(separatedBy: "class=\"caption\" d=\"").dropFirst().first)
        var polylines = 0
        for glyph in glyphs { glyph.forEachPathElement { if case .move = $0 { polylines += 1 } } }
        #expect(caption.prefix { $0 != "\"" }.filter { $0 == "m" }.count == polylines)
        #expect(svg.components(separatedBy: "class=\"caption\"").count - 1 == 1)
        #expect(svg.contains("-title\">99,999 tally marks</title>"))
    }

    /// Gallery PNG and PDF bytes are the same with the system's fonts hidden (an empty
    /// fontconfig configuration) and with them present: the labels are strokes, not text.
    @Test(arguments: ["png", "pdf"])
    func galleryBytesDoNotDependOnFonts(_ format: String) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("fonts.conf")
        try Data(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig></fontconfig>\n".utf8
        ).write(to: empty)
        let arguments = ["gallery", "25,99,100,1000,9999,10000,99999", "-f", format, "-o", "-"]
        let withFonts = try TallyProcess.run(arguments)
        let withoutFonts = try TallyProcess.run(arguments, environment: ["FONTCONFIG_FILE": empty.path])
        #expect(withFonts.status == 0 && withoutFonts.status == 0, "\(withFonts.stderr) \(withoutFonts.stderr)")
        #expect(!withFonts.stdout.isEmpty && withFonts.stdout == withoutFonts.stdout)
    }
}
#endif
