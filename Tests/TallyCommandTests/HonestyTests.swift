import Foundation
import TallyRender
import TallyStyle
import TallyTestSupport
import Testing

@testable import TallyGeometry

/// SPEC §2, "Honest at a glance", as far as the scene and the SVG say it (the pixels are
/// checked in TallyCairoTests' `HonestPictureTests`).
@Suite struct HonestyTests {
    /// A small deterministic generator (Knuth's MMIX step, high bits folded down), so the random
    /// cases are the same each run.
    /// The JSON scene of a count at a size, as `tally render N -f json --size S` writes it.
    private func jsonScene(_ count: UInt64, size: Double) throws -> [String: Any] {
        let settings = RenderSettings(side: .longer(size), inset: false)
        let bytes = try Renderer.render(try #require(TallyCount(exactly: count)), as: .json, settings)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// A random count of every magnitude (2 to 18 digits) at a random size from 64 to 1,024 px,
    /// and its JSON scene's scale (output pixels per layout unit) and marks.
    private func randomScene(_ random: inout SeededGenerator) throws -> (
        count: UInt64, size: Double, scale: Double, marks: [[String: Any]]
    ) {
        let digits = Int.random(in: 2...18, using: &random)
        var upper: UInt64 = 1
        for _ in 0..<digits { upper *= 10 }
        let count = UInt64.random(in: 1...upper, using: &random)
        let size = Double(Int.random(in: 64...1024, using: &random))
        let scene = try jsonScene(count, size: size)
        let viewport = try #require(scene["viewport"] as? [String: Any])
        let pixels = try #require(viewport["pixels"] as? [String: Double])
        let box = try #require(viewport["box"] as? [String: Double])
        let scale = try #require(pixels["width"]) / (try #require(box["width"]))
        return (count, size, scale, try #require(scene["marks"] as? [[String: Any]]))
    }

    /// "Never more than the truth", over 200 random counts and sizes: each progress wash covers
    /// exactly ⌊share × W × H⌋ of the W × H whole pixels of the cell it fills, and at least one,
    /// where the share is the count's part of that unit (the count modulo its capacity). A wash
    /// a pixel short, or halved, or grown to its whole cell fails.
    @Test func washesCoverTheExactShareInWholePixels() throws {
        var random = SeededGenerator(state: 19)
        var washes = 0
        for _ in 0..<200 {
            let (count, size, scale, marks) = try randomScene(&random)
            for mark in marks where mark["kind"] as? String == "progress" {
                washes += 1
                let unit = try #require((mark["unit"] as? NSNumber)?.uint64Value)
                let level = try #require(UnitLevel.all.first { $0.capacity == unit })
                let segments = try #require(mark["segments"] as? [[Double]])
                try #require(segments.count % 4 == 0 && !segments.isEmpty)
                var covered = 0.0
                for start in stride(from: 0, to: segments.count, by: 4) {
                    let points = segments[start..<start + 4].flatMap { [($0[0], $0[1]), ($0[2], $0[3])] }
                    let xs = points.map(\.0)
                    let ys = points.map(\.1)
                    covered += (xs.max()! - xs.min()!) * (ys.max()! - ys.min()!) * scale * scale
                }
                // The cell as the scene places it at this scale, in whole pixels each way.
                let cell = Placement(pixelsPerUnit: scale, .standard).cellSize(level)
                let area = max(1, (cell.x * scale).rounded(.down)) * max(1, (cell.y * scale).rounded(.down))
                let share = Double(count % unit) / Double(unit)
                let exact = max(1, (share * area).rounded(.down))
                #expect(share > 0, "\(count) at \(size) px: a wash over an empty unit")
                // The JSON writes coordinates in fixed precision: a few hundredths of a pixel.
                #expect(
                    abs(covered - exact) < 0.25,
                    "\(count) at \(size) px: the wash of its \(level.name) covers \(covered) px of \(area); its share is \(exact)"
                )
            }
        }
        // Enough of the cases draw a wash for the property to mean something.
        #expect(washes >= 100, "only \(washes) washes in 200 scenes")
    }

    /// SPEC §2, "Readable at a glance": a partial unit shows its whole cell and the share it
    /// fills. Over 150 random counts and sizes from 64 to 1,024 px, every wash's tint (the share)
    /// and `edge` mark (its leading edge and the dots of the cell still empty) together span the
    /// whole cell in whole pixels, the dots reaching beyond the tint, while the share leaves a
    /// quarter of the cell empty; the tint is at least 3% opaque. A wash drawn as its share
    /// alone, or its edge alone (read as "a short dash"), fails.
    @Test func partialUnitsShowTheirWholeCell() throws {
        var random = SeededGenerator(state: 41)
        var checked = 0
        /// The bounding box of some segments, as min x, min y, max x, max y.
        func box(_ segments: [[Double]]) -> [Double] {
            let xs = segments.flatMap { [$0[0], $0[2]] }
            let ys = segments.flatMap { [$0[1], $0[3]] }
            return [xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0]
        }
        for _ in 0..<150 {
            let (count, size, scale, marks) = try randomScene(&random)
            for (index, mark) in marks.enumerated() where mark["kind"] as? String == "progress" {
                try #require(index + 1 < marks.count && marks[index + 1]["kind"] as? String == "edge")
                let unit = try #require((mark["unit"] as? NSNumber)?.uint64Value)
                let level = try #require(UnitLevel.all.first { $0.capacity == unit })
                let cell = Placement(pixelsPerUnit: scale, .standard).cellSize(level)
                let (width, height) = ((cell.x * scale).rounded(.down), (cell.y * scale).rounded(.down))
                let opacity = try #require((mark["opacity"] as? NSNumber)?.doubleValue)
                #expect(opacity >= 0.03, "\(count) at \(size) px: a tint at \(opacity)")
                // Cells are dotted from 3 px a side, a twenty-five-unit's from 8 px (SPEC §2).
                let least: Double = unit == 25 ? 8 : 3
                guard width >= least && height >= least, Double(count % unit) / Double(unit) < 0.75 else { continue }
                checked += 1
                let tint = box(try #require(mark["segments"] as? [[Double]]))
                // The cell's dotted outline: the `dotted` mark of its unit from the tint's corner, its
                // sides through the centres of the cell's outer pixels and half a pixel past them,
                // so its path spans the cell's whole pixels.
                let half = 0.5 / scale
                let edge = try #require(
                    marks.lazy.filter {
                        $0["kind"] as? String == "dotted" && ($0["unit"] as? NSNumber)?.uint64Value == unit
                    }.map { box(($0["segments"] as? [[Double]]) ?? []) }.first {
                        abs($0[0] - tint[0]) <= half && abs($0[1] - tint[1]) <= half
                    }, "\(count) at \(size) px: the \(level.name)'s cell has no dotted outline")
                // Tint and dots together cover the cell's whole extent, the dots beyond the tint.
                let spanned = (
                    (max(edge[2], tint[2]) - min(edge[0], tint[0])) * scale,
                    (max(edge[3], tint[3]) - min(edge[1], tint[1])) * scale
                )
                #expect(
                    abs(spanned.0 - width) < 0.25 && abs(spanned.1 - height) < 0.25,
                    "\(count) at \(size) px: the \(level.name)'s wash and dots span \(spanned) px of its \(width) × \(height)"
                )
                #expect(edge[2] > tint[2] || edge[3] > tint[3], "\(count) at \(size) px: no dots beyond the tint")
            }
        }
        #expect(checked >= 50, "only \(checked) washes with room for their cell")
    }

    /// The first stroke of a twenty-five-unit too small for its gates is an upright sliver of
    /// wash, as a stroke stands, never a level one, which would read as a row's line; where its
    /// finished siblings keep their gates it is a stroke (SPEC §2, "Siblings of one size have
    /// one detail": 26 at 64 px).
    @Test(arguments: [UInt64(26), 51, 76, 126])
    func aFirstStrokeStandsUpright(_ count: UInt64) throws {
        var washes = 0
        for size in [32.0, 48, 64] {
            let marks = try Renderer.layout(
                try #require(TallyCount(exactly: count)), .png, RenderSettings(side: .longer(size), inset: false)
            ).scene.marks
            for wash in marks where wash.kind == .progress && wash.unit == 25 {
                washes += 1
                let xs = wash.segments.flatMap { [$0.start.x, $0.end.x] }
                let ys = wash.segments.flatMap { [$0.start.y, $0.end.y] }
                let (width, height) = (xs.max()! - xs.min()!, ys.max()! - ys.min()!)
                #expect(height > width, "\(count) at \(size) px: its first stroke is \(width) wide, \(height) tall")
            }
            // Else the stroke itself, upright.
            for stroke in marks where stroke.kind == .stroke && stroke.unit == 1 && !stroke.lens {
                washes += 1
                let segment = try #require(stroke.segments.first)
                #expect(segment.start.x == segment.end.x, "\(count) at \(size) px: a stroke not upright")
            }
        }
        #expect(washes >= 2, "\(count): \(washes) first strokes of a twenty-five-unit at 32 to 64 px")
    }

    /// At least one pixel, never more: 10,001 is never drawn as 11,000 (SPEC §2's example).
    @Test func onePixelForOneStrokeInAnUnseenCorner() throws {
        for size in [64.0, 128, 256, 1024] {
            let scene = try jsonScene(10_001, size: size)
            let marks = try #require(scene["marks"] as? [[String: Any]])
            // A wash of at least a pixel, or, where its finished siblings keep their gates, the stroke.
            let washes = marks.filter { $0["kind"] as? String == "progress" }
            let strokes = marks.filter { $0["kind"] as? String == "stroke" && $0["lens"] == nil }
            #expect(
                washes.count + strokes.count == 1,
                "10,001 at \(size) px: \(washes.count) washes, \(strokes.count) strokes")
        }
    }

    /// "Magnitude in the picture" and "One digits rule": from 10,000 the scene carries the count,
    /// under the tally, by default; below it wherever a picture of rows is too small for its
    /// gates and has no lens (here `--no-inset`: 1,000 and 605 at 256 px too; 101 at 256 px
    /// reads its gates in place); else only when asked; never when told not to.
    @Test(
        arguments: [
            (UInt64(9_999), [64.0, 256]), (UInt64(10_000), [64.0, 256]), (UInt64(99_999), [64.0, 256]),
            (UInt64(1_000), [64.0, 256]), (UInt64(605), [64.0, 256]), (UInt64(100_000), [64.0, 256]),
            (UInt64(9_223_372_036_854_775_807), [64.0, 256]), (UInt64(100), [Double]()), (UInt64(101), [64.0]),
            (UInt64(99), [Double]()),
        ] as [(UInt64, [Double])])
    func captionsFromTenThousandOrWhereSquaresAreSmall(_ count: UInt64, _ captionedAt: [Double]) throws {
        let value = try #require(TallyCount(exactly: count))
        for size in [64.0, 256] {
            let drawn = try Renderer.layout(value, .png, RenderSettings(side: .longer(size), inset: false)).scene
            let captioned = captionedAt.contains(size)
            #expect(drawn.marks.contains { $0.kind == .caption } == captioned, "\(count) at \(size) px")
            let off = try Renderer.layout(
                value, .png, RenderSettings(side: .longer(size), caption: false, inset: false)
            )
            .scene
            #expect(!off.marks.contains { $0.kind == .caption })
            let on = try Renderer.layout(value, .png, RenderSettings(side: .longer(size), caption: true, inset: false))
                .scene
            #expect(on.marks.contains { $0.kind == .caption })
        }
    }

    /// Below 10,000 the last digits read somewhere in every default picture (SPEC §2): where the
    /// quarter being filled is a wash in the picture, either a copy beside it draws strokes or
    /// the count is written. And the digits come only where needed at 256 px: a picture of up to
    /// four rows there has room for its copy at a glance, and no caption.
    @Test func theLastDigitsReadSomewhere() throws {
        for size: Double in [64, 96, 128, 256] {
            for count in stride(from: UInt64(101), to: 10_000, by: 97) {
                let value = try #require(TallyCount(exactly: count))
                func scene(caption: Bool?, inset: Bool?) throws -> TallyScene {
                    try Renderer.layout(
                        value, .png, RenderSettings(side: .longer(size), caption: caption, inset: inset)
                    )
                    .scene
                }
                let bare = try scene(caption: false, inset: false)
                let washed = bare.marks.contains { $0.kind == .progress && $0.unit <= 25 }
                let captioned = try scene(caption: nil, inset: nil).marks.contains { $0.kind == .caption }
                let copy = try scene(caption: false, inset: nil).marks.dropFirst(bare.marks.count)
                if washed {
                    #expect(captioned || copy.contains { $0.kind == .stroke }, "\(count) at \(size) px")
                }
                if size == 256 && count < 4_000 { #expect(!captioned, "\(count) at 256 px") }
            }
        }
    }

    /// The caption's digits are at least about 7 output pixels tall at every size from 64 px,
    /// and where every digit does not fit, the short form is written instead.
    @Test(arguments: [UInt64(10_000), 99_999, 1_234_567, 1_000_000_000, 9_223_372_036_854_775_807])
    func captionsStayLegible(_ count: UInt64) throws {
        let value = try #require(TallyCount(exactly: count))
        for size in [64.0, 96, 128, 256, 1024] {
            let (scene, viewport, _) = try Renderer.layout(
                value, .png, RenderSettings(side: .longer(size), inset: false))
            let glyphs = scene.marks.filter { $0.kind == .caption }
            try #require(!glyphs.isEmpty, "\(count) at \(size) px has no caption")
            let ys = glyphs.flatMap { $0.segments.flatMap { [$0.start.y, $0.end.y] } }
            let xs = glyphs.flatMap { $0.segments.flatMap { [$0.start.x, $0.end.x] } }
            // The digits' height (the comma's tail aside): the tallest glyph, in pixels.
            let tallest = glyphs.map { glyph in
                let ys = glyph.segments.flatMap { [$0.start.y, $0.end.y] }
                return (ys.max()! - ys.min()!) * viewport.pixelsPerUnit
            }.max()!
            #expect(tallest >= 6.99, "\(count) at \(size) px: digits \(tallest) px tall")
            // Inside the image, under the tally.
            let scale = viewport.pixelsPerUnit
            #expect(
                (xs.min()! - viewport.visible.minX) * scale >= 0
                    && (xs.max()! - viewport.visible.minX) * scale <= viewport.width)
            #expect((ys.max()! - viewport.visible.minY) * scale <= viewport.height)
            let tally = scene.marks.filter { $0.kind != .caption }.flatMap {
                $0.segments.flatMap { [$0.start.y, $0.end.y] }
            }
            #expect(ys.min()! > (tally.max() ?? -.infinity), "\(count) at \(size) px: the caption overlaps the tally")
        }
        // Int64.max at 64 px cannot show 25 glyphs 7 px tall: its short form has 9 (9.22×10¹⁸).
        let narrow = try Renderer.layout(
            try #require(TallyCount(exactly: 9_223_372_036_854_775_807)), .png,
            RenderSettings(side: .longer(64), inset: false)
        ).scene
        #expect(narrow.marks.filter { $0.kind == .caption }.count == 9)
    }

    /// The short form cuts, never rounds up, and says the scale: SPEC §2's examples and the
    /// edges of each scale, three significant digits every time (1,000,000 is "1.00M" as
    /// 1,234,567 is "1.23M"), and past trillions a raised power of ten, never "E".
    @Test func shortFormsNeverSayMore() {
        let cases: [(UInt64, String)] = [
            (999, "999"), (1_000, "1.00K"), (1_234, "1.23K"), (10_000, "10.0K"), (99_999, "99.9K"),
            (100_000, "100K"), (999_999, "999K"), (1_000_000, "1.00M"), (1_234_567, "1.23M"), (1_500_000, "1.50M"),
            (9_999_999_999, "9.99B"), (1_000_000_000_000, "1.00T"), (999_999_999_999_999, "999T"),
            (1_000_000_000_000_000, "1.00×10¹⁵"), (12_345_678_901_234_567, "1.23×10¹⁶"),
            (9_223_372_036_854_775_807, "9.22×10¹⁸"),
        ]
        for (value, text) in cases { #expect(Words.short(value) == text, "\(value)") }
        // The property behind the examples, over counts of every length: the short form's
        // digits are the count's first three, cut, and its point and scale put them in their place.
        var generator = SeededGenerator(state: 0x5407)
        let raised = Array("⁰¹²³⁴⁵⁶⁷⁸⁹")
        for _ in 0..<2_000 {
            let length = Int.random(in: 4...19, using: &generator)
            let value =
                UInt64.random(in: 0...UInt64(Int64.max), using: &generator)
                % (length == 19 ? UInt64.max : pow10(length))
            guard value >= 1_000 else { continue }
            let digits = String(value)
            let text = Words.short(value)
            let mantissa = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            let suffix = String(text.dropFirst(mantissa.count))
            let scale: Int? =
                switch suffix {
                case "K": 3
                case "M": 6
                case "B": 9
                case "T": 12
                default:
                    suffix.hasPrefix("×10")
                        ? Int(
                            String(
                                suffix.dropFirst(3).compactMap { raised.firstIndex(of: $0) }.map(String.init).joined()))
                        : nil
                }
            let whole = mantissa.split(separator: ".").first?.count ?? 0
            // K to T up to trillions, a power of ten (one whole digit) from 10¹⁵.
            let rightScale = (digits.count > 15) == suffix.hasPrefix("×10")
            #expect(
                mantissa.filter(\.isNumber) == digits.prefix(3) && scale.map { whole + $0 } == digits.count
                    && rightScale,
                "\(value): \(text)")
        }
        // Every character of a short form is in the stroke font.
        for (value, _) in cases {
            #expect(Words.short(value).allSatisfy { StrokeFont.glyph($0) != nil }, "\(value)")
        }
    }

    /// "Readable on light and dark pages by default": a default SVG follows the viewer's colour
    /// scheme on a transparent background; PNG and PDF are drawn on their paper.
    @Test func defaultsReadOnEitherPage() throws {
        let svg = String(decoding: try Renderer.render(137, as: .svg, RenderSettings()), as: UTF8.self)
        #expect(svg.contains("prefers-color-scheme"))
        #expect(!svg.contains("#FAFAF7") && !svg.lowercased().contains("#fafaf7"), "a default SVG has no paper")
        #expect(Appearance.default(for: .png) == Appearance(theme: .light, background: .paper))
        #expect(Appearance.default(for: .pdf) == Appearance(theme: .light, background: .paper))
        #expect(Appearance.default(for: .svg) == Appearance(theme: .auto, background: .none))
        // Settings that choose no appearance draw each format in its default.
        #expect(RenderSettings().appearance == nil)
        #expect(RenderSettings().appearance(in: .png) == Appearance(theme: .light, background: .paper))
    }

    /// `--theme auto` cannot switch in one PNG or PDF: a PDF, or a PNG to standard output, is
    /// drawn light, with one line on stderr saying so; SVG follows the viewer and says nothing.
    /// (A PNG written to a file is a light and dark pair: `CommandFilesTests`.)
    @Test(.enabled(if: cairoIsBuiltIn, "needs the Cairo trait (PNG and PDF)"), arguments: ["png", "pdf"])
    func autoOnARasterSaysItDrawsLight(_ format: String) throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let auto = directory.appendingPathComponent("auto.\(format)")
        let light = directory.appendingPathComponent("light.\(format)")
        let run = try TallyProcess.run(["render", "137", "--theme", "auto", "-f", format])
        try Data(run.stdout).write(to: auto)
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("tally: note:") && lines[0].contains("light"), "\(run.stderr)")
        #expect(try TallyProcess.run(["render", "137", "--theme", "light", "-o", light.path]).stderr.isEmpty)
        #expect(try Data(contentsOf: auto) == (try Data(contentsOf: light)))
        let svg = try TallyProcess.run(["render", "137", "--theme", "auto", "-f", "svg"])
        #expect(svg.status == 0 && svg.stderr.isEmpty)
    }

    /// The magnitude caption from the command line: on by default from 10,000 (and below it where
    /// the picture cannot show the count), `--no-caption` turns it off, `--caption` turns it on.
    @Test func captionFlags() throws {
        func captions(_ arguments: [String]) throws -> Int {
            // The scene's glyphs at the SVG's default size (an SVG writes a caption's glyphs as
            // one path, SPEC §5; a JSON scene has no size unless given one).
            let run = try TallyProcess.run(["render"] + arguments + ["--size", "256", "-f", "json"])
            try #require(run.status == 0, "\(run.stderr)")
            return run.text.components(separatedBy: "\"kind\": \"caption\"").count - 1
        }
        #expect(try captions(["100000"]) == 7)
        #expect(try captions(["100000", "--no-caption"]) == 0)
        #expect(try captions(["4200"]) == 0)
        #expect(try captions(["4200", "--caption"]) == 5)
        // At the default 256 px, ten rows leave no room for a copy of 9,999's last digits.
        #expect(try captions(["9999"]) == 5)
        #expect(try captions(["9999", "--no-caption"]) == 0)
    }

    /// "Small sizes": siblings stand one whole number of pixels apart across every row and down
    /// every block, for five counts at four sizes, in the scene every format draws.
    @Test(arguments: [UInt64(999), 1_000, 9_999, 99_999, 1_234_567])
    func siblingPitchIsOneWholeNumberOfPixels(_ count: UInt64) throws {
        let value = try #require(TallyCount(exactly: count))
        for size in [64.0, 128, 256, 1024] {
            for format in [OutputFormat.png, .svg] {
                let (scene, viewport, _) = try Renderer.layout(
                    value, format, RenderSettings(side: .longer(size), inset: false))
                let scale = viewport.pixelsPerUnit
                let boxes = scene.marks.filter { $0.kind == .box }
                // Boxes of one unit on one line, by their left edges in pixels.
                var rows: [String: [Double]] = [:]
                for box in boxes {
                    let left = box.segments.map { min($0.start.x, $0.end.x) }.min()!
                    let top = box.segments.map { min($0.start.y, $0.end.y) }.min()!
                    let key = "\(box.unit)@\(((top - viewport.visible.minY) * scale).rounded())"
                    rows[key, default: []].append((left - viewport.visible.minX) * scale)
                }
                for (key, lefts) in rows where lefts.count > 2 {
                    let sorted = lefts.sorted()
                    let steps = Set(zip(sorted, sorted.dropFirst()).map { (($1 - $0) * 1000).rounded() / 1000 })
                    #expect(
                        steps.count == 1, "\(count) at \(size) px \(format): steps \(steps.sorted()) in the row \(key)")
                    #expect(
                        steps.allSatisfy { abs($0 - $0.rounded()) < 0.001 }, "\(count) at \(size) px: steps \(steps)")
                }
            }
        }
    }

    /// A cross or diagonal inside a box under about 8 px is left out, not smeared; above it, kept.
    @Test func capsInTinyBoxesAreDropped() throws {
        let small = try Renderer.layout(999, .png, RenderSettings(side: .longer(64), inset: false))
        #expect(small.scene.marks.filter { $0.kind == .box }.count == 9)
        #expect(!small.scene.marks.contains { $0.kind == .cross })
        let large = try Renderer.layout(999, .png, RenderSettings(side: .longer(512), inset: false))
        #expect(large.scene.marks.filter { $0.kind == .cross && $0.unit == 100 }.count == 9)
        // The frame's own cap is always drawn: 100 at any size is its box and its cross.
        let hundred = try Renderer.layout(100, .png, RenderSettings(side: .longer(16)))
        #expect(hundred.scene.marks.map(\.kind) == [.box, .cross])
    }

    /// SPEC §2, "Structure is kept at completions": at every size, a complete unit shows at
    /// least the structure the count before it showed. For every threshold from 10³ to 10¹⁸
    /// and every size from 32 to 1,024 px, the JSON scene of a row threshold (10³, 10⁵ …) has
    /// at least as many boxes as the count less one, and of a block threshold (10⁴, 10⁶ …) at
    /// least as many lines: one more never empties the picture. A row drawn as its line alone
    /// at a small size (1,000 at 64 px was one hairline under 999's nine boxes) fails.
    @Test(arguments: [32.0, 48, 64, 96, 128, 256, 1_024])
    func completionsKeepTheStructureBeforeThem(size: Double) throws {
        func marks(_ count: UInt64, _ kind: String) throws -> Int {
            let scene = try jsonScene(count, size: size)
            let marks = try #require(scene["marks"] as? [[String: Any]])
            return marks.filter { $0["kind"] as? String == kind }.count
        }
        for exponent in 3...18 {
            let threshold = pow10(exponent)
            // Rows are the odd powers from 10³, blocks the even ones from 10⁴.
            let kept = exponent % 2 == 1 ? "box" : "line"
            let before = try marks(threshold - 1, kept)
            let at = try marks(threshold, kept)
            #expect(before >= 9, "\(threshold - 1) at \(size) px: \(before) \(kept)s; it has nine complete children")
            #expect(at >= before, "\(threshold) at \(size) px: \(at) \(kept)s, fewer than \(threshold - 1)'s \(before)")
        }
    }
}

/// 10ⁿ for n ≤ 19.
private func pow10(_ exponent: Int) -> UInt64 {
    (0..<exponent).reduce(1) { value, _ in value * 10 }
}
