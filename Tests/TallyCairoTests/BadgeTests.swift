import Foundation
import TallyBadge
import TallyGeometry
import TallyRender
import TallyStyle
import TallyTestSupport
import Testing

#if Cairo
import TallyCairo
#endif

/// SPEC §7: badges. Literal values (the font's advances, the shields geometry, WCAG's ratios)
/// are pinned here, read once from DejaVu Sans and the spec, never from the code under test.
@Suite struct BadgeTests {
    /// DejaVu Sans 2.37's advances in font units (2,048 an em), as its `hmtx` table has them.
    static let advances: [Character: Double] = [
        "a": 1255, "d": 1300, "o": 1253, "w": 1675, "n": 1298, "l": 569, "s": 1067, "T": 1251, "1": 1303,
        ",": 651, "%": 1946,
    ]

    func count(_ value: UInt64) throws -> TallyCount { try #require(TallyCount(exactly: value)) }

    func svg(_ count: UInt64, label: String? = "downloads", of goal: UInt64? = nil, theme: Theme = .light) throws
        -> String
    {
        let goal = try goal.map { try self.count($0) }
        let badge = try Badge(count: try self.count(count), goal: goal, label: label)
        let settings = BadgeSettings(format: .svg, label: label, goal: goal, appearance: Appearance(theme: theme))
        return String(decoding: try Renderer.badge(badge, settings), as: UTF8.self)
    }

    // MARK: - Text metrics against the font data

    @Test func widthsAreTheFontsAdvances() {
        let downloads = "downloads".reduce(0.0) { $0 + Self.advances[$1]! }
        #expect(BadgeFont.width(of: "downloads", size: 11) == downloads * 11 / 2048)
        #expect(BadgeFont.width(of: "a", size: 22) == 1255.0 * 22 / 2048)
        #expect(BadgeFont.width(of: "1,234", size: 11) == Double(4 * 1303 + 651) * 11 / 2048)
        // Kerning, where the font has it: T and o are drawn 348 units closer (its GPOS `kern`).
        #expect(BadgeFont.width(of: "To", size: 11) == Double(1251 + 1253 - 348) * 11 / 2048)
    }

    /// The label `downloads` widens the badge by its glyphs' advance over the label `a`, within
    /// the pixel the plate's width is rounded up to.
    @Test func aLabelWidensTheBadgeByItsAdvance() throws {
        let long = try Badge(count: try count(1234), label: "downloads")
        let short = try Badge(count: try count(1234), label: "a")
        let advance = ("downloads".reduce(0.0) { $0 + Self.advances[$1]! } - 1255) * 11 / 2048
        #expect(abs((long.width - short.width) - advance) < 1, "\(long.width) − \(short.width) against \(advance)")
        #expect(long.width == long.width.rounded() && long.height == 20)
    }

    @Test func theFaceCoversPrintableASCIIAndLatin1() {
        for value in UInt32(0x20)...0x7E { #expect(BadgeFont.firstMissing(in: String(UnicodeScalar(value)!)) == nil) }
        for value in UInt32(0xA0)...0xFF { #expect(BadgeFont.firstMissing(in: String(UnicodeScalar(value)!)) == nil) }
        #expect(BadgeFont.firstMissing(in: "ok ✓") == "✓")
    }

    // MARK: - The SVG

    /// 20 px tall, text as paths (no `<text>`, so no font is needed), an accessible name.
    @Test func theSVGIsTwentyPixelsOfPaths() throws {
        let text = try svg(1234)
        #expect(text.contains("height=\"20\""))
        #expect(!text.contains("<text"))
        #expect(text.contains("role=\"img\" aria-label=\"downloads: 1,234\""))
        #expect(text.contains("<title>downloads: 1,234</title>"))
        let goal = try svg(6200, of: 10_000)
        #expect(goal.contains("aria-label=\"downloads: 6,200 of 10,000 (62%)\""))
        let plain = try svg(7, label: nil)
        #expect(plain.contains("aria-label=\"7 tally marks\"") && !plain.contains("labelPlate"))
    }

    /// What the value plate says: the count in full, the caption's short form where it would
    /// grow too wide (cut, never rounded up), or the share of a goal.
    @Test func theNumberIsExactOrShortOrTheShare() throws {
        func value(_ count: UInt64, _ goal: UInt64? = nil) throws -> String {
            try Badge(count: try self.count(count), goal: try goal.map { try self.count($0) }).value
        }
        #expect(try value(1234) == "1,234")
        #expect(try value(9_999_999) == "9,999,999")
        #expect(try value(12_399_999) == "12.3M")
        #expect(try value(6200, 10_000) == "62%")
        #expect(try value(9999, 10_000) == "99%")
        #expect(try value(1, 10_000) == "<1%")
        #expect(try value(12_000, 10_000) == "120%")
    }

    /// The pairs a reader must tell apart: magnitudes whose shapes repeat, and one unit of
    /// progress.
    @Test(arguments: [(UInt64(1000), UInt64(100_000)), (10_000, 1_000_000), (10_999, 11_000), (6200, 6300)])
    func pairsDiffer(_ a: UInt64, _ b: UInt64) throws {
        #expect(try svg(a) != svg(b))
        #expect(try Badge(count: try count(a)).value != Badge(count: try count(b)).value)
    }

    /// The strip: one unit's complete cells in collapsed form, then the partial unit; a goal's
    /// cells done, partial and still to fill, the latter quieter than the work done.
    @Test func theStripCountsItsUnits() throws {
        func kinds(_ count: UInt64, _ goal: UInt64? = nil) throws -> [MarkKind: Int] {
            let badge = try Badge(count: try self.count(count), goal: try goal.map { try self.count($0) })
            return badge.marks.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
        }
        // SPEC §7: the leading digit in tally marks, the unit being filled as a rising stroke
        // under dots; no dots after the strokes without a goal, one a tenth still to fill with one.
        #expect(try kinds(7) == [.stroke: 6, .slash: 1], "a gate and two strokes")
        #expect(try kinds(99) == [.stroke: 8, .slash: 1, .progress: 1], "nine tens and 8 px of the tenth")
        #expect(try kinds(137) == [.stroke: 1, .progress: 1, .remaining: 1], "one hundred and a rising stroke")
        #expect(try kinds(10_000) == [.stroke: 1], "one ten-thousand")
        #expect(try kinds(6200, 10_000) == [.stroke: 5, .slash: 1, .progress: 1, .remaining: 1, .line: 1])
        // Weight follows quantity: still to fill is dots, a pixel each, under a done stroke's ink.
        let badge = try Badge(count: try count(6200), goal: try count(10_000))
        for dots in badge.marks where dots.kind == .remaining {
            #expect(dots.segments.allSatisfy { abs($0.end.y - $0.start.y) == 1 && $0.start.x == $0.end.x })
        }
    }

    @Test func labelsTheFaceCannotWriteAreRefused() throws {
        #expect(throws: Badge.Problem.labelTooLong(101)) {
            try Badge(count: 1, label: String(repeating: "a", count: 101))
        }
        #expect(throws: Badge.Problem.labelControlCharacter("\u{7}")) { try Badge(count: 1, label: "a\u{7}") }
        #expect(throws: Badge.Problem.labelFormatCharacter("\u{202E}")) { try Badge(count: 1, label: "a\u{202E}") }
        #expect(throws: Badge.Problem.missingCharacter("✓")) { try Badge(count: 1, label: "ok ✓") }
        _ = try Badge(count: 1, label: String(repeating: "é", count: 100))
    }

    // MARK: - The command line

    @Test func badInputIsOneLineAndNothingIsWritten() throws {
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("b.svg").path
        let cases: [([String], String)] = [
            (["--label", String(repeating: "x", count: 101)], "has at most 100"),
            (["--label", "a\u{1B}[31m"], "--label 'a\\u{1B}[31m' has a control character (U+001B)"),
            (["--label", "ok ✓"], "'✓' (U+2713), which the badge's font does not have"),
            (["--of", "0"], "--of '0' is not a goal"),
            (["--scale", "0"], "--scale '0'"),
            (["-f", "json"], "'json'"),
        ]
        for (arguments, message) in cases {
            let run = try TallyProcess.run(["badge", "5", "-o", path] + arguments)
            expectOneLineError(run, status: 64, mentioning: message)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(arguments)")
        }
        expectOneLineError(try TallyProcess.run(["badge", "-5"]), status: 64, mentioning: "count '-5' is negative")
    }

    @Test func theCommandWritesTheLibrarysBytes() throws {
        let run = try TallyProcess.run(["badge", "1234", "--label", "downloads"])
        #expect(run.status == 0, "\(run.stderr)")
        let badge = try Badge(count: try count(1234), label: "downloads")
        #expect(Array(run.stdout) == (try Renderer.badge(badge, BadgeSettings(format: .svg, label: "downloads"))))
    }

    #if Cairo
    /// The same pixels with fonts and with none (an empty fontconfig): the text is paths.
    @Test(
        .enabled(if: canRun(installedProgram("rsvg-convert")), "needs rsvg-convert (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func rsvgDrawsTheSamePixelsWithoutFonts() throws {
        let rsvg = try #require(installedProgram("rsvg-convert"), "rsvg-convert is missing")
        let directory = try TallyProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgURL = directory.appendingPathComponent("b.svg")
        try Data(try svg(1234).utf8).write(to: svgURL)
        let empty = directory.appendingPathComponent("fonts.conf")
        try Data("<?xml version=\"1.0\"?><fontconfig></fontconfig>\n".utf8).write(to: empty)
        var environment = ProcessInfo.processInfo.environment
        let with = try runProgram(rsvg, [svgURL.path], environment: environment)
        environment["FONTCONFIG_FILE"] = empty.path
        environment["FONTCONFIG_PATH"] = directory.path
        let without = try runProgram(rsvg, [svgURL.path], environment: environment)
        #expect(with.status == 0 && without.status == 0, "\(with.stderr) \(without.stderr)")
        #expect(!with.stdout.isEmpty)
        let a = try #require(PNGImage(png: Array(with.stdout)))
        let b = try #require(PNGImage(png: Array(without.stdout)))
        #expect(a.height == 20 && a.pixels == b.pixels)
    }

    /// SPEC §7: a text's outline is written once and placed twice (`<use>`, the shadow 1 px
    /// lower in its own colour). rsvg draws each badge's SVG as tally's Cairo draws its PNG: a
    /// shadow missing, unmoved or in the text's colour would differ in hundreds of pixels, by
    /// the shadow's or the text's whole contrast. The SVG writes the outline on a 1/25 px grid
    /// (every point within 0.02 px of the scene's, which Cairo fills as it is): a glyph edge
    /// pixel then differs by up to 10/255, so no pixel may differ by more than 12, where the
    /// faintest shadow (#ccc at 30% on the light value plate, #fafaf7) is 14 from its plate.
    @Test(
        .enabled(if: canRun(installedProgram("rsvg-convert")), "needs rsvg-convert (make test-deps installs it)"),
        .readByAnOutsideProgram)
    func rsvgDrawsTheSVGAsCairoDrawsThePNG() throws {
        for (count, label, goal, theme) in [
            (UInt64(1234), "downloads", UInt64?.none, Theme.light), (1234, "downloads", nil, .dark),
            (6200, "stars", 10_000, .light), (7, nil, nil, .dark),
        ] as [(UInt64, String?, UInt64?, Theme)] {
            let svg = try self.svg(count, label: label, of: goal, theme: theme)
            #expect(svg.contains("<use href="))
            let drawn = try #require(PNGImage(png: try rsvgPNG(of: svg)))
            let cairo = try png(count, label: label, of: goal, theme: theme, scale: 1)
            let difference = try #require(drawn.difference(from: cairo, channelThreshold: 12))
            #expect(difference.differingPixels == 0 && difference.mean < 0.5, "\(count) \(theme): \(difference)")
        }
    }

    func png(_ count: UInt64, label: String? = "downloads", of goal: UInt64? = nil, theme: Theme, scale: Double)
        throws -> PNGImage
    {
        let goal = try goal.map { try self.count($0) }
        let badge = try Badge(count: try self.count(count), goal: goal, label: label)
        let settings = BadgeSettings(
            format: .png, label: label, goal: goal, scale: scale, appearance: Appearance(theme: theme))
        return try #require(PNGImage(png: try Renderer.badge(badge, settings)))
    }

    @Test(arguments: [1.0, 2.0])
    func pngBadgesAreTwentyPixelsAScale(_ scale: Double) throws {
        let image = try png(1234, theme: .light, scale: scale)
        #expect(image.height == Int(20 * scale))
        let badge = try Badge(count: try count(1234), label: "downloads")
        #expect(image.width == Int(badge.width * scale))
    }

    /// Text ≥ 4.5:1 on its plate, marks ≥ 3:1 on theirs, measured from the pixels, in both
    /// themes and at 1× and 2×: the plate is a region's most common colour, and a solid run of
    /// text pixels must reach the ratio, not one stray pixel.
    @Test(arguments: [Theme.light, .dark], [1.0, 2.0])
    func textAndMarksMeetTheirContrast(_ theme: Theme, _ scale: Double) throws {
        let badge = try Badge(count: try count(99), label: "downloads")
        let image = try png(99, theme: theme, scale: scale)
        let labelWidth = Int(
            (12 + "downloads".reduce(0.0) { $0 + Self.advances[$1]! } * 11 / 2048).rounded(.up) * scale)
        let valueTextLeft = Int((badge.width - 6 - BadgeFont.width(of: "99", size: 11) - 1) * scale)
        func region(_ xs: Range<Int>) -> [UInt32] {
            var pixels: [UInt32] = []
            for y in Int(3 * scale)..<Int(17 * scale) {
                for x in xs { pixels.append(image.pixels[y * image.width + x]) }
            }
            return pixels
        }
        func rgb(_ pixel: UInt32) -> (Double, Double, Double) {
            (Double(pixel >> 16 & 0xFF), Double(pixel >> 8 & 0xFF), Double(pixel & 0xFF))
        }
        func check(_ pixels: [UInt32], ratio: Double, atLeast: Int, _ what: String) {
            var counts: [UInt32: Int] = [:]
            for pixel in pixels { counts[pixel, default: 0] += 1 }
            guard let plate = counts.max(by: { $0.value < $1.value })?.key else { return }
            let meeting = pixels.filter { HonestPictureTests.contrast(rgb($0), rgb(plate)) >= ratio }.count
            #expect(meeting >= atLeast, "\(what), \(theme) at \(scale)×: \(meeting) pixels reach \(ratio):1")
        }
        let area = Int(scale * scale)
        check(region(Int(2 * scale)..<(labelWidth - Int(2 * scale))), ratio: 4.5, atLeast: 40 * area, "label text")
        check(region(valueTextLeft..<(image.width - Int(3 * scale))), ratio: 4.5, atLeast: 12 * area, "value text")
        check(
            region((labelWidth + Int(6 * scale))..<(valueTextLeft - Int(2 * scale))), ratio: 3, atLeast: 20 * area,
            "marks")
        // Spec values, pinned: shields' grey label plate with white text, the paper, the ink.
        let plates: [Theme: (label: UInt32, text: UInt32, paper: UInt32, ink: UInt32)] = [
            .light: (0x555555, 0xFFFFFF, 0xFAFAF7, 0x262629), .dark: (0x555555, 0xFFFFFF, 0x1C1C1F, 0xEBEBED),
        ]
        let pinned = try #require(plates[theme])
        #expect(HonestPictureTests.contrast(rgb(pinned.text), rgb(pinned.label)) >= 4.5)
        #expect(HonestPictureTests.contrast(rgb(pinned.ink), rgb(pinned.paper)) >= 4.5)
        #expect(image.pixels[Int(10 * scale) * image.width + Int(1 * scale)] & 0xFF_FFFF == pinned.label)
    }
    #endif
}
