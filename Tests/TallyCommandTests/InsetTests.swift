import Foundation
import TallyRender
import TallyTestSupport
import Testing

@testable import TallyGeometry

/// SPEC §2, "An inset for the last digits": the unit that holds the last two digits, too small
/// in place for its gates to read, drawn once more beside the picture, enlarged until they do,
/// in room the image gains on its free side; the picture itself does not move. By default only
/// where the copy's gates read (`--inset` wherever a copy is larger, `--no-inset` never), and
/// again inside a copy whose unit being filled is still too small.
@Suite struct InsetTests {
    /// Counts below 10,000 whose last two digits are not zero, in rows and in blocks, and a
    /// hundred-block frame's; the sizes of the reader's sheet and between.
    static let counts: [UInt64] = [38, 99, 137, 506, 863, 1_746, 2_372, 2_743, 4_184, 6_272, 9_999]
    static let sizes: [Double] = [32, 64, 128, 256]

    private func layout(_ count: UInt64, size: Double, inset: Bool?) throws -> (scene: TallyScene, viewport: Viewport) {
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
        for count: UInt64 in [863, 2_743] {
            let value = try #require(TallyCount(exactly: count))
            var settings = RenderSettings(side: .longer(256))
            settings.inset = false
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

/// SPEC §2, "An inset for the last digits": the default (no flag) against `--inset` and
/// `--no-inset`, over many counts and the sizes from 32 to 256 px.
@Suite struct InsetDefaultTests {
    /// SPEC §2, "Level of detail": a gate's strokes read where they stand at least 1.5 output
    /// pixels apart.
    static let legibleGap = 1.5
    static let sizes: [Double] = [32, 48, 64, 96, 128, 160, 192, 256]

    /// Counts below 10,000 from a seeded generator, with the hand-picked ones of the first
    /// reader sheet's kind (a hundred-block near its middle, a row, a block nearly full).
    static let smallCounts: [UInt64] = {
        var generator = SeededGenerator(state: 0x1A5E7)
        return [1, 26, 38, 99, 137, 506, 863, 1_746, 4_150, 9_999]
            + (0..<40).map { _ in UInt64.random(in: 1...9_999, using: &generator) }
    }()

    /// Counts whose frame is a block or row of 10⁵ and up, where a copy may hold its own.
    static let largeCounts: [UInt64] = [
        10_001, 34_567, 99_999, 123_456, 234_567, 1_234_567, 5_050_505, 98_765_432, 1_234_567_890,
    ]

    private func layout(_ count: UInt64, size: Double, inset: Bool?) throws -> (scene: TallyScene, viewport: Viewport) {
        var settings = RenderSettings(side: .longer(size))
        settings.inset = inset
        let layout = try Renderer.layout(try #require(TallyCount(exactly: count)), .svg, settings)
        return (layout.scene, layout.viewport)
    }

    /// The marks a layout adds after the picture's own (`--no-inset`'s).
    private func added(_ count: UInt64, size: Double, inset: Bool?) throws -> [Mark] {
        let plain = try layout(count, size: size, inset: false)
        let with = try layout(count, size: size, inset: inset)
        return Array(with.scene.marks.dropFirst(plain.scene.marks.count))
    }

    /// The narrowest gap between two strokes of one gate among these marks as planned (before
    /// the pixel grid), in output pixels; nil where no gate has two strokes.
    private func narrowestStrokeGap(_ marks: [Mark], pixelsPerUnit: Double) -> Double? {
        let strokes = marks.filter { $0.kind == .stroke }.compactMap { mark in mark.segments.first.map { (mark, $0) } }
        let gaps = zip(strokes, strokes.dropFirst()).compactMap { a, b -> Double? in
            // Neighbours in one gate stand side by side on one line.
            guard abs(a.1.start.y - b.1.start.y) < 1e-9, abs(a.1.end.y - b.1.end.y) < 1e-9 else { return nil }
            return (abs(b.1.start.x - a.1.start.x) - a.0.width) * pixelsPerUnit
        }
        return gaps.min()
    }

    /// By default an inset is drawn exactly where `--inset` draws one whose gates read (its
    /// strokes, as planned, a legible gap apart), and then it is that same inset; where
    /// `--inset`'s copy is too small for its gates (64 px), or there is no room, the default
    /// draws none.
    @Test(arguments: sizes)
    func theDefaultDrawsTheCopyExactlyWhereItsGatesRead(size: Double) throws {
        var drawn = 0
        for count in Self.smallCounts {
            let automatic = try layout(count, size: size, inset: nil)
            let forced = try layout(count, size: size, inset: true)
            let plain = try layout(count, size: size, inset: false)
            let ppu = plain.viewport.pixelsPerUnit
            let level = UnitLevel.frame(for: try #require(TallyCount(exactly: count)))
            let plan = Inset.plan(
                count: count, frame: level, pixelsPerUnit: ppu,
                image: (plain.viewport.width, plain.viewport.height), side: size, forced: true)
            // `--inset` draws what it plans, beside the picture.
            #expect((plan == nil) == (forced.scene.marks == plain.scene.marks), "\(count) at \(size) px")
            let image = Rect(minX: 0, minY: 0, width: 4 * size / ppu, height: 4 * size / ppu)
            // The strokes of the last copy, the one drawn for its gates (a hundred-block's copy
            // before a quarter's shows its quarters, whatever its gates look like).
            let planned = (plan?.marks(pixelsPerUnit: ppu, image: image) ?? []).filter { mark in
                guard let last = plan?.copies.last, let point = mark.segments.first?.start else { return false }
                return point.x >= last.at.x / ppu && point.x <= (last.at.x + last.size.width) / ppu
                    && point.y >= last.at.y / ppu && point.y <= (last.at.y + last.size.height) / ppu
            }
            let gap = narrowestStrokeGap(planned, pixelsPerUnit: ppu)
            // A copy with a lone stroke has no gap to measure: its scale says.
            let reads = plan != nil && (gap.map { $0 >= Self.legibleGap } ?? plan?.copies.last?.showsGates == true)
            // One row at 256 px leaves the room for a copy whose gates read.
            if size >= 256 && count < 1_000 && plan != nil { #expect(reads, "\(count): a one-row picture's copy") }
            if reads {
                drawn += 1
                // At 64 px and under only a picture of one row has one, its twenty-five-unit's: a
                // hundred-block's would be too small for its gates, and rows leave too little room.
                if size <= 64 { #expect(count < 1_000, "\(count) at \(size) px: a copy under rows") }
                #expect(automatic.scene.marks == forced.scene.marks, "\(count) at \(size) px: the default differs")
                #expect(automatic.viewport.width == forced.viewport.width)
                #expect(automatic.viewport.height == forced.viewport.height)
            } else {
                #expect(automatic.scene.marks == plain.scene.marks, "\(count) at \(size) px: an illegible copy")
                #expect(automatic.viewport.width == plain.viewport.width)
                #expect(automatic.viewport.height == plain.viewport.height)
            }
        }
        // At 256 px pictures of up to six rows get a copy.
        if size >= 256 { #expect(drawn >= 10, "\(drawn) insets at \(size) px") }
    }

    /// With or without an inset, recursive or not: the picture's own marks come first and
    /// unchanged, at the same scale from the same corner, and the image grows on one side only,
    /// never past the side fixed.
    @Test(arguments: sizes)
    func thePictureIsTheSameWithEveryInset(size: Double) throws {
        for count in Self.smallCounts + Self.largeCounts {
            let plain = try layout(count, size: size, inset: false)
            for inset: Bool? in [nil, true] {
                let with = try layout(count, size: size, inset: inset)
                #expect(with.viewport.pixelsPerUnit == plain.viewport.pixelsPerUnit)
                #expect(with.viewport.visible.minX == plain.viewport.visible.minX)
                #expect(with.viewport.visible.minY == plain.viewport.visible.minY)
                try #require(with.scene.marks.count >= plain.scene.marks.count)
                #expect(Array(with.scene.marks.prefix(plain.scene.marks.count)) == plain.scene.marks, "\(count)")
                #expect(with.viewport.width <= max(size, plain.viewport.width), "\(count) at \(size) px")
                #expect(with.viewport.height <= max(size, plain.viewport.height), "\(count) at \(size) px")
                #expect(with.viewport.width == plain.viewport.width || with.viewport.height == plain.viewport.height)
                let added = with.scene.marks.dropFirst(plain.scene.marks.count)
                if let bounds = TallyScene.inkBounds(of: added) {
                    let image = with.viewport.visible
                    let pixel = 1 / with.viewport.pixelsPerUnit
                    #expect(bounds.minX >= image.minX - pixel && bounds.maxX <= image.maxX + pixel, "\(count)")
                    #expect(bounds.minY >= image.minY - pixel && bounds.maxY <= image.maxY + pixel, "\(count)")
                }
            }
        }
    }

    /// The copies of a chain: each a unit being filled, the count's part for it (pinned: the
    /// last two digits for the hundred-block, the last four for a ten-thousand-block, the last
    /// six for a million-block), each two levels under the one before and at least half again
    /// its scale; each has its frame (an edge mark of its capacity, after its marks), and by
    /// default the copies stop at the first whose gates read, and each reads.
    @Test(arguments: [128.0, 256, 512, 1_024])
    func eachCopyIsTheCountsPartForItsUnit(size: Double) throws {
        var recursed = 0
        for count in Self.largeCounts + Self.smallCounts {
            let plain = try layout(count, size: size, inset: false)
            let level = UnitLevel.frame(for: try #require(TallyCount(exactly: count)))
            let ppu = plain.viewport.pixelsPerUnit
            for forced in [false, true] {
                guard
                    let inset = Inset.plan(
                        count: count, frame: level, pixelsPerUnit: ppu,
                        image: (plain.viewport.width, plain.viewport.height), side: size, forced: forced)
                else { continue }
                let parts: [UInt64: UInt64] = [100: count % 100, 10_000: count % 10_000, 1_000_000: count % 1_000_000]
                var scale = ppu
                for (index, copy) in inset.copies.enumerated() {
                    let capacity = copy.level.capacity
                    #expect(parts[capacity].map { $0 == copy.count } ?? true, "\(count): copy of \(capacity)")
                    #expect(copy.count == count % capacity && copy.count > 0)
                    #expect(copy.pixelsPerUnit >= 1.5 * scale, "\(count): copy \(index) barely larger")
                    if index > 0 { #expect(copy.level < inset.copies[index - 1].level) }
                    #expect(copy.level.rank % 2 == 1 || copy.level == .twentyFive, "\(count): a copy of a row")
                    if index + 1 < inset.copies.count { #expect(!copy.showsGates, "\(count): copies past legible") }
                    if !forced { #expect(copy.reads, "\(count) at \(size) px: an illegible copy by default") }
                    scale = copy.pixelsPerUnit
                }
                if inset.copies.count > 1 { recursed += 1 }
                let with = try layout(count, size: size, inset: forced ? true : nil)
                let added = with.scene.marks.dropFirst(plain.scene.marks.count)
                let capacities = Set(inset.copies.map(\.level.capacity))
                let frames = added.filter { $0.kind == .edge && capacities.contains($0.unit) }
                #expect(
                    frames.count >= inset.copies.count, "\(count): \(frames.count) frames, \(capacities.count) copies")
                #expect(added.last?.kind == .edge && added.last?.unit == inset.copies.last?.level.capacity)
            }
        }
        if size >= 256 { #expect(recursed > 0, "no copy held its own at \(size) px") }
    }

    /// The count is the count: the accessible title and description are the same with no
    /// inset, the default's and `--inset`'s, and say what `describe` says.
    @Test func theTextIsTheSameWithEveryInset() throws {
        for count: UInt64 in [863, 4_150, 1_234_567] {
            let value = try #require(TallyCount(exactly: count))
            func text(_ inset: Bool?) throws -> (title: String?, desc: String?) {
                var settings = RenderSettings(side: .longer(256))
                settings.inset = inset
                let svg = String(decoding: try Renderer.render(value, as: .svg, settings), as: UTF8.self)
                func between(_ open: String, _ close: String) -> String? {
                    guard let start = svg.range(of: open),
                        let end = svg.range(of: close, range: start.upperBound..<svg.endIndex)
                    else { return nil }
                    return String(svg[start.upperBound..<end.lowerBound].drop { $0 != ">" }.dropFirst())
                }
                return (between("<title", "</title>"), between("<desc", "</desc>"))
            }
            let plain = try text(false)
            #expect(plain.title == Words.title(for: value, goal: nil))
            #expect(plain.desc == Words.description(for: value))
            for inset: Bool? in [nil, true] {
                let with = try text(inset)
                #expect(with.title == plain.title && with.desc == plain.desc, "\(count)")
            }
        }
    }
}
